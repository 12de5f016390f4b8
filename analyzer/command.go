package analyzer

import "strings"

// Cmd joins a command's words for a POSIX shell: every word that holds anything but
// letters, digits and `-_./:=,@%+` is single-quoted, so a value from the bundle (a
// namespace or object name, which a hostile bundle may fill with `$(...)`, `;` or a
// newline) is always one word and never code when the command is pasted.
func Cmd(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = ShellQuote(w)
	}
	return strings.Join(q, " ")
}

// ShellQuote returns s as one POSIX shell word.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=,@%+", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Comment turns text into a shell comment: a rung that tells what to do where no
// command can (every line of it starts with "# ", so pasting it runs nothing).
func Comment(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r", ""), "\n")
	return "# " + strings.Join(lines, " ")
}
