package text

import (
	"regexp"
	"strings"
)

// A `kubectl get apiservices` row (NAME SERVICE AVAILABLE AGE) says what it is by its
// shape alone when its APIService is unavailable: a group/version name (vVERSION.GROUP),
// a Service (NAMESPACE/NAME) or Local, then `False (Reason)` (kube-aggregator's
// printer: the status, then its reason in parentheses). No sentence of prose has that
// shape, so the row is read wherever it stands: quoted in a sentence, in inline code,
// behind a list marker, a comment mark, a line number or any other prefix, re-wrapped
// over lines of a paragraph. Only a character that could be part of the name (a letter,
// a digit, '.', '-', '_', '/') before it makes it part of a longer word, not a row. The
// AGE may be missing (a row retyped into a sentence stops after the reason).
var reAPIServiceInProse = regexp.MustCompile(`(?:^|[^A-Za-z0-9._/-])` +
	`(v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?\.[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)\s+` +
	`(Local|[a-z0-9](?:[-a-z0-9]*[a-z0-9])?/[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\s+` +
	`False\s*\(([A-Za-z][A-Za-z0-9]*)\)` +
	// the AGE, when a word ends there (the reason's ")" ends the row anyway: a wrap
	// repair may glue the next word to it)
	"(?:\\s+([0-9]+[smhdy](?:[0-9]+[smhdy])*|<invalid>|<unknown>)(?:$|[\\s`'\".,;:)\\]]))?")

// proseWindow bounds how far past its first line a row in prose is looked for: a row is
// at most a few hundred bytes, however a paragraph wraps it.
const proseWindow = 512

// proseRow is an APIService row found in prose: its cells in kubectl's columns.
type proseRow struct {
	cells []string // NAME, SERVICE, AVAILABLE ("False (Reason)"), AGE ("" when missing)
}

// apiServiceRowsAt returns the APIService rows in prose that start on lines[i]: the
// line is joined with the lines of its paragraph after it (up to proseWindow bytes
// more), so a row a paragraph wrapped between its cells is read whole, and only once
// (at the line it starts on).
func apiServiceRowsAt(lines []string, i int) []proseRow {
	l := lines[i]
	if !mayNameGroupVersion(l) {
		return nil // the row's name starts on its line: no window for the others
	}
	win := l
	for k := i + 1; k < len(lines) && len(win) < len(l)+proseWindow; k++ {
		t := lines[k]
		if len(t) > proseWindow {
			t = t[:proseWindow] // each line costs at most the window, however long
		}
		if t = strings.TrimSpace(t); t == "" {
			break
		}
		win += " " + t
	}
	if len(win) > len(l)+proseWindow {
		win = win[:len(l)+proseWindow]
	}
	var out []proseRow
	for _, m := range reAPIServiceInProse.FindAllStringSubmatchIndex(win, -1) {
		if m[2] >= len(l) {
			break // starts on a later line: read there
		}
		age := ""
		if m[8] >= 0 {
			age = win[m[8]:m[9]]
		}
		out = append(out, proseRow{cells: []string{win[m[2]:m[3]], win[m[4]:m[5]], "False (" + win[m[6]:m[7]] + ")", age}})
	}
	return out
}

// proseRows reads the APIService rows in prose that start on line i (apiServiceRowsAt);
// it reports whether there was one.
func (p *parser) proseRows(i int) bool {
	rows := apiServiceRowsAt(p.lines, i)
	for _, r := range rows {
		p.row("APIService", []string{"NAME", "SERVICE", "AVAILABLE", "AGE"}, r.cells, i+1, nil)
	}
	return len(rows) > 0
}

// mayNameGroupVersion reports whether l holds a 'v' and a digit 1-9 after it, as a
// group/version name (v1.GROUP, v1beta1.GROUP) starts: a byte scan that spares nearly
// every other line the window and the expression.
func mayNameGroupVersion(l string) bool {
	for {
		k := strings.IndexByte(l, 'v')
		if k < 0 || k+1 >= len(l) {
			return false
		}
		if c := l[k+1]; c >= '1' && c <= '9' {
			return true
		}
		l = l[k+1:]
	}
}

// proseRowsEverywhere reads the unavailable APIService rows that start on any line no
// reader read an APIService from: the row's shape is evidence whatever structure a
// reader took its line for (a JSON block after a stray '{', a log line, a YAML value,
// a line of a table of something else), so structure adds precision here and does not
// gate the evidence.
func (p *parser) proseRowsEverywhere() {
	read := map[int]bool{}
	for _, s := range p.synth {
		if s.obj["kind"] == "APIService" {
			read[s.line] = true
		}
	}
	for i := range p.lines {
		if !read[i+1] {
			p.proseRows(i)
		}
	}
}
