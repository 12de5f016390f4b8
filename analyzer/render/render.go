// Package render turns an analyzer.Report into text for a terminal or a ticket, or
// JSON for scripts. Renderers only format: every fact they print comes from the report.
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
var Formats = []string{"text", "json"}

// Render writes the report in the given format.
func Render(w io.Writer, r *analyzer.Report, format string) error {
	switch format {
	case "text", "":
		return Text(w, r)
	case "json":
		return JSON(w, r)
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

// Text writes the report for a terminal or a ticket: verdict first, then the chain,
// evidence, correlation and remediation for each stuck namespace.
func Text(w io.Writer, r *analyzer.Report) error {
	p := &printer{w: w}
	p.f("nsanalyze report for %s\n", r.Bundle.Path)
	if r.Bundle.CapturedAt != nil {
		p.f("Captured at: %s (%s)\n", ts(r.Bundle.CapturedAt), r.Bundle.CapturedAtSource)
	} else {
		p.f("Captured at: unknown (no timestamp in the bundle)\n")
	}
	p.f("Read: %d objects from %d files, %d log files\n", r.Bundle.Objects, r.Bundle.ObjectFiles, len(r.Bundle.LogFiles))
	if len(r.Namespaces) == 0 {
		p.f("\nNo namespace is stuck in Terminating.\n")
	} else {
		p.f("\n%d namespace(s) stuck in Terminating: %s\n", len(r.Namespaces), nsNames(r))
	}
	for _, ns := range r.Namespaces {
		p.namespace(ns)
	}
	if len(r.Risks) > 0 {
		p.f("\n== Latent risks (will hang the next namespace deletion) ==\n")
		for _, rk := range r.Risks {
			p.f("- [%s] %s\n", rk.Type, rk.Summary)
			for _, e := range rk.Evidence {
				p.evidence("    ", e)
			}
		}
	}
	if len(r.Coverage) > 0 {
		p.f("\n== Not in the bundle ==\n")
		for _, g := range r.Coverage {
			p.f("- %s; collect: %s\n", g.Missing, g.Collect)
		}
	}
	if len(r.Warnings) > 0 {
		p.f("\n== Warnings (input that could not be read completely) ==\n")
		for _, wn := range r.Warnings {
			p.f("- %s\n", wn.String())
		}
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

func nsNames(r *analyzer.Report) string {
	var n []string
	for _, ns := range r.Namespaces {
		n = append(n, ns.Name)
	}
	return strings.Join(n, ", ")
}

func ts(t *time.Time) string {
	if t == nil {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

func (p *printer) namespace(ns analyzer.NamespaceReport) {
	p.f("\n%s\n", strings.Repeat("=", 78))
	p.f("Namespace %s\n", ns.Name)
	p.f("%s\n", strings.Repeat("=", 78))
	var types []string
	for _, c := range ns.Causes {
		types = append(types, c.Type)
	}
	p.f("Verdict: [%s] %s\n\n", strings.Join(types, ", "), ns.Verdict)
	since := ts(ns.DeletionTimestamp)
	if ns.StuckSince != "" && ns.StuckSince != "metadata.deletionTimestamp" {
		since += " (" + ns.StuckSince + ")"
	}
	p.f("Deleted:     %s\n", since)
	if ns.StuckFor != "" {
		p.f("Stuck for:   %s at capture time\n", ns.StuckFor)
	}
	p.f("Phase:       %s\n", orNone(ns.Phase))
	p.f("Finalizers:  spec %s, metadata %s\n", list(ns.SpecFinalizers), list(ns.MetadataFinalizers))
	if ns.Source != nil {
		p.f("Object:      %s:%d\n", ns.Source.File, ns.Source.Line)
	}
	if len(ns.Conditions) > 0 {
		p.f("Conditions:\n")
		for _, c := range ns.Conditions {
			mark := "ok "
			if c.Problem {
				mark = "!! "
			}
			p.f("  %s%s=%s %s: %s\n", mark, c.Type, c.Status, c.Reason, c.Meaning)
			if c.Problem && c.Message != "" {
				p.f("       %q\n", c.Message)
			}
		}
	} else {
		p.f("Conditions:  none recorded\n")
	}
	for i, c := range ns.Causes {
		p.f("\n-- Cause %d: %s (confidence %s) --\n", i+1, c.Type, c.Confidence)
		p.f("%s\n", c.Summary)
		if len(c.GroupVersions) > 0 {
			p.f("Group/versions: %s\n", strings.Join(c.GroupVersions, ", "))
		}
		if len(c.APIServices) > 0 {
			p.f("APIServices:    %s\n", strings.Join(c.APIServices, ", "))
		}
		if len(c.Webhooks) > 0 {
			p.f("Webhooks:       %s\n", strings.Join(c.Webhooks, ", "))
		}
		if len(c.Finalizers) > 0 {
			p.f("Finalizers:     %s\n", strings.Join(c.Finalizers, ", "))
		}
		for _, o := range c.Objects {
			fin := ""
			if len(o.Finalizers) > 0 {
				fin = " finalizers=" + strings.Join(o.Finalizers, ",")
			}
			if o.Deletion != nil {
				fin += " deletionTimestamp=" + ts(o.Deletion)
			}
			name := o.Name
			if o.Namespace != "" {
				name = o.Namespace + "/" + o.Name
			}
			p.f("Object:         %s %s%s\n", o.Kind, name, fin)
		}
		if len(c.Chain) > 0 {
			p.f("Causal chain:\n")
			for j, l := range c.Chain {
				p.f("  %d. %s: %s\n", j+1, l.Component, l.Finding)
				for _, e := range l.Evidence {
					p.evidence("       ", e)
				}
			}
		}
		shown := map[string]bool{}
		for _, l := range c.Chain {
			for _, e := range l.Evidence {
				shown[fmt.Sprintf("%s:%d", e.File, e.Line)] = true
			}
		}
		var rest []analyzer.Evidence
		for _, e := range c.Evidence {
			if !shown[fmt.Sprintf("%s:%d", e.File, e.Line)] {
				rest = append(rest, e)
			}
		}
		if len(rest) > 0 {
			p.f("Evidence:\n")
			for _, e := range rest {
				p.evidence("  ", e)
			}
		}
		if c.Correlation != "" {
			p.f("Timing: %s\n", c.Correlation)
		}
		for _, n := range c.Notes {
			p.f("Note: %s\n", n)
		}
	}
	if len(ns.RuledOut) > 0 {
		p.f("\nRuled out:\n")
		for _, r := range ns.RuledOut {
			p.f("  - %s: %s\n", r.Type, r.Reason)
		}
	}
	p.f("\nWhat to do (safest first):\n")
	for i, s := range ns.Remediation {
		p.f("  %d. [%s] %s\n", i+1, s.Risk, s.Command)
		p.f("     %s\n", s.Why)
	}
}

func (p *printer) evidence(indent string, e analyzer.Evidence) {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
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
	p.f("%s%s%s\n", indent, loc, extra)
	text := e.Text
	if len(text) > 400 {
		text = text[:400] + "…"
	}
	p.f("%s  > %s\n", indent, text)
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
