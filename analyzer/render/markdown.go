package render

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// Markdown writes the report for an issue tracker (GitHub, GitLab, Jira with Markdown):
// a summary table, one section per namespace, evidence in collapsible <details> blocks
// and commands in fenced code blocks.
func Markdown(w io.Writer, r *analyzer.Report) error {
	m := &mprinter{w: w}
	m.p("# nsanalyze report\n\n")
	cap := "captured " + ts(r.Bundle.CapturedAt)
	if r.Bundle.CapturedAt == nil {
		cap = "capture time unknown"
	} else if r.Bundle.CapturedAtSource != "" {
		cap += " (" + mdText(r.Bundle.CapturedAtSource) + ")"
	}
	m.p("Bundle %s, %s; read %d objects from %d files and %d log files.\n\n", code(r.Bundle.Path), cap,
		r.Bundle.Objects, r.Bundle.ObjectFiles, len(r.Bundle.LogFiles))
	m.p("## Summary\n\n")
	if len(r.Namespaces) == 0 {
		if r.State == analyzer.StateUnknown {
			m.p("**Namespace state unknown (inconclusive):** %s\n\n", mdText(r.StateReason))
		} else {
			m.p("No namespace is stuck in Terminating.")
			if r.StateReason != "" {
				m.p(" %s", mdText(r.StateReason))
			}
			m.p("\n\n")
		}
	} else {
		m.p("| Namespace | Stuck for | Causes | Confidence | Verdict |\n|---|---|---|---|---|\n")
		for _, ns := range r.Namespaces {
			var conf []string
			for _, c := range ns.Causes {
				conf = append(conf, c.Confidence)
			}
			m.p("| %s | %s | %s | %s | %s |\n", codeCell(ns.Name), cell(orDash(ns.StuckFor)), cell(strings.Join(causeTypes(ns), ", ")),
				cell(strings.Join(conf, ", ")), cell(clipText(ns.Verdict, 300)))
		}
		m.p("\n")
	}
	if len(r.Risks) > 0 || len(r.Coverage) > 0 || len(r.Warnings) > 0 {
		m.p("Also: %d latent risk(s), %d coverage gap(s), %d warning(s) (see the end of the report).\n\n",
			len(r.Risks), len(r.Coverage), len(r.Warnings))
	}
	for _, ns := range r.Namespaces {
		m.namespace(ns)
	}
	if len(r.Risks) > 0 {
		m.p("## Latent risks\n\nBroken pieces that will hang the next namespace deletion.\n\n")
		for _, rk := range r.Risks {
			m.p("- **%s**: %s\n", mdText(rk.Type), mdText(rk.Summary))
		}
		m.p("\n")
		var evs []analyzer.Evidence
		for _, rk := range r.Risks {
			evs = append(evs, rk.Evidence...)
		}
		m.details(fmt.Sprintf("Evidence for the risks (%d)", len(evs)), evs)
	}
	if len(r.Coverage) > 0 {
		m.p("## Not in the bundle\n\n")
		for _, g := range r.Coverage {
			m.p("- %s; collect: %s\n", mdText(g.Missing), code(g.Collect))
		}
		m.p("\n")
	}
	if len(r.Warnings) > 0 {
		m.p("## Warnings\n\nInput that could not be read completely.\n\n")
		for _, wn := range r.Warnings {
			m.p("- %s\n", mdText(wn.String()))
		}
		m.p("\n")
	}
	return m.err
}

type mprinter struct {
	w   io.Writer
	err error
}

func (m *mprinter) p(format string, args ...any) {
	if m.err != nil {
		return
	}
	_, m.err = fmt.Fprintf(m.w, format, args...)
}

func (m *mprinter) namespace(ns analyzer.NamespaceReport) {
	m.p("## Namespace %s\n\n", code(ns.Name))
	m.p("> **Verdict** (%s): %s\n\n", mdText(strings.Join(causeTypes(ns), ", ")), mdText(ns.Verdict))
	since := mdText(ts(ns.DeletionTimestamp))
	if ns.StuckSince != "" && ns.StuckSince != "metadata.deletionTimestamp" {
		since += " (" + mdText(ns.StuckSince) + ")"
	}
	m.p("- **Deleted:** %s\n", since)
	if ns.StuckFor != "" {
		m.p("- **Stuck for:** %s at capture time\n", mdText(ns.StuckFor))
	}
	m.p("- **Phase:** %s\n", mdText(orNone(ns.Phase)))
	m.p("- **Finalizers:** spec %s, metadata %s\n", code(list(ns.SpecFinalizers)), code(list(ns.MetadataFinalizers)))
	if ns.Source != nil {
		m.p("- **Object:** %s\n", code(evidenceLoc(*ns.Source)))
	}
	m.p("\n")
	if len(ns.Conditions) > 0 {
		m.p("| | Condition | Status | Reason | Meaning |\n|---|---|---|---|---|\n")
		for _, c := range ns.Conditions {
			mark := "ok"
			if c.Problem {
				mark = "**!!**"
			}
			m.p("| %s | %s | %s | %s | %s |\n", mark, codeCell(c.Type), cell(c.Status), cell(c.Reason), cell(c.Meaning))
		}
		m.p("\n")
	}
	for i, c := range ns.Causes {
		m.p("### Cause %d: %s (confidence %s)\n\n", i+1, mdText(c.Type), mdText(c.Confidence))
		m.p("%s\n\n", mdText(c.Summary))
		item := func(name string, vals []string) {
			if len(vals) == 0 {
				return
			}
			var cs []string
			for _, v := range vals {
				cs = append(cs, code(v))
			}
			m.p("- **%s:** %s\n", name, strings.Join(cs, ", "))
		}
		item("Group/versions", c.GroupVersions)
		item("APIServices", c.APIServices)
		item("Webhooks", c.Webhooks)
		item("Finalizers", c.Finalizers)
		for _, o := range c.Objects {
			m.p("- **Object:** %s\n", code(objectLine(o)))
		}
		m.p("\n")
		if len(c.Chain) > 0 {
			m.p("**Causal chain** (from the namespace to the root cause):\n\n")
			for j, l := range c.Chain {
				m.p("%d. **%s**: %s\n", j+1, mdText(l.Component), mdText(l.Finding))
			}
			m.p("\n")
			var evs []analyzer.Evidence
			for _, l := range c.Chain {
				evs = append(evs, l.Evidence...)
			}
			m.details(fmt.Sprintf("Evidence for the chain (%d)", len(evs)), evs)
		}
		if rest := restEvidence(c); len(rest) > 0 {
			m.details(fmt.Sprintf("Other evidence (%d)", len(rest)), rest)
		}
		if c.Correlation != "" {
			m.p("**Timing:** %s\n\n", mdText(c.Correlation))
		}
		for _, n := range c.Notes {
			m.p("**Note:** %s\n\n", mdText(n))
		}
	}
	if len(ns.Timeline) > 0 {
		m.p("### Timeline\n\n")
		groups := groupTimeline(ns.Timeline)
		m.p("<details><summary>%d events (UTC), repeated lines folded</summary>\n\n", len(ns.Timeline))
		m.p("| Time | Kind | Component | What |\n|---|---|---|---|\n")
		for _, g := range groups {
			text := g.Text
			if g.Count > 1 {
				text = fmt.Sprintf("x%d until %s: %s", g.Count, g.Last.UTC().Format("15:04:05"), text)
			}
			m.p("| %s | %s | %s | %s |\n", g.Time.UTC().Format("2006-01-02 15:04:05"), cell(g.Kind), cell(g.Component), cell(clipText(text, 240)))
		}
		m.p("\n</details>\n\n")
	}
	m.p("### What to do (safest first)\n\n")
	for i, s := range ns.Remediation {
		m.p("%d. **%s**: %s\n\n", i+1, mdText(s.Risk), mdText(s.Why))
		m.p("   %s\n\n", strings.ReplaceAll(strings.TrimSuffix(fence("sh", s.Command), "\n"), "\n", "\n   "))
	}
	if len(ns.RuledOut) > 0 {
		m.p("### Ruled out\n\n")
		for _, r := range ns.RuledOut {
			m.p("- **%s**: %s\n", mdText(r.Type), mdText(r.Reason))
		}
		m.p("\n")
	}
}

// details writes evidence in a collapsible block: one fenced block, file:line first.
func (m *mprinter) details(summary string, evs []analyzer.Evidence) {
	if len(evs) == 0 {
		return
	}
	var b strings.Builder
	for i, e := range evs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(evidenceMeta(e) + "\n")
		b.WriteString("> " + strings.ReplaceAll(clipText(e.Text, 1000), "\n", " ") + "\n")
	}
	m.p("<details><summary>%s</summary>\n\n%s\n\n</details>\n\n", htmlEscape(summary), strings.TrimSuffix(fence("text", b.String()), "\n"))
}

// fence puts text in a fenced code block longer than any backtick run inside it.
func fence(lang, text string) string {
	n := 3
	for _, run := range backticks.FindAllString(text, -1) {
		n = max(n, len(run)+1)
	}
	f := strings.Repeat("`", n)
	return f + lang + "\n" + strings.TrimSuffix(text, "\n") + "\n" + f + "\n"
}

var backticks = regexp.MustCompile("`+")

// code renders an inline code span that survives backticks inside: the fence is one
// backtick longer than the longest run of them, line breaks are shown as `\n` (a
// newline would end the span, and a blank line the paragraph, letting the rest be read
// as Markdown: headings, links, images, HTML) and control or invisible characters are
// escaped (analyzer.EscapeLine).
func code(s string) string {
	if s == "" {
		return "(none)"
	}
	s = analyzer.EscapeLine(s)
	n := 1
	for _, run := range backticks.FindAllString(s, -1) {
		n = max(n, len(run)+1)
	}
	f := strings.Repeat("`", n)
	if n > 1 || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// codeCell is code for a table cell: GitHub-flavoured tables split rows at every
// unescaped "|", inside code spans too, so it is written `\|` (shown as "|").
func codeCell(s string) string { return strings.ReplaceAll(code(s), "|", `\|`) }

// mdEscaper escapes what Markdown would read as markup in prose: emphasis, code,
// links and images ([, ], !), raw HTML and entities (<, >, &), headings, tables,
// strikethrough, and list or quote markers.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "!", `\!`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "#", `\#`, "|", `\|`, "~", `\~`)

// mdText escapes prose from the report for Markdown, on one line: line breaks become
// spaces, control and invisible characters escapes (analyzer.EscapeText).
func mdText(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	s = mdEscaper.Replace(analyzer.EscapeText(s))
	// a line that starts with "-", "+", "=" or "1." is not a list item or heading
	// underline here (values are never at the start of a line, but stay safe)
	if len(s) > 0 && strings.ContainsRune("-+=", rune(s[0])) {
		s = `\` + s
	}
	return s
}

// cell escapes prose for a table cell.
func cell(s string) string { return mdText(s) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func htmlEscape(s string) string { return htmlEscaper.Replace(s) }
