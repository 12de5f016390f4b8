package render

import (
	"reflect"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// printable returns a copy of the report in which every string is safe to print on a
// terminal or a page: control characters that a bundle may carry (escape sequences
// that clear the screen, set the window title or hide text, 8-bit CSI), bidirectional
// overrides, zero-width characters, bytes that are not UTF-8 and line breaks are shown
// as Go escapes (`\x1b`, `\u202e`, `\n`). JSON needs no such copy: the encoder escapes
// controls itself (and writes invalid UTF-8 as U+FFFD); see JSON for the rest.
func printable(r *analyzer.Report) *analyzer.Report {
	c := *r
	v := reflect.ValueOf(&c).Elem()
	(&cleaner{}).clean(v)
	return &c
}

// cleaner cleans a value once per pointer: the report shares pointers (the log entries
// of a line many causes quote), and each is copied and cleaned once, not once per
// place it is reachable from.
type cleaner struct {
	done map[uintptr]reflect.Value
}

func cleanValue(v reflect.Value) { (&cleaner{}).clean(v) }

// cleanValue replaces, in place, the strings reachable from v. Slices and pointers are
// copied before they are changed, so the caller's report stays as it was.
func (cl *cleaner) clean(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); needsCleaning(s) {
			v.SetString(cleanString(s))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				cl.clean(f)
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(cp, v)
		for i := 0; i < cp.Len(); i++ {
			cl.clean(cp.Index(i))
		}
		v.Set(cp)
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return // *time.Time and friends hold no strings
		}
		if cp, ok := cl.done[v.Pointer()]; ok && cp.Type() == v.Type() {
			v.Set(cp)
			return
		}
		cp := reflect.New(v.Elem().Type())
		cp.Elem().Set(v.Elem())
		if cl.done == nil {
			cl.done = map[uintptr]reflect.Value{}
		}
		cl.done[v.Pointer()] = cp
		cl.clean(cp.Elem())
		v.Set(cp)
	case reflect.Map:
		if v.IsNil() || v.Type().Elem().Kind() != reflect.String {
			return
		}
		cp := reflect.MakeMapWithSize(v.Type(), v.Len())
		for _, k := range v.MapKeys() {
			cp.SetMapIndex(k, reflect.ValueOf(cleanString(v.MapIndex(k).String())).Convert(v.Type().Elem()))
		}
		v.Set(cp)
	}
}

// isControl reports whether r must never reach a terminal or a page raw (see
// analyzer.Unsafe: C0 but newline and tab, DEL, C1, bidi overrides, zero-width).
func isControl(r rune) bool { return analyzer.Unsafe(r) }

// needsCleaning: a string holds an unsafe character, a byte that is not UTF-8, or a
// line break (no value of a report spans lines: a name with a newline would forge
// report lines, headings or table rows).
func needsCleaning(s string) bool {
	return analyzer.NeedsEscape(s) || strings.ContainsAny(s, "\n\r")
}

// cleanString is the one escaping path of every output stream (analyzer.EscapeLine).
func cleanString(s string) string { return analyzer.EscapeLine(s) }
