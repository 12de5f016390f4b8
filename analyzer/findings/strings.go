package findings

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// FirstN keeps the first n of s and says how many more there are ("and 3 more").
func FirstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for i, x := range list {
		if x == s {
			containsOps.Add(i + 1)
			return true
		}
	}
	containsOps.Add(len(list))
	return false
}

// containsOps counts the elements Contains compares.
var containsOps = work.New("elements compared by Contains")

// Clip cuts s to at most n bytes at a character boundary, with an ellipsis when cut,
// never leaving a quotation open.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	kept := s[:cut]
	if strings.Count(kept, `"`)%2 == 1 {
		// never leave a quotation open: cut before the quote the clip would split
		if q := strings.LastIndex(kept, `"`); q > n/2 {
			kept = strings.TrimRight(kept[:q], " :")
		} else {
			kept += `"`
		}
	}
	return kept + "…"
}
