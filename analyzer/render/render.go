// Package render turns an findings.Report into text for a terminal, Markdown for a
// ticket, a self-contained HTML page, or JSON for scripts. Renderers only format: every
// fact they print comes from the report.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// Formats lists the report formats.
var Formats = []string{"text", "markdown", "json", "html"}

// OutputFormats are the report formats and "reply", the note for the customer's ticket
// (Reply): what -o accepts.
var OutputFormats = append(Formats[:len(Formats):len(Formats)], "reply")

// Options tune the renderers.
type Options struct {
	// Color adds ANSI colours to the text format (the caller decides: terminal, --color, NO_COLOR).
	Color bool
	// Width is the text report's width in columns (0: TextWidth); see ClampWidth.
	Width int
}

// Render writes the report in the given format without colours.
func Render(w io.Writer, r *findings.Report, format string) error {
	return RenderWith(w, r, format, Options{})
}

// RenderWith writes the report in the given format.
func RenderWith(w io.Writer, r *findings.Report, format string, o Options) error {
	if format != "json" {
		r = printable(r) // names and messages from the bundle may hold terminal escapes
	}
	switch format {
	case "text", "":
		return TextWith(w, r, o)
	case "markdown", "md":
		return Markdown(w, r)
	case "json":
		return JSON(w, r)
	case "html":
		return HTML(w, r)
	case "reply":
		return Reply(w, r)
	}
	return fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(OutputFormats, ", "))
}

// JSON writes the nsanalyze/v1 JSON report, streamed: the report's skeleton, then its
// problems and namespaces one at a time, so memory does not grow with the output (the
// bytes are those of WriteJSON on the whole report). Strings holding bytes that are not
// UTF-8 spell them as text (\xff), so two names that differ only there stay distinct.
func JSON(w io.Writer, r *findings.Report) error {
	r = textBytes(r)
	skel := *r
	skel.Problems, skel.Namespaces = nil, nil
	var head bytes.Buffer
	if err := WriteJSON(&head, &skel); err != nil {
		return err
	}
	// the skeleton holds `  "problems": null,` and `  "namespaces": null,` at the top
	// level (two spaces: no string can hold a raw newline, so nothing else matches)
	rest := head.Bytes()
	for _, key := range []string{"problems", "namespaces"} {
		marker := []byte("\n  \"" + key + "\": null")
		i := bytes.Index(rest, marker)
		if i < 0 {
			return fmt.Errorf("render: JSON skeleton without %s", key)
		}
		if _, err := w.Write(rest[:i+len(marker)-len("null")]); err != nil {
			return err
		}
		rest = rest[i+len(marker):]
		var err error
		switch key {
		case "problems":
			err = writeArray(w, r.Problems == nil, len(r.Problems), func(k int) any { return &r.Problems[k] })
		case "namespaces":
			err = writeArray(w, r.Namespaces == nil, len(r.Namespaces), func(k int) any { return &r.Namespaces[k] })
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(rest)
	return err
}

// writeArray writes a top-level member's array as MarshalIndent would, one element
// at a time.
func writeArray(w io.Writer, isNil bool, n int, elem func(int) any) error {
	switch {
	case isNil:
		_, err := io.WriteString(w, "null")
		return err
	case n == 0:
		_, err := io.WriteString(w, "[]")
		return err
	}
	if _, err := io.WriteString(w, "[\n    "); err != nil {
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	for k := 0; k < n; k++ {
		b.Reset()
		if err := enc.Encode(elem(k)); err != nil {
			return err
		}
		out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if k < n-1 {
			out = append(out, ",\n    "...)
		}
		if _, err := w.Write(EscapeJSON(out)); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n  ]")
	return err
}

// textBytes returns r, or a copy of it in which the bytes of strings that are not
// UTF-8 are spelled as text (shellsafe.EscapeText: `team\xffa`): the JSON encoder
// would make them all U+FFFD.
func textBytes(r *findings.Report) *findings.Report {
	invalid := false
	walkReportStrings(reflect.ValueOf(r).Elem(), func(s string) {
		invalid = invalid || !utf8.ValidString(s)
	})
	if !invalid {
		return r
	}
	c := *r
	v := reflect.ValueOf(&c).Elem()
	mapValue(v, func(s string) string {
		if utf8.ValidString(s) {
			return s
		}
		return strings.ToValidUTF8(shellsafe.EscapeBytes(s), "")
	})
	return &c
}

func walkReportStrings(v reflect.Value, f func(string)) {
	switch v.Kind() {
	case reflect.String:
		f(v.String())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkReportStrings(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkReportStrings(v.Index(i), f)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walkReportStrings(v.Elem(), f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			walkReportStrings(v.MapIndex(k), f)
		}
	}
}

// WriteJSON writes v as indented JSON in which no string holds a character that would
// act on a terminal or hide text when the JSON is printed (`cat report.json`, `jq .`):
// the encoder escapes C0 controls and turns bytes that are not UTF-8 into U+FFFD;
// EscapeJSON writes C1 controls, DEL, bidirectional, zero-width and other invisible
// characters, and the letters of mixed-script words, as \u escapes too. The decoded
// values are unchanged.
func WriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(b.Bytes()))
	return err
}

// EscapeJSON is shellsafe.EscapeJSON: the one escaping path, for JSON.
func EscapeJSON(b []byte) []byte { return shellsafe.EscapeJSON(b) }

// Clean escapes, in place, every string reachable from ptr (a pointer to a struct)
// as the text formats do (shellsafe.EscapeLine): for output that is not a report, such
// as nsanalyze diff.
func Clean(ptr any) {
	v := reflect.ValueOf(ptr)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		cleanValue(v.Elem())
	}
}

func ts(t *time.Time) string {
	if t == nil {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func evidenceLoc(e findings.Evidence) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return e.File
}

// restEvidence is the evidence of a cause not already quoted by its chain.
func restEvidence(c findings.Cause) []findings.Evidence {
	shown := map[string]bool{}
	for _, l := range c.Chain {
		for _, e := range l.Evidence {
			shown[evidenceLoc(e)] = true
		}
	}
	var rest []findings.Evidence
	for _, e := range c.Evidence {
		if !shown[evidenceLoc(e)] {
			rest = append(rest, e)
		}
	}
	return rest
}

func objectName(o findings.ObjectRef) string {
	if o.Namespace != "" {
		return o.Namespace + "/" + o.Name
	}
	return o.Name
}

func objectLine(o findings.ObjectRef) string {
	s := o.Kind + " " + objectName(o)
	if len(o.Finalizers) > 0 {
		s += " finalizers=" + strings.Join(o.Finalizers, ",")
	}
	if o.Deletion != nil {
		s += " deletionTimestamp=" + ts(o.Deletion)
	}
	return s
}

func evidenceMeta(e findings.Evidence) string {
	extra := ""
	if e.Field != "" {
		extra = " " + e.Object + " ." + e.Field
	}
	if e.Time != nil {
		t := ts(e.Time)
		if e.TimeInferred {
			t += " (year inferred)"
		}
		extra += " @ " + t
	}
	if e.Count > 1 {
		extra += fmt.Sprintf(" [%d similar lines]", e.Count)
	}
	return evidenceLoc(e) + extra
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// timelineGroup folds the timeline's repeated lines: same component, kind and text.
type timelineGroup struct {
	findings.TimelineEvent
	Count int
	Last  time.Time
}

func groupTimeline(evs []findings.TimelineEvent) []timelineGroup {
	var out []timelineGroup
	idx := map[string]int{}
	for _, e := range evs {
		key := e.Component + "\x00" + e.Kind + "\x00" + e.Text
		if i, ok := idx[key]; ok && e.Kind == findings.EventError {
			out[i].Count++
			out[i].Last = e.Time
			continue
		}
		idx[key] = len(out)
		out = append(out, timelineGroup{TimelineEvent: e, Count: 1, Last: e.Time})
	}
	return out
}
