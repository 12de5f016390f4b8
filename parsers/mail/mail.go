// Package mail reads an e-mail (an .eml file, one message) or a mailbox (mbox, messages
// after `From ` lines) as a ticket exported from a mailbox: it splits the MIME parts,
// decodes quoted-printable and base64 bodies and the charsets of the Latin-1 family,
// and returns every leaf part with its file name, type and content. The text of a
// body keeps, line by line, the line of the file it was decoded from (quoted-printable
// soft breaks join lines; base64 keeps none, then only the part's first line is known).
//
// It is written over the file's lines, once, at every nesting level: linear, bounded
// (MaxDepth, MaxParts), never panicking; what does not parse is read as text and
// reported through the warn callback with its line.
package mail

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/quotedprintable"
	"path"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits.
const (
	MaxDepth     = 8    // multiparts and forwarded messages nested in one another
	MaxParts     = 1000 // leaf parts of one file
	maxHeaderLen = 64 << 10
)

// Part is one leaf part of a message.
type Part struct {
	Num  int    // 1-based, in file order over all the file's leaf parts
	Name string // the file name of an attachment (a base name), "" for a body
	Type string // lowercase media type ("text/plain")
	// Attached is true for an attachment (a file name, a Content-Disposition of
	// attachment, or a part that is not text): it is a file of its own.
	Attached bool
	Body     []byte // decoded
	// Lines is, for each line of a text Body, the line of the file it starts on; nil
	// when the encoding keeps no lines (base64).
	Lines []int
	// Line is the line of the file where the part's body starts.
	Line int
	// Date and Subject are the headers of the message the part belongs to.
	Date    time.Time
	Subject string
}

// Warn receives a problem with the line of the file it is on.
type Warn func(line int, format string, args ...any)

// Looks reports whether the start of a file is an e-mail or a mailbox: a `From ` line,
// or header lines (before the first blank line) among which at least two of the
// headers every mail has.
func Looks(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	lines := bytes.Split(head, []byte{'\n'})
	if len(lines) > 0 && bytes.HasPrefix(lines[0], []byte("From ")) && len(lines) > 1 {
		lines = lines[1:]
	}
	known := map[string]bool{}
	for i, l := range lines {
		l = bytes.TrimRight(l, "\r")
		if len(l) == 0 {
			break
		}
		if l[0] == ' ' || l[0] == '\t' {
			if i == 0 {
				return false
			}
			continue
		}
		k := bytes.IndexByte(l, ':')
		if k <= 0 || !token(l[:k]) {
			if i == len(lines)-1 {
				break // cut by the head's end
			}
			return false
		}
		switch strings.ToLower(string(l[:k])) {
		case "from", "to", "subject", "date", "message-id", "mime-version", "received", "return-path",
			"delivered-to", "x-mailer", "reply-to", "in-reply-to", "references", "cc", "user-agent":
			known[strings.ToLower(string(l[:k]))] = true
		}
	}
	return len(known) >= 2
}

func token(b []byte) bool {
	for _, c := range b {
		if c <= ' ' || c >= 0x7f || c == ':' {
			return false
		}
	}
	return len(b) > 0
}

// Parse reads a file holding one message or a mailbox.
func Parse(data []byte, warn Warn) []Part {
	p := &parser{}
	p.lines = bytes.Split(data, []byte{'\n'})
	if n := len(p.lines); n > 0 && len(p.lines[n-1]) == 0 {
		p.lines = p.lines[:n-1]
	}
	p.warn = func(line int, format string, args ...any) {
		warn(min(line, max(len(p.lines), 1)), format, args...) // a part cut at the end: its last line
	}
	for i := range p.lines {
		p.lines[i] = bytes.TrimRight(p.lines[i], "\r")
	}
	if len(p.lines) > 0 && bytes.HasPrefix(p.lines[0], []byte("From ")) {
		// a mailbox: a message starts at every `From ` line after a blank line
		st := 0
		for i := 1; i <= len(p.lines); i++ {
			if i == len(p.lines) || bytes.HasPrefix(p.lines[i], []byte("From ")) && len(p.lines[i-1]) == 0 {
				p.message(st+1, i, 0)
				st = i
			}
		}
		return p.parts
	}
	p.message(0, len(p.lines), 0)
	return p.parts
}

type parser struct {
	lines [][]byte
	parts []Part
	warn  Warn
	full  bool
	// the headers of the message being read
	date    time.Time
	subject string
}

type header struct {
	vals map[string]string
	body int // the index of the first body line
}

// headers reads the header block starting at line from.
func (p *parser) headers(from, to int) header {
	h := header{vals: map[string]string{}, body: to}
	key := ""
	for i := from; i < to; i++ {
		l := p.lines[i]
		if len(l) == 0 {
			h.body = i + 1
			return h
		}
		if l[0] == ' ' || l[0] == '\t' {
			if key != "" && len(h.vals[key]) < maxHeaderLen {
				h.vals[key] += " " + strings.TrimSpace(string(l))
			}
			continue
		}
		k := bytes.IndexByte(l, ':')
		if k <= 0 || !token(l[:k]) {
			// not a header: the body starts here (a part without its blank line)
			if i == from {
				h.body = i
				return h
			}
			p.warn(i+1, "line in a mail header block is no header; the body is read from it")
			h.body = i
			return h
		}
		key = strings.ToLower(string(l[:k]))
		if _, seen := h.vals[key]; !seen {
			h.vals[key] = strings.TrimSpace(string(l[k+1:]))
		} else {
			key = "" // the first of a repeated header counts
		}
	}
	return h
}

var words = &mime.WordDecoder{CharsetReader: func(charset string, r io.Reader) (io.Reader, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHeaderLen))
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(toUTF8(b, charset)), nil
}}

func decodeWords(s string) string {
	if d, err := words.DecodeHeader(s); err == nil {
		return d
	}
	return s
}

// message reads the message in lines [from, to).
func (p *parser) message(from, to, depth int) {
	h := p.headers(from, to)
	p.date, p.subject = time.Time{}, decodeWords(h.vals["subject"])
	if d := h.vals["date"]; d != "" {
		if t, err := parseDate(d); err == nil {
			p.date = t
		} else {
			p.warn(from+1, "mail Date header %q does not parse: %v", cut(d), err)
		}
	}
	p.entity(h, from, to, depth)
}

func cut(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// entity reads a MIME entity whose headers h were read from line from.
func (p *parser) entity(h header, from, to, depth int) {
	ct := h.vals["content-type"]
	typ, params := "text/plain", map[string]string{}
	if ct != "" {
		t, ps, err := mime.ParseMediaType(ct)
		if err != nil && t == "" {
			p.warn(from+1, "mail part Content-Type %q does not parse (%v); read as text", cut(ct), err)
		} else {
			typ, params = t, ps
		}
	}
	switch {
	case strings.HasPrefix(typ, "multipart/"):
		if depth >= MaxDepth {
			p.warn(from+1, "mail parts nested more than %d levels deep; the deeper ones are not read", MaxDepth)
			return
		}
		b := params["boundary"]
		if b == "" {
			p.warn(from+1, "multipart mail part without a boundary; read as text")
			break
		}
		p.multipart(typ, b, h.body, to, depth+1)
		return
	case typ == "message/rfc822" || typ == "message/global":
		if depth >= MaxDepth {
			p.warn(from+1, "mail messages nested more than %d levels deep; the deeper ones are not read", MaxDepth)
			return
		}
		date, subject := p.date, p.subject
		p.message(h.body, to, depth+1)
		p.date, p.subject = date, subject
		return
	}
	p.leaf(h, typ, params, from, to)
}

// multipart splits lines [from, to) at the boundary's delimiter lines.
func (p *parser) multipart(typ, boundary string, from, to, depth int) {
	delim := []byte("--" + boundary)
	var bodies [][2]int
	st := -1
	closed := false
	for i := from; i < to; i++ {
		l := p.lines[i]
		if !bytes.HasPrefix(l, delim) {
			continue
		}
		rest := bytes.TrimRight(l[len(delim):], " \t")
		last := bytes.Equal(rest, []byte("--"))
		if len(rest) != 0 && !last {
			continue
		}
		if st >= 0 {
			bodies = append(bodies, [2]int{st, i})
		}
		st = i + 1
		if last {
			closed = true
			break
		}
	}
	if st >= 0 && !closed {
		p.warn(to, "multipart mail part without its closing boundary %q (cut?); its last part is read to the end", cut(boundary))
		bodies = append(bodies, [2]int{st, to})
	}
	if st < 0 {
		p.warn(from+1, "multipart mail part without any boundary %q line; read as text", cut(boundary))
		p.leaf(header{vals: map[string]string{}, body: from}, "text/plain", nil, from, to)
		return
	}
	hs := make([]header, len(bodies))
	for i, b := range bodies {
		hs[i] = p.headers(b[0], b[1])
	}
	pick := -1
	if typ == "multipart/alternative" {
		// the same text in several forms: the plain one, else the last (the richest)
		pick = len(bodies) - 1
		for i, h := range hs {
			if t, _, _ := mime.ParseMediaType(h.vals["content-type"]); t == "text/plain" || h.vals["content-type"] == "" {
				pick = i
				break
			}
		}
	}
	for i, b := range bodies {
		if pick < 0 || i == pick {
			p.entity(hs[i], b[0], b[1], depth)
		}
	}
}

// leaf decodes one leaf part.
func (p *parser) leaf(h header, typ string, params map[string]string, from, to int) {
	if len(p.parts) >= MaxParts {
		if !p.full {
			p.full = true
			p.warn(from+1, "more than %d mail parts; the later ones are not read", MaxParts)
		}
		return
	}
	part := Part{Num: len(p.parts) + 1, Type: typ, Line: min(h.body+1, max(len(p.lines), 1)), Date: p.date, Subject: p.subject}
	disp, dparams, _ := mime.ParseMediaType(h.vals["content-disposition"])
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	if name != "" {
		name = path.Base(strings.ReplaceAll(decodeWords(name), "\\", "/"))
		if name == "." || name == "/" || name == ".." {
			name = ""
		}
	}
	part.Name = name
	text := strings.HasPrefix(typ, "text/")
	part.Attached = name != "" || disp == "attachment" || !text
	body := p.lines[min(h.body, to):to]
	switch strings.ToLower(h.vals["content-transfer-encoding"]) {
	case "base64":
		var b bytes.Buffer
		for _, l := range body {
			b.Write(bytes.TrimSpace(l))
		}
		enc := bytes.TrimRight(b.Bytes(), "=")
		dec := make([]byte, base64.RawStdEncoding.DecodedLen(len(enc)))
		n, err := base64.RawStdEncoding.Decode(dec, enc)
		if err != nil {
			p.warn(h.body+1, "mail part %d: base64 body does not decode (%v); its first %d bytes are read", part.Num, err, n)
		}
		part.Body = dec[:n]
	case "quoted-printable":
		part.Body, part.Lines = p.quotedPrintable(body, h.body, part.Num)
	default:
		var b bytes.Buffer
		part.Lines = make([]int, len(body))
		for i, l := range body {
			b.Write(l)
			b.WriteByte('\n')
			part.Lines[i] = h.body + i + 1
		}
		part.Body = b.Bytes()
	}
	if text {
		// line for line: the charsets converted keep every '\n'
		part.Body = toUTF8(part.Body, params["charset"])
	}
	p.parts = append(p.parts, part)
}

// quotedPrintable decodes body (its first line is the file's line first+1): a soft
// line break (a line ending in '=') joins a line with the next, and the decoded line
// starts where its first encoded line does.
func (p *parser) quotedPrintable(body [][]byte, first, num int) ([]byte, []int) {
	var out bytes.Buffer
	var lines []int
	var group bytes.Buffer
	start := -1
	warned := false
	for i, l := range body {
		if start < 0 {
			start = i
		}
		t := bytes.TrimRight(l, " \t")
		if bytes.HasSuffix(t, []byte("=")) && i < len(body)-1 {
			group.Write(t)
			group.WriteByte('\n')
			continue
		}
		group.Write(t)
		dec, err := io.ReadAll(quotedprintable.NewReader(&group))
		if err != nil {
			if !warned {
				warned = true
				p.warn(first+start+1, "mail part %d: quoted-printable line does not decode (%v); read as it is", num, err)
			}
			dec = append(dec[:0], bytes.ReplaceAll(group.Bytes(), []byte("=\n"), nil)...)
		}
		group.Reset()
		// a decoded line break (=0A) starts another line of the same encoded line
		n := bytes.Count(dec, []byte{'\n'})
		for k := 0; k <= n; k++ {
			lines = append(lines, first+start+1)
		}
		out.Write(dec)
		out.WriteByte('\n')
		start = -1
	}
	return out.Bytes(), lines
}

// toUTF8 converts the text of the Latin-1 family (ISO 8859-1, Windows-1252 read as it)
// to UTF-8; other charsets are kept as they are (UTF-8 and ASCII are the norm).
func toUTF8(b []byte, charset string) []byte {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "windows-1252", "cp1252", "iso-8859-15":
	default:
		return b
	}
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/4)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}
