package shellsafe

import "strings"

// Cmd joins a command's words for a POSIX shell: every word that holds anything but
// letters, digits and `-_./:=,@%+` is single-quoted, so a value from the bundle (a
// namespace or object name, which a hostile bundle may fill with `$(...)`, `;` or a
// newline) is always one word and never code when the command is pasted.
//
// A word holding a newline, another control character, a bidirectional override or a
// zero-width character is never written into a command (pasted, a newline ends a
// comment the command follows, and invisible characters make the command read as
// another): Cmd then returns a comment saying so, which runs nothing.
func Cmd(words ...string) string {
	n := len(words)
	for _, w := range words {
		if strings.ContainsAny(w, "\n\r") || NeedsEscape(w) {
			return Comment("no command: the word " + QuoteName(w) + " holds control or invisible characters: the bundle may be damaged or hostile")
		}
		n += len(w) + 2
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		appendQuoted(&b, w)
	}
	return b.String()
}

// Quote returns s as one POSIX shell word: s itself when it holds only letters,
// digits and `-_./:=,@%+`, else s single-quoted (an embedded quote is closed, escaped
// with a backslash and reopened).
func Quote(s string) string {
	if s != "" && plainWord(s) {
		return s
	}
	var b strings.Builder
	appendQuoted(&b, s)
	return b.String()
}

// QuoteAlways returns s single-quoted, whatever it holds (for values a script assigns).
func QuoteAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=,@%+", c) >= 0) {
			return false
		}
	}
	return true
}

func appendQuoted(b *strings.Builder, s string) {
	if s != "" && plainWord(s) {
		b.WriteString(s)
		return
	}
	b.WriteByte('\'')
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(`'\''`)
		s = s[i+1:]
	}
	b.WriteString(s)
	b.WriteByte('\'')
}

// Comment turns text into a shell comment: a rung that tells what to do where no
// command can (every line of it starts with "# ", so pasting it runs nothing).
func Comment(text string) string {
	return "# " + strings.ReplaceAll(strings.ReplaceAll(text, "\r", ""), "\n", " ")
}
