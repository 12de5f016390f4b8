package kubemsg

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A View is the message view of a text: its characters without whitespace, line
// prefixes (quote marks, comment marks, table and box-drawing bars, a gutter of line
// numbers, a chat stamp), zero-width marks, backticks, Markdown backslash escapes and
// HTML entities, with a map from each byte back to the text. Wrapping at any column,
// indentation, re-flowing and blank lines cannot change it: Kubernetes identifiers
// (names, group/versions, finalizers) hold no whitespace, so what a template captures
// on the view is what Kubernetes wrote. A hyphen ending a line followed by a letter
// (a word hyphenated at the break) is left out of the view and remembered (Soft), so
// a template's literal matches across it and an identifier capture keeps it.
type View struct {
	b    []byte  // the view
	off  []int32 // the text's byte offset of each view byte
	gap  []uint8 // what the text has between view bytes i-1 and i: gapNone, gapSpace, gapLine
	soft []bool  // a line-ending hyphen was left out just before view byte i
	// lineStart holds the byte offset of each line of the text
	lineStart []int
}

const (
	gapNone  = 0
	gapSpace = 1 // spaces or markup inside one line
	gapLine  = 2 // a line break (with or without the next line's prefix)
)

// Len is the length of the view in bytes.
func (v *View) Len() int { return len(v.b) }

// String returns the view.
func (v *View) String() string { return string(v.b) }

// Line returns the 1-based line of the text holding view byte i.
func (v *View) Line(i int) int {
	if i >= len(v.off) {
		i = len(v.off) - 1
	}
	if i < 0 {
		return 0
	}
	o := int(v.off[i])
	return sort.Search(len(v.lineStart), func(k int) bool { return v.lineStart[k] > o })
}

// entities are the HTML entities a ticket's HTML rendering puts in messages.
var entities = map[string]rune{
	"quot": '"', "amp": '&', "lt": '<', "gt": '>', "apos": '\'', "nbsp": ' ', "#34": '"', "#39": '\'', "#x27": '\'',
	"#x22": '"', "#38": '&', "#60": '<', "#62": '>', "#x3C": '<', "#x3E": '>', "#x3c": '<', "#x3e": '>', "#160": ' ',
	"#96": '`', "#x60": '`', "#47": '/', "#x2F": '/', "#x2f": '/', "#58": ':', "#x3A": ':', "#x3a": ':',
	"lsquo": '\'', "rsquo": '\'', "ldquo": '"', "rdquo": '"', "hyphen": '-', "#45": '-', "#x2D": '-', "#x2d": '-',
}

// decodeEntity returns the character of the entity starting at s[0] ('&') and its length.
func decodeEntity(s string) (rune, int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 7 {
		return 0, 0
	}
	if r, ok := entities[s[1:end]]; ok {
		return r, end + 1
	}
	return 0, 0
}

// zeroWidth reports the characters that take no room: a ticket's editor puts them inside words.
func zeroWidth(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u180e':
		return true
	}
	return false
}

// markup reports the characters that never belong to a message at a line's start
// (after its indentation): quote marks, comment marks, table and box-drawing bars.
func markup(r rune) bool {
	switch r {
	case '>', '#', '|', '│', '║', '┃', '┆', '┊', '▌', '`', '•':
		return true
	}
	return false
}

// prefixLen returns how many bytes of a line are prefix: indentation and markup, a
// gutter number (gutter: the line is numbered consecutively with its neighbours) and a
// chat stamp ("[10:42 AM] name: ").
func prefixLen(l string, gutter bool) int {
	i := 0
	for round := 0; round < 8; round++ {
		start := i
		for i < len(l) {
			r, n := utf8.DecodeRuneInString(l[i:])
			if unicode.IsSpace(r) || markup(r) || zeroWidth(r) {
				i += n
				continue
			}
			break
		}
		if gutter {
			j := i
			for j < len(l) && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j > i && j-i <= 7 && (j == len(l) || l[j] == ' ' || l[j] == '\t' || l[j] == ':' || l[j] == '|' || strings.HasPrefix(l[j:], "│")) {
				i = j
				gutter = false
				if i < len(l) && l[i] == ':' {
					i++
				}
				continue
			}
		}
		if n := chatStamp(l[i:]); n > 0 {
			i += n
		}
		if i == start {
			break
		}
	}
	return i
}

// suffixStart returns where a line's closing markup starts: the right border of a box
// or a table (` │`, ` ║`, ` |`) and a closing backtick, after trailing whitespace.
func suffixStart(l string) int {
	e := len(l)
	for round := 0; round < 4; round++ {
		t := strings.TrimRight(l[:e], " \t\r")
		r, n := utf8.DecodeLastRuneInString(t)
		switch r {
		case '│', '║', '┃', '|', '`':
			e = len(t) - n
			continue
		}
		e = len(t)
		break
	}
	return e
}

// chatStamp returns the length of a chat export's stamp at the start of s: "[10:42 AM] name:",
// "[10:42] name:", "[2024-01-02 10:42] name:" (name: at most three words).
func chatStamp(s string) int {
	if len(s) < 7 || s[0] != '[' {
		return 0
	}
	end := strings.IndexByte(s, ']')
	if end < 5 || end > 26 {
		return 0
	}
	colon := false
	for _, c := range s[1:end] {
		switch {
		case c == ':':
			colon = true
		case c >= '0' && c <= '9', c == ' ', c == '-', c == '/', c == 'A', c == 'P', c == 'M', c == 'a', c == 'p', c == 'm', c == '.', c == ',':
		default:
			return 0
		}
	}
	if !colon {
		return 0
	}
	i := end + 1
	rest := s[i:]
	c := strings.IndexByte(rest, ':')
	if c <= 0 || c > 40 || strings.Count(strings.TrimSpace(rest[:c]), " ") > 2 || c+1 < len(rest) && rest[c+1] != ' ' {
		return i
	}
	return i + c + 1
}

// gutterNumber returns the line number a line starts with (after indentation and
// markup), or -1.
func gutterNumber(l string) int {
	i := prefixLen(l, false)
	n, j := 0, i
	for j < len(l) && l[j] >= '0' && l[j] <= '9' && j-i < 7 {
		n = n*10 + int(l[j]-'0')
		j++
	}
	if j == i || j < len(l) && l[j] != ' ' && l[j] != '\t' && l[j] != ':' && l[j] != '|' && !strings.HasPrefix(l[j:], "│") {
		return -1
	}
	return n
}

// gutterBar reports a gutter number followed by a bar or a colon.
func gutterBar(l string) bool {
	t := strings.TrimLeft(l[prefixLen(l, false):], "0123456789")
	t = strings.TrimLeft(t, " \t")
	return strings.HasPrefix(t, "|") || strings.HasPrefix(t, "│") || strings.HasPrefix(t, ":")
}

// NewView builds the message view of a text.
func NewView(text string) *View {
	v := &View{}
	n := len(text)
	v.b = make([]byte, 0, n/2+16)
	v.off = make([]int32, 0, n/2+16)
	v.gap = make([]uint8, 0, n/2+16)
	v.soft = make([]bool, 0, n/2+16)
	var lines []string
	for s, at := text, 0; ; {
		v.lineStart = append(v.lineStart, at)
		k := strings.IndexByte(s, '\n')
		if k < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:k])
		s = s[k+1:]
		at += k + 1
	}
	nums := make([]int, len(lines))
	for i, l := range lines {
		nums[i] = gutterNumber(l)
	}
	// a gutter: runs of lines numbered consecutively (blank lines between them allowed),
	// three at least, or two when a bar or colon follows the number
	gutter := make([]bool, len(lines))
	runStart, runLen, bar := -1, 0, true
	prev := -1
	closeRun := func() {
		if runLen >= 3 || runLen == 2 && bar {
			for k := runStart; k <= prev; k++ {
				if nums[k] >= 0 {
					gutter[k] = true
				}
			}
		}
	}
	for i, l := range lines {
		if nums[i] < 0 {
			if strings.TrimSpace(l) == "" {
				continue
			}
			closeRun()
			runStart, runLen, prev = -1, 0, -1
			continue
		}
		if prev >= 0 && nums[i] == nums[prev]+1 {
			runLen++
		} else {
			closeRun()
			runStart, runLen, bar = i, 1, true
		}
		bar = bar && gutterBar(l)
		prev = i
	}
	closeRun()
	pendingGap := uint8(gapNone)
	pendingSoft := false
	for li, l := range lines {
		base := v.lineStart[li]
		l = strings.TrimSuffix(l, "\r")
		l = l[:suffixStart(l)]
		i := prefixLen(l, gutter[li])
		if li > 0 {
			pendingGap = gapLine
		}
		lineFirst := len(v.b)
		for i < len(l) {
			c := l[i]
			if c < utf8.RuneSelf {
				switch {
				case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
					if pendingGap < gapSpace {
						pendingGap = gapSpace
					}
					i++
					continue
				case c == '`':
					if pendingGap < gapSpace && len(v.b) > lineFirst {
						pendingGap = gapSpace
					}
					i++
					continue
				case c == '&':
					if r, m := decodeEntity(l[i:]); m > 0 {
						if r == ' ' {
							if pendingGap < gapSpace {
								pendingGap = gapSpace
							}
						} else {
							v.add(byte(r), base+i, pendingGap, pendingSoft)
							pendingGap, pendingSoft = gapNone, false
						}
						i += m
						continue
					}
				}
				v.add(c, base+i, pendingGap, pendingSoft)
				pendingGap, pendingSoft = gapNone, false
				i++
				continue
			}
			r, m := utf8.DecodeRuneInString(l[i:])
			switch {
			case zeroWidth(r):
			case unicode.IsSpace(r):
				if pendingGap < gapSpace {
					pendingGap = gapSpace
				}
			case r == '‘' || r == '’' || r == '′':
				v.add('\'', base+i, pendingGap, pendingSoft)
				pendingGap, pendingSoft = gapNone, false
			case r == '“' || r == '”' || r == '″':
				v.add('"', base+i, pendingGap, pendingSoft)
				pendingGap, pendingSoft = gapNone, false
			case r == '‐' || r == '‑' || r == '–':
				v.add('-', base+i, pendingGap, pendingSoft)
				pendingGap, pendingSoft = gapNone, false
			default:
				for k := 0; k < m; k++ {
					v.add(l[i+k], base+i+k, pendingGap, pendingSoft)
					pendingGap, pendingSoft = gapNone, false
				}
			}
			i += m
		}
		// a hyphen ending the line after a letter, the next line going on: hyphenation
		if k := len(v.b) - 1; k > lineFirst && v.b[k] == '-' && v.gap[k] == gapNone && isLetter(v.b[k-1]) {
			v.b, v.off, v.gap, v.soft = v.b[:k], v.off[:k], v.gap[:k], v.soft[:k]
			pendingSoft = true
		}
	}
	v.unescape()
	return v
}

// unescape drops each backslash that escapes a punctuation character (Markdown's
// escapes, JSON's \" inside a string), wherever a wrap or an entity put them.
func (v *View) unescape() {
	w := 0
	for i := 0; i < len(v.b); i++ {
		if v.b[i] == '\\' && i+1 < len(v.b) && isEscapable(v.b[i+1]) {
			g, s := v.gap[i], v.soft[i]
			i++
			v.b[w], v.off[w], v.gap[w], v.soft[w] = v.b[i], v.off[i], max(g, v.gap[i]), s || v.soft[i]
			w++
			continue
		}
		v.b[w], v.off[w], v.gap[w], v.soft[w] = v.b[i], v.off[i], v.gap[i], v.soft[i]
		w++
	}
	v.b, v.off, v.gap, v.soft = v.b[:w], v.off[:w], v.gap[:w], v.soft[:w]
}

func (v *View) add(c byte, at int, gap uint8, soft bool) {
	if len(v.b) == 0 {
		gap = gapNone
	}
	v.b = append(v.b, c)
	v.off = append(v.off, int32(at))
	v.gap = append(v.gap, gap)
	v.soft = append(v.soft, soft)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isEscapable: the ASCII punctuation Markdown lets a backslash escape.
func isEscapable(c byte) bool {
	return strings.IndexByte("\\`*_{}[]()#+-.!<>\"'|~", c) >= 0
}

// squeeze removes the whitespace of a template literal.
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), "")
}
