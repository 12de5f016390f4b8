package render

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// HTML writes the report as one self-contained page: inline CSS, inline SVG, no script,
// font or request to anything outside the file. Each stuck namespace gets its verdict,
// its causal chain drawn as a diagram, a timeline plot (deletion, condition transitions,
// error lines per component over time), the remediation ladder and the evidence in
// collapsible blocks.
func HTML(w io.Writer, r *analyzer.Report) error {
	return htmlTmpl.Execute(w, htmlData(r))
}

type htmlReport struct {
	R          *analyzer.Report
	Captured   string
	Namespaces []htmlNamespace
}

type htmlNamespace struct {
	analyzer.NamespaceReport
	ID        string
	Deleted   string
	Types     string
	Chains    []template.HTML // one diagram per cause
	Plot      template.HTML
	Groups    []timelineGroup
	RestEvid  [][]analyzer.Evidence
	ChainEvid [][]analyzer.Evidence
}

func htmlData(r *analyzer.Report) htmlReport {
	d := htmlReport{R: r, Captured: ts(r.Bundle.CapturedAt)}
	if r.Bundle.CapturedAtSource != "" && r.Bundle.CapturedAt != nil {
		d.Captured += " (" + r.Bundle.CapturedAtSource + ")"
	}
	for i, ns := range r.Namespaces {
		h := htmlNamespace{NamespaceReport: ns, ID: fmt.Sprintf("ns-%d", i+1), Deleted: ts(ns.DeletionTimestamp),
			Types: strings.Join(causeTypes(ns), ", "), Groups: groupTimeline(ns.Timeline)}
		for j, c := range ns.Causes {
			h.Chains = append(h.Chains, chainSVG(fmt.Sprintf("%s-c%d", h.ID, j+1), ns, c))
			h.RestEvid = append(h.RestEvid, restEvidence(c))
			var ev []analyzer.Evidence
			for _, l := range c.Chain {
				ev = append(ev, l.Evidence...)
			}
			h.ChainEvid = append(h.ChainEvid, ev)
		}
		h.Plot = timelineSVG(ns, r.Bundle.CapturedAt)
		d.Namespaces = append(d.Namespaces, h)
	}
	return d
}

// svgText wraps text into lines of at most n characters (at most maxLines, the last clipped).
func svgText(s string, n, maxLines int) []string {
	lines := wrapLines(s, n, n)
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = clipText(lines[maxLines-1]+" …", n)
	}
	for i, l := range lines {
		lines[i] = clipText(l, n)
	}
	return lines
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// chainSVG draws a cause's causal chain top-down: the stuck namespace, then each link
// towards the root cause (the last box, highlighted), joined by arrows.
func chainSVG(id string, ns analyzer.NamespaceReport, c analyzer.Cause) template.HTML {
	type box struct{ title, body string }
	boxes := []box{{"Namespace " + ns.Name, "stuck in Terminating since " + ts(ns.DeletionTimestamp)}}
	for _, l := range c.Chain {
		boxes = append(boxes, box{l.Component, l.Finding})
	}
	if len(c.Chain) == 0 {
		boxes = append(boxes, box{c.Type, c.Summary})
	}
	const width, chars, lineH, gap = 760, 110, 15, 26
	var b strings.Builder
	y := 10
	var parts []string
	for i, bx := range boxes {
		lines := svgText(bx.body, chars, 4)
		h := 30 + lineH*len(lines)
		cls := "link"
		switch {
		case i == 0:
			cls = "ns"
		case i == len(boxes)-1:
			cls = "root"
		}
		var p strings.Builder
		fmt.Fprintf(&p, `<g class="box %s"><title>%s</title><rect x="10" y="%d" width="%d" height="%d" rx="6"/>`, cls, esc(bx.title+": "+bx.body), y, width-20, h)
		label := bx.title
		if cls == "root" {
			label = "root cause: " + label
		}
		fmt.Fprintf(&p, `<text class="t" x="22" y="%d">%s</text>`, y+19, esc(clipText(label, 100)))
		for j, l := range lines {
			fmt.Fprintf(&p, `<text x="22" y="%d">%s</text>`, y+19+lineH*(j+1), esc(l))
		}
		p.WriteString(`</g>`)
		y += h
		if i < len(boxes)-1 {
			fmt.Fprintf(&p, `<path class="arrow" d="M %d %d V %d" marker-end="url(#%s-arrow)"/>`, width/2, y+2, y+gap-4, id)
			y += gap
		}
		parts = append(parts, p.String())
	}
	fmt.Fprintf(&b, `<svg class="chain" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="causal chain of %s: %s" viewBox="0 0 %d %d" width="%d" height="%d">`,
		esc(ns.Name), esc(c.Type), width, y+10, width, y+10)
	fmt.Fprintf(&b, `<defs><marker id="%s-arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>`, id)
	b.WriteString(strings.Join(parts, ""))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// timelineSVG plots a namespace's timeline: one lane per component, time on the x
// axis; the deletion is a red vertical line, condition transitions are diamonds, error
// lines are ticks (darker where they pile up) and events are squares; the capture time
// ends the axis.
func timelineSVG(ns analyzer.NamespaceReport, captured *time.Time) template.HTML {
	evs := ns.Timeline
	if len(evs) == 0 {
		return template.HTML(`<p class="muted">No timed event in the bundle for this namespace.</p>`)
	}
	first, last := analyzer.TimelineSpan(evs)
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
		addLane(e.Component)
	}
	const left, right, top, laneH, width = 250, 20, 30, 34, 1000
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
		fmt.Fprintf(&b, `<text class="lanelabel" x="%d" y="%d" text-anchor="end"><title>%s</title>%s</text>`, left-8, y+laneH/2+4, esc(l), esc(clipText(l, 34)))
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
	// markers, errors grouped per lane and pixel column
	type col struct {
		lane, px int
	}
	errCount := map[col]int{}
	errText := map[col]string{}
	var cols []col
	for _, e := range evs {
		xx := x(e.Time)
		y := top + laneH*laneOf[e.Component] + laneH/2
		tip := esc(e.Time.UTC().Format("2006-01-02 15:04:05.000Z") + " " + e.Kind + " " + e.Component + ": " + e.Text)
		switch e.Kind {
		case analyzer.EventDeletion:
			if e.Component == nsLane {
				continue // drawn as the vertical line below
			}
			fmt.Fprintf(&b, `<g class="mark deletion"><title>%s</title><circle cx="%.1f" cy="%d" r="6"/></g>`, tip, xx, y)
		case analyzer.EventCondition:
			fmt.Fprintf(&b, `<g class="mark condition"><title>%s</title><path d="M %.1f %d l 6 6 l -6 6 l -6 -6 z"/></g>`, tip, xx, y-6)
		case analyzer.EventEvent:
			fmt.Fprintf(&b, `<g class="mark event"><title>%s</title><rect x="%.1f" y="%d" width="9" height="9"/></g>`, tip, xx-4.5, y-4)
		default:
			c := col{laneOf[e.Component], int(math.Round(xx / 3))}
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
		fmt.Fprintf(&b, `<g class="deletionline"><title>namespace %s deleted at %s</title><path d="M %.1f %d V %d"/><text x="%.1f" y="%d" text-anchor="middle">deleted %s</text></g>`,
			esc(ns.Name), ts(ns.DeletionTimestamp), xx, top-4, axisY, xx, top-10, ns.DeletionTimestamp.UTC().Format("15:04:05"))
	}
	if captured != nil {
		xx := x(*captured)
		fmt.Fprintf(&b, `<g class="captureline"><title>bundle captured at %s</title><path d="M %.1f %d V %d"/></g>`, ts(captured), xx, top, axisY)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var htmlFuncs = template.FuncMap{
	"loc":  evidenceLoc,
	"meta": evidenceMeta,
	"obj":  objectLine,
	"ts":   ts,
	"join": strings.Join,
	"inc":  func(i int) int { return i + 1 },
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
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1080px;padding:1em 1.5em;color:#1b1f24;background:#fff;line-height:1.45}
h1{font-size:1.6em;margin:.2em 0}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2em;margin-top:1.8em}h3{margin-top:1.4em}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.88em}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.6em .8em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;margin:.6em 0;width:100%}th,td{border:1px solid #d0d7de;padding:.3em .5em;text-align:left;vertical-align:top}th{background:#f6f8fa}
.verdict{border-left:6px solid #cf222e;background:#fff5f5;padding:.7em 1em;border-radius:4px;font-size:1.05em}
.ok{color:#1a7f37}.bad{color:#cf222e;font-weight:bold}.muted{color:#57606a}
.risk-safe{background:#dafbe1;color:#116329}.risk-caution{background:#fff8c5;color:#7d4e00}.risk-destructive{background:#ffebe9;color:#a40e26}
.badge{display:inline-block;border-radius:10px;padding:0 .55em;font-size:.85em;font-weight:600}
details{margin:.5em 0}summary{cursor:pointer;color:#0969da}
ol.ladder>li{margin-bottom:.8em}
svg{max-width:100%;height:auto;display:block;margin:.5em 0}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:12px;fill:#1b1f24}
svg .box rect{fill:#f6f8fa;stroke:#8c959f;stroke-width:1.2}svg .box.ns rect{fill:#ddf4ff;stroke:#0969da}svg .box.root rect{fill:#ffebe9;stroke:#cf222e;stroke-width:2}
svg .box .t{font-weight:bold;font-size:13px}svg .arrow{stroke:#555;stroke-width:2;fill:none}
svg .lane0{fill:#f6f8fa}svg .lane1{fill:#fff}svg .lanelabel{font-size:11.5px}svg .axis,svg .tick{stroke:#8c959f}svg .ticklabel{font-size:11px;fill:#57606a}
svg .deletion circle,svg .deletionline path{stroke:#cf222e;stroke-width:2;fill:#cf222e}svg .deletionline text{fill:#cf222e;font-weight:bold}
svg .condition path{fill:#0969da}svg .event rect{fill:#8250df}svg .error rect{fill:#bc4c00}svg .captureline path{stroke:#57606a;stroke-dasharray:4 3}
.legend span{margin-right:1.2em}.sw{display:inline-block;width:.9em;height:.9em;vertical-align:middle;margin-right:.3em}
</style>
</head>
<body>
<header>
<h1>nsanalyze report</h1>
<p class="muted">Bundle <code>{{.R.Bundle.Path}}</code>, captured {{.Captured}}; read {{.R.Bundle.Objects}} objects from {{.R.Bundle.ObjectFiles}} files and {{len .R.Bundle.LogFiles}} log files.{{if .R.Bundle.KubernetesVersion}} Kubernetes {{.R.Bundle.KubernetesVersion}}.{{end}}</p>
</header>
<section id="summary">
<h2>Summary</h2>
{{if not .Namespaces}}{{if eq .R.State "unknown"}}<p class="unknown"><strong>Namespace state unknown (inconclusive):</strong> {{.R.StateReason}}</p>{{else}}<p class="ok">No namespace is stuck in Terminating. {{.R.StateReason}}</p>{{end}}{{else}}
<table class="summary">
<thead><tr><th>Namespace</th><th>Deleted</th><th>Stuck for</th><th>Causes</th><th>Verdict</th></tr></thead>
<tbody>{{range .Namespaces}}
<tr><td><a href="#{{.ID}}"><code>{{.Name}}</code></a></td><td>{{.Deleted}}</td><td>{{.StuckFor}}</td><td>{{.Types}}</td><td>{{.Verdict}}</td></tr>{{end}}
</tbody></table>{{end}}
{{if or .R.Risks .R.Coverage .R.Warnings}}<p class="muted">Also: {{len .R.Risks}} latent risk(s), {{len .R.Coverage}} coverage gap(s), {{len .R.Warnings}} warning(s) (at the end).</p>{{end}}
</section>
{{range $ns := .Namespaces}}
<section class="namespace" id="{{.ID}}" data-namespace="{{.Name}}">
<h2>Namespace <code>{{.Name}}</code></h2>
<p class="verdict"><strong>Verdict ({{.Types}}):</strong> {{.Verdict}}</p>
<table class="facts">
<tr><th>Deleted</th><td>{{.Deleted}}{{if and .StuckSince (ne .StuckSince "metadata.deletionTimestamp")}} ({{.StuckSince}}){{end}}</td></tr>
{{if .StuckFor}}<tr><th>Stuck for</th><td>{{.StuckFor}} at capture time</td></tr>{{end}}
<tr><th>Phase</th><td>{{.Phase}}</td></tr>
<tr><th>Finalizers</th><td>spec <code>{{join .SpecFinalizers ", "}}</code>, metadata <code>{{join .MetadataFinalizers ", "}}</code></td></tr>
{{if .Source}}<tr><th>Object</th><td><code>{{loc .Source}}</code></td></tr>{{end}}
</table>
{{if .Conditions}}<table class="conditions"><thead><tr><th></th><th>Condition</th><th>Status</th><th>Reason</th><th>Meaning</th></tr></thead><tbody>
{{range .Conditions}}<tr><td>{{if .Problem}}<span class="bad">!!</span>{{else}}<span class="ok">ok</span>{{end}}</td><td><code>{{.Type}}</code></td><td>{{.Status}}</td><td>{{.Reason}}</td><td>{{.Meaning}}{{if and .Problem .Message}}<br><span class="mono">{{.Message}}</span>{{end}}</td></tr>
{{end}}</tbody></table>{{end}}
{{range $i, $c := .Causes}}
<section class="cause" data-cause="{{.Type}}">
<h3>Cause {{inc $i}}: {{.Type}} <span class="muted">(confidence {{.Confidence}})</span></h3>
<p>{{.Summary}}</p>
<h4>Causal chain</h4>
{{index $ns.Chains $i}}
{{with index $ns.ChainEvid $i}}<details class="evidence"><summary>Evidence for the chain ({{len .}})</summary>
{{range .}}<pre><span class="muted">{{meta .}}</span>
{{.Text}}</pre>
{{end}}</details>{{end}}
{{with index $ns.RestEvid $i}}<details class="evidence"><summary>Other evidence ({{len .}})</summary>
{{range .}}<pre><span class="muted">{{meta .}}</span>
{{.Text}}</pre>
{{end}}</details>{{end}}
{{if .Objects}}<ul class="objects">{{range .Objects}}<li><code>{{obj .}}</code></li>{{end}}</ul>{{end}}
{{if .Correlation}}<p><strong>Timing:</strong> {{.Correlation}}</p>{{end}}
{{range .Notes}}<p><strong>Note:</strong> {{.}}</p>{{end}}
</section>
{{end}}
<h3>Timeline</h3>
<p class="legend muted"><span><svg class="sw" viewBox="0 0 10 10"><rect width="3" height="10" x="3.5" fill="#cf222e"/></svg>namespace deletion</span><span><svg class="sw" viewBox="0 0 10 10"><path d="M5 0 L10 5 L5 10 L0 5 z" fill="#0969da"/></svg>condition transition</span><span><svg class="sw" viewBox="0 0 10 10"><rect width="3" height="10" x="3.5" fill="#bc4c00"/></svg>error log line</span><span><svg class="sw" viewBox="0 0 10 10"><rect width="9" height="9" fill="#8250df"/></svg>event</span><span><svg class="sw" viewBox="0 0 10 10"><path d="M5 0 V10" stroke="#57606a" stroke-dasharray="2 2"/></svg>capture time</span></p>
{{.Plot}}
{{if .Timeline}}<details class="timeline-table"><summary>All {{len .Timeline}} timeline events (UTC, repeated lines folded)</summary>
<table><thead><tr><th>Time</th><th>Kind</th><th>Component</th><th>What</th><th>Where</th></tr></thead><tbody>
{{range .Groups}}<tr><td class="mono">{{clock .Time}}</td><td>{{.Kind}}</td><td>{{.Component}}</td><td>{{folded .}}</td><td class="mono">{{.File}}{{if .Line}}:{{.Line}}{{end}}</td></tr>
{{end}}</tbody></table></details>{{end}}
<h3>What to do (safest first)</h3>
<ol class="ladder">
{{range .Remediation}}<li><span class="badge risk-{{.Risk}}">{{.Risk}}</span> {{.Why}}<pre><code>{{.Command}}</code></pre></li>
{{end}}</ol>
{{if .RuledOut}}<h3>Ruled out</h3>
<ul class="ruledout">{{range .RuledOut}}<li><strong>{{.Type}}</strong>: {{.Reason}}</li>{{end}}</ul>{{end}}
</section>
{{end}}
{{if .R.Risks}}<section id="risks"><h2>Latent risks</h2>
<p class="muted">Broken pieces that will hang the next namespace deletion.</p>
<ul>{{range .R.Risks}}<li><strong>{{.Type}}</strong>: {{.Summary}}{{if .Evidence}}<details><summary>Evidence ({{len .Evidence}})</summary>{{range .Evidence}}<pre><span class="muted">{{meta .}}</span>
{{.Text}}</pre>{{end}}</details>{{end}}</li>{{end}}</ul></section>{{end}}
{{if .R.Coverage}}<section id="coverage"><h2>Not in the bundle</h2>
<ul>{{range .R.Coverage}}<li>{{.Missing}}; collect: <code>{{.Collect}}</code></li>{{end}}</ul></section>{{end}}
{{if .R.Warnings}}<section id="warnings"><h2>Warnings</h2>
<p class="muted">Input that could not be read completely.</p>
<ul>{{range .R.Warnings}}<li>{{.String}}</li>{{end}}</ul></section>{{end}}
<footer class="muted"><p>Generated by nsanalyze ({{.R.SchemaVersion}}) from a support bundle, offline.</p></footer>
</body>
</html>
`))
