// Sniffing: what a file holds (JSON objects, YAML, JSON-lines logs, binary) from its
// first bytes.

package objects

import "bytes"

// Sniff tells what a file holds from its first bytes: "json", "yaml", "jsonlog"
// (one JSON log record per line), "binary" or "text".
func Sniff(head []byte) string {
	if looksBinary(head) {
		return "binary"
	}
	if bytes.IndexByte(head, 0) >= 0 {
		// text with NUL bytes (a log preallocated or cut by a crash): the NULs are not content
		head = bytes.ReplaceAll(head, []byte{0}, nil)
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	t = bytes.TrimPrefix(t, []byte("\xef\xbb\xbf"))
	if len(t) == 0 {
		return "text"
	}
	switch t[0] {
	case '[':
		if jsonArrayStart(t) {
			return "json"
		}
		return "text" // "[10:42 AM] jane: ...", "[2024-01-02 ...] ...": a chat export, a log
	case '{':
		first := t
		if nl := bytes.IndexByte(t, '\n'); nl >= 0 {
			first = t[:nl]
		}
		if (bytes.Contains(first, []byte(`"ts":`)) && bytes.Contains(first, []byte(`"msg":`))) ||
			bytes.HasPrefix(first, []byte(`{"log":`)) || jsonLogLine(first) {
			return "jsonlog"
		}
		return "json"
	}
	for _, p := range []string{"apiVersion:", "kind:", "---", "items:", "metadata:"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return "yaml"
		}
	}
	return "text"
}

// jsonLogLine reports whether the first line of a file is a whole JSON log record of
// another shape than component-base's: logrus/zap (`{"level":..,"msg":..,"time":..}`)
// or journalctl -o json (`{"MESSAGE":..,"__REALTIME_TIMESTAMP":..}`); never an object
// with an apiVersion.
func jsonLogLine(first []byte) bool {
	first = bytes.TrimRight(first, " \t\r")
	if len(first) < 2 || first[len(first)-1] != '}' || bytes.Contains(first, []byte(`"apiVersion":`)) {
		return false
	}
	if bytes.Contains(first, []byte(`"__REALTIME_TIMESTAMP":`)) && bytes.Contains(first, []byte(`"MESSAGE":`)) {
		return true
	}
	return bytes.Contains(first, []byte(`"msg":`)) && bytes.Contains(first, []byte(`"time":`)) && bytes.Contains(first, []byte(`"level":`))
}

// looksBinary tells binary data from text that merely holds some NUL bytes (logs of a
// node that crashed are often padded with NULs): it is binary when it is all NULs, or
// when more than 1 in 20 of its other bytes are control characters that text never
// holds.
func looksBinary(head []byte) bool {
	nul, ctrl := 0, 0
	for _, c := range head {
		switch {
		case c == 0:
			nul++
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' && c != 0x1b, c == 0x7f:
			ctrl++
		}
	}
	other := len(head) - nul
	return (nul > 0 && other == 0) || ctrl*20 > other
}

// jsonArrayStart reports whether t (starting with '[') starts a JSON array: its first
// value starts as JSON values do ("[10:42 AM]" and "[2024-01-02" start none: a number is
// followed by a comma, a bracket or a space).
func jsonArrayStart(t []byte) bool {
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	if len(t) == 0 {
		return true
	}
	switch c := t[0]; {
	case c == '{' || c == '[' || c == '"' || c == ']':
		return true
	case c == 't' || c == 'f' || c == 'n':
		return bytes.HasPrefix(t, []byte("true")) || bytes.HasPrefix(t, []byte("false")) || bytes.HasPrefix(t, []byte("null"))
	case c == '-' || c >= '0' && c <= '9':
		i := 1
		for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || t[i] == 'e' || t[i] == 'E' || t[i] == '+' || t[i] == '-') {
			i++
		}
		return i == len(t) || bytes.IndexByte([]byte(",] \t\r\n"), t[i]) >= 0
	}
	return false
}
