package paste

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/fixtures/damage"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// realTables returns the Markdown tables of the real-world cases, as cells: the
// ticket's table of fixtures/realworld/aks-2018-* (Azure/AKS#705: no trailing pipes, an
// empty cell) and the file tables of every case's README.md (long cells, inline code).
// A table whose rows hold more cells than its delimiter row is left out (GitHub drops
// the extra cells: its pipes do not say its rows).
func realTables(t *testing.T) [][][]string {
	var files []string
	for _, pat := range []string{"*/*.md.txt", "*/README.md"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "realworld", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var out [][][]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.ReplaceAll(string(b), "\r", ""), "\n")
		for i := 1; i < len(lines); i++ {
			n := ruleCells(lines[i])
			if n == 0 || !strings.Contains(lines[i-1], "|") || len(splitCells(lines[i-1])) != n {
				continue
			}
			table := [][]string{splitCells(lines[i-1])}
			j := i + 1
			for ; j < len(lines) && strings.Contains(lines[j], "|"); j++ {
				table = append(table, splitCells(lines[j]))
				if len(table[len(table)-1]) > n {
					table = nil
					break
				}
			}
			if table != nil {
				out = append(out, table)
			}
			i = j
		}
	}
	return out
}

// spaceRun is a run of spaces inside a cell.
var spaceRun = regexp.MustCompile(`[ \t]{2,}`)

// mdTable writes a table (header first) as Markdown: outer pipes or not (a row whose
// first or last cell is empty keeps that pipe, else its cells would shift), cells padded
// to their column's width or not, the delimiter row's cells with any number of dashes and
// any alignment colons. A run of spaces inside a cell is one space (a wrap that falls in
// one loses it where a quote trims the line's end: the count is not in the text).
func mdTable(r *rand.Rand, table [][]string) []string {
	lead, trail, pad := r.IntN(3) > 0, r.IntN(2) == 0, r.IntN(3) == 0
	for _, row := range table {
		// (without a leading pipe, a row whose first cell is wider than the wrap
		// starts with a piece without a pipe, which reads as the rest of the row
		// before: GitHub's rows start with a pipe there, the limit of the reading)
		lead = lead || row[0] == "" || utf8.RuneCountInString(row[0]) >= 28
		// (a line that starts a code fence ends a table whose rows do not close their
		// last cell, as GitHub reads one: where a cell holds a fence, they close it)
		trail = trail || row[len(row)-1] == "" || strings.Contains(strings.Join(row, " "), "```")
	}
	widths := make([]int, len(table[0]))
	for _, row := range table {
		for k, c := range row {
			widths[k] = max(widths[k], utf8.RuneCountInString(spaceRun.ReplaceAllString(c, " ")), 3)
		}
	}
	if slices.Max(widths) > 24 {
		pad = false // (padding as wide as the wrap leaves lines of spaces only: blank lines, which end a table)
	}
	line := func(cells []string) string {
		var b strings.Builder
		if lead {
			b.WriteString("| ")
		}
		for k, c := range cells {
			c = spaceRun.ReplaceAllString(c, " ")
			if k > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(c)
			if pad {
				b.WriteString(strings.Repeat(" ", max(0, widths[k]-utf8.RuneCountInString(c))))
			}
		}
		if trail {
			b.WriteString(" |")
		}
		return b.String()
	}
	rule := make([]string, len(widths))
	for k := range rule {
		dashes := 1 + r.IntN(15)
		if pad {
			dashes = widths[k] - 2
		}
		rule[k] = strings.Repeat("-", dashes)
		switch r.IntN(6) {
		case 0:
			rule[k] = ":" + rule[k]
		case 1:
			rule[k] += ":"
		case 2:
			rule[k] = ":" + rule[k] + ":"
		}
	}
	out := []string{line(table[0]), strings.ReplaceAll(line(rule), " ", strings.Repeat(" ", r.IntN(2)))}
	if strings.HasPrefix(out[1], "|") && r.IntN(2) == 0 {
		out[1] = strings.ReplaceAll(out[1], " ", "") // "|---|:--:|"
	}
	for _, row := range table[1:] {
		out = append(out, line(row))
	}
	return out
}

// prose is what a ticket says around its table (Azure/AKS#705's description).
var prose = []string{
	"When querying `kubectl get events`, I see that this service has been emitting the DeletingLoadBalancer event for 7 hours.",
	"Deleting the service and redeploying again still does not fix the issue. Deleting the load balancer and redeploying again also does not fix the issue.",
	"Nothing is reconstructed.",
}

// TestPipeTablesWrapped: a real Markdown table, quoted at any depth in any form ("> ",
// "> > ", ">> ", ">" with no space) and wrapped by a mail client at any width from 30
// columns (at spaces, or cut mid-word as a terminal does), after prose or not, followed
// by prose or by a second table (after a blank line or none), reads as the same rows
// as the table pasted as it is, at the line each row starts on; the prose around it
// keeps its lines.
func TestPipeTablesWrapped(t *testing.T) {
	tables := realTables(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "realworld", "aks-2018-deletingloadbalancer-event-as-markdown-table-inconclusive", "get-events.md.txt"))
	if err != nil {
		t.Fatal(err)
	}
	aks := string(b)
	if len(tables) < 100 {
		t.Fatalf("only %d real tables", len(tables))
	}
	r := rand.New(rand.NewPCG(705, 2018))
	joined, relaxed, rounds := 0, 0, 3000
	for round := range rounds {
		t1 := mdTable(r, tables[r.IntN(len(tables))])
		if round%4 == 0 {
			t1 = strings.Split(strings.TrimSpace(aks), "\n") // the ticket's own table, as published
		}
		var parts [][]string // prose, blank, tables: damaged each on its own (the damage is per line)
		tabs := map[int]bool{}
		if r.IntN(2) == 0 {
			parts = append(parts, []string{prose[0]})
			if r.IntN(2) == 0 {
				parts = append(parts, []string{""}) // (GitHub needs none before a table)
			}
		}
		fenced := r.IntN(5) == 0 // (a table pasted in a code fence: the fence is no row's)
		if fenced {
			parts = append(parts, []string{"```"})
		}
		tabs[len(parts)] = true
		parts = append(parts, t1)
		if fenced {
			parts = append(parts, []string{"```"})
		}
		switch r.IntN(4) {
		case 0:
			parts = append(parts, []string{""}, []string{prose[1]})
		case 1:
			parts = append(parts, []string{""}, mdTable(r, tables[r.IntN(len(tables))]))
			tabs[len(parts)-1] = true
		case 2:
			tabs[len(parts)] = true
			parts = append(parts, mdTable(r, tables[r.IntN(len(tables))]))
		}
		w := 30 + r.IntN(91)
		mode := damage.Word
		if r.IntN(4) == 0 {
			mode = damage.Cut
		}
		depth := r.IntN(4)
		q := damage.Quote(depth, r.IntN(2) == 0)
		if depth > 0 && r.IntN(4) == 0 {
			q = damage.Prefix(strings.Repeat(">", depth)) // no space after the marks
		}
		var in []string
		var want []string
		var wantOrig []int
		var spans [][2]int
		for k, p := range parts {
			d := strings.Split(q.Apply(damage.Wrap(w, mode).Apply(strings.Join(p, "\n"))), "\n")
			if depth == 0 {
				d = strings.Split(damage.Wrap(w, mode).Apply(strings.Join(p, "\n")), "\n")
			}
			if tabs[k] {
				rows, orig := Lines(p, Options{})
				for i := range orig {
					wantOrig = append(wantOrig, len(in)+1) // (each row on one line before the damage)
					_ = i
				}
				want = append(want, rows...)
				spans = append(spans, [2]int{len(in) + 1, len(in) + len(d)})
				joined += len(d) - len(p)
			}
			in = append(in, d...)
		}
		lines, orig := Lines(in, Options{})
		var got []string
		var gotOrig []int
		for i, o := range orig {
			for _, s := range spans {
				if o >= s[0] && o <= s[1] {
					got = append(got, lines[i])
					gotOrig = append(gotOrig, o)
				}
			}
		}
		name := fmt.Sprintf("round %d: wrap(w=%d,%v) then %s", round, w, mode, q.Name)
		same := strings.Join(got, "\n") == strings.Join(want, "\n")
		if (mode == damage.Cut || ambiguous(parts, tabs, w, mode)) && !same && len(got) == len(want) {
			// a terminal's cut at the width, mid-word, cannot be told from a mail
			// client's break at a space that fell right after the width where the
			// tables show no other break: the rows hold the same characters
			same = strings.ReplaceAll(strings.Join(got, "\n"), " ", "") == strings.ReplaceAll(strings.Join(want, "\n"), " ", "")
			relaxed++
		}
		if !same {
			t.Fatalf("%s:\n%s\n\ngot rows:\n%s\n\nwant rows:\n%s", name, strings.Join(in, "\n"), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// each row at the line it starts on: the first line of the table, then increasing
		for _, s := range spans {
			found := false
			for _, o := range gotOrig {
				found = found || o == s[0]
			}
			if !found {
				t.Fatalf("%s: no row at the table's first line %d (rows at %v)", name, s[0], gotOrig)
			}
		}
		// the prose keeps every line it was wrapped into
		for i, o := range orig {
			inTable := false
			for _, s := range spans {
				inTable = inTable || o >= s[0] && o <= s[1]
			}
			if !inTable && lines[i] != "" && !strings.Contains(strings.ReplaceAll(strings.Join(prose, " "), "`", ""), strings.ReplaceAll(strings.TrimSpace(lines[i]), "`", "")) {
				t.Fatalf("%s: line %q (input line %d) is no line of the prose", name, lines[i], o)
			}
		}
		_ = wantOrig
	}
	t.Logf("%d rounds, %d lines wrapped, %d rounds compared without spaces", rounds, joined, relaxed)
	if joined < 1000 || relaxed*4 > rounds {
		t.Fatalf("%d lines wrapped, %d of %d rounds compared without spaces: the test checks little", joined, relaxed, rounds)
	}
}

// ambiguous reports whether the breaks of the tables cannot say how they were made:
// every line a wrap broke is as wide as the widest piece (no break shows a wrap at
// spaces), or a word as wide as the widest piece was broken after at the space that
// followed it (as a longer word is cut there, mid-word, at that width).
func ambiguous(parts [][]string, tabs map[int]bool, w int, mode damage.WrapMode) bool {
	widest := 0
	var broken []int
	var words []int // one word, broken after at the space that followed it
	for k, p := range parts {
		if !tabs[k] {
			continue
		}
		for _, l := range p {
			if ruleCells(l) > 0 {
				continue // (a delimiter row's breaks say nothing: it has a space every few columns)
			}
			pieces := strings.Split(damage.Wrap(w, mode).Apply(l), "\n")
			rs, at := []rune(l), 0
			for i, pc := range pieces {
				n := utf8.RuneCountInString(pc)
				widest = max(widest, n)
				at += n
				if i < len(pieces)-1 {
					broken = append(broken, n)
					if at < len(rs) && rs[at] == ' ' {
						at++ // the space the wrap ate
						if !strings.Contains(strings.TrimSpace(pc), " ") {
							words = append(words, n)
						}
					}
				}
			}
		}
	}
	for _, n := range words {
		if n == widest {
			return true
		}
	}
	for _, n := range broken {
		if n < widest {
			return false
		}
	}
	return true
}

// FuzzPipeTables: any text, quoted once more ("> " before every line, as a mail reply
// quotes it), reads as the same lines behind the quote, at the same lines of the input:
// the tables of a text are found, joined and aligned the same at any quote depth. And no
// text makes the reading panic or lose the order of its lines.
func FuzzPipeTables(f *testing.F) {
	f.Add("| LAST SEEN  | FIRST SEEN | COUNT | NAME | KIND | SUBOBJECT | TYPE  | REASON | SOURCE | MESSAGE\n| ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- |\n| 7s | 7h  | 110 | service-name.1561188030677ac1 | Service | | Normal | DeletingLoadBalancer | service-controller | Deleting load balancer")
	f.Add("> | file | where it came from |\n> | --- | --- |\n> | `a.txt` | the description's code\n> block, verbatim |\n> |\n> `raw/b.md` | not analysed |")
	f.Add("a | b\n:-|-:\nx | y\nprose\n\n| c | d |\n|---|---\n|\n")
	f.Add(">>| a | b\n>>|---|---\n>> | x\n>>> y | z")
	f.Fuzz(func(t *testing.T, s string) {
		raw := strings.Split(s, "\n")
		if len(raw) > 200 {
			return
		}
		n := make([]int, len(raw))
		for i := range n {
			n[i] = i + 1
		}
		plain, orig := pipeTables(slices.Clone(raw), slices.Clone(n), 1, nil)
		quoted := make([]string, len(raw))
		for i, l := range raw {
			quoted[i] = "> " + l
		}
		q, qorig := pipeTables(quoted, slices.Clone(n), 1, nil)
		if !slices.Equal(orig, qorig) {
			t.Fatalf("origins %v, quoted %v", orig, qorig)
		}
		for i := range plain {
			if q[i] != "> "+plain[i] {
				t.Fatalf("line %d: %q, quoted %q", orig[i], plain[i], q[i])
			}
			if i > 0 && orig[i] <= orig[i-1] {
				t.Fatalf("origins %v", orig)
			}
		}
		Lines(raw, Options{Continues: always})
	})
}

// TestPipeTablesLinear: the table reading is linear on the shapes that make it look
// back or ahead (a row per line, rows in many pieces, delimiter rows without headers,
// headers without delimiter rows, lone pipes, tables one after another, deep quotes):
// doubling the input at most doubles the pieces counted and the allocations.
func TestPipeTablesLinear(t *testing.T) {
	for _, unit := range []string{
		"| 7s | 7h | 110 | service-name.1561188030677ac1 | Service | | Normal | DeletingLoadBalancer |\n",
		"| a\n",
		"a | b | c | d | e | f | g | h | i | j | k | l | m | n | o | p | q | r | s | t | u\n",
		"|---|---|\n",
		"| a | b |\n|---|---|\n",
		"|\n",
		"> > > | x\n> > > |---|\n",
		"-----------------------------\n| a |\n",
	} {
		hostile.CheckLinear(t, fmt.Sprintf("%.30q", unit), func(n int) int64 {
			in := strings.Split("| A | B | C |\n| --- | --- | --- |\n"+strings.Repeat(unit, n), "\n")
			got := work.Measure(func() { Lines(in, Options{Continues: always}) })
			return got["paste.pipe-pieces"]
		}, 2000)
	}
}

// TestBoxedPipeTable: a Markdown table in a frame (a k9s or tmux pane) is read as the
// same table unframed, even when its rows leave out the closing pipe.
func TestBoxedPipeTable(t *testing.T) {
	table := []string{
		"| LAST SEEN | TYPE | REASON | MESSAGE",
		"| --- | --- | --- | --- |",
		"| 7s | Normal | DeletingLoadBalancer | Deleting load balancer",
	}
	w := 0
	for _, l := range table {
		w = max(w, utf8.RuneCountInString(l))
	}
	boxed := []string{"┌" + strings.Repeat("─", w+2) + "┐"}
	for _, l := range table {
		boxed = append(boxed, "│ "+l+strings.Repeat(" ", w-utf8.RuneCountInString(l))+" │")
	}
	boxed = append(boxed, "└"+strings.Repeat("─", w+2)+"┘")
	want, _ := Lines(table, Options{})
	got, orig := Lines(boxed, Options{})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("boxed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(orig) > 0 && orig[0] != 2 {
		t.Errorf("the header maps to line %d, want 2 (after the top border)", orig[0])
	}
}
