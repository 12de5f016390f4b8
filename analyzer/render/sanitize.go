package render

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// printable returns a copy of the report in which every string is safe to print on a
// terminal: control characters that a bundle may carry (escape sequences that clear the
// screen, set the window title or hide text) are shown as Go escapes (`\x1b`), except
// newline and tab. JSON needs no such copy: the encoder escapes them itself.
func printable(r *analyzer.Report) *analyzer.Report {
	c := *r
	v := reflect.ValueOf(&c).Elem()
	cleanValue(v)
	return &c
}

// cleanValue replaces, in place, the strings reachable from v. Slices and pointers are
// copied before they are changed, so the caller's report stays as it was.
func cleanValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); needsCleaning(s) {
			v.SetString(cleanString(s))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				cleanValue(f)
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(cp, v)
		for i := 0; i < cp.Len(); i++ {
			cleanValue(cp.Index(i))
		}
		v.Set(cp)
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return // *time.Time and friends hold no strings
		}
		cp := reflect.New(v.Elem().Type())
		cp.Elem().Set(v.Elem())
		cleanValue(cp.Elem())
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

func isControl(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

func needsCleaning(s string) bool {
	return strings.IndexFunc(s, isControl) >= 0
}

func cleanString(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
