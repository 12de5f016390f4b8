package render

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// HTML writes the report as one self-contained page: inline CSS, inline SVG, no script,
// font or request to anything outside the file. The summary line and, per independent
// problem, its root, the namespaces it holds and the first safe commands come first;
// then each problem in its own section with its own causal-chain diagram (no arrow
// crosses from one problem into another), its ladder and a timeline plot; then per
// namespace what differs; evidence in collapsible blocks.
func HTML(w io.Writer, r *findings.Report) error {
	return htmlTmpl.Execute(w, htmlData(r))
}

type htmlReport struct {
	R         *findings.Report
	V         *view
	Generator string
	Kube      string
	Captured  string
	Read      string
	// Cards are the first screen's problems; Listed the problems shown beyond them,
	// one line each (at most htmlListed, then MoreListed).
	Cards      []htmlProblem
	Listed     []htmlLine
	MoreListed string
	// Problems are the problems given a section.
	Problems   []htmlProblem
	MoreFull   int
	Namespaces []htmlNamespace
	MoreNS     string
	Risks      []findings.Risk
	MoreRisks  string
	Gaps       []htmlGap
	MoreGaps   string
	Warnings   []string
	MoreWarn   string
}

// htmlListed is how many entries a collapsed list of the HTML page holds (problems,
// namespaces, objects); the rest is said in one line (the JSON report has them all).
const htmlListed = 100

type htmlLine struct {
	ID, Anchor, Text string
}

type htmlGap struct {
	Sentence string
	Collect  []string
	More     string
}

type htmlProblem struct {
	*problemView
	Anchor     string
	Radius     string
	Known      []findings.KnownIssueRef
	Safe       []htmlStep
	Steps      []htmlStep
	LastWhy    string
	LastCmds   []string
	Held       []htmlHeld
	NHeld      int
	MoreHeld   []htmlHeld
	MoreNames  string
	Objects    []string
	MoreObj    string
	Similar    []htmlLine
	SimHead    string
	SimMore    string
	SimNote    string
	LastLoop   bool
	MoreSteps  string
	MoreGroups string
	Chain      template.HTML
	Plot       template.HTML
	PlotOf     string
	Groups     []timelineGroup
	ChainEvid  []findings.Evidence
	RestEvid   []findings.Evidence
}

type htmlStep struct {
	findings.RemediationStep
	Short string
	Note  string
}

type htmlHeld struct {
	Name, Deleted, Stuck, Anchor string
}

type htmlNamespace struct {
	*findings.NamespaceReport
	ID         string
	Facts      string
	Finalizers string
	Multi      bool
	Digest     string
	Own        []timelineGroup
	Last       *findings.RemediationStep
	LastWhy    string
	ShowRO     bool
	RestRO     []findings.RuledOut
	ProblemIDs string
	Verdict    string
	MoreOwn    string
}

func htmlData(r *findings.Report) htmlReport {
	v := newView(r)
	d := htmlReport{R: r, V: v, Generator: generatorLine(r.Generator), Kube: kubeVersion(r.Bundle), Captured: captureLine(r.Bundle), Read: readLine(r.Bundle)}
	nsID := make(map[string]string, len(r.Namespaces))
	for i, ns := range r.Namespaces {
		nsID[ns.Name] = fmt.Sprintf("ns-%d", i+1)
	}
	full := map[*problemView]bool{}
	for _, pv := range v.Full {
		full[pv] = true
	}
	line := func(pv *problemView) htmlLine {
		s := "[" + pv.CauseType + "] " + shortOf(pv) + fmt.Sprintf(" (%d namespace%s)", len(pv.Namespaces), plural(len(pv.Namespaces)))
		if n := len(pv.Similar); n > 0 {
			s += fmt.Sprintf("; and %s more like it", findings.Count(n))
		}
		anchor := ""
		if full[pv] {
			anchor = "problem-" + pv.ID
		}
		return htmlLine{ID: pv.ID, Anchor: anchor, Text: s}
	}
	card := func(pv *problemView, section bool) htmlProblem {
		h := htmlProblem{problemView: pv, Anchor: "problem-" + pv.ID, Radius: v.blastRadius(pv), Known: firstKnown(pv), NHeld: len(pv.Namespaces)}
		for _, s := range safeSteps(pv) {
			h.Safe = append(h.Safe, htmlStep{RemediationStep: s, Short: firstSentence(s)})
		}
		held, rest := firstOf(pv.Namespaces, shownItems)
		for _, pn := range held {
			h.Held = append(h.Held, htmlHeld{Name: pn.Name, Deleted: deletedAt(pn.DeletionTimestamp, pn.DeletionInferred),
				Stuck: v.stuckFor(pn.StuckFor), Anchor: nsID[pn.Name]})
		}
		if rest > 0 {
			more, left := firstOf(pv.Namespaces[shownItems:], htmlListed)
			for _, pn := range more {
				h.MoreHeld = append(h.MoreHeld, htmlHeld{Name: pn.Name, Deleted: deletedAt(pn.DeletionTimestamp, pn.DeletionInferred),
					Stuck: v.stuckFor(pn.StuckFor), Anchor: nsID[pn.Name]})
			}
			if left > 0 {
				h.MoreNames = moreLine(left, "namespaces")
			}
		}
		if len(pv.Similar) > 0 {
			h.SimHead = similarHead(pv)
			sim, left := firstOf(pv.Similar, htmlListed)
			for _, sp := range sim {
				h.Similar = append(h.Similar, htmlLine{ID: sp.ID, Text: similarLine(sp)})
			}
			if left > 0 {
				h.SimMore = moreLine(left, "similar problems")
			}
			h.SimNote = similarLadderNote(pv)
		}
		if !section {
			return h
		}
		rungs, more := firstOf(pv.Remediation, shownItems)
		for _, s := range rungs {
			h.Steps = append(h.Steps, htmlStep{RemediationStep: s, Note: pv.stepNote(s)})
		}
		if more > 0 {
			h.MoreSteps = moreLine(more, "steps")
		}
		if len(pv.LastResort) > 0 {
			h.LastWhy = pv.LastResort[0].Why
			if len(pv.Remediation) == 0 {
				h.LastWhy = gatedWhy(pv.LastResort[0], noStepAbove)
			}
			if loop, ok := lastResortLoop(pv); ok {
				h.LastCmds, h.LastLoop = []string{loop}, true
			} else {
				for _, s := range pv.LastResort {
					h.LastCmds = append(h.LastCmds, s.Command)
				}
			}
		}
		if pv.Cause != nil {
			h.Objects, h.MoreObj = objectLines(pv.Cause)
		}
		h.Chain = chainHTML(pv)
		for _, l := range pv.Chain {
			le, _ := firstOf(l.Evidence, htmlListed)
			h.ChainEvid = append(h.ChainEvid, le...)
		}
		if pv.Cause != nil {
			h.RestEvid = restEvidence(*pv.Cause)
		} else if len(pv.Chain) == 0 {
			h.RestEvid = pv.Evidence
		}
		h.RestEvid, _ = firstOf(h.RestEvid, shownItems)
		if len(pv.NS) > 0 {
			first := pv.NS[0]
			h.PlotOf = first.Name
			h.Plot = timelineSVG(*first, problemEvents(v.Own[first.Name], pv.Shared), r.Bundle.CapturedAt)
		}
		if h.Groups, rest = firstOf(groupTimeline(pv.Shared), htmlListed); rest > 0 {
			h.MoreGroups = moreLine(rest, "timeline entries")
		}
		return h
	}
	for i, pv := range v.Shown {
		switch {
		case i < firstScreenProblems:
			d.Cards = append(d.Cards, card(pv, false))
		case i < firstScreenProblems+htmlListed:
			d.Listed = append(d.Listed, line(pv))
		}
	}
	if rest := len(v.Shown) - firstScreenProblems - htmlListed; rest > 0 {
		d.MoreListed = moreLine(rest, "problems")
	}
	for _, pv := range v.Full {
		d.Problems = append(d.Problems, card(pv, true))
	}
	d.MoreFull = len(v.Shown) - len(v.Full)
	nss := r.Namespaces
	if v.Condensed {
		var rest int
		nss, rest = firstOf(r.Namespaces, shownNamespaces)
		if rest > 0 {
			d.MoreNS = moreLine(rest, "namespaces")
		}
	}
	for i := range nss {
		ns := &nss[i]
		h := htmlNamespace{NamespaceReport: ns, ID: nsID[ns.Name], Facts: v.nsFacts(ns), Finalizers: finalizersLine(ns),
			Multi: len(ns.Problems) != 1, Digest: digest(v.Own[ns.Name]), Verdict: v.verdict(ns),
			ShowRO: len(v.RestRuledOut[ns.Name]) > 0, RestRO: v.RestRuledOut[ns.Name], ProblemIDs: problemIDs(ns)}
		var rest int
		if h.Own, rest = firstOf(groupTimeline(v.Own[ns.Name]), htmlListed); rest > 0 {
			h.MoreOwn = moreLine(rest, "timeline entries")
		}
		if h.Multi {
			if s, ok := lastResort(ns); ok {
				h.Last = &s
				h.LastWhy = s.Why
				if len(ns.Problems) > 1 {
					h.LastWhy = afterSteps(s, ns)
				}
			}
		}
		d.Namespaces = append(d.Namespaces, h)
	}
	var rest int
	d.Risks, rest = firstOf(r.Risks, shownRisks)
	if rest > 0 {
		d.MoreRisks = moreLine(rest, "latent risks")
	}
	gaps, rest := firstOf(groupGaps(r), shownItems)
	if rest > 0 {
		d.MoreGaps = moreLine(rest, "gaps")
	}
	for _, g := range gaps {
		cmds, left := firstOf(g.Collect, shownCollect)
		hg := htmlGap{Sentence: g.Sentence(), Collect: cmds}
		if left > 0 {
			hg.More = moreLine(left, "commands")
		}
		d.Gaps = append(d.Gaps, hg)
	}
	ws, rest := firstOf(r.Warnings, shownWarnings)
	for _, w := range ws {
		d.Warnings = append(d.Warnings, w.String())
	}
	if rest > 0 {
		d.MoreWarn = moreLine(rest, "warnings")
	}
	return d
}

// orEvents is noun, or "events" when empty.
func orEvents(noun string) string {
	if noun == "" {
		return "events"
	}
	return noun
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// chainHTML draws a problem's causal chain top-down as boxes joined by arrows (HTML and
// CSS, so text wraps at any width and is never cut): the namespaces it holds, then each
// link towards the root (highlighted; links that show a fault are marked).
func chainHTML(pv *problemView) template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<ol class="chain" data-problem="%s" aria-label="causal chain of %s">`, esc(pv.ID), esc(pv.ID))
	names := nsNames(pv)
	title := "Namespace " + strings.Join(names, ", ")
	if len(names) > 3 {
		title = fmt.Sprintf("%d namespaces (%s, … %s)", len(names), names[0], names[len(names)-1])
	}
	fmt.Fprintf(&b, `<li class="box ns"><div class="t">%s</div><div>stuck in Terminating</div></li>`, esc(title))
	hasRoot := false
	for _, l := range pv.Chain {
		hasRoot = hasRoot || l.Root
	}
	for i, l := range pv.Chain {
		cls, label := "link", l.Component
		switch {
		case l.Root || (!hasRoot && i == len(pv.Chain)-1):
			cls, label = "root", "root cause: "+l.Component
		case l.Fault:
			cls, label = "link fault", "fault: "+l.Component
		}
		fmt.Fprintf(&b, `<li class="box %s"><div class="t">%s</div><div>%s</div>`, cls, esc(label), esc(l.Finding))
		if l.Fix != nil {
			if k := stepIndex(pv, l.Fix.Command); k > 0 {
				fmt.Fprintf(&b, `<div class="fix">fix: step %d of what to do</div>`, k)
			} else {
				fmt.Fprintf(&b, `<div class="fix">fix (%s): %s<pre><code>%s</code></pre></div>`, esc(l.Fix.Risk), esc(l.Fix.Why), esc(l.Fix.Command))
			}
		}
		b.WriteString(`</li>`)
	}
	if len(pv.Chain) == 0 {
		fmt.Fprintf(&b, `<li class="box root"><div class="t">%s</div><div>%s</div></li>`, esc(pv.CauseType), esc(pv.Root))
	}
	b.WriteString(`</ol>`)
	return template.HTML(b.String())
}

// maxLanes caps the lanes of a timeline plot: the components after the first ones
// share the last lane, otherLane.
const (
	maxLanes  = 24
	otherLane = "other components"
)

// problemEvents are what a problem's plot shows: the namespace's own events and the
// problem's, oldest first (both lists are).
func problemEvents(own, shared []findings.TimelineEvent) []findings.TimelineEvent {
	out := make([]findings.TimelineEvent, 0, len(own)+len(shared))
	i, j := 0, 0
	for i < len(own) || j < len(shared) {
		if j >= len(shared) || i < len(own) && !shared[j].Time.Before(own[i].Time) {
			out = append(out, own[i])
			i++
		} else {
			out = append(out, shared[j])
			j++
		}
	}
	return out
}

// timelineSVG plots a namespace's timeline: one lane per component, time on the x
// axis; the deletion is a red vertical line, condition transitions are diamonds, error
// lines are ticks (darker where they pile up) and events are squares; the capture time
// ends the axis.
func timelineSVG(ns findings.NamespaceReport, evs []findings.TimelineEvent, captured *time.Time) template.HTML {
	if len(evs) == 0 {
		return template.HTML(`<p class="muted">No timed event in the bundle for this namespace.</p>`)
	}
	first, last := findings.TimelineSpan(evs)
	if captured != nil && captured.After(last) {
		last = *captured
	}
	if ns.DeletionTimestamp != nil && ns.DeletionTimestamp.Before(first) {
		first = *ns.DeletionTimestamp
	}
	if last.Sub(first) <= 0 {
		last = first.Add(time.Second)
	}
	// a margin so marks at either end stay visible
	margin := last.Sub(first) / 40
	first, last = first.Add(-margin), last.Add(margin)
	span := last.Sub(first)
	tickFmt := "15:04:05"
	if span > 20*time.Hour {
		tickFmt = "01-02 15:04"
	}
	// lanes: the namespace first, then components by first appearance
	var lanes []string
	laneOf := map[string]int{}
	nsLane := "Namespace/" + ns.Name
	addLane := func(c string) {
		if _, ok := laneOf[c]; !ok {
			laneOf[c] = len(lanes)
			lanes = append(lanes, c)
		}
	}
	addLane(nsLane)
	for _, e := range evs {
		if len(lanes) == maxLanes-1 {
			if _, ok := laneOf[e.Component]; !ok {
				addLane(otherLane)
				break
			}
		}
		addLane(e.Component)
	}
	lane := func(c string) int {
		if i, ok := laneOf[c]; ok {
			return i
		}
		return laneOf[otherLane]
	}
	// the label column fits the longest lane label (about 6.6 user units a character at
	// 11.5px), so no label is cut; the SVG scales to the page as a whole
	longest := 0
	for _, l := range lanes {
		longest = max(longest, len([]rune(l)))
	}
	const right, top, laneH, width = 20, 30, 34, 1000
	left := min(max(longest*7+16, 140), 520)
	labelMax := (left - 16) / 7
	plotW := width - left - right
	height := top + laneH*len(lanes) + 50
	x := func(t time.Time) float64 {
		return float64(left) + float64(plotW)*float64(t.Sub(first))/float64(span)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="timeline" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="timeline of namespace %s" viewBox="0 0 %d %d" width="%d" height="%d">`,
		esc(ns.Name), width, height, width, height)
	// lanes and labels
	for i, l := range lanes {
		y := top + laneH*i
		fmt.Fprintf(&b, `<rect class="lane%d" x="%d" y="%d" width="%d" height="%d"/>`, i%2, left, y, plotW, laneH)
		fmt.Fprintf(&b, `<text class="lanelabel" x="%d" y="%d" text-anchor="end"><title>%s</title>%s</text>`, left-8, y+laneH/2+4, esc(l), esc(clipText(l, labelMax)))
	}
	// time axis: 6 ticks
	axisY := top + laneH*len(lanes)
	fmt.Fprintf(&b, `<path class="axis" d="M %d %d H %d"/>`, left, axisY, left+plotW)
	for i := 0; i <= 5; i++ {
		t := first.Add(time.Duration(float64(span) * float64(i) / 5))
		xx := x(t)
		label := t.UTC().Format(tickFmt)
		anchor := "middle"
		if i == 0 {
			anchor = "start"
		} else if i == 5 {
			anchor = "end"
		}
		fmt.Fprintf(&b, `<path class="tick" d="M %.1f %d V %d"/><text class="ticklabel" x="%.1f" y="%d" text-anchor="%s">%s</text>`,
			xx, top, axisY+5, xx, axisY+18, anchor, label)
	}
	fmt.Fprintf(&b, `<text class="ticklabel" x="%d" y="%d">UTC, from %s to %s</text>`, left, axisY+34,
		first.UTC().Format("2006-01-02 15:04:05Z"), last.UTC().Format("2006-01-02 15:04:05Z"))
	// markers: one per lane, kind and 3-pixel column (its title says how many it
	// stands for), so the plot is bounded by its width whatever the events; errors
	// are drawn after the others, darker where they pile up
	type col struct {
		lane, px int
	}
	type spot struct {
		col
		kind string
	}
	spotOf := func(e findings.TimelineEvent) spot {
		return spot{col{lane(e.Component), int(math.Round(x(e.Time) / 3))}, e.Kind}
	}
	marks := map[spot]int{}
	for _, e := range evs {
		if e.Kind != findings.EventError {
			marks[spotOf(e)]++
		}
	}
	errCount := map[col]int{}
	errText := map[col]string{}
	var cols []col
	for _, e := range evs {
		xx := x(e.Time)
		y := top + laneH*lane(e.Component) + laneH/2
		tip := e.Time.UTC().Format("2006-01-02 15:04:05.000Z") + " " + e.Kind + " " + e.Component + ": " + e.Text
		if e.Kind != findings.EventError {
			sp := spotOf(e)
			n := marks[sp]
			if n == 0 {
				continue // drawn already
			}
			marks[sp] = 0
			if n > 1 {
				noun := map[string]string{findings.EventDeletion: "deletions", findings.EventCondition: "condition transitions"}[e.Kind]
				tip = fmt.Sprintf("%d %s here, the first: %s", n, orEvents(noun), tip)
			}
		}
		tip = esc(tip)
		switch e.Kind {
		case findings.EventDeletion:
			if e.Component == nsLane {
				continue // drawn as the vertical line below
			}
			fmt.Fprintf(&b, `<g class="mark deletion"><title>%s</title><circle cx="%.1f" cy="%d" r="6"/></g>`, tip, xx, y)
		case findings.EventCondition:
			fmt.Fprintf(&b, `<g class="mark condition"><title>%s</title><path d="M %.1f %d l 6 6 l -6 6 l -6 -6 z"/></g>`, tip, xx, y-6)
		case findings.EventEvent:
			fmt.Fprintf(&b, `<g class="mark event"><title>%s</title><rect x="%.1f" y="%d" width="9" height="9"/></g>`, tip, xx-4.5, y-4)
		default:
			c := col{lane(e.Component), int(math.Round(xx / 3))}
			if errCount[c] == 0 {
				cols = append(cols, c)
				errText[c] = tip
			}
			errCount[c]++
		}
	}
	sort.Slice(cols, func(i, j int) bool {
		if cols[i].lane != cols[j].lane {
			return cols[i].lane < cols[j].lane
		}
		return cols[i].px < cols[j].px
	})
	for _, c := range cols {
		y := top + laneH*c.lane
		n := errCount[c]
		tip := errText[c]
		if n > 1 {
			tip = fmt.Sprintf("%d error lines here, the first: %s", n, tip)
		}
		opacity := math.Min(1, 0.45+0.15*float64(n))
		fmt.Fprintf(&b, `<g class="mark error"><title>%s</title><rect x="%.1f" y="%d" width="3" height="%d" fill-opacity="%.2f"/></g>`,
			tip, float64(c.px*3)-1.5, y+7, laneH-14, opacity)
	}
	if ns.DeletionTimestamp != nil {
		xx := x(*ns.DeletionTimestamp)
		anchor := "middle" // a label near either end is anchored so it stays inside
		if xx < float64(left)+60 {
			anchor = "start"
		} else if xx > float64(width-right)-60 {
			anchor = "end"
		}
		fmt.Fprintf(&b, `<g class="deletionline"><title>namespace %s deleted at %s</title><path d="M %.1f %d V %d"/><text x="%.1f" y="%d" text-anchor="%s">deleted %s</text></g>`,
			esc(ns.Name), ts(ns.DeletionTimestamp), xx, top-4, axisY, xx, top-10, anchor, ns.DeletionTimestamp.UTC().Format("15:04:05"))
	}
	if captured != nil {
		xx := x(*captured)
		fmt.Fprintf(&b, `<g class="captureline"><title>bundle captured at %s</title><path d="M %.1f %d V %d"/></g>`, ts(captured), xx, top, axisY)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var htmlFuncs = template.FuncMap{
	"loc":          evidenceLoc,
	"meta":         evidenceMeta,
	"obj":          objectLine,
	"ts":           ts,
	"join":         strings.Join,
	"inc":          func(i int) int { return i + 1 },
	"plural":       plural,
	"verdictLine":  verdictLine,
	"risksHeading": risksHeading,
	"folded": func(g timelineGroup) string {
		if g.Count > 1 {
			return fmt.Sprintf("x%d until %s: %s", g.Count, g.Last.UTC().Format("15:04:05"), g.Text)
		}
		return g.Text
	},
	"clock": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
}

var htmlTmpl = template.Must(template.New("report").Funcs(htmlFuncs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>nsanalyze report: {{.R.Bundle.Path}}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1080px;padding:1em 1.5em;color:#1b1f24;background:#fff;line-height:1.45;overflow-wrap:anywhere}
h1{font-size:1.6em;margin:.2em 0}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2em;margin-top:1.8em}h3{margin-top:1.4em}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.88em}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.6em .8em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;margin:.6em 0;width:100%;table-layout:auto}.tablewrap{overflow-x:auto;max-width:100%}th,td{border:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top;overflow-wrap:normal;word-break:normal}th{background:#f6f8fa}
.summaryline{font-size:1.15em;font-weight:600}
.problem-card{border-left:6px solid #cf222e;background:#fff5f5;padding:.5em 1em;border-radius:4px;margin:1em 0}
.ok{color:#1a7f37}.bad{color:#cf222e;font-weight:bold}.muted{color:#57606a}
.risk-safe{background:#dafbe1;color:#116329}.risk-caution{background:#fff8c5;color:#7d4e00}.risk-destructive{background:#ffebe9;color:#a40e26}
.badge{display:inline-block;border-radius:10px;padding:0 .55em;font-size:.85em;font-weight:600}
details{margin:.5em 0}summary{cursor:pointer;color:#0969da}
ol.ladder>li{margin-bottom:.8em}
ol.chain{list-style:none;padding:0;margin:.8em 0;max-width:820px}
ol.chain>li{position:relative;border:1.2px solid #8c959f;background:#f6f8fa;border-radius:6px;padding:.45em .8em;margin:0 0 28px 0;font-size:.92em}
ol.chain>li:last-child{margin-bottom:0}
ol.chain>li+li::before{content:"";position:absolute;left:50%;top:-27px;height:19px;border-left:2px solid #555}
ol.chain>li+li::after{content:"";position:absolute;left:calc(50% - 6px);top:-9px;border:6px solid transparent;border-top:8px solid #555;border-bottom:0}
ol.chain>li.ns{background:#ddf4ff;border-color:#0969da}ol.chain>li.root{background:#ffebe9;border:2px solid #cf222e}ol.chain>li.fault{border-color:#cf222e}
ol.chain .t{font-weight:bold}ol.chain .fix{margin-top:.3em;color:#116329}
svg{max-width:100%;height:auto;display:block;margin:.5em 0}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:12px;fill:#1b1f24}
svg .lane0{fill:#f6f8fa}svg .lane1{fill:#fff}svg .lanelabel{font-size:11.5px}svg .axis,svg .tick{stroke:#8c959f}svg .ticklabel{font-size:11px;fill:#57606a}
svg .deletion circle,svg .deletionline path{stroke:#cf222e;stroke-width:2;fill:#cf222e}svg .deletionline text{fill:#cf222e;font-weight:bold}
svg .condition path{fill:#0969da}svg .event rect{fill:#8250df}svg .error rect{fill:#bc4c00}svg .captureline path{stroke:#57606a;stroke-dasharray:4 3}
.legend span{margin-right:1.2em;display:inline-block}.sw{display:inline-block;width:.9em;height:.9em;vertical-align:middle;margin:0 .3em 0 0}
</style>
</head>
<body>
<header>
<h1>nsanalyze report</h1>
<p class="summaryline">{{.R.Summary}}</p>
<p class="muted">{{.Generator}}; {{.Kube}}; bundle <code>{{.R.Bundle.Path}}</code>, {{.Captured}}; {{.Read}}.</p>
</header>
<section id="summary">
<h2>Summary</h2>
{{if not .R.Namespaces}}{{if eq .R.State "unknown"}}<p class="unknown"><strong>Namespace state unknown (inconclusive):</strong> {{.R.StateReason}}</p>{{else}}<p class="ok">No namespace is stuck in Terminating. {{.R.StateReason}}</p>{{end}}
{{range .R.Deleting}}<div class="problem-card"><p><code>{{.Name}}</code> is still being deleted (not stuck): {{.Why}}.</p><p>If it does not finish:</p>
<ol>{{range .Watch}}<li>{{.Why}}<pre><code>{{.Command}}</code></pre></li>{{end}}</ol></div>{{end}}{{else}}
<p>{{len .R.Namespaces}} namespace{{plural (len .R.Namespaces)}} stuck in Terminating, {{len .Problems}} independent problem{{plural (len .Problems)}}.</p>
{{range .Cards}}<div class="problem-card" data-problem="{{.ID}}">
<p><a href="#{{.Anchor}}"><strong>{{.ID}}</strong></a> <code>{{.CauseType}}</code>, confidence {{.Confidence}}</p>
<p><strong>Root:</strong> {{.Root}}</p>
{{if .Fingerprint}}<p><strong>Fingerprint:</strong> <code class="fingerprint">{{.Fingerprint}}</code></p>{{end}}{{range .Known}}<p><strong>Known issue:</strong> <code>{{.ID}}</code> {{.Title}}: <a href="{{.URL}}">{{.URL}}</a></p>{{end}}
<p><strong>Holds:</strong> {{.Radius}}{{if eq (len .Held) 1}}.</p>{{else if le (len .Held) 5}}:</p>
<ul>{{range .Held}}<li><a href="#{{.Anchor}}"><code>{{.Name}}</code></a>: deleted {{.Deleted}}{{if .Stuck}}, stuck for {{.Stuck}}{{end}}</li>{{end}}</ul>{{else}} (listed under <a href="#{{.Anchor}}">{{.ID}}</a>).</p>{{end}}
{{if .Safe}}<p><strong>First (safe):</strong></p>
<ol class="first">{{range .Safe}}<li>{{.Short}}<pre><code>{{.Command}}</code></pre></li>{{end}}</ol>{{else}}<p><strong>First:</strong> no safe step is known for this cause: see what to do under <a href="#{{.Anchor}}">{{.ID}}</a>.</p>{{end}}{{if .Similar}}
<details class="similar"><summary>{{.SimHead}}</summary>
<ul>{{range .Similar}}<li>{{.Text}}</li>{{end}}{{if .SimMore}}<li class="more">{{.SimMore}}</li>{{end}}</ul></details>{{end}}
</div>
{{end}}{{if .Listed}}<details class="more-problems"{{if le (len .Listed) 10}} open{{end}}><summary>{{len .Listed}} more problem{{plural (len .Listed)}}{{if .MoreListed}} (of many more){{end}}</summary>
<ul>{{range .Listed}}<li>{{if .Anchor}}<a href="#{{.Anchor}}"><strong>{{.ID}}</strong></a>{{else}}<strong>{{.ID}}</strong>{{end}} {{.Text}}</li>{{end}}{{if .MoreListed}}<li class="more">{{.MoreListed}}</li>{{end}}</ul></details>{{end}}{{end}}
{{with .R.NextStep}}<div class="next-step"><p><strong>Next step for the customer</strong> (<code>-o reply</code> writes the note for the ticket): {{if .Make}}send the read-only script (no Secret values) that <code>{{.Make}}</code> writes; they run:{{else}}they run the platform&#39;s read-only collection:{{end}}</p>
<pre><code>{{.Command}}</code></pre></div>
{{end}}{{if or .R.Risks .R.Coverage .R.Warnings}}<p class="muted">Also: {{len .R.Risks}} latent risk{{plural (len .R.Risks)}}, {{len .R.Coverage}} coverage gap{{plural (len .R.Coverage)}}, {{len .R.Warnings}} warning{{plural (len .R.Warnings)}} (at the end).</p>{{end}}
</section>
{{range $p := .Problems}}
<section class="problem" id="{{.Anchor}}" data-problem="{{.ID}}">
<h2>{{.ID}}: {{.CauseType}} <span class="muted">(confidence {{.Confidence}}), {{.NHeld}} namespace{{plural .NHeld}}</span></h2>
<p class="problem-card"><strong>Root:</strong> {{.Root}}</p>
{{with .Cause}}{{if ne .Summary $p.Root}}<p>{{.Summary}}</p>{{end}}{{end}}
<div class="tablewrap"><table class="held"><thead><tr><th>Namespace</th><th>Deleted</th><th>Stuck for</th></tr></thead><tbody>
{{range .Held}}<tr><td><a href="#{{.Anchor}}"><code>{{.Name}}</code></a></td><td>{{.Deleted}}</td><td>{{.Stuck}}</td></tr>
{{end}}</tbody></table></div>{{if .MoreHeld}}
<details class="held-more"><summary>{{len .MoreHeld}} more namespace{{plural (len .MoreHeld)}}{{if .MoreNames}} (and more in the JSON report){{end}}</summary>
<div class="tablewrap"><table class="held"><tbody>{{range .MoreHeld}}<tr><td><code>{{.Name}}</code></td><td>{{.Deleted}}</td><td>{{.Stuck}}</td></tr>
{{end}}</tbody></table></div>{{if .MoreNames}}<p class="muted">{{.MoreNames}}</p>{{end}}</details>{{end}}
<h3>Causal chain</h3>
{{.Chain}}
{{with .ChainEvid}}<details class="evidence"><summary>Evidence for the chain ({{len .}})</summary>
{{range .}}<pre><span class="muted">{{meta .}}</span>
{{.Text}}</pre>
{{end}}</details>{{end}}
{{with .RestEvid}}<details class="evidence"><summary>Other evidence ({{len .}})</summary>
{{range .}}<pre><span class="muted">{{meta .}}</span>
{{.Text}}</pre>
{{end}}</details>{{end}}
{{if .Objects}}<ul class="objects">{{range .Objects}}<li><code>{{.}}</code></li>{{end}}{{if .MoreObj}}<li class="more">{{.MoreObj}}</li>{{end}}</ul>{{end}}
{{if .Correlation}}<p><strong>Timing:</strong> {{.Correlation}}</p>{{end}}
{{with .Cause}}{{range .Verdicts}}<p><strong>Finalizer <code>{{.Finalizer}}</code>:</strong> {{verdictLine .}}</p>{{end}}{{range .Notes}}<p><strong>Note:</strong> {{.}}</p>{{end}}{{end}}
<h3>What to do about {{.ID}} (safest first)</h3>
<ol class="ladder">
{{range .Steps}}<li><span class="badge risk-{{.Risk}}">{{.Risk}}</span> {{.Why}}{{.Note}}<pre><code>{{.Command}}</code></pre></li>
{{end}}{{if .MoreSteps}}<li class="more">{{.MoreSteps}}</li>
{{end}}{{if .LastCmds}}<li><span class="badge risk-destructive">destructive</span> {{.LastWhy}}{{if .LastLoop}} For the {{len .LastResort}} namespaces, one loop:{{else if gt (len .LastCmds) 1}} For each of the {{len .LastCmds}} namespaces:{{end}}<pre><code>{{join .LastCmds "\n"}}</code></pre></li>{{end}}
</ol>{{if .SimNote}}
<p class="muted">{{.SimNote}}</p>{{end}}
<h3>Timeline</h3>
<p class="muted">Of namespace <code>{{.PlotOf}}</code>{{if gt .NHeld 1}}, the first of the {{.NHeld}}{{end}}.</p>
<p class="legend muted"><span><svg class="sw" viewBox="0 0 10 10"><rect width="3" height="10" x="3.5" fill="#cf222e"/></svg>namespace deletion</span><span><svg class="sw" viewBox="0 0 10 10"><path d="M5 0 L10 5 L5 10 L0 5 z" fill="#0969da"/></svg>condition transition</span><span><svg class="sw" viewBox="0 0 10 10"><rect width="3" height="10" x="3.5" fill="#bc4c00"/></svg>error log line</span><span><svg class="sw" viewBox="0 0 10 10"><rect width="9" height="9" fill="#8250df"/></svg>event</span><span><svg class="sw" viewBox="0 0 10 10"><path d="M5 0 V10" stroke="#57606a" stroke-dasharray="2 2"/></svg>capture time</span></p>
{{.Plot}}
{{if .Groups}}<details class="timeline-table"><summary>{{len .Shared}} events around {{.ID}} (UTC, repeated lines folded)</summary>
<div class="tablewrap"><table><thead><tr><th>Time</th><th>Kind</th><th>Component</th><th>What</th><th>Where</th></tr></thead><tbody>
{{range .Groups}}<tr><td class="mono">{{clock .Time}}</td><td>{{.Kind}}</td><td>{{.Component}}</td><td>{{folded .}}</td><td class="mono">{{.File}}{{if .Line}}:{{.Line}}{{end}}</td></tr>
{{end}}</tbody></table></div>{{if .MoreGroups}}<p class="muted">{{.MoreGroups}}</p>{{end}}</details>{{end}}
{{if .RuledOut}}<h3>Ruled out{{if gt (len .NS) 1}} (for all {{len .NS}} namespaces){{end}}</h3>
<ul class="ruledout">{{range .RuledOut}}<li><strong>{{.Type}}</strong>: {{.Reason}}</li>{{end}}</ul>{{end}}
</section>
{{end}}{{if .MoreFull}}
<section id="more-problems"><h2>{{.MoreFull}} more problems</h2><p class="muted">Listed in the summary; their chains and ladders are in the JSON report (-o json).</p></section>{{end}}
{{if .V.Condensed}}<section id="namespaces"><h2>Namespaces</h2>
<p class="muted">What each namespace shows of its own (its deletion time and age are listed under its problem).</p>
<div class="tablewrap"><table class="namespaces"><thead><tr><th>Namespace</th><th>Problems</th><th>Own conditions and events</th></tr></thead><tbody>
{{range .Namespaces}}<tr class="namespace" id="{{.ID}}" data-namespace="{{.Name}}"><td><code>{{.Name}}</code></td><td>{{.ProblemIDs}}</td><td>{{if ne .Phase "Terminating"}}phase {{.Phase}}; {{end}}{{range .Conditions}}{{if .Problem}}<span class="bad">!!</span> {{.Type}}={{.Status}} ({{.Reason}}); {{end}}{{end}}events: {{.Digest}}{{if .Multi}}<br>verdict: {{.Verdict}}{{end}}{{if .Last}}<br><span class="badge risk-destructive">destructive</span> {{.LastWhy}}<pre><code>{{.Last.Command}}</code></pre>{{end}}{{if .ShowRO}}<br>ruled out: {{range .RestRO}}<strong>{{.Type}}</strong>: {{.Reason}} {{end}}{{end}}</td></tr>
{{end}}</tbody></table></div>{{if .MoreNS}}<p class="muted">{{.MoreNS}}</p>{{end}}</section>
{{else}}{{range .Namespaces}}
<section class="namespace" id="{{.ID}}" data-namespace="{{.Name}}">
<h2>Namespace <code>{{.Name}}</code> <span class="muted">({{.ProblemIDs}})</span></h2>
{{if .Multi}}<p class="problem-card"><strong>Verdict:</strong> {{.Verdict}}</p>{{end}}
<div class="tablewrap"><table class="facts">
<tr><th>Deleted</th><td>{{.Facts}}</td></tr>
{{if .DeletionInferred}}<tr><th>Since</th><td>{{.StuckSince}}</td></tr>{{end}}
<tr><th>Finalizers</th><td>{{.Finalizers}}</td></tr>
{{if .Source}}<tr><th>Object</th><td><code>{{loc .Source}}</code></td></tr>{{end}}
</table></div>
{{if .Conditions}}<div class="tablewrap"><table class="conditions"><thead><tr><th></th><th>Condition</th><th>Status</th><th>Reason</th><th>Meaning</th></tr></thead><tbody>
{{range .Conditions}}<tr><td>{{if .Problem}}<span class="bad">!!</span>{{else}}<span class="ok">ok</span>{{end}}</td><td><code>{{.Type}}</code></td><td>{{.Status}}</td><td>{{.Reason}}</td><td>{{.Meaning}}{{if and .Problem .Message}}<br><span class="mono">{{.Message}}</span>{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}
{{if .Own}}<details class="timeline-table" open><summary>Timeline of {{.Name}}: {{.Digest}}</summary>
<div class="tablewrap"><table><thead><tr><th>Time</th><th>Kind</th><th>Component</th><th>What</th><th>Where</th></tr></thead><tbody>
{{range .Own}}<tr><td class="mono">{{clock .Time}}</td><td>{{.Kind}}</td><td>{{.Component}}</td><td>{{folded .}}</td><td class="mono">{{.File}}{{if .Line}}:{{.Line}}{{end}}</td></tr>
{{end}}</tbody></table></div>{{if .MoreOwn}}<p class="muted">{{.MoreOwn}}</p>{{end}}</details>{{end}}
{{if .Last}}<h3>Last resort for {{.Name}}</h3><p><span class="badge risk-destructive">destructive</span> {{.LastWhy}}</p><pre><code>{{.Last.Command}}</code></pre>{{end}}
{{if .ShowRO}}<h3>Ruled out for {{.Name}}</h3>
<ul class="ruledout">{{range .RestRO}}<li><strong>{{.Type}}</strong>: {{.Reason}}</li>{{end}}</ul>{{end}}
</section>
{{end}}{{end}}
{{if .Risks}}<section id="risks"><h2>{{risksHeading .R.Risks "Latent risks" "Latent risks, and deletions the bundle names no namespace for"}}</h2>
<p class="muted">Broken pieces that will hang the next namespace deletion.</p>
<ul>{{range .Risks}}<li><strong>{{.Type}}</strong>: {{.Summary}}{{if .Fix}}<ol class="ladder fix">{{range .Fix}}<li><span class="badge risk-{{.Risk}}">{{.Risk}}</span> {{.Why}}<pre><code>{{.Command}}</code></pre></li>{{end}}</ol>{{end}}{{if .Evidence}}<details><summary>Evidence ({{len .Evidence}})</summary>{{range .Evidence}}<pre><span class="muted">{{meta .}}</span>
{{.Text}}</pre>{{end}}</details>{{end}}</li>{{end}}{{if .MoreRisks}}<li class="more">{{.MoreRisks}}</li>{{end}}</ul></section>{{end}}
{{if .Gaps}}<section id="coverage"><h2>Not in the bundle</h2>
<ul>{{range .Gaps}}<li>{{.Sentence}}; collect with:<pre><code>{{join .Collect "\n"}}</code></pre>{{if .More}}<p class="muted">{{.More}}</p>{{end}}</li>{{end}}{{if .MoreGaps}}<li class="more">{{.MoreGaps}}</li>{{end}}</ul></section>{{end}}
{{if .Warnings}}<section id="warnings"><h2>Warnings</h2>
<p class="muted">Input that could not be read completely.</p>
<ul>{{range .Warnings}}<li>{{.}}</li>{{end}}{{if .MoreWarn}}<li class="more">{{.MoreWarn}}</li>{{end}}</ul></section>{{end}}
<footer class="muted"><p>Generated by {{.Generator}} ({{.R.SchemaVersion}}) from a support bundle, offline.</p></footer>
</body>
</html>
`))
