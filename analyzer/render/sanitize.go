package render

import (
	"reflect"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/strwalk"
)

// printable returns a copy of the report in which every string is safe to print on a
// terminal or a page: control characters that a bundle may carry (escape sequences
// that clear the screen, set the window title or hide text, 8-bit CSI), bidirectional
// overrides, zero-width characters, bytes that are not UTF-8 and line breaks are shown
// as Go escapes (`\x1b`, `\u202e`, `\n`). JSON needs no such copy: the encoder escapes
// controls itself (and writes invalid UTF-8 as U+FFFD); see JSON for the rest.
func printable(r *findings.Report) *findings.Report {
	c := *r
	// a read-only pass first: a report whose strings are all printable (most) is not
	// copied slice by slice to change nothing
	if strwalk.Any(r, needsCleaning) {
		cleanValue(reflect.ValueOf(&c).Elem())
	}
	markNames(&c)
	return &c
}

// InvalidNameMark follows a name Kubernetes would refuse wherever the text formats
// show it as a name; its characters outside the name syntax are shown as escapes.
const InvalidNameMark = " (not a valid Kubernetes name)"

// markNames shows the namespace and object names of the (already copied and
// escaped) report that Kubernetes would refuse with every character outside ASCII
// escaped and InvalidNameMark after them: "t\u043ebedeleted" is not "tobedeleted".
func markNames(c *findings.Report) {
	mark := func(kind shellsafe.NameKind, s *string) {
		// an escaped name holds a backslash, which no valid name does: invalid either way
		if *s != "" && !shellsafe.ValidName(kind, *s) {
			*s = shellsafe.EscapeNonASCII(*s) + InvalidNameMark
		}
	}
	c.Problems = append([]findings.Problem(nil), c.Problems...)
	for i := range c.Problems {
		p := &c.Problems[i]
		p.Namespaces = append([]findings.ProblemNamespace(nil), p.Namespaces...)
		for j := range p.Namespaces {
			mark(shellsafe.NamespaceName, &p.Namespaces[j].Name)
		}
	}
	c.Namespaces = append([]findings.NamespaceReport(nil), c.Namespaces...)
	for i := range c.Namespaces {
		ns := &c.Namespaces[i]
		mark(shellsafe.NamespaceName, &ns.Name)
		ns.Causes = append([]findings.Cause(nil), ns.Causes...)
		for j := range ns.Causes {
			objs := append([]findings.ObjectRef(nil), ns.Causes[j].Objects...)
			for k := range objs {
				mark(shellsafe.NamespaceName, &objs[k].Namespace)
				if objs[k].Kind != "APIService" && objs[k].Kind != "CustomResourceDefinition" {
					mark(shellsafe.ObjectName, &objs[k].Name)
				}
			}
			ns.Causes[j].Objects = objs
		}
	}
}

// cleanValue replaces, in place, the strings reachable from v. Slices and pointers are
// copied before they are changed, so the caller's report stays as it was.
func cleanValue(v reflect.Value) {
	mapValue(v, func(s string) string {
		if needsCleaning(s) {
			return cleanString(s)
		}
		return s
	})
}

// mapValue replaces, in place, every string s reachable from v by f(s). Slices,
// pointers and maps are copied before they are changed, so the caller's values stay
// as they were. Each pointer is copied and mapped once: the report shares pointers
// (the log entries of a line many causes quote), and a line quoted by 600 causes is
// not escaped 600 times.
func mapValue(v reflect.Value, f func(string) string) { (&mapper{f: f}).walk(v) }

// mapper is one mapValue walk: the function and the pointers already copied.
type mapper struct {
	f    func(string) string
	done map[uintptr]reflect.Value
}

func (m *mapper) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); v.CanSet() {
			if t := m.f(s); t != s {
				v.SetString(t)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if fv := v.Field(i); fv.CanSet() {
				m.walk(fv)
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(cp, v)
		for i := 0; i < cp.Len(); i++ {
			m.walk(cp.Index(i))
		}
		v.Set(cp)
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return // *time.Time and friends hold no strings
		}
		if cp, ok := m.done[v.Pointer()]; ok && cp.Type() == v.Type() {
			v.Set(cp)
			return
		}
		cp := reflect.New(v.Elem().Type())
		cp.Elem().Set(v.Elem())
		if m.done == nil {
			m.done = map[uintptr]reflect.Value{}
		}
		m.done[v.Pointer()] = cp
		m.walk(cp.Elem())
		v.Set(cp)
	case reflect.Map:
		if v.IsNil() || v.Type().Elem().Kind() != reflect.String {
			return
		}
		cp := reflect.MakeMapWithSize(v.Type(), v.Len())
		for _, k := range v.MapKeys() {
			cp.SetMapIndex(k, reflect.ValueOf(m.f(v.MapIndex(k).String())).Convert(v.Type().Elem()))
		}
		v.Set(cp)
	}
}

// isControl reports whether r must never reach a terminal or a page raw (see
// shellsafe.Unsafe: C0 but newline and tab, DEL, C1, bidi overrides, zero-width).
func isControl(r rune) bool { return shellsafe.Unsafe(r) }

// needsCleaning: a string holds an unsafe character, a byte that is not UTF-8, or a
// line break (no value of a report spans lines: a name with a newline would forge
// report lines, headings or table rows).
func needsCleaning(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			return shellsafe.NeedsEscape(s) || strings.ContainsAny(s, "\n\r")
		}
	}
	return false // printable ASCII and tabs: one pass
}

// cleanString is the one escaping path of every output stream (shellsafe.EscapeLine).
func cleanString(s string) string { return shellsafe.EscapeLine(s) }
