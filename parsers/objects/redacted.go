package objects

import "bytes"

// redactedMarker is what troubleshoot's redactors put in place of a value. Written
// unquoted (`password: ***HIDDEN***`), YAML reads it as an alias and rejects the whole
// document; quoteRedacted makes it the string it stands for.
var redactedMarker = []byte("***HIDDEN***")

// quoteRedacted quotes every plain scalar that starts with the redaction marker (a
// mapping value `key: ***HIDDEN***...` or a sequence item `- ***HIDDEN***`), to the end
// of its line; markers inside a value or already quoted are left alone. Lines keep their
// numbers.
func quoteRedacted(doc []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(doc) + 64)
	for len(doc) > 0 {
		line := doc
		rest := []byte(nil)
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			line, rest = doc[:i+1], doc[i+1:]
		}
		doc = rest
		i := bytes.Index(line, redactedMarker)
		if i < 0 || !valueStart(line[:i]) {
			out.Write(line)
			continue
		}
		body := bytes.TrimRight(line[i:], "\r\n")
		eol := line[i+len(body):]
		out.Write(line[:i])
		out.WriteByte('\'')
		out.Write(bytes.ReplaceAll(bytes.TrimRight(body, " \t"), []byte("'"), []byte("''")))
		out.WriteByte('\'')
		out.Write(eol)
	}
	return out.Bytes()
}

// valueStart reports whether a plain scalar begins after prefix: after "key: " or
// "- " (only blanks before the dash), or at the start of the line.
func valueStart(prefix []byte) bool {
	t := bytes.TrimRight(prefix, " \t")
	if len(t) == len(prefix) && len(t) > 0 {
		return false // no blank before the marker: inside a word
	}
	if len(bytes.TrimSpace(t)) == 0 {
		return true
	}
	switch t[len(t)-1] {
	case ':':
		return true
	case '-':
		return len(bytes.TrimSpace(t[:len(t)-1])) == 0 || bytes.HasSuffix(bytes.TrimRight(t[:len(t)-1], " \t"), []byte(":"))
	}
	return false
}
