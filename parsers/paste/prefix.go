package paste

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// What a paste puts before its lines, and between them, undone before the lines are
// read: a chat export's stamp, a code viewer's gutter of line numbers, a prefix every
// line shares (quotes, nested or not, "# ", "║ ", "// "), and a blank line after every
// line. Each is recognised on the whole paste, never on one line alone, and never
// changes how many lines there are (a dropped blank line keeps the numbering of the
// others), so every record still cites its own line of the file.

// reStamp is a chat export's stamp before a message: "[10:42 AM] Jane Doe: ",
// "[9:05 pm] oncall-bot: " (a 12-hour clock, which no log line uses).
var reStamp = regexp.MustCompile(`^\[\d{1,2}:\d\d(?::\d\d)? ?[AaPp][Mm]\] [^:\[\]]{1,40}?: ?`)

// unstamp removes chat stamps from the start of lines.
func unstamp(lines []string) {
	for i, l := range lines {
		if len(l) > 0 && l[0] == '[' {
			if m := reStamp.FindStringIndex(l); m != nil {
				lines[i] = l[m[1]:]
			}
		}
	}
}

// gutterNumber returns the number a line starts with (after spaces) and where the rest
// starts.
func gutterNumber(l string) (n, end int, ok bool) {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	j := i
	for j < len(l) && j-i < 7 && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	if j == i || j < len(l) && l[j] >= '0' && l[j] <= '9' {
		return 0, 0, false
	}
	if j < len(l) && (!strings.ContainsRune(gutterSeps, rune(l[j])) && l[j] < 0x80 || l[j] == ':' && j+1 < len(l) && l[j+1] >= '0' && l[j+1] <= '9') {
		return 0, 0, false // "10m", "3/3", "10:42": the text's own number
	}
	n, err := strconv.Atoi(l[i:j])
	return n, j, err == nil
}

// gutterSeps are the characters between a gutter's numbers and the text (box-drawing
// characters too: "12│ text").
const gutterSeps = " \t|:│┃║"

// ungutter removes a code viewer's line numbers: at least two lines and most of the
// non-blank ones start with numbers that go up one by one (lines without one are a
// wrapped line's rest, or blank lines added later), then the separator they share.
func ungutter(lines []string) bool {
	nonBlank, numbered, prev := 0, 0, -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		nonBlank++
		n, _, ok := gutterNumber(l)
		if !ok {
			continue
		}
		if prev >= 0 && n != prev+1 {
			return false
		}
		prev = n
		numbered++
	}
	if numbered < 2 || numbered*5 < nonBlank*3 {
		return false
	}
	// the separator: what the rests of the numbered lines share, of separator
	// characters (the text's common indentation with it, which dedent removes anyway)
	common, first := "", true
	for _, l := range lines {
		_, end, ok := gutterNumber(l)
		if !ok || strings.TrimSpace(l[end:]) == "" && strings.Trim(l[end:], gutterSeps) == "" {
			continue
		}
		rest := l[end:]
		k := 0
		for k < len(rest) {
			r, n := utf8.DecodeRuneInString(rest[k:])
			if !strings.ContainsRune(gutterSeps, r) {
				break
			}
			k += n
		}
		if first {
			common, first = rest[:k], false
		} else {
			common = commonPrefix(common, rest[:k])
		}
	}
	for i, l := range lines {
		if _, end, ok := gutterNumber(l); ok {
			rest := l[end:]
			if strings.HasPrefix(rest, common) {
				rest = rest[len(common):]
			} else if strings.HasPrefix(common, strings.TrimRight(rest, " \t")) {
				rest = "" // a blank line's number, its separator trimmed
			}
			lines[i] = rest
		}
	}
	return true
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n-- // (never half a rune)
	}
	return a[:n]
}

// markers are what a prefix every line shares is made of: quotes, comment signs,
// frames' sides.
const markers = ">#/|║│┃ "

// unmark removes the prefix every non-blank line of at least two shares, made of
// markers and holding one that is not a space: a quote ("> ", "> > ", ">> "), a
// comment ("# ", "// "), a frame's side ("║ "). A line that is only part of the prefix
// (an empty line quoted, its trailing space trimmed) becomes empty. A frame's line that
// ends with its side too is left to unframe.
func unmark(lines []string) bool {
	var p string
	first, n, closed := true, 0, 0
	for _, l := range lines {
		t := strings.TrimRight(l, " \t")
		if t == "" || strings.Trim(t, markers) == "" {
			continue // blank, or only markers
		}
		n++
		k := 0
		for k < len(t) {
			r, w := utf8.DecodeRuneInString(t[k:])
			if !strings.ContainsRune(markers, r) {
				break
			}
			k += w
		}
		if first {
			p, first = t[:k], false
		} else {
			p = commonPrefix(p, t[:k])
		}
		if r, _ := utf8.DecodeLastRuneInString(t); strings.ContainsRune("|║│┃", r) {
			closed++
		}
		if strings.TrimSpace(p) == "" || strings.TrimSpace(p) == "/" {
			return false // ("/": the lines are paths; a comment is "//")
		}
	}
	if n < 2 || closed*2 >= n && strings.ContainsAny(strings.TrimSpace(p)[:1], "|║│┃") {
		return false
	}
	for i, l := range lines {
		t := strings.TrimRight(l, " \t")
		switch {
		case strings.HasPrefix(l, p):
			lines[i] = l[len(p):]
		case strings.HasPrefix(p, t):
			lines[i] = ""
		}
	}
	return true
}

// unprefix undoes stamps, gutters and shared prefixes, in whatever order they were
// put (a quoted gutter, a numbered quote).
func unprefix(lines []string) {
	for range 4 {
		unstamp(lines) // (a stamp before a quote, or inside one)
		if !ungutter(lines) && !unmark(lines) {
			return
		}
	}
}

// blankEvery marks the blank lines a paste added after every line (a chat tool, a
// double-spaced copy): no two non-blank lines are neighbours, at least three of them,
// and a run of 2k+1 blank lines was k of the text's own. It returns nil when the paste
// is not double-spaced.
func blankEvery(lines []string) []bool {
	nonBlank := 0
	prevBlank := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			prevBlank = true
			continue
		}
		if !prevBlank {
			return nil
		}
		prevBlank = false
		nonBlank++
	}
	if nonBlank < 3 {
		return nil
	}
	drop := make([]bool, len(lines))
	for i := 0; i < len(lines); {
		if strings.TrimSpace(lines[i]) != "" {
			i++
			continue
		}
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		keep := (j - i - 1) / 2
		if i == 0 || j == len(lines) {
			keep = j - i // before the first line and after the last: nothing was added
		}
		for k := i + keep; k < j; k++ {
			drop[k] = true
		}
		i = j
	}
	return drop
}

// entities are the HTML entities a web page or a mail leaves in copied text.
var entities = strings.NewReplacer("&nbsp;", " ", "&#160;", " ", "&quot;", `"`, "&#34;", `"`, "&#39;", "'",
	"&#x27;", "'", "&apos;", "'", "&amp;", "&", "&#38;", "&", "&lt;", "<", "&gt;", ">")

// unentity replaces HTML entities, in one pass ("&amp;quot;" is "&quot;").
func unentity(l string) string {
	if i := strings.IndexByte(l, '&'); i < 0 || !strings.Contains(l[i:], ";") {
		return l
	}
	return entities.Replace(l)
}

// GutterNumber returns the number a line of a gutter would start with (for a cheap
// check of bytes before Lines).
func GutterNumber(l []byte) (int, bool) {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	j := i
	n := 0
	for j < len(l) && j-i < 7 && l[j] >= '0' && l[j] <= '9' {
		n = n*10 + int(l[j]-'0')
		j++
	}
	if j == i || j < len(l) && (l[j] >= '0' && l[j] <= '9' || !strings.ContainsRune(gutterSeps, rune(l[j])) && l[j] < 0x80 ||
		l[j] == ':' && j+1 < len(l) && l[j+1] >= '0' && l[j+1] <= '9') {
		return 0, false
	}
	return n, true
}

// Stamped reports whether a line starts with a chat stamp.
func Stamped(l []byte) bool { return reStamp.Match(l) }

// HasEntity reports whether a line holds an HTML entity Lines replaces.
func HasEntity(l []byte) bool {
	for _, e := range entityNames {
		if bytes.Contains(l, e) {
			return true
		}
	}
	return false
}

var entityNames = [][]byte{[]byte("&nbsp;"), []byte("&#160;"), []byte("&quot;"), []byte("&#34;"), []byte("&#39;"),
	[]byte("&#x27;"), []byte("&apos;"), []byte("&amp;"), []byte("&#38;"), []byte("&lt;"), []byte("&gt;")}
