package shellsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every string nsanalyze prints comes, in part, from the bundle, which may be hostile:
// a name or log line can carry terminal escape sequences (clear the screen, set the
// window title, hide text, 8-bit CSI 0x9B), bidirectional overrides that make text read
// differently from what it is (U+202E), zero-width characters that make two names look
// alike, or bytes that are not UTF-8. EscapeText is the one escaping path every output
// stream uses (report formats, diff, explain, log lines on stderr): such characters are
// shown as visible Go-style escapes (`\x1b`, `\u202e`), never raw.

// Unsafe reports whether r must never reach an output raw: C0 controls other than
// newline and tab, DEL, C1 controls (U+0080-U+009F), every format character (Unicode
// category Cf: bidirectional controls, zero-width characters, the soft hyphen, tag
// characters, U+206A-U+206F, interlinear annotations, ...), line/paragraph separators,
// and the characters that show as nothing or as a space: Hangul fillers, variation
// selectors, the combining grapheme joiner, Mongolian free variation selectors, the
// Braille blank, spaces other than U+0020, and U+FFFD (which would hide which bytes
// were not UTF-8), private-use and unassigned code points.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r < 0x7f:
		return false
	case r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x00a0, r == 0x034f, // no-break space, combining grapheme joiner
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, // Hangul fillers
		r >= 0x180b && r <= 0x180f, // Mongolian free variation selectors, vowel separator
		r >= 0x2000 && r <= 0x200f, // spaces of other widths, zero width space, ZWNJ, ZWJ, LRM, RLM
		r >= 0x2028 && r <= 0x202f, // line/paragraph separators, bidi embeddings, narrow no-break space
		r >= 0x205f && r <= 0x206f, // medium space, word joiner, invisible operators, bidi isolates, U+206A-F
		r == 0x2800, r == 0x3000,   // Braille blank, ideographic space
		r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef, // variation selectors
		r >= 0xe0000 && r <= 0xe007f, // tag characters
		r == 0xfeff, r == 0xfffd:     // zero width no-break space (BOM), replacement character
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) || !unicode.Is(unicode.L, r) && !unicode.IsPrint(r) && !unicode.IsGraphic(r)
}

// mixedWords tells, for a left-to-right walk over s, whether the word at i mixes
// ASCII letters or digits with letters of another script (t\u043ebedeleted: a
// Cyrillic o among Latin ones), so its non-ASCII letters must be shown as escapes:
// what looks like "tobedeleted" is not. Words of one script (a message in Russian, a
// name in Japanese) stay readable. Each word is looked at once.
type mixedWords struct {
	start, end int // the word being walked, once looked at (end 0: not yet)
	mixed      bool
}

// sep records a separator at s[i:i+n]: the next word starts after it.
func (m *mixedWords) sep(i, n int) { m.start, m.end = i+n, 0 }

// atWord reports whether the word that s[i] belongs to is mixed.
func (m *mixedWords) atWord(s string, i int) bool {
	if m.end == 0 || i >= m.end {
		if m.end != 0 {
			m.start = m.end
		}
		end, ascii, other := m.start, false, false
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !wordRune(r) {
				break
			}
			switch {
			case r < utf8.RuneSelf:
				ascii = ascii || r != '-' && r != '_' && r != '.'
			case unicode.IsLetter(r):
				other = true
			}
			end += n
		}
		m.end, m.mixed = max(end, i+1), ascii && other
	}
	return m.mixed
}

// asciiWord is wordRune for ASCII bytes.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = wordRune(rune(c))
	}
	return t
}()

func wordRune(r rune) bool {
	return r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// NeedsEscape reports whether EscapeText would change s (newlines kept).
func NeedsEscape(s string) bool {
	var mw mixedWords
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return true
			}
			if !asciiWord[s[i]] {
				mw.sep(i, 1)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || Unsafe(r) || unicode.IsLetter(r) && mw.atWord(s, i) {
			return true
		}
		i += n
	}
	return false
}

// EscapeText shows every unsafe character of s as a visible escape: bytes of invalid
// UTF-8 and C0/DEL as \xNN, other characters as \uNNNN. Newlines and tabs are kept.
func EscapeText(s string) string { return escape(s, false) }

// EscapeLine is EscapeText that also escapes newlines and carriage returns (\n, \r):
// for a value that must stay on one line (a name, a table cell, a log field).
func EscapeLine(s string) string { return escape(s, true) }

func escape(s string, oneLine bool) string {
	if !NeedsEscape(s) && (!oneLine || !strings.ContainsAny(s, "\n\r")) {
		return s
	}
	var b strings.Builder
	writeEscaped(&b, s, oneLine, false)
	return b.String()
}

// writeEscaped writes s with every unsafe character escaped (\xNN, \uNNNN); oneLine
// also escapes newlines, quoted also escapes tabs, double quotes and backslashes.
func writeEscaped(b *strings.Builder, s string, oneLine, quoted bool) {
	var mw mixedWords
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !wordRune(r) {
			mw.sep(i, n)
		}
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case quoted && (r == '"' || r == '\\'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case (oneLine || quoted) && r == '\n':
			b.WriteString(`\n`)
		case quoted && r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(b, `\x%02x`, r)
		case Unsafe(r), r >= utf8.RuneSelf && unicode.IsLetter(r) && mw.atWord(s, i):
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
}

// QuoteName shows a name from the bundle for prose: in double quotes, every unsafe
// character, newline, quote and backslash escaped, so that the reader sees exactly
// which bytes the name holds (`"x$(id)\n"`, `"evil\u202ens"`).
func QuoteName(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	writeEscaped(&b, s, true, true)
	b.WriteByte('"')
	return b.String()
}

// EscapeJSON rewrites the characters of encoded JSON that must not reach an output
// raw (Unsafe, and the non-ASCII letters of mixed-script words) as \u escapes:
// outside strings JSON holds only ASCII, so only string contents change, and only in
// how they are spelled. Bytes that are not UTF-8 become \ufffd (the report's writer
// spells them as text first, so distinct names stay distinct).
func EscapeJSON(b []byte) []byte {
	if !NeedsEscape(string(b)) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	var mw mixedWords
	s := string(b)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !wordRune(r) {
			mw.sep(i, n)
		}
		switch {
		case r == utf8.RuneError && n <= 1:
			out = append(out, `\ufffd`...)
		case r >= 0x20 && Unsafe(r), r >= utf8.RuneSelf && unicode.IsLetter(r) && mw.atWord(s, i):
			if r > 0xffff { // JSON spells it as a surrogate pair
				r1, r2 := utf16Pair(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, s[i:i+n]...)
		}
		i += n
	}
	return out
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// EscapeBytes spells the bytes of s that are not UTF-8 as \xNN and leaves the rest as
// it is: for an output (JSON) that escapes the other characters itself.
func EscapeBytes(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// EscapeNonASCII shows every character of s outside printable ASCII as an escape
// (\u043e), for a name Kubernetes would refuse: no letter of it can pass for another.
func EscapeNonASCII(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < utf8.RuneSelf:
			b.WriteByte(byte(r))
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}
