package paste

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// pieceWork counts the bytes of the pieces the table reading counts cells of (the
// linear-work tests).
var pieceWork = work.New("paste.pipe-pieces")

// Markdown pipe tables, read whatever a mail client did to them. A table is found by its
// delimiter row ("| --- | :--: |", outer pipes optional, as GitHub's tables allow), which
// says how many columns it has (n); the header is the row before it, the body the rows
// after it up to a blank line, a line without a pipe after a row that is complete, or
// the next table's header. Quote marks ("> ", ">> ", "> > ", ">") are read per line and
// kept; a table lives in one run of non-blank lines at one quote depth (a single line
// deeper inside it is a wrapped piece that starts with ">"). A row a client wrapped at
// any width, in a cell or at a pipe, is read back from its pieces by its pipes:
//
//   - a row's cells are its pipes, less a leading and a trailing one, plus one, however
//     it is cut into pieces; a piece joins the row before it while the two have at most
//     n cells (a header exactly n): a complete row never takes the next one, whose
//     leading pipe would count, and a rest that starts with a pipe (the wrap fell before
//     one) still joins its row;
//   - a row with its n cells but no closing pipe goes on in its last cell: where the
//     header closes its last cell, until the row closes it; else with a line without
//     pipes that a client broke off it (the rest's first word did not fit after it: a
//     short row is never joined with the next line), never with a lone pipe or a line
//     with one (the next row's, whose first cell did not fit after its leading pipe),
//     nor with a code fence's line (a table pasted in a fence) or a line the reader
//     says starts a record of its own (Options.Continues: a command, a header);
//   - a header takes a line without pipes before it only to get its n cells or its
//     leading pipe back (a paragraph before a table is no header's, as GitHub reads it).
//
// Pieces are joined with the space a word wrap ate, or none where a terminal cut the
// rows mid-word (wordWrap) or a client broke after a word's hyphen. The joined rows are
// then aligned as kubectl aligns a table, each at the line of the input it starts on.

// maxPieces bounds the lines one row may be joined from (and so the work per line).
const maxPieces = 64

// quoteOf splits a line into its quote marks (with the spaces before each and the one
// space after each: "> ", "> > ", ">> ", ">") and the rest.
func quoteOf(l string) (prefix, body string, depth int) { return quoteUpTo(l, -1) }

// quoteTo splits a line after depth quote marks (of more).
func quoteTo(l string, depth int) (prefix, body string) {
	prefix, body, _ = quoteUpTo(l, depth)
	return prefix, body
}

// quoteUpTo splits a line after at most limit quote marks (limit < 0: all of them).
func quoteUpTo(l string, limit int) (prefix, body string, depth int) {
	i := 0
	for limit < 0 || depth < limit {
		j := i
		for j < len(l) && (l[j] == ' ' || l[j] == '\t') {
			j++
		}
		if j >= len(l) || l[j] != '>' {
			break
		}
		depth++
		i = j + 1
		if i < len(l) && (l[i] == ' ' || l[i] == '\t') {
			i++
		}
	}
	return l[:i], l[i:], depth
}

// rulePiece reports a piece of a delimiter row: dashes, colons, pipes and spaces only,
// with a dash.
func rulePiece(b string) bool {
	dash := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '-':
			dash = true
		case '|', ':', ' ', '\t':
		default:
			return false
		}
	}
	return dash
}

// splitCells returns a row's cells as GitHub reads them: one leading and one trailing
// pipe dropped, each cell trimmed.
func splitCells(row string) []string {
	t := strings.TrimSpace(row)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	cells := strings.Split(t, "|")
	for k := range cells {
		cells[k] = strings.TrimSpace(cells[k])
	}
	return cells
}

// ruleCells returns the number of columns of a delimiter row, 0 for no delimiter row (it
// holds a pipe, and each cell is :?-+:?).
func ruleCells(rule string) int {
	if !strings.Contains(rule, "|") {
		return 0
	}
	cells := splitCells(rule)
	for _, c := range cells {
		c = strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return 0
		}
	}
	return len(cells)
}

// acc counts the cells of a row joined from pieces, without joining them.
type acc struct {
	pipes       int
	lead, trail bool
	set         bool
}

func pieceEnds(b string) (first, last byte) {
	t := strings.TrimSpace(b)
	if t == "" {
		return 0, 0
	}
	return t[0], t[len(t)-1]
}

// then is the row with b after it.
func (a acc) then(b string) acc {
	pieceWork.Add(len(b))
	f, l := pieceEnds(b)
	if !a.set {
		a.lead, a.set = f == '|', true
	}
	a.pipes += strings.Count(b, "|")
	a.trail = l == '|'
	return a
}

// before is the row with b before it.
func (a acc) before(b string) acc {
	pieceWork.Add(len(b))
	f, l := pieceEnds(b)
	if !a.set {
		a.trail, a.set = l == '|', true
	}
	a.pipes += strings.Count(b, "|")
	a.lead = f == '|'
	return a
}

func (a acc) cells() int {
	n := a.pipes + 1
	if a.lead {
		n--
	}
	if a.trail {
		n--
	}
	return max(n, 0)
}

// pipeTable is one table found: its rows, each the range of lines it was joined from.
type pipeTable struct {
	rows [][2]int // [first, last] line of each row, the delimiter row second
	rule int      // index in rows of the delimiter row
}

// tableBlock is a run of non-blank lines at one quote depth.
type tableBlock struct {
	body  []string       // the lines without their quote marks
	width int            // the widest body, in runes
	rule  []int          // for each line of a delimiter row, the end (exclusive) of its lines; -1 for others
	next  []int          // for each line, the first line of the first delimiter row that starts at or after it, or len
	cols  []int          // for the first line of each delimiter row, its number of columns
	cont  func(Cut) bool // the reader's word on a line's rest (Options.Continues), or nil
}

func (b *tableBlock) wrapped(i int) bool {
	// a client broke line i before line i+1: the rest's first word did not fit after it
	w := strings.TrimLeft(b.body[i+1], " \t")
	if k := strings.IndexAny(w, " \t"); k >= 0 {
		w = w[:k]
	}
	// (a line's end is measured with one space more: a quote trims the space a
	// break left at the end of a piece)
	return utf8.RuneCountInString(b.body[i])+2+utf8.RuneCountInString(w) > b.width
}

// header returns the first line of the header of the delimiter row at d, no lower than
// lo, and whether it has the row's n cells: the pieces before d as far back as the header
// has fewer than n cells, or gets its leading pipe back.
func (b *tableBlock) header(d, lo, n int) (int, bool) {
	k := d - 1
	if k < lo || b.rule[k] >= 0 {
		return 0, false
	}
	a := acc{}.before(b.body[k])
	for k-1 >= lo && d-k < maxPieces && b.rule[k-1] < 0 {
		c := a.before(b.body[k-1])
		// fewer than n cells: the header goes on before (its pipes say so); n: only a
		// piece that gives it back its leading pipe (a line without pipes before a
		// header without one is the paragraph before it, as GitHub reads it: a
		// column's name as wide as a wrap is none)
		if c.cells() > n || a.cells() == n && !c.lead {
			break
		}
		a = c
		k--
	}
	return k, a.cells() == n
}

// findRules marks the delimiter rows of the block: runs of lines of dashes, colons,
// pipes and spaces that join into one (their pieces joined as they are: a delimiter
// cell holds no space), with the end a wrap left alone on the next line (":|", "|").
func (b *tableBlock) findRules() {
	n := len(b.body)
	b.rule = make([]int, n)
	b.cols = make([]int, n)
	b.next = make([]int, n+1)
	for k := range b.rule {
		b.rule[k] = -1
	}
	for k := 0; k < n; {
		if !rulePiece(b.body[k]) {
			k++
			continue
		}
		e := k
		for e < n && rulePiece(b.body[e]) {
			e++
		}
		joined := strings.Join(b.body[k:e], "")
		cells := ruleCells(joined)
		// (a lone pipe is the first row's leading one where the row goes on without
		// one: its first cell did not fit after it)
		if e < n && strings.Trim(b.body[e], "|: \t") == "" && !strings.HasSuffix(strings.TrimSpace(joined), "|") &&
			(e+1 == n || strings.HasPrefix(strings.TrimSpace(b.body[e+1]), "|") || strings.Contains(b.body[e], ":")) &&
			b.wrapped(e-1) && ruleCells(joined+b.body[e]) == cells {
			e++
		}
		if cells > 0 {
			for m := k; m < e; m++ {
				b.rule[m] = e
			}
			b.cols[k] = cells
		}
		k = e
	}
	b.next[n] = n
	for k := n - 1; k >= 0; k-- {
		b.next[k] = b.next[k+1]
		if b.rule[k] >= 0 && (k == 0 || b.rule[k-1] != b.rule[k]) {
			b.next[k] = k
		}
	}
}

// fence reports a line that opens or closes a block of its own, a code fence or a
// frame's top or bottom border: never the rest of a row that needs none (a table
// pasted in a fence or a pane, its last row the widest line).
func fence(l string) bool {
	t := strings.TrimSpace(l)
	if r, _ := utf8.DecodeRuneInString(t); strings.ContainsRune("┌┐└┘╭╮╰╯╔╗╚╝┏┓┗┛", r) {
		return true
	}
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// startsTable reports whether line r starts the header of a table further on.
func (b *tableBlock) startsTable(r int) bool {
	if !strings.Contains(b.body[r], "|") {
		return false // (after a table's row, a line without a pipe is its rest)
	}
	d := b.next[min(r+1, len(b.body))]
	if d >= len(b.body) || d-r > maxPieces {
		return false
	}
	n := b.cols[d]
	h, ok := b.header(d, r, n)
	return n > 0 && ok && h == r
}

// tables finds the tables of the block.
func (b *tableBlock) tables() []pipeTable {
	var out []pipeTable
	for i := 0; i < len(b.body); {
		d := b.next[i]
		if d >= len(b.body) {
			break
		}
		end := b.rule[d]
		n := b.cols[d]
		h, ok := b.header(d, i, n)
		if n == 0 || !ok {
			i = end
			continue
		}
		// a row's open last cell goes on in the next line until it closes when the
		// header closes its last cell (the rows do too), else where a client broke it
		rows := b.body1(end, n, acc{}.before(b.body[d-1]).trail)
		t := pipeTable{rows: append([][2]int{{h, d - 1}, {d, end - 1}}, rows...), rule: 1}
		out = append(out, t)
		i = t.rows[len(t.rows)-1][1] + 1
	}
	return out
}

// body1 reads the rows from line r on. A row with fewer than n cells goes on in the
// next line while the two have at most n (a rest that starts with a pipe, where the break
// fell before one, too); one with n goes on in its open last cell: where the rows close
// their last cell (closing), until it closes, else only where a client broke it.
func (b *tableBlock) body1(r, n int, closing bool) (rows [][2]int) {
	for r < len(b.body) && b.rule[r] < 0 && strings.Contains(b.body[r], "|") && !b.startsTable(r) {
		a := acc{}.then(b.body[r])
		j := r
		for j+1 < len(b.body) && j+1-r < maxPieces && b.rule[j+1] < 0 {
			c := a.then(b.body[j+1])
			if c.cells() > n {
				break
			}
			if a.cells() == n {
				// a row with its n cells goes on only in its open last cell, with no
				// pipe but a trailing one (where the rows do not close it, none: a pipe
				// there is the next row's, whose first cell did not fit), where a client
				// broke it, and not into the next table
				if a.trail || !closing && (!b.wrapped(j) || strings.Contains(b.body[j+1], "|") || fence(b.body[j+1]) ||
					b.cont != nil && !b.cont(Cut{First: b.body[r], Last: b.body[j], Next: b.body[j+1]})) ||
					b.startsTable(j+1) && !(closing && strings.TrimSpace(b.body[j+1]) == "|") {
					break
				}
			}
			a = c
			j++
		}
		rows = append(rows, [2]int{r, j})
		r = j + 1
	}
	return rows
}

// piece is a line of a table a client broke before the next.
type piece struct {
	line, next string
	rule       bool
}

// wordWrap reports whether a client wrapped the tables of a paste at spaces (a mail
// client: the space is lost, and a join puts it back) rather than cut them at its width
// (a terminal: nothing is lost); width is the widest line of the blocks that hold them. A
// break at a space leaves a piece shorter than the width (ragged) but where the space
// fell right after the width; a cut leaves every piece as wide as the width but where
// the spaces it ended with were trimmed, and it alone splits a run of dashes in a word
// that fits in the width (a delimiter row's). So the tables (their rows and headers: a
// delimiter row is full as often as not) are cut when two pieces or more are all
// full, or when a piece shows a cut and full pieces outnumber ragged ones; a single full
// piece is a word wrap. (Where every break of a word wrap fell right after the width, the
// two cannot be told apart: read as a cut, the rows lose the spaces of those breaks.)
func wordWrap(pieces []piece, width int) bool {
	ragged, full, cut := 0, 0, 0
	for _, pc := range pieces {
		p, n := pc.line, pc.next
		if strings.HasSuffix(p, "-") && strings.HasPrefix(n, "-") {
			// a run of dashes split: by a cut, unless the word it is in is wider than
			// a word wrap (which cuts such a word too)
			word := len(p) - strings.LastIndexAny(p, " \t") - 1
			if k := strings.IndexAny(n, " \t"); k >= 0 {
				word += k
			} else {
				word += len(n)
			}
			if word <= width {
				cut++
			}
		}
		if pc.rule {
			continue // (a delimiter row has a space every few columns: as often full as not)
		}
		if utf8.RuneCountInString(p) < width {
			ragged++
		} else {
			full++
		}
	}
	return !(full >= 2 && ragged == 0 || cut > 0 && ragged < full)
}

// hyphenBreak reports a break right after a word's hyphen ("gatekeeper-3-3-" and
// "0.yaml"): a mail client breaks there as at a space, but loses nothing.
func hyphenBreak(p, n string) bool {
	if len(p) < 2 || p[len(p)-1] != '-' || n == "" || n[0] == ' ' || n[0] == '|' {
		return false
	}
	c := p[len(p)-2]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// joinPieces joins the bodies of lines [first, last]: with the space a word wrap ate (a
// piece shorter than the widest of the paste's tables, width, or one of a word wrap that
// holds a space), or none (a terminal's cut, a word longer than the width cut, a
// delimiter row, whose cells hold no space).
func (b *tableBlock) joinPieces(first, last, width int, words, rule bool) string {
	if first == last {
		return b.body[first]
	}
	var s strings.Builder
	for k := first; k <= last; k++ {
		s.WriteString(b.body[k])
		if k == last || rule {
			continue
		}
		p, n := b.body[k], b.body[k+1]
		if hyphenBreak(p, n) {
			continue // a client breaks after a hyphen too, and eats nothing there
		}
		if utf8.RuneCountInString(p) < width || words && strings.ContainsAny(strings.TrimSpace(p), " \t") {
			s.WriteByte(' ')
		}
	}
	return s.String()
}

// pipeTables finds the Markdown tables of lines, joins the rows a client wrapped, and
// aligns each table as kubectl aligns one (alignRows); it returns the lines and their
// origins without the pieces joined into a row.
func pipeTables(lines []string, orig []int, minLegacy int, cont func(Cut) bool) ([]string, []int) {
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.IndexByte(l, '|') >= 0 }) {
		return lines, orig
	}
	prefix := make([]string, len(lines))
	body := make([]string, len(lines))
	depth := make([]int, len(lines))
	for i, l := range lines {
		prefix[i], body[i], depth[i] = quoteOf(l)
	}
	type found struct {
		i, j   int
		blk    *tableBlock
		tables []pipeTable
	}
	var blocks []found
	width := 0
	for i := 0; i < len(lines); {
		if strings.TrimSpace(body[i]) == "" {
			i++
			continue
		}
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(body[j]) != ""; j++ {
			if depth[j] > depth[i] && (j+1 == len(lines) || strings.TrimSpace(body[j+1]) == "" || depth[j+1] == depth[i]) {
				// one line deeper: a wrapped piece that starts with ">" (a nested
				// quote has lines of its own)
				prefix[j], body[j] = quoteTo(lines[j], depth[i])
				continue
			}
			if depth[j] != depth[i] {
				break
			}
		}
		// quote marks written without a space after them: a space there is the
		// line's own (a rest a terminal cut before a space)
		tight := 0
		for k := i; k < j; k++ {
			if depth[k] > 0 && !strings.HasSuffix(prefix[k], " ") {
				tight++
			}
		}
		if 2*tight > j-i {
			for k := i; k < j; k++ {
				if strings.HasSuffix(prefix[k], " ") {
					prefix[k], body[k] = prefix[k][:len(prefix[k])-1], " "+body[k]
				}
			}
		}
		blk := &tableBlock{body: body[i:j], cont: cont}
		for _, l := range blk.body {
			blk.width = max(blk.width, utf8.RuneCountInString(l))
		}
		pipes := false
		for _, l := range blk.body {
			if pipes = strings.IndexByte(l, '|') >= 0; pipes {
				break
			}
		}
		if pipes {
			blk.findRules()
			f := found{i, j, blk, blk.tables()}
			if len(f.tables) > 0 {
				width = max(width, blk.width)
			}
			blocks = append(blocks, f)
		}
		i = j
	}
	var pieces []piece
	for _, f := range blocks {
		for _, t := range f.tables {
			for ri, r := range t.rows {
				for k := r[0]; k < r[1]; k++ {
					pieces = append(pieces, piece{f.blk.body[k], f.blk.body[k+1], ri == t.rule})
				}
			}
		}
	}
	words := wordWrap(pieces, width)
	drop := make([]bool, len(lines))
	dropped := false
	done := make([]bool, len(lines))
	for _, f := range blocks {
		i, j, blk := f.i, f.j, f.blk
		for _, t := range f.tables {
			rows := make([]string, len(t.rows))
			for ri, r := range t.rows {
				rows[ri] = blk.joinPieces(r[0], r[1], width, words, ri == t.rule)
				for k := r[0]; k <= r[1]; k++ {
					done[i+k] = true
					if k > r[0] {
						drop[i+k] = true
						dropped = true
					}
				}
			}
			aligned := alignRows(rows, t.rule)
			for ri, r := range t.rows {
				k := i + r[0]
				lead := body[k][:len(body[k])-len(strings.TrimLeft(body[k], " \t"))]
				lines[k] = prefix[k] + lead + aligned[ri]
			}
		}
		// consecutive rows outside a table found by its delimiter row (none, or not
		// read): aligned among themselves, as before
		for k := i; k < j; {
			if done[k] {
				k++
				continue
			}
			e := k
			for e < j && !done[e] {
				if _, _, ok := pipeRow(body[e]); !ok {
					break
				}
				e++
			}
			if e-k < minLegacy {
				k = max(e, k+1)
				continue
			}
			aligned := alignRowsLegacy(body[k:e])
			for m := k; m < e; m++ {
				lines[m] = prefix[m] + aligned[m-k]
			}
			k = e
		}
	}
	if !dropped {
		return lines, orig
	}
	outL, outO := lines[:0:0], orig[:0:0]
	for i := range lines {
		if !drop[i] {
			outL, outO = append(outL, lines[i]), append(outO, orig[i])
		}
	}
	return outL, outO
}

// alignRows aligns the rows of a table as kubectl aligns a table: every cell padded to
// its column's width plus three spaces, so that a header's column offsets hold for every
// row, an empty cell as kubectl prints one ("<none>"); the delimiter row (index rule) is
// left as it is, for unframe to drop.
func alignRows(rows []string, rule int) []string {
	var widths []int
	cells := make([][]string, len(rows))
	for ri, r := range rows {
		if ri == rule {
			continue
		}
		cells[ri] = splitCells(r)
		for k, c := range cells[ri] {
			if c == "" {
				c = "<none>"
				cells[ri][k] = c
			}
			if k >= len(widths) {
				widths = append(widths, 0)
			}
			widths[k] = max(widths[k], utf8.RuneCountInString(c))
		}
	}
	out := make([]string, len(rows))
	for ri, r := range rows {
		if ri == rule {
			out[ri] = strings.TrimSpace(r)
			continue
		}
		var b strings.Builder
		for k, c := range cells[ri] {
			b.WriteString(c)
			if k < len(cells[ri])-1 {
				b.WriteString(strings.Repeat(" ", widths[k]-utf8.RuneCountInString(c)+3))
			}
		}
		out[ri] = b.String()
	}
	return out
}

// pipeRow reports a Markdown table row (its cells between pipes; the trailing pipe is
// optional, as GitHub's tables allow) and returns its cells, trimmed; rule is true for
// the separator row ("| --- | :---: |").
func pipeRow(l string) (cells []string, rule, ok bool) {
	t := strings.TrimSpace(l)
	if len(t) < 2 || t[0] != '|' || strings.Count(t, "|") < 3 {
		return nil, false, false
	}
	if onlyRule(t) {
		return nil, true, true
	}
	return splitCells(t), false, true
}

// alignRowsLegacy aligns consecutive pipe rows found without a delimiter row (each row
// starts with a pipe and holds three); a separator row among them stays as it is.
func alignRowsLegacy(rows []string) []string {
	rule := make([]bool, len(rows))
	var kept []string
	for k, r := range rows {
		_, rule[k], _ = pipeRow(r)
		if !rule[k] {
			kept = append(kept, r)
		}
	}
	aligned := alignRows(kept, -1)
	out := make([]string, len(rows))
	n := 0
	for k, r := range rows {
		if rule[k] {
			out[k] = r
			continue
		}
		out[k] = aligned[n]
		n++
	}
	return out
}
