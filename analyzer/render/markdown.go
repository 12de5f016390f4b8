package render

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// Markdown writes the report for an issue tracker (GitHub, GitLab, Jira with Markdown):
// the summary line and, per independent problem, its root, the namespaces it holds and
// its first safe commands; then each problem once (chain, ladder, timeline), then per
// namespace only what differs, evidence in collapsible <details> blocks and commands
// in fenced code blocks.
func Markdown(w io.Writer, r *findings.Report) error {
	m := &mprinter{w: w}
	v := newView(r)
	m.p("# nsanalyze report\n\n")
	m.p("**%s**\n\n", mdText(r.Summary))
	m.p("%s; %s; bundle %s, %s; %s.\n\n", mdText(generatorLine(r.Generator)),
		mdText(kubeVersion(r.Bundle)), code(r.Bundle.Path), mdText(captureLine(r.Bundle)), mdText(readLine(r.Bundle)))
	m.p("## Summary\n\n")
	if len(r.Namespaces) == 0 {
		if r.State == findings.StateUnknown {
			m.p("**Namespace state unknown (inconclusive):** %s\n\n", mdText(r.StateReason))
		} else {
			m.p("No namespace is stuck in Terminating.")
			if r.StateReason != "" {
				m.p(" %s", mdText(r.StateReason))
			}
			m.p("\n\n")
		}
		m.deleting(r)
	} else {
		m.p("%d namespace%s stuck in Terminating, %d independent problem%s.\n\n", len(r.Namespaces), plural(len(r.Namespaces)),
			len(v.Problems), plural(len(v.Problems)))
		for i, pv := range v.Shown {
			if i < firstScreenProblems {
				m.firstScreen(v, pv)
				continue
			}
			m.problemLine(pv)
			if i == len(v.Shown)-1 {
				m.p("\n")
			}
		}
	}
	if ns := r.NextStep; ns != nil {
		m.p("**Next step for the customer** (`-o reply` writes the note for the ticket): ")
		if ns.Make != "" {
			m.p("send the read-only script (no Secret values) that %s writes; they run:\n\n", code(ns.Make))
		} else {
			m.p("they run the platform's read-only collection:\n\n")
		}
		m.p("%s\n", fence("sh", ns.Command))
	}
	if len(r.Risks) > 0 || len(r.Coverage) > 0 || len(r.Warnings) > 0 {
		m.p("Also: %d latent risk%s, %d coverage gap%s, %d warning%s (see the end of the report).\n\n",
			len(r.Risks), plural(len(r.Risks)), len(r.Coverage), plural(len(r.Coverage)), len(r.Warnings), plural(len(r.Warnings)))
	}
	for _, pv := range v.Full {
		m.problem(v, pv)
	}
	if restPV := len(v.Shown) - len(v.Full); restPV > 0 {
		m.p("## %d more problems\n\nListed on the first screen; their chains and ladders are in the JSON report (-o json).\n\n", restPV)
	}
	if v.Condensed {
		m.p("## Namespaces\n\nWhat each namespace shows of its own (its deletion time and age are listed under its problem).\n\n")
		m.p("| Namespace | Problems | Own conditions and events |\n|---|---|---|\n")
		nss, moreNS := firstOf(r.Namespaces, shownNamespaces)
		for i := range nss {
			ns := &nss[i]
			var parts []string
			if ns.Phase != "Terminating" {
				parts = append(parts, "phase "+ns.Phase)
			}
			if f := finalizersLine(ns); f != "spec kubernetes; metadata none" {
				parts = append(parts, "finalizers "+f)
			}
			for _, c := range problemConditions(ns) {
				parts = append(parts, c.Type+"="+c.Status+" ("+c.Reason+")")
			}
			parts = append(parts, "events: "+digest(v.Own[ns.Name]))
			if len(ns.Problems) != 1 {
				parts = append(parts, "verdict: "+v.verdict(ns))
			}
			m.p("| %s | %s | %s |\n", codeCell(ns.Name), cell(problemIDs(ns)), cell(strings.Join(parts, "; ")))
		}
		m.p("\n")
		if moreNS > 0 {
			m.p("%s\n\n", mdText(moreLine(moreNS, "namespaces")))
		}
		for i := range nss {
			ns := &nss[i]
			m.nsLastResort(ns)
			if len(v.RestRuledOut[ns.Name]) > 0 {
				m.p("**Ruled out for %s:**\n\n", code(ns.Name))
				m.ruledOut(v.RestRuledOut[ns.Name])
			}
		}
	} else {
		for i := range r.Namespaces {
			m.namespace(v, &r.Namespaces[i])
		}
	}
	if len(r.Risks) > 0 {
		m.p("%s", risksHeading(r.Risks, "## Latent risks\n\nBroken pieces that will hang the next namespace deletion.\n\n",
			"## Latent risks, and deletions the bundle names no namespace for\n\nBroken pieces that will hang the next namespace deletion, and deletions under way whose namespace the bundle does not name.\n\n"))
		risks, moreRisks := firstOf(r.Risks, shownRisks)
		for _, rk := range risks {
			m.p("- **%s**: %s\n", mdText(rk.Type), mdText(rk.Summary))
			for i, s := range rk.Fix {
				m.p("\n   %d. **%s**: %s\n\n", i+1, mdText(s.Risk), mdText(s.Why))
				m.p("      %s\n", indentBlock(fence("sh", s.Command), "      "))
			}
		}
		if moreRisks > 0 {
			m.p("- %s\n", mdText(moreLine(moreRisks, "latent risks")))
		}
		m.p("\n")
		var evs []findings.Evidence
		for _, rk := range risks {
			evs = append(evs, rk.Evidence...)
		}
		m.details(fmt.Sprintf("Evidence for the risks (%d)", len(evs)), evs)
	}
	if len(r.Coverage) > 0 {
		m.p("## Not in the bundle\n\n")
		gaps, moreGaps := firstOf(groupGaps(r), shownItems)
		for _, g := range gaps {
			m.p("- %s; collect with:\n\n", mdText(g.Sentence()))
			cmds, rest := firstOf(g.Collect, shownCollect)
			m.p("  %s\n", indentBlock(fence("sh", strings.Join(cmds, "\n")), "  "))
			if rest > 0 {
				m.p("  %s\n\n", mdText(moreLine(rest, "commands")))
			}
		}
		if moreGaps > 0 {
			m.p("- %s\n\n", mdText(moreLine(moreGaps, "gaps")))
		}
	}
	if len(r.Warnings) > 0 {
		m.p("## Warnings\n\nInput that could not be read completely.\n\n")
		ws, moreW := firstOf(r.Warnings, shownWarnings)
		for _, wn := range ws {
			m.p("- %s\n", mdText(wn.String()))
		}
		if moreW > 0 {
			m.p("- %s\n", mdText(moreLine(moreW, "warnings")))
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

// indentBlock indents every line but the first of a block (a list item's content).
func indentBlock(block, indent string) string {
	return strings.ReplaceAll(strings.TrimSuffix(block, "\n"), "\n", "\n"+indent)
}

func (m *mprinter) firstScreen(v *view, pv *problemView) {
	m.p("**%s** %s, confidence %s\n\n", mdText(pv.ID), code(pv.CauseType), mdText(pv.Confidence))
	m.p("- **Root:** %s\n", mdText(pv.Root))
	if pv.Fingerprint != "" {
		m.p("- **Fingerprint:** %s\n", code(pv.Fingerprint))
	}
	for _, k := range firstKnown(pv) {
		m.p("- **Known issue:** %s %s: %s\n", code(k.ID), mdText(k.Title), mdLink(k.URL))
	}
	if len(pv.Namespaces) == 1 {
		pn := pv.Namespaces[0]
		s := deletedPhrase(pn.DeletionTimestamp, pn.DeletionInferred)
		if pn.StuckFor != "" {
			s += ", stuck for " + v.stuckFor(pn.StuckFor)
		}
		m.p("- **Holds:** namespace %s, %s\n", code(pn.Name), mdText(s))
	} else if m.p("- **Holds:** %s", mdText(v.blastRadius(pv))); len(pv.Namespaces) <= firstScreenNames {
		m.p(":\n")
		for _, pn := range pv.Namespaces {
			s := deletedPhrase(pn.DeletionTimestamp, pn.DeletionInferred)
			if pn.StuckFor != "" {
				s += ", stuck for " + v.stuckFor(pn.StuckFor)
			}
			m.p("  - %s: %s\n", code(pn.Name), mdText(s))
		}
	} else {
		names := nsNames(pv)
		more := 0
		if len(names) > 12 {
			more = len(names) - 12
			names = names[:12]
		}
		var cs []string
		for _, n := range names {
			cs = append(cs, code(n))
		}
		m.p(": %s", strings.Join(cs, ", "))
		if more > 0 {
			m.p(" and %d more (all listed under %s)", more, mdText(pv.ID))
		}
		m.p("\n")
	}
	safe := safeSteps(pv)
	if len(safe) == 0 {
		m.p("- **First:** no safe step is known for this cause: see what to do under %s.\n\n", mdText(pv.ID))
		m.similar(pv)
		return
	}
	m.p("- **First (safe):**\n")
	for i, s := range safe {
		m.p("  %d. %s\n\n", i+1, mdText(firstSentence(s)))
		m.p("     %s\n\n", indentBlock(fence("sh", s.Command), "     "))
	}
	m.similar(pv)
}

// similar lists the problems folded under pv, one line each.
func (m *mprinter) similar(pv *problemView) {
	if len(pv.Similar) == 0 {
		return
	}
	m.p("- **Like %s:** %s\n", mdText(pv.ID), mdText(similarHead(pv)))
	lines, more := similarLines(pv)
	for _, l := range lines {
		m.p("  - %s\n", mdText(l))
	}
	if more != "" {
		m.p("  - %s\n", mdText(more))
	}
	m.p("\n")
}

// problemLine is a problem in one list item (the problems beyond the first screen).
func (m *mprinter) problemLine(pv *problemView) {
	s := fmt.Sprintf("%s (%d namespace%s)", shortOf(pv), len(pv.Namespaces), plural(len(pv.Namespaces)))
	if n := len(pv.Similar); n > 0 {
		s += fmt.Sprintf("; and %s more like it", findings.Count(n))
	}
	m.p("- **%s** [%s] %s\n", mdText(pv.ID), mdText(pv.CauseType), mdText(s))
}

func (m *mprinter) problem(v *view, pv *problemView) {
	m.p("## %s: %s (confidence %s), %d namespace%s\n\n", mdText(pv.ID), mdText(pv.CauseType), mdText(pv.Confidence),
		len(pv.Namespaces), plural(len(pv.Namespaces)))
	m.p("> **Root:** %s\n\n", mdText(pv.Root))
	c := pv.Cause
	if c != nil {
		if c.Summary != "" && c.Summary != pv.Root {
			m.p("%s\n\n", mdText(c.Summary))
		}
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
		lines, more := objectLines(c)
		for _, l := range lines {
			m.p("- **Object:** %s\n", code(l))
		}
		if more != "" {
			m.p("- %s\n", mdText(more))
		}
		m.p("\n")
	}
	m.p("| Namespace | Deleted | Stuck for |\n|---|---|---|\n")
	held, moreHeld := firstOf(pv.Namespaces, shownItems)
	for _, pn := range held {
		m.p("| %s | %s | %s |\n", codeCell(pn.Name), cell(deletedAt(pn.DeletionTimestamp, pn.DeletionInferred)), cell(orDash(v.stuckFor(pn.StuckFor))))
	}
	m.p("\n")
	if moreHeld > 0 {
		m.p("%s\n\n", mdText(moreLine(moreHeld, "namespaces")))
	}
	if len(pv.Chain) > 0 {
		m.p("**Causal chain** (from the namespace to the root cause):\n\n")
		for j, l := range pv.Chain {
			mark := ""
			switch {
			case l.Root:
				mark = "**root** "
			case l.Fault:
				mark = "**fault** "
			}
			m.p("%d. %s**%s**: %s\n", j+1, mark, mdText(l.Component), mdText(l.Finding))
			if l.Fix != nil {
				if k := stepIndex(pv, l.Fix.Command); k > 0 {
					m.p("   - fix: step %d of what to do below\n", k)
				} else {
					m.p("   - fix (%s): %s\n\n     %s\n", mdText(l.Fix.Risk), mdText(l.Fix.Why), indentBlock(fence("sh", l.Fix.Command), "     "))
				}
			}
		}
		m.p("\n")
		var evs []findings.Evidence
		n := 0
		for _, l := range pv.Chain {
			le, _ := firstOf(l.Evidence, shownLinkEvidence)
			evs = append(evs, le...)
			n += len(l.Evidence)
		}
		summary := fmt.Sprintf("Evidence for the chain (%d)", n)
		if n > len(evs) {
			summary = fmt.Sprintf("Evidence for the chain (%d of %d; every one is in the JSON report)", len(evs), n)
		}
		m.details(summary, evs)
	}
	if c != nil {
		if rest := restEvidence(*c); len(rest) > 0 {
			shown, _ := firstOf(rest, shownItems)
			m.details(fmt.Sprintf("Other evidence (%d)", len(rest)), shown)
		}
	} else if len(pv.Evidence) > 0 {
		shown, _ := firstOf(pv.Evidence, shownItems)
		m.details(fmt.Sprintf("Evidence (%d)", len(pv.Evidence)), shown)
	}
	if pv.Correlation != "" {
		m.p("**Timing:** %s\n\n", mdText(pv.Correlation))
	}
	if c != nil {
		for _, fv := range c.Verdicts {
			m.p("**Finalizer %s:** %s\n\n", mdText(fv.Finalizer), mdText(verdictLine(fv)))
		}
		for _, n := range c.Notes {
			m.p("**Note:** %s\n\n", mdText(n))
		}
	}
	m.p("### What to do about %s (safest first)\n\n", mdText(pv.ID))
	rungs, moreRungs := firstOf(pv.Remediation, shownItems)
	for i, s := range rungs {
		m.p("%d. **%s**: %s\n\n", i+1, mdText(s.Risk), mdText(s.Why+pv.stepNote(s)))
		m.p("   %s\n\n", indentBlock(fence("sh", s.Command), "   "))
	}
	if moreRungs > 0 {
		m.p("%s\n\n", mdText(moreLine(moreRungs, "steps")))
	}
	if len(pv.LastResort) > 0 {
		last := pv.LastResort[0]
		why := last.Why
		if len(pv.Remediation) == 0 {
			why = gatedWhy(last, noStepAbove)
		}
		m.p("%d. **%s**: %s", len(pv.Remediation)+1, last.Risk, mdText(why))
		var cmds []string
		if loop, ok := lastResortLoop(pv); ok {
			m.p(" For the %d namespaces, one loop:", len(pv.LastResort))
			cmds = []string{loop}
		} else {
			if len(pv.LastResort) > 1 {
				m.p(" For each of the %d namespaces:", len(pv.LastResort))
			}
			for _, s := range pv.LastResort {
				cmds = append(cmds, s.Command)
			}
		}
		m.p("\n\n   %s\n\n", indentBlock(fence("sh", strings.Join(cmds, "\n")), "   "))
	}
	if note := similarLadderNote(pv); note != "" {
		m.p("%s\n\n", mdText(note))
	}
	if len(pv.Shared) > 0 {
		m.p("### Timeline around %s\n\n", mdText(pv.ID))
		m.timeline(pv.Shared)
	}
	if len(pv.RuledOut) > 0 {
		if len(pv.NS) > 1 {
			m.p("### Ruled out (for all %d namespaces)\n\n", len(pv.NS))
		} else {
			m.p("### Ruled out\n\n")
		}
		m.ruledOut(pv.RuledOut)
	}
}

func (m *mprinter) ruledOut(rs []findings.RuledOut) {
	for _, r := range rs {
		m.p("- **%s**: %s\n", mdText(r.Type), mdText(r.Reason))
	}
	m.p("\n")
}

func (m *mprinter) timeline(evs []findings.TimelineEvent) {
	groups, skipped := clipTimeline(groupTimeline(evs))
	m.p("<details><summary>%d event%s (UTC), repeated lines folded</summary>\n\n", len(evs), plural(len(evs)))
	m.p("| Time | Kind | Component | What |\n|---|---|---|---|\n")
	heads, texts, rooms := make([]string, len(groups)), make([]string, len(groups)), make([]int, len(groups))
	for i, g := range groups {
		heads[i] = fmt.Sprintf("| %s | %s | %s |", g.Time.UTC().Format("2006-01-02 15:04:05"), cell(g.Kind), cell(g.Component))
		texts[i] = g.Text
		if g.Count > 1 {
			texts[i] = fmt.Sprintf("x%d until %s: %s", g.Count, g.Last.UTC().Format("15:04:05"), texts[i])
		}
		rooms[i] = 240
	}
	clipped := clipRows(heads, texts, rooms)
	for i := range groups {
		if skipped > 0 && i == len(groups)/2 {
			m.p("| | | | %s |\n", cell(moreLine(skipped, "timeline entries")))
		}
		m.p("%s %s |\n", heads[i], cell(clipped[i]))
	}
	m.p("\n</details>\n\n")
}

// nsLastResort writes the /finalize step of a namespace held by several problems.
func (m *mprinter) nsLastResort(ns *findings.NamespaceReport) {
	if len(ns.Problems) == 1 {
		return
	}
	if s, ok := lastResort(ns); ok {
		why := s.Why
		if len(ns.Problems) > 1 {
			why = afterSteps(s, ns)
		}
		m.p("**Last resort for %s** (%s): %s\n\n%s\n", code(ns.Name), mdText(s.Risk), mdText(why), fence("sh", s.Command))
	}
}

func (m *mprinter) namespace(v *view, ns *findings.NamespaceReport) {
	m.p("## Namespace %s (%s)\n\n", code(ns.Name), mdText(problemIDs(ns)))
	if len(ns.Problems) != 1 {
		m.p("> **Verdict:** %s\n\n", mdText(v.verdict(ns)))
	}
	m.p("- **Deleted:** %s\n", mdText(v.nsFacts(ns)))
	if ns.DeletionInferred {
		m.p("- **Since:** %s\n", mdText(ns.StuckSince))
	}
	m.p("- **Finalizers:** %s\n", mdText(finalizersLine(ns)))
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
	if own := v.Own[ns.Name]; len(own) > 0 {
		m.p("### Timeline of %s\n\n", code(ns.Name))
		m.timeline(own)
	}
	m.nsLastResort(ns)
	if len(v.RestRuledOut[ns.Name]) > 0 {
		m.p("### Ruled out for %s\n\n", code(ns.Name))
		m.ruledOut(v.RestRuledOut[ns.Name])
	}
}

// details writes evidence in a collapsible block: one fenced block, file:line first.
func (m *mprinter) details(summary string, evs []findings.Evidence) {
	if len(evs) == 0 {
		return
	}
	var b strings.Builder
	for i, e := range evs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(evidenceMeta(e) + "\n")
		b.WriteString("> " + strings.ReplaceAll(clipProse(e.Text, 1000), "\n", " ") + "\n")
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
// escaped (shellsafe.EscapeLine).
func code(s string) string {
	if s == "" {
		return "(none)"
	}
	s = shellsafe.EscapeLine(s)
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
// spaces, control and invisible characters escapes (shellsafe.EscapeText).
func mdText(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	s = mdEscaper.Replace(shellsafe.EscapeText(s))
	// a line that starts with "-", "+", "=" or "1." is not a list item or heading
	// underline here (values are never at the start of a line, but stay safe)
	if len(s) > 0 && strings.ContainsRune("-+=", rune(s[0])) {
		s = `\` + s
	}
	return s
}

// MarkdownText is the one Markdown escaper of prose (mdText), for other writers of
// Markdown (nsanalyze diff).
func MarkdownText(s string) string { return mdText(s) }

// MarkdownCode is a code span for a table cell (codeCell), for other writers of Markdown.
func MarkdownCode(s string) string { return codeCell(s) }

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

// mdLink writes a known issue's URL (from the catalog, never from the bundle, and
// validated there: https, no space, bracket, parenthesis or angle bracket) as an
// autolink; anything else is only shown as code.
func mdLink(u string) string {
	if strings.HasPrefix(u, "https://") && !strings.ContainsAny(u, " <>()[]`\"'\\") && !shellsafe.NeedsEscape(u) {
		return "<" + u + ">"
	}
	return code(u)
}
