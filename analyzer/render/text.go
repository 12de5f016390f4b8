package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// TextWidth is the width the text report is laid out for.
const TextWidth = 100

// ANSI styles.
const (
	sBold   = "\x1b[1m"
	sDim    = "\x1b[2m"
	sRed    = "\x1b[31m"
	sGreen  = "\x1b[32m"
	sYellow = "\x1b[33m"
	sCyan   = "\x1b[36m"
	sReset  = "\x1b[0m"
)

// Text writes the report without colours.
func Text(w io.Writer, r *analyzer.Report) error { return TextWith(w, r, Options{}) }

// TextWith writes the report for a terminal or a ticket, laid out for 100 columns:
// for each stuck namespace the verdict first, then the causal chain, evidence,
// timeline, remediation ladder and ruled-out causes; then the latent risks, coverage
// gaps and warnings of the whole bundle.
func TextWith(w io.Writer, r *analyzer.Report, o Options) error {
	p := &tprinter{w: w, color: o.Color}
	p.line(p.c(sBold, "nsanalyze report: "+r.Bundle.Path))
	cap := "captured " + ts(r.Bundle.CapturedAt)
	if r.Bundle.CapturedAt == nil {
		cap = "capture time unknown (no timestamp in the bundle)"
	} else if r.Bundle.CapturedAtSource != "" {
		cap += " (" + r.Bundle.CapturedAtSource + ")"
	}
	p.wrap("", "", fmt.Sprintf("%s; read %d objects from %d files and %d log files", cap, r.Bundle.Objects,
		r.Bundle.ObjectFiles, len(r.Bundle.LogFiles)))
	p.line("")
	if len(r.Namespaces) == 0 {
		if r.State == analyzer.StateUnknown {
			p.wrap("", "", p.c(sYellow+sBold, "Namespace state unknown (inconclusive):")+" "+r.StateReason)
		} else {
			p.line(p.c(sGreen+sBold, "No namespace is stuck in Terminating."))
			if r.StateReason != "" {
				p.wrap("", "", r.StateReason)
			}
		}
	} else {
		p.line(p.c(sRed+sBold, fmt.Sprintf("%d namespace(s) stuck in Terminating:", len(r.Namespaces))))
		width := 0
		for _, ns := range r.Namespaces {
			width = max(width, len(ns.Name))
		}
		for _, ns := range r.Namespaces {
			stuck := ns.StuckFor
			if stuck == "" {
				stuck = "?"
			}
			p.line(fmt.Sprintf("  %s  stuck %-8s %s", p.c(sBold, pad(ns.Name, width)), stuck,
				p.c(sYellow, strings.Join(causeTypes(ns), ", "))))
		}
	}
	for _, ns := range r.Namespaces {
		p.namespace(ns)
	}
	if len(r.Risks) > 0 {
		p.heading("Latent risks (will hang the next namespace deletion)")
		for _, rk := range r.Risks {
			p.wrap("- ", "  ", p.c(sYellow, "["+rk.Type+"]")+" "+rk.Summary)
			for _, e := range rk.Evidence {
				p.evidence("    ", e)
			}
		}
	}
	if len(r.Coverage) > 0 {
		p.heading("Not in the bundle (collect for a complete diagnosis)")
		for _, g := range r.Coverage {
			p.wrap("- ", "  ", g.Missing+"; collect: "+g.Collect)
		}
	}
	if len(r.Warnings) > 0 {
		p.heading("Warnings (input that could not be read completely)")
		for _, wn := range r.Warnings {
			p.wrap("- ", "  ", wn.String())
		}
	}
	return p.err
}

type tprinter struct {
	w     io.Writer
	color bool
	err   error
}

func (p *tprinter) c(style, s string) string {
	if !p.color || s == "" {
		return s
	}
	return style + s + sReset
}

func (p *tprinter) line(s string) {
	if p.err != nil {
		return
	}
	_, p.err = io.WriteString(p.w, s+"\n")
}

// wrap prints text wrapped at TextWidth: the first line after first, the others after indent.
// Words longer than a line are kept whole (commands and paths stay copyable).
func (p *tprinter) wrap(first, indent, text string) {
	for _, l := range wrapLines(text, TextWidth-visibleLen(first), TextWidth-visibleLen(indent)) {
		p.line(first + l)
		first = indent
	}
}

// wrapLines splits text into lines of at most w1 (first) and w visible characters.
func wrapLines(text string, w1, w int) []string {
	var out []string
	cur, curLen, limit := "", 0, w1
	for _, word := range strings.Fields(text) {
		wl := visibleLen(word)
		if curLen > 0 && curLen+1+wl > limit {
			out = append(out, cur)
			cur, curLen, limit = "", 0, w
		}
		if curLen > 0 {
			cur += " "
			curLen++
		}
		cur += word
		curLen += wl
	}
	if cur != "" || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

// visibleLen counts runes, not ANSI escapes.
func visibleLen(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case esc:
			if r == 'm' {
				esc = false
			}
		case r == 0x1b:
			esc = true
		default:
			n++
		}
	}
	return n
}

func pad(s string, n int) string {
	if l := visibleLen(s); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s
}

func (p *tprinter) heading(title string) {
	p.line("")
	p.line(p.c(sBold+sCyan, "== "+title+" "+strings.Repeat("=", max(3, TextWidth-4-visibleLen(title)))))
}

func (p *tprinter) sub(title string) {
	p.line("")
	p.line(p.c(sBold, "-- "+title+" "+strings.Repeat("-", max(3, TextWidth-4-visibleLen(title)))))
}

func (p *tprinter) namespace(ns analyzer.NamespaceReport) {
	p.heading("Namespace " + ns.Name)
	p.wrap(p.c(sRed+sBold, "VERDICT")+"  ", "         ", p.c(sBold, "["+strings.Join(causeTypes(ns), ", ")+"]")+" "+ns.Verdict)
	p.line("")
	since := ts(ns.DeletionTimestamp)
	if ns.StuckSince != "" && ns.StuckSince != "metadata.deletionTimestamp" {
		since += " (" + ns.StuckSince + ")"
	}
	p.wrap("Deleted     ", "            ", since)
	if ns.StuckFor != "" {
		p.line("Stuck for   " + ns.StuckFor + " at capture time")
	}
	p.line("Phase       " + orNone(ns.Phase))
	p.line("Finalizers  spec " + list(ns.SpecFinalizers) + ", metadata " + list(ns.MetadataFinalizers))
	if ns.Source != nil {
		p.line("Object      " + p.c(sDim, evidenceLoc(*ns.Source)))
	}
	if len(ns.Conditions) == 0 {
		p.line("Conditions  none recorded")
	} else {
		p.line("Conditions")
		for _, c := range ns.Conditions {
			mark := p.c(sGreen, "ok")
			if c.Problem {
				mark = p.c(sRed+sBold, "!!")
			}
			p.wrap("  "+mark+" ", "     ", fmt.Sprintf("%s=%s %s: %s", c.Type, c.Status, c.Reason, c.Meaning))
			if c.Problem && c.Message != "" {
				p.wrap("     ", "     ", fmt.Sprintf("%q", c.Message))
			}
		}
	}
	for i, c := range ns.Causes {
		p.sub(fmt.Sprintf("Cause %d of %d: %s (confidence %s)", i+1, len(ns.Causes), c.Type, c.Confidence))
		if len(ns.Causes) > 1 {
			p.wrap("", "", c.Summary)
		}
		field := func(name string, vals []string) {
			if len(vals) > 0 {
				p.wrap(pad(name, 16), strings.Repeat(" ", 16), strings.Join(vals, ", "))
			}
		}
		field("Group/versions", c.GroupVersions)
		field("APIServices", c.APIServices)
		field("Webhooks", c.Webhooks)
		field("Finalizers", c.Finalizers)
		for _, o := range c.Objects {
			p.wrap(pad("Object", 16), strings.Repeat(" ", 16), objectLine(o))
		}
		if len(c.Chain) > 0 {
			p.line(p.c(sBold, "Causal chain") + " (from the namespace to the root cause)")
			for j, l := range c.Chain {
				num := fmt.Sprintf("  %d. ", j+1)
				p.wrap(num, "     ", p.c(sBold, l.Component+":")+" "+l.Finding)
				for _, e := range l.Evidence {
					p.evidence("       ", e)
				}
			}
		}
		if rest := restEvidence(c); len(rest) > 0 {
			p.line(p.c(sBold, "Evidence"))
			for _, e := range rest {
				p.evidence("  ", e)
			}
		}
		if c.Correlation != "" {
			p.wrap(p.c(sBold, "Timing")+"  ", "        ", c.Correlation)
		}
		for _, n := range c.Notes {
			p.wrap(p.c(sBold, "Note")+"  ", "      ", n)
		}
	}
	if len(ns.Timeline) > 0 {
		p.sub(fmt.Sprintf("Timeline (%d events, UTC; repeated lines folded)", len(ns.Timeline)))
		for _, g := range groupTimeline(ns.Timeline) {
			t := g.Time.UTC().Format("2006-01-02 15:04:05")
			kind := g.Kind
			switch kind {
			case analyzer.EventDeletion:
				kind = p.c(sRed+sBold, pad(kind, 9))
			case analyzer.EventError:
				kind = p.c(sYellow, pad(kind, 9))
			default:
				kind = pad(kind, 9)
			}
			text := g.Text
			if g.Count > 1 {
				text = fmt.Sprintf("x%d until %s: %s", g.Count, g.Last.UTC().Format("15:04:05"), text)
			}
			head := fmt.Sprintf("  %s  %s %s ", t, kind, g.Component)
			room := TextWidth - visibleLen(head)
			if room < 30 {
				p.line(head)
				p.line("      " + clipText(text, TextWidth-6))
				continue
			}
			p.line(head + clipText(text, room))
		}
	}
	p.sub("What to do (safest first)")
	for i, s := range ns.Remediation {
		risk := s.Risk
		switch risk {
		case analyzer.RiskSafe:
			risk = p.c(sGreen+sBold, risk)
		case analyzer.RiskCaution:
			risk = p.c(sYellow+sBold, risk)
		case analyzer.RiskDestructive:
			risk = p.c(sRed+sBold, risk)
		}
		p.wrap(fmt.Sprintf("  %d. [%s] ", i+1, risk), "     ", s.Why)
		p.line("     " + p.c(sCyan, "$ "+s.Command))
	}
	if len(ns.RuledOut) > 0 {
		p.sub("Ruled out")
		for _, r := range ns.RuledOut {
			p.wrap("  - ", "    ", p.c(sDim, r.Type+":")+" "+r.Reason)
		}
	}
}

func (p *tprinter) evidence(indent string, e analyzer.Evidence) {
	p.wrap(indent, indent+"  ", p.c(sDim, evidenceMeta(e)))
	text := e.Text
	if len(text) > 400 {
		text = clipText(text, 400)
	}
	text = strings.ReplaceAll(text, "\t", " ")
	p.wrap(indent+"  > ", indent+"    ", text)
}
