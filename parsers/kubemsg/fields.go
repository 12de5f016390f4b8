package kubemsg

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Helpers that read a value out of a raw log line in any of the renderings the
// catalogue lists: klog's structured text (`key="Go-quoted"` or `key=bare`), klog's
// JSON format (`"key":"JSON string"`), and printf text. They let the parsers accept a
// whole line as well as the message the log parser has already taken apart.

// fieldValue returns the value of key in a klog structured text line (` key="..."`,
// Go-quoted, or ` key=bare`) or a JSON log line (`"key":"..."`). It returns the first
// occurrence whose value decodes.
func fieldValue(line, key string) (string, bool) {
	line = " " + line // a key at the start of the text
	for _, pre := range []string{" " + key + "=", `"` + key + `":`} {
		off := 0
		for tries := 0; tries < maxFieldTries; tries++ {
			i := strings.Index(line[off:], pre)
			if i < 0 {
				break
			}
			rest := line[off+i+len(pre):]
			off += i + len(pre)
			if v, ok := leadingValue(rest, pre[0] == '"'); ok {
				return v, true
			}
		}
	}
	return "", false
}

// Bounds that keep hostile lines linear: occurrences of a key tried, bytes of a
// quoted value decoded.
const (
	maxFieldTries = 16
	maxQuoted     = 64 << 10
)

// leadingValue decodes the quoted (Go or JSON) or bare value at the start of s.
func leadingValue(s string, json bool) (string, bool) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s[:min(len(s), maxQuoted)])
		if err != nil {
			return "", false
		}
		v, err := strconv.Unquote(q)
		if err != nil || !utf8.ValidString(v) {
			return "", false
		}
		return v, true
	}
	if json {
		return "", false // only strings are wanted from JSON lines
	}
	end := strings.IndexAny(s, " \t")
	if end < 0 {
		end = len(s)
	}
	if end == 0 {
		return "", false
	}
	return s[:end], true
}

// quotedTail returns the part of text from index i on, decoded when i is inside a
// Go- or JSON-quoted value (klog `err="..."`, JSON `"msg":"..."`): the parsers then see
// the message as printf wrote it, with `"` instead of `\"`. Outside a quoted value the
// text is returned as is.
func quotedTail(text string, i int) string {
	// find the opening quote of the value that contains i: a `"` preceded by `=` or `:`
	open := -1
	for j := i - 1; j >= 0; j-- {
		if text[j] == '"' && (j == 0 || text[j-1] != '\\') {
			if j > 0 && (text[j-1] == '=' || text[j-1] == ':') || j > 1 && text[j-1] == ' ' && text[j-2] == ':' {
				open = j
			}
			break
		}
	}
	if open < 0 {
		return text[i:]
	}
	q, err := strconv.QuotedPrefix(text[open:min(len(text), open+maxQuoted)])
	if err != nil {
		return text[i:]
	}
	v, err := strconv.Unquote(q)
	if err != nil || !utf8.ValidString(v) {
		return text[i:]
	}
	// the decoded value starts with the part of the value before i; cut it off
	pre, err := strconv.Unquote(text[open:i] + `"`)
	if err != nil || !strings.HasPrefix(v, pre) {
		return text[i:]
	}
	return v[len(pre):]
}
