package shellsafe

import (
	"fmt"
	"strings"
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
// newline and tab, DEL, C1 controls (U+0080-U+009F), bidirectional formatting
// characters, zero-width characters and line/paragraph separators.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c, // Arabic letter mark
		r >= 0x200b && r <= 0x200f, // zero width space, ZWNJ, ZWJ, LRM, RLM
		r >= 0x2028 && r <= 0x202e, // line/paragraph separators, LRE RLE PDF LRO RLO
		r >= 0x2060 && r <= 0x2064, // word joiner, invisible operators
		r >= 0x2066 && r <= 0x2069, // LRI RLI FSI PDI
		r == 0xfeff:                // zero width no-break space (BOM)
		return true
	}
	return false
}

// NeedsEscape reports whether EscapeText would change s (newlines kept).
func NeedsEscape(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf { // ASCII: no decoding
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || Unsafe(r) {
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
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
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
		case Unsafe(r):
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
