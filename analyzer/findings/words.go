package findings

// The words of the reports: counts, plurals, defaults and sorted keys, shared by
// every rule and renderer.

import (
	"fmt"
	"sort"
	"strings"
)

// Plural returns one when n is 1, else many.
func Plural(n int, many, one string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count writes n with thousands separators: 2,500.
func Count(n int) string {
	s := fmt.Sprint(n)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// PluralKind is a kind's plural for prose: PipelineRuns, Policies, Ingresses.
func PluralKind(kind string, n int) string {
	if n == 1 || kind == "" {
		return kind
	}
	switch {
	case strings.HasSuffix(kind, "y") && len(kind) > 1 && !strings.ContainsRune("aeiouAEIOU", rune(kind[len(kind)-2])):
		return kind[:len(kind)-1] + "ies"
	case strings.HasSuffix(kind, "s") || strings.HasSuffix(kind, "x") || strings.HasSuffix(kind, "ch") || strings.HasSuffix(kind, "sh"):
		return kind + "es"
	}
	return kind + "s"
}

// OrDefault returns s, or d when s is empty.
func OrDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FmtLabels renders labels as a kubectl selector: k=v pairs, sorted, comma-separated.
func FmtLabels(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
