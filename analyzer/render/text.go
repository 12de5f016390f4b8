package render

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
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

// Width limits of the text report: COLUMNS outside them is clamped.
const (
	MinTextWidth = 60
	MaxTextWidth = 200
)

// ClampWidth returns the text width for a wanted width: TextWidth when unset (0),
// else within MinTextWidth..MaxTextWidth.
func ClampWidth(w int) int {
	switch {
	case w <= 0:
		return TextWidth
	case w < MinTextWidth:
		return MinTextWidth
	case w > MaxTextWidth:
		return MaxTextWidth
	}
	return w
}

// TextWith writes the report for a terminal or a ticket, laid out for o.Width columns
// (commands are never wrapped). The first screen is the summary line, then for each
// independent problem its root, the namespaces it holds and the first safe commands.
// Then each problem once (chain, evidence, ladder with one last resort for all its
// namespaces, timeline, ruled-out causes), then per namespace only what differs, then
// the latent risks with their fix, coverage gaps and warnings of the whole bundle.
func TextWith(w io.Writer, r *findings.Report, o Options) error {
	p := &tprinter{w: w, color: o.Color, width: ClampWidth(o.Width), inline: findings.InlineCommands(r)}
	v := newView(r)
	p.line(p.c(sBold, "nsanalyze report: "+r.Bundle.Path))
	p.wrap("", "", p.c(sBold, r.Summary))
	p.wrap("", "", fmt.Sprintf("%s; %s; %s; %s.",
		generatorLine(r.Generator), kubeVersion(r.Bundle), captureLine(r.Bundle), readLine(r.Bundle)))
	p.line("")
	if len(r.Namespaces) == 0 {
		if r.State == findings.StateUnknown {
			p.wrap("", "", p.c(sYellow+sBold, "Namespace state unknown (inconclusive):")+" "+r.StateReason)
		} else {
			p.line(p.c(sGreen+sBold, "No namespace is stuck in Terminating."))
			if r.StateReason != "" {
				p.wrap("", "", r.StateReason)
			}
		}
		p.deleting(r)
	} else {
		n := len(v.Problems)
		p.line(p.c(sRed+sBold, fmt.Sprintf("%d namespace%s stuck in Terminating, %d independent problem%s:",
			len(r.Namespaces), plural(len(r.Namespaces)), n, plural(n))))
		for i, pv := range v.Shown {
			if i < firstScreenProblems {
				p.firstScreen(v, pv)
				p.similar(pv)
				continue
			}
			if i == firstScreenProblems {
				p.line("")
			}
			p.problemLine(pv)
		}
	}
	if ns := r.NextStep; ns != nil {
		p.line("")
		p.line(p.c(sBold, "Next step for the customer (-o reply writes the note for the ticket):"))
		if ns.Make != "" {
			p.wrap("  ", "  ", "send the read-only script (no Secret values) that `"+ns.Make+"` writes; they run:")
		} else {
			p.wrap("  ", "  ", "they run the platform's read-only collection:")
		}
		p.command("    ", ns.Command)
	}
	if len(r.Risks) > 0 || len(r.Coverage) > 0 || len(r.Warnings) > 0 {
		p.line("")
		p.wrap("", "", fmt.Sprintf("Also: %d latent risk%s, %d coverage gap%s, %d warning%s (at the end).",
			len(r.Risks), plural(len(r.Risks)), len(r.Coverage), plural(len(r.Coverage)), len(r.Warnings), plural(len(r.Warnings))))
	}
	for _, pv := range v.Full {
		p.problem(v, pv)
	}
	if rest := v.Shown[len(v.Full):]; len(rest) > 0 {
		p.heading(fmt.Sprintf("%d more problems (chains and ladders in the JSON report)", len(rest)))
		for _, pv := range rest {
			p.problemLine(pv)
		}
	}
	if v.Condensed {
		p.heading(fmt.Sprintf("Namespaces (%d): what each one shows of its own", len(r.Namespaces)))
		nss, more := firstOf(r.Namespaces, shownNamespaces)
		for i := range nss {
			p.nsCondensed(v, &nss[i])
		}
		if more > 0 {
			p.line("")
			p.wrap("", "", moreLine(more, "namespaces"))
		}
	} else {
		for i := range r.Namespaces {
			p.namespace(v, &r.Namespaces[i])
		}
	}
	if len(r.Risks) > 0 {
		p.heading(risksHeading(r.Risks, "Latent risks (will hang the next namespace deletion)", "Latent risks, and deletions the bundle names no namespace for"))
		risks, more := firstOf(r.Risks, shownRisks)
		for _, rk := range risks {
			p.wrap("- ", "  ", p.c(sYellow, "["+rk.Type+"]")+" "+rk.Summary)
			for _, e := range rk.Evidence {
				p.evidence("    ", e)
			}
			if len(rk.Fix) > 0 {
				p.line("  " + p.c(sBold, "Fix (safest first):"))
				p.ladder("  ", rk.Fix)
			}
		}
		if more > 0 {
			p.wrap("- ", "  ", moreLine(more, "latent risks"))
		}
	}
	if len(r.Coverage) > 0 {
		p.heading("Not in the bundle (collect for a complete diagnosis)")
		gaps, more := firstOf(groupGaps(r), shownItems)
		for _, g := range gaps {
			p.wrap("- ", "  ", g.Sentence()+"; collect with:")
			cmds, rest := firstOf(g.Collect, shownCollect)
			for _, c := range cmds {
				p.command("    ", c)
			}
			if rest > 0 {
				p.wrap("    ", "    ", moreLine(rest, "commands"))
			}
		}
		if more > 0 {
			p.wrap("- ", "  ", moreLine(more, "gaps"))
		}
	}
	if len(r.Warnings) > 0 {
		p.heading("Warnings (input that could not be read completely)")
		ws, more := firstOf(r.Warnings, shownWarnings)
		for _, wn := range ws {
			p.wrap("- ", "  ", wn.String())
		}
		if more > 0 {
			p.wrap("- ", "  ", moreLine(more, "warnings"))
		}
	}
	return p.err
}

// problemLine is a problem in one entry (the problems beyond those shown in full).
func (p *tprinter) problemLine(pv *problemView) {
	s := pv.CauseType + "] " + shortOf(pv) + fmt.Sprintf(" (%d namespace%s)", len(pv.Namespaces), plural(len(pv.Namespaces)))
	if n := len(pv.Similar); n > 0 {
		s += fmt.Sprintf("; and %s more like it", findings.Count(n))
	}
	p.wrap(fmt.Sprintf("%-4s", pv.ID)+"[", "      ", s)
}

// similar lists the problems folded under pv, one line each.
func (p *tprinter) similar(pv *problemView) {
	if len(pv.Similar) == 0 {
		return
	}
	p.wrap("    Like   ", "           ", similarHead(pv))
	lines, more := similarLines(pv)
	for _, l := range lines {
		p.wrap("           - ", "             ", l)
	}
	if more != "" {
		p.wrap("           ", "           ", more)
	}
}

type tprinter struct {
	w     io.Writer
	color bool
	width int
	err   error
	// inline are the commands the analyzer wrote inside its sentences: each stays whole
	// on a line (findings.InlineCommands)
	inline []string
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

// wrap prints text wrapped at the width: the first line after first, the others after indent.
// Words longer than a line are kept whole (commands and paths stay copyable).
func (p *tprinter) wrap(first, indent, text string) {
	for _, l := range wrapLines(text, p.width-visibleLen(first), p.width-visibleLen(indent), p.inline...) {
		p.line(first + l)
		first = indent
	}
}

// wrapLines splits text into lines of at most w1 (first) and w visible characters,
// keeping each occurrence of a whole command of keep on one line.
func wrapLines(text string, w1, w int, keep ...string) []string {
	var out []string
	cur, curLen, limit := "", 0, w1
	for _, word := range proseWords(text, keep) {
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

// proseWords splits text into the words wrapping may break between, except inside a
// command of keep (the commands the analyzer wrote into its sentences, a structured
// list: the words around them are never read): each occurrence is one word, with
// what touches it (a parenthesis, a full stop), so it goes whole on a line of its own
// when it does not fit.
func proseWords(text string, keep []string) []string {
	var held []bool // held[i]: byte i is inside a command of keep
	for _, k := range keep {
		if k == "" {
			continue
		}
		for from := 0; ; {
			i := strings.Index(text[from:], k)
			if i < 0 {
				break
			}
			if held == nil {
				held = make([]bool, len(text))
			}
			for j := from + i; j < from+i+len(k); j++ {
				held[j] = true
			}
			from += i + len(k)
		}
	}
	if held == nil {
		return strings.Fields(text)
	}
	var out []string
	start := -1
	for i, r := range text {
		space := unicode.IsSpace(r) && !held[i]
		switch {
		case space && start >= 0:
			out = append(out, strings.Join(strings.Fields(text[start:i]), " "))
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.Join(strings.Fields(text[start:]), " "))
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
	if visibleLen(title)+8 > p.width {
		p.wrap(p.c(sBold+sCyan, "== "), "   ", p.c(sBold+sCyan, title))
		return
	}
	p.line(p.c(sBold+sCyan, "== "+title+" "+strings.Repeat("=", max(3, p.width-4-visibleLen(title)))))
}

func (p *tprinter) sub(title string) {
	p.line("")
	if visibleLen(title)+8 > p.width {
		p.wrap(p.c(sBold, "-- "), "   ", p.c(sBold, title))
		return
	}
	p.line(p.c(sBold, "-- "+title+" "+strings.Repeat("-", max(3, p.width-4-visibleLen(title)))))
}

func (p *tprinter) evidence(indent string, e findings.Evidence) {
	p.wrap(indent, indent+"  ", p.c(sDim, evidenceMeta(e)))
	text := e.Text
	if len([]rune(text)) > 400 {
		text = clipProse(text, 400)
	}
	text = strings.ReplaceAll(text, "\t", " ")
	p.wrap(indent+"  > ", indent+"    ", text)
}
