package logs

import "strings"

// Shape folds the variable parts of a log line so that repeated lines group together:
// the CRI prefix (`2024-01-01T10:00:00.000Z stderr F `) at its start, then the klog
// header (`E0101 10:00:00.000000    1 `) at the start of what is left, and every JSON
// `"ts":<number>,`. It is the three regexps
//
//	^\S+Z (stdout|stderr) [FP] , then ^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ , then "ts":[0-9.]+,
//
// written out, since it runs for every matched line. The scanner caps the lines it keeps
// per shape (MaxEntriesPerShape) and the analyzer groups evidence by it: one function,
// so the scanner's grouping is never coarser than the analyzer's.
func Shape(s string) string {
	if n := criPrefixLen(s); n > 0 {
		s = s[n:]
	}
	if n := klogHeaderLen(s); n > 0 {
		s = s[n:]
	}
	if !strings.Contains(s, `"ts":`) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, `"ts":`)
		if i < 0 {
			break
		}
		j := i + len(`"ts":`)
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		if j > i+len(`"ts":`) && j < len(s) && s[j] == ',' {
			b.WriteString(s[:i])
			s = s[j+1:]
			continue
		}
		b.WriteString(s[:i+1])
		s = s[i+1:]
	}
	b.WriteString(s)
	return b.String()
}

// klogHeaderLen is the length of `[IWEF]dddd dd:dd:dd.d+<spaces>d+ ` at the start of s.
func klogHeaderLen(s string) int {
	const fixed = "X0000 00:00:00." // shape of the fixed part: letters, digits, punctuation
	if len(s) < len(fixed)+4 || !strings.ContainsRune("IWEF", rune(s[0])) {
		return 0
	}
	for i := 1; i < len(fixed); i++ {
		if c := fixed[i]; c == '0' {
			if !isDigit(s[i]) {
				return 0
			}
		} else if s[i] != c {
			return 0
		}
	}
	i := len(fixed)
	d := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == d {
		return 0
	}
	w := i
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i == w {
		return 0
	}
	d = i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == d || i >= len(s) || s[i] != ' ' {
		return 0
	}
	return i + 1
}

// criPrefixLen is the length of `<non-space>Z stdout|stderr F|P ` at the start of s.
func criPrefixLen(s string) int {
	sp := strings.IndexFunc(s, func(r rune) bool { return isSpace(byte(r)) && r < 0x80 })
	if sp < 2 || s[sp-1] != 'Z' || s[sp] != ' ' { // \S+ before the Z
		return 0
	}
	rest := s[sp+1:]
	for _, stream := range []string{"stdout ", "stderr "} {
		if strings.HasPrefix(rest, stream) && len(rest) >= len(stream)+2 &&
			(rest[len(stream)] == 'F' || rest[len(stream)] == 'P') && rest[len(stream)+1] == ' ' {
			return sp + 1 + len(stream) + 2
		}
	}
	return 0
}

// isSpace is \s of Go's regexp (RE2): tab, newline, form feed, carriage return, space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
