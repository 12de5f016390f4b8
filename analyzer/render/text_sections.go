package render

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// firstScreenNames is how many namespaces the first screen lists one per line; more
// are listed by name only (all of them with their times under the problem).
const firstScreenNames = 5

// firstScreen writes a problem's part of the first screen: its root and confidence,
// the namespaces it holds and its first safe commands.
func (p *tprinter) firstScreen(v *view, pv *problemView) {
	p.line("")
	p.line(p.c(sBold, pv.ID+"  ["+pv.CauseType+"] confidence "+pv.Confidence))
	p.wrap("    Root   ", "           ", pv.Root)
	if pv.Fingerprint != "" {
		p.line("    Fingerprint " + p.c(sDim, pv.Fingerprint)) // never wrapped: it is searched for whole
	}
	for i, k := range firstKnown(pv) {
		head := "           "
		if i == 0 {
			head = "    Known  "
		}
		p.wrap(head, "           ", k.ID+": "+k.Title+" ("+k.URL+")")
	}
	if len(pv.Namespaces) == 1 {
		p.wrap("    Holds  ", "           ", p.nsTimes(v, pv.Namespaces[0]))
	} else {
		p.wrap("    Holds  ", "           ", v.blastRadius(pv)+":")
	}
	if len(pv.Namespaces) == 1 {
		// said above
	} else if len(pv.Namespaces) <= firstScreenNames {
		for _, pn := range pv.Namespaces {
			p.wrap("           - ", "             ", p.nsTimes(v, pn))
		}
	} else {
		lines := wrapLines(strings.Join(nsNames(pv), ", "), p.width-11, p.width-11)
		if len(lines) > 3 {
			more := len(pv.Namespaces)
			for _, l := range lines[:3] {
				more -= len(strings.Split(l, ", "))
			}
			lines = append(lines[:3], fmt.Sprintf("… and %d more (all listed with their times under %s below)", more, pv.ID))
		}
		for _, l := range lines {
			p.wrap("           ", "           ", l)
		}
	}
	safe := safeSteps(pv)
	if len(safe) == 0 {
		p.wrap("    First  ", "           ", "no safe step is known for this cause: see what to do under "+pv.ID+" below.")
		return
	}
	for i, s := range safe {
		head := "           "
		if i == 0 {
			head = "    First  "
		}
		p.wrap(head+fmt.Sprintf("%d. ", i+1), "              ", firstSentence(s))
		p.command("              ", s.Command)
	}
}

// nsTimes says when a namespace was deleted and how long it has been stuck.
func (p *tprinter) nsTimes(v *view, pn findings.ProblemNamespace) string {
	s := pn.Name + ": " + deletedPhrase(pn.DeletionTimestamp, pn.DeletionInferred)
	if pn.StuckFor != "" {
		s += ", stuck for " + v.stuckFor(pn.StuckFor)
	}
	return s
}

// command prints a shell command whole on its own line, never wrapped.
func (p *tprinter) command(indent, cmd string) {
	for _, l := range strings.Split(cmd, "\n") {
		p.line(indent + p.c(sCyan, "$ "+l))
	}
}

// ladder prints remediation steps, numbered from 1.
func (p *tprinter) ladder(indent string, steps []findings.RemediationStep) {
	for i, s := range steps {
		num := fmt.Sprintf("%s  %d. [%s] ", indent, i+1, p.risk(s.Risk))
		p.wrap(num, indent+"     ", s.Why)
		p.command(indent+"     ", s.Command)
	}
}

func (p *tprinter) risk(risk string) string {
	switch risk {
	case findings.RiskSafe:
		return p.c(sGreen+sBold, risk)
	case findings.RiskCaution:
		return p.c(sYellow+sBold, risk)
	case findings.RiskDestructive:
		return p.c(sRed+sBold, risk)
	}
	return risk
}

// problem writes a problem once: what it names, the namespaces it holds, its chain and
// evidence, its ladder (one last resort for all its namespaces), the timeline its
// namespaces share and the causes ruled out for all of them.
func (p *tprinter) problem(v *view, pv *problemView) {
	p.heading(fmt.Sprintf("%s: %s (confidence %s), %d namespace%s", pv.ID, pv.CauseType, pv.Confidence,
		len(pv.Namespaces), plural(len(pv.Namespaces))))
	p.wrap(p.c(sRed+sBold, "ROOT")+"  ", "      ", pv.Root)
	c := pv.Cause
	if c != nil {
		if c.Summary != "" && c.Summary != pv.Root {
			p.line("")
			p.wrap("", "", c.Summary)
		}
		p.line("")
		field := func(name string, vals []string) {
			if len(vals) > 0 {
				p.wrap(pad(name, 16), strings.Repeat(" ", 16), strings.Join(vals, ", "))
			}
		}
		field("Group/versions", c.GroupVersions)
		field("APIServices", c.APIServices)
		field("Webhooks", c.Webhooks)
		field("Finalizers", c.Finalizers)
		lines, more := objectLines(c)
		for _, l := range lines {
			p.wrap(pad("Object", 16), strings.Repeat(" ", 16), l)
		}
		if more != "" {
			p.wrap(strings.Repeat(" ", 16), strings.Repeat(" ", 16), more)
		}
	}
	p.line(p.c(sBold, fmt.Sprintf("Namespaces held (%d)", len(pv.Namespaces))))
	width := 0
	held, rest := firstOf(pv.Namespaces, shownItems)
	for _, pn := range held {
		width = max(width, len(pn.Name))
	}
	for _, pn := range held {
		s := deletedPhrase(pn.DeletionTimestamp, pn.DeletionInferred)
		if pn.StuckFor != "" {
			s += ", stuck for " + v.stuckFor(pn.StuckFor)
		}
		p.wrap("  "+pad(pn.Name, width)+"  ", strings.Repeat(" ", width+4), s)
	}
	if rest > 0 {
		p.wrap("  ", "  ", moreLine(rest, "namespaces"))
	}
	if len(pv.Chain) > 0 {
		p.wrap("", "  ", p.c(sBold, "Causal chain")+" (from the namespace to the root cause; !! marks a fault)")
		for j, l := range pv.Chain {
			mark := ""
			switch {
			case l.Root:
				mark = p.c(sRed+sBold, "ROOT") + " "
			case l.Fault:
				mark = p.c(sRed, "!!") + " "
			}
			num := fmt.Sprintf("  %d. ", j+1)
			p.wrap(num, "     ", mark+p.c(sBold, l.Component+":")+" "+l.Finding)
			evs, more := firstOf(l.Evidence, shownLinkEvidence)
			for _, e := range evs {
				p.evidence("       ", e)
			}
			if more > 0 {
				p.wrap("       ", "       ", moreLine(more, "pieces of evidence"))
			}
			if l.Fix != nil {
				if k := stepIndex(pv, l.Fix.Command); k > 0 {
					p.line(fmt.Sprintf("       fix: step %d of what to do below", k))
				} else {
					p.wrap(fmt.Sprintf("       fix [%s]: ", p.risk(l.Fix.Risk)), "         ", l.Fix.Why)
					p.command("         ", l.Fix.Command)
				}
			}
		}
	}
	if c != nil {
		if rest := restEvidence(*c); len(rest) > 0 {
			p.line(p.c(sBold, "Evidence"))
			p.evidenceList(rest)
		}
	} else if len(pv.Evidence) > 0 {
		p.line(p.c(sBold, "Evidence"))
		p.evidenceList(pv.Evidence)
	}
	if pv.Correlation != "" {
		p.wrap(p.c(sBold, "Timing")+"  ", "        ", pv.Correlation)
	}
	if c != nil {
		for _, fv := range c.Verdicts {
			p.wrap(p.c(sBold, "Finalizer "+fv.Finalizer)+"  ", "      ", verdictLine(fv))
		}
	}
	if c != nil {
		for _, n := range c.Notes {
			p.wrap(p.c(sBold, "Note")+"  ", "      ", n)
		}
	}
	p.sub("What to do about " + pv.ID + " (safest first)")
	rungs, more := firstOf(pv.Remediation, shownItems)
	for i, s := range rungs {
		p.wrap(fmt.Sprintf("  %d. [%s] ", i+1, p.risk(s.Risk)), "     ", s.Why+pv.stepNote(s))
		p.command("     ", s.Command)
	}
	if more > 0 {
		p.wrap("     ", "     ", moreLine(more, "steps"))
	}
	if len(pv.LastResort) > 0 {
		last := pv.LastResort[0]
		why := last.Why
		if len(pv.Remediation) == 0 {
			why = gatedWhy(last, noStepAbove)
		}
		p.wrap(fmt.Sprintf("  %d. [%s] ", len(pv.Remediation)+1, p.risk(last.Risk)), "     ", why)
		if cmd, ok := lastResortLoop(pv); ok {
			p.line(fmt.Sprintf("     For the %d namespaces, one loop:", len(pv.LastResort)))
			p.command("     ", cmd)
		} else {
			if len(pv.LastResort) > 1 {
				p.line(fmt.Sprintf("     For each of the %d namespaces:", len(pv.LastResort)))
			}
			for _, s := range pv.LastResort {
				p.command("     ", s.Command)
			}
		}
	}
	if note := similarLadderNote(pv); note != "" {
		p.wrap("     ", "     ", note)
	}
	if len(pv.Shared) > 0 {
		p.sub(fmt.Sprintf("Timeline around %s (%d event%s, UTC; repeated lines folded)", pv.ID, len(pv.Shared), plural(len(pv.Shared))))
		p.timeline(pv.Shared)
	}
	if len(pv.RuledOut) > 0 {
		title := "Ruled out"
		if len(pv.NS) > 1 {
			title = fmt.Sprintf("Ruled out (for all %d namespaces)", len(pv.NS))
		}
		p.sub(title)
		p.ruledOut(pv.RuledOut)
	}
}

// evidenceList prints evidence, at most shownItems of it.
func (p *tprinter) evidenceList(evs []findings.Evidence) {
	shown, more := firstOf(evs, shownItems)
	for _, e := range shown {
		p.evidence("  ", e)
	}
	if more > 0 {
		p.wrap("  ", "  ", moreLine(more, "pieces of evidence"))
	}
}

func (p *tprinter) ruledOut(rs []findings.RuledOut) {
	for _, r := range rs {
		p.wrap("  - ", "    ", p.c(sDim, r.Type+":")+" "+r.Reason)
	}
}

// timeline prints timeline events, one a line, clipped to the width.
func (p *tprinter) timeline(evs []findings.TimelineEvent) {
	groups, skipped := clipTimeline(groupTimeline(evs))
	heads, texts, rooms := make([]string, len(groups)), make([]string, len(groups)), make([]int, len(groups))
	for i, g := range groups {
		t := g.Time.UTC().Format("2006-01-02 15:04:05")
		kind := g.Kind
		switch kind {
		case findings.EventDeletion:
			kind = p.c(sRed+sBold, pad(kind, 9))
		case findings.EventError:
			kind = p.c(sYellow, pad(kind, 9))
		default:
			kind = pad(kind, 9)
		}
		texts[i] = g.Text
		if g.Count > 1 {
			texts[i] = fmt.Sprintf("x%d until %s: %s", g.Count, g.Last.UTC().Format("15:04:05"), texts[i])
		}
		heads[i] = fmt.Sprintf("  %s  %s %s ", t, kind, g.Component)
		rooms[i] = p.width - visibleLen(heads[i])
		if rooms[i] < 30 {
			rooms[i] = p.width - 6
		}
	}
	clipped := clipRows(heads, texts, rooms)
	for i := range groups {
		if skipped > 0 && i == len(groups)/2 {
			p.line("  " + moreLine(skipped, "timeline entries"))
		}
		if p.width-visibleLen(heads[i]) < 30 {
			p.line(heads[i])
			p.line("      " + clipped[i])
			continue
		}
		p.line(heads[i] + clipped[i])
	}
}

func finalizersLine(ns *findings.NamespaceReport) string {
	f := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, ", ")
	}
	return "spec " + f(ns.SpecFinalizers) + "; metadata " + f(ns.MetadataFinalizers)
}

// nsFacts is one line of a namespace's facts: deletion, how long stuck, phase.
func (v *view) nsFacts(ns *findings.NamespaceReport) string {
	inferred := ns.DeletionInferred
	s := deletedAt(ns.DeletionTimestamp, inferred)
	if ns.StuckFor != "" {
		s += ", stuck for " + v.stuckFor(ns.StuckFor)
	}
	return s + "; phase " + orNone(ns.Phase)
}

// namespace writes what a namespace shows of its own (the detailed form, for a few
// namespaces): facts, conditions, its own timeline, and its verdict and last resort
// when it is held by more than one problem.
func (p *tprinter) namespace(v *view, ns *findings.NamespaceReport) {
	p.heading("Namespace " + ns.Name + " (" + problemIDs(ns) + ")")
	if len(ns.Problems) != 1 {
		p.wrap(p.c(sRed+sBold, "VERDICT")+"  ", "         ", v.verdict(ns))
		p.line("")
	}
	p.wrap("Deleted     ", "            ", v.nsFacts(ns))
	if ns.DeletionInferred {
		p.wrap("Since       ", "            ", ns.StuckSince)
	}
	p.wrap("Finalizers  ", "            ", finalizersLine(ns))
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
			head := c.Type + "=" + c.Status
			if c.Reason != "" {
				head += " " + c.Reason
			}
			if c.Meaning != "" {
				head += ": " + c.Meaning
			}
			p.wrap("  "+mark+" ", "     ", head)
			if c.Problem && c.Message != "" {
				p.wrap("     ", "     ", fmt.Sprintf("%q", clipProse(c.Message, 600)))
			}
		}
	}
	if own := v.Own[ns.Name]; len(own) > 0 {
		p.sub(fmt.Sprintf("Timeline of %s (%d event%s of its own, UTC)", ns.Name, len(own), plural(len(own))))
		p.timeline(own)
	}
	p.nsLastResort(ns)
	if len(v.RestRuledOut[ns.Name]) > 0 {
		p.sub("Ruled out for " + ns.Name)
		p.ruledOut(v.RestRuledOut[ns.Name])
	}
}

// nsLastResort writes the /finalize step of a namespace that no single problem's ladder holds.
func (p *tprinter) nsLastResort(ns *findings.NamespaceReport) {
	if len(ns.Problems) == 1 {
		return
	}
	if s, ok := lastResort(ns); ok {
		p.sub("Last resort for " + ns.Name)
		why := s.Why
		if len(ns.Problems) > 1 {
			why = afterSteps(s, ns)
		}
		p.wrap(fmt.Sprintf("  [%s] ", p.risk(s.Risk)), "     ", why)
		p.command("     ", s.Command)
	}
}

// nsCondensed writes a namespace in a line or two: its problems, what differs from
// the usual (phase, finalizers), its problem conditions and its own timeline digested.
// Its deletion time and age are listed under its problem.
func (p *tprinter) nsCondensed(v *view, ns *findings.NamespaceReport) {
	var parts []string
	if ns.Phase != "Terminating" {
		parts = append(parts, "phase "+orNone(ns.Phase))
	}
	if f := finalizersLine(ns); f != "spec kubernetes; metadata none" {
		parts = append(parts, "finalizers "+f)
	}
	for _, c := range problemConditions(ns) {
		s := c.Type + "=" + c.Status
		if c.Reason != "" {
			s += " (" + c.Reason + ")"
		}
		parts = append(parts, p.c(sRed+sBold, "!!")+" "+s)
	}
	parts = append(parts, "events: "+digest(v.Own[ns.Name]))
	p.wrap(p.c(sBold, ns.Name)+" ("+problemIDs(ns)+")  ", "    ", strings.Join(parts, "; "))
	if len(ns.Problems) != 1 {
		p.wrap("    verdict: ", "      ", v.verdict(ns))
	}
	p.nsLastResort(ns)
	if len(v.RestRuledOut[ns.Name]) > 0 {
		p.line("    ruled out:")
		p.ruledOut(v.RestRuledOut[ns.Name])
	}
}
