package text

import (
	"strings"
	"unicode/utf8"
)

// One normalisation layer undoes, before any reader runs, what tickets, chat tools,
// terminals and web pages do to text: the readers then see the lines kubectl printed.
// Each step is tolerant by design, not one case per paste:
//
//   - characters: non-breaking and other Unicode spaces become spaces, smart quotes
//     ASCII quotes, zero-width characters go; leading tabs become two spaces each (YAML
//     and describe only need the order of indentation, which this keeps);
//   - frames: box-drawing borders (k9s panes, `│ … │`) and Markdown table pipes are
//     stripped, border-only lines, Markdown code fences and blockquote markers dropped;
//     Markdown backslash escapes (`\_`, `\*`, `\[`) are undone;
//   - elisions: a line that only says something was cut (`...`, `…`, `[...]`,
//     `<snip>`, `(truncated)`) is dropped, so the block around it reads on;
//   - terminal wraps: a line as long as the widest line of the file (the terminal's
//     width), followed by a line that starts nothing of its own, is joined with it
//     without a space (the terminal cut it, mid-word as often as not).
//
// normalize returns the lines the readers see and, for each, the line of the file
// (1-based) it starts on, so every record and warning still cites the file's own line.
func normalize(raw []string) (lines []string, orig []int) {
	lines = make([]string, 0, len(raw))
	orig = make([]int, 0, len(raw))
	quoted := quotedBlock(raw)
	for i, l := range raw {
		l = normChars(l)
		if quoted[i] {
			l = strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")
		}
		l, keep := unframe(l)
		if !keep || elision(l) {
			continue
		}
		lines = append(lines, l)
		orig = append(orig, i+1)
	}
	// the terminal's cut is measured on the lines as copied, trailing spaces included
	// (a cut inside a table's padding); the readers see them trimmed
	lines, orig = unwrap(dedent(lines), orig)
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return lines, orig
}

// dedent removes an indentation a whole paste, or a block of it, was shifted by (a
// Markdown code block, an e-mail quote, a list item): the file's common indentation,
// and that of a block between blank lines whose first line starts something (a
// command, a table, a describe block, a document, a log line) once unshifted.
func dedent(lines []string) []string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			if ind := indentOf(l); common < 0 || ind < common {
				common = ind
			}
		}
	}
	if common > 0 {
		for i, l := range lines {
			if len(l) >= common {
				lines[i] = l[common:]
			}
		}
	}
	for i := 0; i < len(lines); {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		j, m := i, -1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			if ind := indentOf(lines[j]); m < 0 || ind < m {
				m = ind
			}
		}
		if first := lines[i]; m > 0 && indentOf(first) == m && startsBlock(first[m:]) && (i == 0 || !yamlOpen(lines[:i])) {
			for k := i; k < j; k++ {
				lines[k] = lines[k][m:]
			}
		}
		i = j
	}
	return lines
}

// startsBlock reports a line that starts something of its own.
func startsBlock(l string) bool {
	t := strings.TrimSpace(l)
	return parseCommand(l, 0) != nil || headerColumns(l) != nil || strings.HasPrefix(l, "Name:") || reYAMLTop.MatchString(l) ||
		stderrLine(l) || jsonStart(t) || logLine(l)
}

// yamlOpen reports whether the last non-blank line before a blank line is inside a YAML
// document at the margin (a block after it may be the document's own continuation).
func yamlOpen(before []string) bool {
	for k := len(before) - 1; k >= 0; k-- {
		if strings.TrimSpace(before[k]) == "" {
			continue
		}
		return indentOf(before[k]) > 0 && reYAMLKey.MatchString(strings.TrimSpace(before[k]))
	}
	return false
}

// normChars replaces the characters editors and web pages substitute.
func normChars(l string) string {
	ascii := true
	for i := 0; i < len(l); i++ {
		if l[i] >= 0x80 || l[i] == '\\' {
			ascii = false
			break
		}
	}
	if ascii && !strings.HasPrefix(l, "\t") {
		return l
	}
	var b strings.Builder
	b.Grow(len(l))
	lead := true
	for i := 0; i < len(l); {
		r, n := utf8.DecodeRuneInString(l[i:])
		if lead && r != '\t' && r != ' ' {
			lead = false
		}
		switch {
		case r == '\t' && lead:
			b.WriteString("  ")
		case r == '\u00a0' || r == '\u2007' || r == '\u202f' || r >= '\u2000' && r <= '\u200a' || r == '\u3000':
			b.WriteByte(' ')
		case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff':
		case r == '\u2018' || r == '\u2019' || r == '\u201a' || r == '\u201b' || r == '\u2032':
			b.WriteByte('\'')
		case r == '\u201c' || r == '\u201d' || r == '\u201e' || r == '\u201f' || r == '\u2033':
			b.WriteByte('"')
		case r == '\\' && i+1 < len(l) && strings.IndexByte("_*[]#<>|`", l[i+1]) >= 0:
			// a Markdown escape (none of these is an escape in JSON or Go strings)
			b.WriteByte(l[i+1])
			n = 2
		default:
			b.WriteString(l[i : i+n])
		}
		i += n
	}
	return b.String()
}

// quotedBlock marks the lines of Markdown blockquotes: two or more lines in a row that
// start with ">" (one alone is a prompt).
func quotedBlock(raw []string) []bool {
	out := make([]bool, len(raw))
	q := func(i int) bool {
		return i >= 0 && i < len(raw) && (raw[i] == ">" || strings.HasPrefix(raw[i], "> "))
	}
	for i := range raw {
		out[i] = q(i) && (q(i-1) || q(i+1))
	}
	return out
}

const boxSides = "│┃║"

// unframe strips box borders and Markdown table pipes; keep is false for a line that is
// only a frame (a border, a table rule, a code fence).
func unframe(l string) (string, bool) {
	t := strings.TrimSpace(l)
	if t == "" {
		return l, true
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return "", false
	}
	if onlyRule(t) {
		return "", false
	}
	if r, n := utf8.DecodeRuneInString(t); strings.ContainsRune(boxSides, r) {
		// "│ Name:   foo    │": the side, one space of padding, the content
		inner := t[n:]
		inner = strings.TrimPrefix(inner, " ")
		if r2, n2 := utf8.DecodeLastRuneInString(inner); strings.ContainsRune(boxSides, r2) {
			inner = inner[:len(inner)-n2]
		}
		return strings.TrimRight(inner, " "), true
	}
	if len(t) > 2 && t[0] == '|' && t[len(t)-1] == '|' && strings.Count(t, "|") >= 3 {
		// a Markdown table row: its cells become columns as kubectl aligns them
		cells := strings.Split(t[1:len(t)-1], "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		return strings.Join(cells, "   "), true
	}
	return l, true
}

// onlyRule reports a line made of border characters only: box drawing, or the ASCII
// rules of Markdown and psql-like tables ("|---|---|", "+----+"), never kubectl's own
// "----   ------" under a describe table header (dashes only, with spaces between).
func onlyRule(t string) bool {
	box := false
	pipe := false
	for _, r := range t {
		switch {
		case r >= '\u2500' && r <= '\u257f':
			box = true
		case r == '|' || r == '+':
			pipe = true
		case r == '-' || r == ':' || r == '=' || r == ' ':
		default:
			return false
		}
	}
	return box || pipe && strings.ContainsAny(t, "-=")
}

// elisionMarks are what people write where they cut a paste.
var elisionMarks = map[string]bool{"...": true, "…": true, "[...]": true, "(...)": true, "<...>": true, "[…]": true,
	"(…)": true, "....": true, ".....": true, "<snip>": true, "[snip]": true, "(snip)": true, "# ...": true,
	"(truncated)": true, "[truncated]": true, "<truncated>": true, "...snip...": true, "---snip---": true,
	"<output omitted>": true, "[output omitted]": true, "(output omitted)": true, "# …": true, "- ...": true}

func elision(l string) bool {
	t := strings.ToLower(strings.TrimSpace(l))
	return t != "" && elisionMarks[t]
}

// commonWidths are terminal widths people use; a single wrapped line at one of them is
// taken for a wrap.
var commonWidths = map[int]bool{80: true, 100: true, 120: true, 132: true, 140: true, 150: true, 160: true,
	180: true, 200: true, 220: true, 240: true, 250: true, 256: true}

// unwrap joins the lines a terminal wrapped at its width.
func unwrap(lines []string, orig []int) ([]string, []int) {
	w := 0
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > w {
			w = n
		}
	}
	if w < 60 {
		return lines, orig
	}
	joins := make([]bool, len(lines))
	n := 0
	for i := range lines {
		if i+1 < len(lines) && utf8.RuneCountInString(lines[i]) == w && continuation(lines[i], lines[i+1]) {
			joins[i] = true
			n++
		}
	}
	cont := func(i int) bool { return joins[i] }
	if n == 0 || n < 2 && !commonWidths[w] {
		return lines, orig
	}
	outL, outO := lines[:0:0], orig[:0:0]
	for i := 0; i < len(lines); i++ {
		l, o := lines[i], orig[i]
		if cont(i) {
			var b strings.Builder
			b.WriteString(l)
			for cont(i) {
				i++
				b.WriteString(lines[i])
			}
			l = b.String()
		}
		outL = append(outL, l)
		outO = append(outO, o)
	}
	return outL, outO
}

// continuation reports whether next, after a line cut at the terminal's width, is the
// rest of it: it starts nothing of its own (a command, a header, a log line, a
// describe block, a document) and is not the next row of the same table.
func continuation(prev, next string) bool {
	t := strings.TrimSpace(next)
	if headerColumns(prev) != nil {
		// a header goes on only with more of its own words
		return headerColumns(prev+next) != nil
	}
	if t == "" || parseCommand(next, 0) != nil || stderrLine(strings.TrimLeft(next, " ")) || headerColumns(next) != nil ||
		strings.HasPrefix(next, "Name:") || jsonStart(t) && indentOf(next) == 0 ||
		reYAMLTop.MatchString(next) || logLine(next) || reAPIServiceRow.MatchString(next) || reNamespaceRow.MatchString(next) ||
		t == "---" {
		return false
	}
	// rows of one table: cells at the same offsets
	pc, nc := splitCells(prev), splitCells(next)
	if len(pc) >= 3 && len(pc) == len(nc) {
		same := true
		for k := range pc {
			if pc[k].start != nc[k].start {
				same = false
			}
		}
		if same {
			return false
		}
	}
	// YAML: the next key or list item at an indentation of its own
	if ind := indentOf(next); ind > 0 && (reYAMLKey.MatchString(t) || strings.HasPrefix(t, "- ")) && ind <= indentOf(prev)+2 {
		return false
	}
	return true
}

// fileLine is the line of the file that normalised line n (1-based) starts on.
func (p *parser) fileLine(n int) int {
	if n < 1 || n > len(p.orig) {
		if n > len(p.orig) && len(p.orig) > 0 {
			return p.orig[len(p.orig)-1]
		}
		return n
	}
	return p.orig[n-1]
}

// remap moves every record and warning from the normalised lines to the file's.
func (p *parser) remap() {
	identity := true
	for i, o := range p.orig {
		if o != i+1 {
			identity = false
			break
		}
	}
	if identity {
		return
	}
	for _, o := range p.res.Objects {
		o.Source.Line = p.fileLine(o.Source.Line)
		for i := range o.Conditions {
			if o.Conditions[i].Line > 0 {
				o.Conditions[i].Line = p.fileLine(o.Conditions[i].Line)
			}
		}
		for k, v := range o.Source.Fields {
			o.Source.Fields[k] = p.fileLine(v)
		}
	}
	if p.res.Log != nil {
		for i := range p.res.Log.Entries {
			p.res.Log.Entries[i].Line = p.fileLine(p.res.Log.Entries[i].Line)
		}
	}
	for i := range p.res.NamespaceLists {
		p.res.NamespaceLists[i].Line = p.fileLine(p.res.NamespaceLists[i].Line)
	}
	for i := range p.res.Commands {
		p.res.Commands[i].Line = p.fileLine(p.res.Commands[i].Line)
	}
	for i := range p.warn.List {
		if p.warn.List[i].Line > 0 {
			p.warn.List[i].Line = p.fileLine(p.warn.List[i].Line)
		}
	}
}
