// Package render turns an analyzer.Report into text for a terminal, Markdown for a
// ticket, a self-contained HTML page, or JSON for scripts. Renderers only format: every
// fact they print comes from the report.
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// Formats lists the output formats.
var Formats = []string{"text", "markdown", "json", "html"}

// Options tune the renderers.
type Options struct {
	// Color adds ANSI colours to the text format (the caller decides: terminal, --color, NO_COLOR).
	Color bool
	// Width is the text report's width in columns (0: TextWidth); see ClampWidth.
	Width int
}

// Render writes the report in the given format without colours.
func Render(w io.Writer, r *analyzer.Report, format string) error {
	return RenderWith(w, r, format, Options{})
}

// RenderWith writes the report in the given format.
func RenderWith(w io.Writer, r *analyzer.Report, format string, o Options) error {
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
	}
	return fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// JSON writes the nsanalyze/v1 JSON report.
func JSON(w io.Writer, r *analyzer.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

func ts(t *time.Time) string {
	if t == nil {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func list(s []string) string {
	if len(s) == 0 {
		return "[]"
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func causeTypes(ns analyzer.NamespaceReport) []string {
	var types []string
	for _, c := range ns.Causes {
		types = append(types, c.Type)
	}
	return types
}

func evidenceLoc(e analyzer.Evidence) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return e.File
}

// restEvidence is the evidence of a cause not already quoted by its chain.
func restEvidence(c analyzer.Cause) []analyzer.Evidence {
	shown := map[string]bool{}
	for _, l := range c.Chain {
		for _, e := range l.Evidence {
			shown[evidenceLoc(e)] = true
		}
	}
	var rest []analyzer.Evidence
	for _, e := range c.Evidence {
		if !shown[evidenceLoc(e)] {
			rest = append(rest, e)
		}
	}
	return rest
}

func objectName(o analyzer.ObjectRef) string {
	if o.Namespace != "" {
		return o.Namespace + "/" + o.Name
	}
	return o.Name
}

func objectLine(o analyzer.ObjectRef) string {
	s := o.Kind + " " + objectName(o)
	if len(o.Finalizers) > 0 {
		s += " finalizers=" + strings.Join(o.Finalizers, ",")
	}
	if o.Deletion != nil {
		s += " deletionTimestamp=" + ts(o.Deletion)
	}
	return s
}

func evidenceMeta(e analyzer.Evidence) string {
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
	analyzer.TimelineEvent
	Count int
	Last  time.Time
}

func groupTimeline(evs []analyzer.TimelineEvent) []timelineGroup {
	var out []timelineGroup
	idx := map[string]int{}
	for _, e := range evs {
		key := e.Component + "\x00" + e.Kind + "\x00" + e.Text
		if i, ok := idx[key]; ok && e.Kind == analyzer.EventError {
			out[i].Count++
			out[i].Last = e.Time
			continue
		}
		idx[key] = len(out)
		out = append(out, timelineGroup{TimelineEvent: e, Count: 1, Last: e.Time})
	}
	return out
}
