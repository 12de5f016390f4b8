// Package paste undoes what support tickets, chat tools, terminals and web pages do to
// text, before any reader sees it: one normalisation layer for the kubectl text reader
// (parsers/text) and for logs pasted or saved from a screen (parsers/logs).
//
//   - characters: non-breaking and other Unicode spaces become spaces, smart quotes
//     ASCII quotes, zero-width characters go; leading tabs become two spaces each (YAML
//     and describe only need the order of indentation, which this keeps);
//   - frames: box-drawing borders (k9s panes, `│ … │`) are stripped, border-only lines,
//     Markdown code fences and blockquote markers dropped; a Markdown table (found by its
//     delimiter row, quoted at any depth, its rows wrapped by a mail client at any width:
//     pipes.go) is aligned as kubectl aligns a table;
//     Markdown backslash escapes (`\_`, `\*`, `\[`) are undone; the delimiter of an
//     inline code span that runs over lines (a line's one unpaired backtick at its
//     start or end, a line of backticks only) is dropped, and a line that is one code
//     span from end to end (a one-line fence "```error: ...```", a table row in inline
//     code) keeps its content without the marks;
//   - elisions: a line that only says something was cut (`...`, `…`, `[...]`,
//     `<snip>`, `(truncated)`) is dropped, so the block around it reads on;
//   - indentation: what every line was shifted by (a Markdown code block) is removed;
//   - terminal wraps: a line as long as the widest line of the file (the terminal's
//     width), followed by a line the reader says starts nothing of its own, is joined
//     with it without a space (the terminal cut it, mid-word as often as not).
//
// Lines returns the repaired lines and, for each, the line of the input (1-based) it
// starts on, so every record still cites the file's own line.
package paste

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Options tune Lines.
type Options struct {
	// Continues tells whether a line a terminal cut at its width goes on in the next
	// (the reader knows what starts a line of its own).
	Continues func(Cut) bool
	// KeepTabs keeps leading tabs (logs: klog's multi-line values are tab-indented).
	KeepTabs bool
	// JoinScalars joins a YAML value written over several lines (`message: >-` and
	// its more-indented lines, a quoted value left open, a plain value whose lines
	// go on indented deeper than its key) into one line `key: value`, folded as YAML
	// folds it (lines joined by a space, quotes removed): the log reader then sees a
	// condition message pasted without its object as the one message it is.
	JoinScalars bool
}

// Lines repairs raw (the input split at newlines, CRs removed).
func Lines(raw []string, opts Options) (lines []string, orig []int) {
	lines, orig, _ = LinesSeams(raw, opts)
	return lines, orig
}

// LinesSeams is Lines, with the seams of each repaired line: the byte offsets at which
// it joins the lines a wrap split (nil for a line joined from none), so that a reader
// can read a join it doubts as the lines it was (a table's cell the join glued to the
// next: "Terminating" + "0"). With JoinScalars, seams is nil.
func LinesSeams(raw []string, opts Options) (lines []string, orig []int, seams [][]int) {
	lines = make([]string, 0, len(raw))
	orig = make([]int, 0, len(raw))
	norm := make([]string, len(raw))
	for i, l := range raw {
		if opts.KeepTabs && strings.HasPrefix(l, "\t") {
			t := strings.TrimLeft(l, "\t")
			l = l[:len(l)-len(t)] + unentity(NormChars(t))
		} else {
			l = unentity(NormChars(l))
		}
		norm[i] = l
	}
	from := make([]int, len(norm))
	for i := range from {
		from[i] = i + 1
	}
	// Markdown tables, before unprefix (which would take a table's "| " for a gutter) and
	// again after it and after the blank lines a paste added (a table behind a chat stamp,
	// a gutter, a comment sign, double-spaced)
	unbox(norm)
	norm, from = pipeTables(norm, from, 2, opts.Continues)
	unprefix(norm)
	if added := blankEvery(norm); added != nil {
		k := 0
		for i := range norm {
			if !added[i] {
				norm[k], from[k] = norm[i], from[i]
				k++
			}
		}
		norm, from = norm[:k], from[:k]
	}
	norm, from = pipeTables(norm, from, 1, opts.Continues)
	quoted := quotedBlock(norm)
	for i, l := range norm {
		for quoted[i] && (l == ">" || strings.HasPrefix(l, ">")) {
			l = strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ") // nested: "> > ", ">> "
		}
		l, keep := unframe(l)
		if !keep || Elision(l) {
			continue
		}
		lines = append(lines, l)
		orig = append(orig, from[i])
	}
	// the terminal's cut is measured on the lines as copied, trailing spaces included
	// (a cut inside a table's padding); the readers see them trimmed
	if opts.Continues != nil {
		lines, orig, seams = unwrap(dedent(lines), orig, opts.Continues)
	} else {
		lines = dedent(lines)
	}
	for i, l := range lines {
		lines[i] = unspan(strings.TrimRight(l, " \t"))
		if seams != nil {
			for k, at := range seams[i] {
				seams[i][k] = min(at, len(lines[i]))
			}
		}
	}
	if opts.JoinScalars {
		lines, orig = JoinScalars(lines, orig)
		seams = nil
	}
	return lines, orig, seams
}

// reYAMLKey is a YAML mapping line: its indentation, an optional list dash, the key and
// its value (empty for a nested block).
var reYAMLKey = regexp.MustCompile(`^([ \t]*)(- +)?([A-Za-z][A-Za-z0-9_.-]*):(?:[ \t](.*))?$`)

// maxScalarLines bounds the lines one value may be joined from.
const maxScalarLines = 200

// JoinScalars joins the multi-line YAML values of lines (Options.JoinScalars); orig[k]
// is the input line of lines[k], and of each output line the line it starts on. A line is
// joined to a value only when it is indented deeper than the value's key, as YAML
// requires; a value whose continuation is not found is left as it is.
func JoinScalars(lines []string, orig []int) ([]string, []int) {
	var outL []string
	var outO []int
	changed := false
	for i := 0; i < len(lines); i++ {
		m := reYAMLKey.FindStringSubmatch(lines[i])
		if m == nil {
			if changed {
				outL, outO = append(outL, lines[i]), append(outO, orig[i])
			}
			continue
		}
		keyCol := len(m[1]) + len(m[2])
		val := strings.TrimSpace(m[4])
		// (leading tabs count as indentation: a log's repair keeps them)
		deeper := func(j int) bool {
			return j < len(lines) && j-i <= maxScalarLines && strings.TrimSpace(lines[j]) != "" &&
				len(lines[j])-len(strings.TrimLeft(lines[j], " \t")) > keyCol
		}
		// a quoted value goes on until its quote closes, at whatever indentation a
		// paste left its lines (flattened to the margin)
		inQuote := func(j int) bool {
			return j < len(lines) && j-i <= maxScalarLines && strings.TrimSpace(lines[j]) != ""
		}
		var parts []string
		j := i + 1
		switch {
		case val == ">" || val == ">-" || val == ">+" || val == "|" || val == "|-" || val == "|+":
			for ; deeper(j); j++ {
				parts = append(parts, strings.TrimSpace(lines[j]))
			}
			val = strings.Join(parts, " ")
		case strings.HasPrefix(val, "'") || strings.HasPrefix(val, "\""):
			q := val[0]
			text := val
			closed := quoteClosed(text, q)
			for ; !closed && inQuote(j); j++ {
				text += " " + strings.TrimSpace(lines[j])
				closed = quoteClosed(text, q)
			}
			if !closed || j == i+1 {
				j = i + 1 // left open (a cut paste), or on one line: as it is
				break
			}
			val = unquote(text, q)
			parts = []string{val}
		case val != "" && !strings.HasPrefix(val, "#") && !strings.HasPrefix(val, "{") && !strings.HasPrefix(val, "["):
			// a plain value: deeper lines that start no key or list item of their own
			for ; deeper(j) && !reYAMLKey.MatchString(lines[j]) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "- "); j++ {
				parts = append(parts, strings.TrimSpace(lines[j]))
			}
			val = strings.Join(append([]string{val}, parts...), " ")
		}
		if len(parts) == 0 || j == i+1 {
			if changed {
				outL, outO = append(outL, lines[i]), append(outO, orig[i])
			}
			continue
		}
		if !changed {
			outL, outO = append(outL, lines[:i]...), append(outO, orig[:i]...)
			changed = true
		}
		outL = append(outL, m[1]+m[2]+m[3]+": "+val)
		outO = append(outO, orig[i])
		i = j - 1
	}
	if !changed {
		return lines, orig
	}
	return outL, outO
}

// quoteClosed reports whether the quoted YAML scalar s (starting with q) ends.
func quoteClosed(s string, q byte) bool {
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++ // '' is a quote inside
		case s[i] == q:
			return true
		}
	}
	return false
}

// unquote returns the text of a quoted YAML scalar (what follows the closing quote, a
// comment, is dropped).
func unquote(s string, q byte) string {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case q == '"' && c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
			b.WriteByte('\'')
		case c == q:
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Identity reports whether Lines changed nothing but trailing spaces (orig is 1..n).
func Identity(orig []int) bool {
	for i, o := range orig {
		if o != i+1 {
			return false
		}
	}
	return true
}

func indentOf(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}

// dedent removes the indentation every line of the input shares.
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
	return lines
}

// NormChars replaces the characters editors and web pages substitute.
func NormChars(l string) string {
	ascii := true
	for i := 0; i < len(l); i++ {
		if l[i] >= 0x80 || l[i] == '\\' {
			ascii = false
			break
		}
	}
	if ascii && !strings.ContainsRune(l[:len(l)-len(strings.TrimLeft(l, " \t"))], '\t') {
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
		return i >= 0 && i < len(raw) && (raw[i] == ">" || strings.HasPrefix(raw[i], "> ") || strings.HasPrefix(raw[i], ">>"))
	}
	for i := range raw {
		out[i] = q(i) && (q(i-1) || q(i+1))
	}
	return out
}

const boxSides = "│┃║"

// unbox strips the sides of a frame's lines in place ("│ | a | b │" → "| a | b"), as
// unframe does, before the readers that must see what the frame holds (a Markdown
// table in a k9s or tmux pane): a line is a frame's when it starts and ends with one
// side, and two lines at least are. Borders are left to unframe.
func unbox(lines []string) {
	framed := func(l string) (string, bool) {
		t := strings.TrimSpace(l)
		r, n := utf8.DecodeRuneInString(t)
		if !strings.ContainsRune(boxSides, r) || len(t) <= n {
			return "", false
		}
		r2, n2 := utf8.DecodeLastRuneInString(t)
		if r2 != r {
			return "", false
		}
		return strings.TrimRight(strings.TrimPrefix(t[n:len(t)-n2], " "), " "), true
	}
	count := 0
	for _, l := range lines {
		if _, ok := framed(l); ok {
			count++
		}
	}
	if count < 2 {
		return
	}
	for i, l := range lines {
		if inner, ok := framed(l); ok {
			lines[i] = inner
		}
	}
}

// unframe strips box borders and Markdown table pipes; keep is false for a line that is
// only a frame (a border, a table rule, a code fence).
func unframe(l string) (string, bool) {
	t := strings.TrimSpace(l)
	if t == "" {
		return l, true
	}
	if inner, ok := CodeLine(t); ok {
		// a whole line in one code span (```error: ...```, `row   cells`): its
		// content, as if it were fenced on lines of its own
		return l[:len(l)-len(strings.TrimLeft(l, " \t"))] + inner, true
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return "", false
	}
	if onlyRule(t) {
		return "", false
	}
	if strings.Trim(t, "`") == "" {
		return "", false // an inline code span opened or closed on a line of its own
	}
	if r, _ := utf8.DecodeRuneInString(t); strings.ContainsRune("┌┐└┘╭╮╰╯╔╗╚╝┏┓┗┛", r) {
		return "", false // a frame's top or bottom, with its title ("┌── Describe(ns/x) ──┐")
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

// CodeLine reads a line (without its indentation) that is one Markdown code span from
// its first byte to its last: a run of n backticks, the content, the same run of n (a
// one-line fence "```error: ...```" is one too; a fence's opening line, whose info
// string holds no backtick, is not). It returns the content without the spaces around
// it; ok is false for any other line, for an empty span, and for one whose content
// holds a run of exactly n backticks (the span would close there: two spans).
func CodeLine(t string) (string, bool) {
	n := 0
	for n < len(t) && t[n] == '`' {
		n++
	}
	if n == 0 || len(t) <= 2*n {
		return "", false
	}
	m := 0
	for m < len(t)-n && t[len(t)-1-m] == '`' {
		m++
	}
	if m != n {
		return "", false
	}
	inner := t[n : len(t)-n]
	for i := 0; i < len(inner); {
		if inner[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(inner) && inner[j] == '`' {
			j++
		}
		if j-i == n {
			return "", false
		}
		i = j
	}
	inner = strings.TrimSpace(inner)
	return inner, inner != ""
}

// unspan drops the one delimiter of an inline code span that runs over several lines (its
// other end is on another line): a line's unpaired backtick at its start or its end
// (Kubernetes' messages hold none). It runs after the terminal-wrap repair, which
// measures the lines as they were copied.
func unspan(l string) string {
	if strings.Count(l, "`")%2 == 0 {
		return l
	}
	if strings.HasSuffix(l, "`") {
		return l[:len(l)-1]
	}
	if i := strings.IndexByte(l, '`'); strings.TrimSpace(l[:i]) == "" {
		return l[:i] + l[i+1:]
	}
	return l
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

func Elision(l string) bool {
	t := strings.ToLower(strings.TrimSpace(l))
	return t != "" && elisionMarks[t]
}

// Cut is a line a terminal may have cut at its width, and the line after it.
type Cut struct {
	First string // the first piece of the line so far: its indentation and shape
	Last  string // the piece that reached the width
	Next  string // the line after it
	// Open says the line so far leaves a quoted value open (an odd double quote, or a
	// YAML value opened with ": '"): the next line can only be its rest.
	Open bool
}

// quotes follows the quoted values of a line over its pieces, in one pass.
type quotes struct {
	dq, sq bool
	esc    bool
	prev2  [2]byte // the last two bytes seen
	// dump is the depth of the brackets of a Go %v dump left open (`&{map[...`, the
	// API server's rendering of an object in an error): its rest is on the next lines
	dump int
}

func (q *quotes) feed(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q.esc:
			q.esc = false
		case c == '\\' && q.dq:
			q.esc = true
		case c == '"' && !q.sq:
			q.dq = !q.dq
		case c == '\'' && q.sq:
			q.sq = false // ('' inside: closed and opened again, the same parity)
		case c == '\'' && !q.dq && q.prev2 == [2]byte{':', ' '}:
			q.sq = true
		case q.dq || q.sq:
		case c == '{' && q.prev2[1] == '&':
			q.dump++
		case q.dump > 0 && (c == '{' || c == '['):
			q.dump++
		case q.dump > 0 && (c == '}' || c == ']'):
			q.dump--
		}
		q.prev2 = [2]byte{q.prev2[1], c}
	}
}

func (q *quotes) open() bool { return q.dq || q.sq || q.dump > 0 }

// commonWidths are terminal widths people use; a single wrapped line at one of them is
// taken for a wrap.
var commonWidths = map[int]bool{80: true, 100: true, 120: true, 132: true, 140: true, 150: true, 160: true,
	180: true, 200: true, 220: true, 240: true, 250: true, 256: true}

// unwrap joins the lines a terminal wrapped at its width, and the lines a chat or mail
// client wrapped at spaces: a line followed by one whose first word would not have fit
// after it (a word wrap is ragged; its space is lost, so the join puts one back). A paste
// with such joins is word-wrapped: there a line as wide as the widest was broken at a
// space too when it holds one (past its indentation), and a word-wrapped line that ends
// with a hyphen, holding no space, was hyphenated (the hyphen goes).
func unwrap(lines []string, orig []int, continuation func(Cut) bool) ([]string, []int, [][]int) {
	w := 0
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > w {
			w = n
		}
	}
	if w < 60 {
		return lines, orig, nil
	}
	const (
		none = iota
		full
		ragged
	)
	joins := make([]byte, len(lines))
	n, r, first := 0, 0, 0
	var q quotes
	q.feed(lines[0])
	for i := range lines {
		// inside a YAML single-quoted value (kubectl folds long ones at spaces, near
		// 80 columns) a line as wide as the widest is a fold as often as a cut: only a
		// terminal's usual width says cut
		// a Go dump left open goes on in the next line whatever the line's width (the
		// paste's author shortened it, or the copy trimmed the space the cut fell on)
		kind := none
		if i+1 < len(lines) {
			width := utf8.RuneCountInString(lines[i])
			switch {
			case width == w && (!q.sq || commonWidths[w]) || q.dump > 0:
				kind = full
			case !q.sq && wordWrapped(lines[i], lines[i+1], width, w):
				kind = ragged
			}
		}
		if kind != none && continuation(Cut{First: lines[first], Last: lines[i], Next: lines[i+1], Open: q.open()}) {
			joins[i] = byte(kind)
			if kind == full {
				n++
			} else {
				r++
			}
			q.feed(lines[i+1])
			continue
		}
		if i+1 < len(lines) {
			// a YAML single-quoted value goes on over indented lines (kubectl folds
			// long ones): its quote is still open there, and a '"' inside it opens
			// nothing
			if !q.sq || indentOf(lines[i+1]) == 0 {
				q = quotes{}
			}
			first = i + 1
			q.feed(lines[i+1])
		}
	}
	// a word-wrapped paste: ragged joins and no cut at the width, or twice as many
	words := r > 0 && n == 0 || r >= 2 && r > 2*n
	if !words && (n == 0 || n < 2 && !commonWidths[w]) {
		return lines, orig, nil
	}
	outL, outO := lines[:0:0], orig[:0:0]
	var seams [][]int
	for i := 0; i < len(lines); i++ {
		l, o := lines[i], orig[i]
		var at []int
		if joins[i] != none && (words || joins[i] == full) {
			var b strings.Builder
			b.WriteString(l)
			for joins[i] != none && (words || joins[i] == full) {
				piece := lines[i]
				i++
				if words {
					body := strings.TrimLeft(piece, " ")
					switch {
					case strings.ContainsRune(body, ' ') || joins[i-1] == ragged:
						b.WriteByte(' ')
					case len(body) > 1 && strings.HasSuffix(body, "-") && isLetter(body[len(body)-2]) && isLetter(strings.TrimLeft(lines[i], " ")[0]):
						s := b.String()
						b.Reset()
						b.WriteString(s[:len(s)-1]) // hyphenated
					}
				}
				at = append(at, b.Len())
				b.WriteString(lines[i])
			}
			l = b.String()
		}
		outL = append(outL, l)
		outO = append(outO, o)
		seams = append(seams, at)
	}
	return outL, outO, seams
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// wordWrapped reports whether a client that wraps at spaces at w columns (or at a width
// past the widest line) would have broken l (width runes wide) before next: l says
// something, and next's first word would not have fit after it.
func wordWrapped(l, next string, width, w int) bool {
	t := strings.TrimLeft(next, " ")
	body := strings.TrimLeft(l, " ")
	if strings.TrimSpace(l) == "" || t == "" || strings.HasSuffix(l, " ") || len(next) != len(t) ||
		strings.ContainsRune(l, '\t') || strings.Contains(body, "   ") || // (a table's row, kubectl pads with 3 spaces: its own line)
		strings.HasPrefix(t, "- ") || reYAMLKey.MatchString(t) && !strings.HasSuffix(strings.TrimSpace(l), ":") {
		// (a wrapped line's rest starts at the margin: the wrap ate the space; a YAML
		// key or list item there starts a line of its own, unless the line before
		// ends in a colon, as messages do before what they quote)
		return false
	}
	word := t
	if k := strings.IndexByte(t, ' '); k >= 0 {
		word = t[:k]
	}
	// (a client breaks near its width: a line shorter than three quarters of the widest,
	// or by more than a long word (24 columns), was short in the text, whatever the next
	// line starts with)
	return width+1+utf8.RuneCountInString(word) > w && 4*width >= 3*w && width >= w-24 && !aligned(l, next)
}

// aligned reports whether two lines have a column in common: a cell that starts after
// a run of spaces at the same offset (rows of one table, never a line and its rest).
func aligned(a, b string) bool {
	starts := func(l string, f func(int) bool) bool {
		for i := 2; i < len(l); i++ {
			if l[i] != ' ' && l[i-1] == ' ' && l[i-2] == ' ' && f(i) {
				return true
			}
		}
		return false
	}
	return starts(a, func(i int) bool { return i < len(b) && b[i] != ' ' && b[i-1] == ' ' && b[i-2] == ' ' })
}
