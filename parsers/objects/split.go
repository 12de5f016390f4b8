package objects

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// jsonSplitter walks a stream of JSON text and hands out the Kubernetes objects in it,
// without decoding anything it does not need to:
//
//   - a List or typed list (`{"kind":"PodList","items":[...]}`): each item, one at a time,
//     plus the list's kind and apiVersion (which kubectl writes after "items");
//   - a JSON array of objects: each element;
//   - any other top-level object: the object itself;
//   - several top-level documents one after the other (cluster-info dump's stdout): each.
//
// It keeps in memory only the value being handed out, counts lines exactly (so
// evidence can name file:line) and reports where JSON is malformed or truncated.
type jsonSplitter struct {
	r    io.Reader
	buf  []byte
	pos  int // next byte to examine in buf
	keep int // buf[keep:] must be retained (start of the value being collected), -1 = none
	line int // 1-based line of buf[pos]
	eof  bool
	err  error

	maxValue int // values larger than this are skipped with an error
	// pending is the error next returns after handing out an object the input ends
	// inside, read as far as it goes (closeTruncated)
	pending error
}

// item is one object found by the splitter.
type item struct {
	raw        []byte // the object's JSON text (valid only until the next call)
	line       int    // line of its opening brace
	listKind   string // kind of the enclosing list ("PodList", "List"), "" when not in a list
	listAPIVer string
	// internal: an item of a list of Kubernetes' internal types (kubectl 1.13's
	// cluster-info dump: "Items", metadata inlined, "Spec"/"Status"); see externalize.
	internal bool
	// truncated: the input ends inside the object; raw is what it holds, closed
	truncated bool
}

// errSplit reports malformed input with its line.
type errSplit struct {
	line int
	msg  string
}

func (e *errSplit) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

func newSplitter(r io.Reader, maxValue int) *jsonSplitter {
	return newSplitterSize(r, maxValue, 256<<10)
}

// newSplitterSize starts with a buffer of size bytes (a small document needs no
// 256 KiB buffer: a million of them would allocate 256 GB).
func newSplitterSize(r io.Reader, maxValue, size int) *jsonSplitter {
	return &jsonSplitter{r: r, buf: make([]byte, 0, min(size, 256<<10)), keep: -1, line: 1, maxValue: maxValue}
}

// fill reads more input, discarding bytes nobody needs. It returns false at EOF.
func (s *jsonSplitter) fill() bool {
	if s.eof {
		return false
	}
	drop := s.pos
	if s.keep >= 0 && s.keep < drop {
		drop = s.keep
	}
	if drop > 0 {
		n := copy(s.buf, s.buf[drop:])
		s.buf = s.buf[:n]
		s.pos -= drop
		if s.keep >= 0 {
			s.keep -= drop
		}
	}
	if len(s.buf) == cap(s.buf) {
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
	}
	return n > 0 || !s.eof
}

// peek returns the next non-space byte without consuming it (0 at EOF).
func (s *jsonSplitter) peek() byte {
	for {
		for s.pos < len(s.buf) {
			c := s.buf[s.pos]
			switch c {
			case '\n':
				s.line++
				s.pos++
			case ' ', '\t', '\r', ',', ':':
				s.pos++
			default:
				return c
			}
		}
		if !s.fill() {
			return 0
		}
	}
}

// skipValue advances over one JSON value starting at s.pos. It returns false when the
// input ended inside the value.
func (s *jsonSplitter) skipValue() (bool, error) {
	depth := 0
	for {
		if s.pos >= len(s.buf) {
			if s.keep >= 0 && s.maxValue > 0 && len(s.buf)-s.keep > s.maxValue {
				return false, &errSplit{s.line, fmt.Sprintf("object larger than %d bytes skipped", s.maxValue)}
			}
			if !s.fill() {
				return false, nil
			}
			continue
		}
		if depth > 0 {
			// inside an object or array only quotes, brackets and newlines matter
			p, buf := s.pos, s.buf
			for p < len(buf) {
				c := buf[p]
				if c == ' ' && p+8 <= len(buf) {
					// indentation: the run of spaces skipped eight bytes at a time
					if x := word(buf, p) ^ spaces8; x != 0 {
						p += firstDifferent(x)
						continue
					}
					p += 8
					continue
				}
				if splitSpecial[c] {
					break
				}
				p++
			}
			s.pos = p
			if p == len(buf) {
				continue
			}
		}
		c := s.buf[s.pos]
		switch c {
		case '"':
			if !s.skipString() {
				return false, nil
			}
			if depth == 0 {
				return true, nil
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return false, &errSplit{s.line, fmt.Sprintf("unexpected %q", c)}
			}
			if depth == 0 {
				s.pos++
				return true, nil
			}
		case '\n':
			s.line++
		case ',', ' ', '\t', '\r', ':':
			if depth == 0 {
				return true, nil
			}
		default:
			if depth == 0 {
				// a scalar: read to the next delimiter
				for {
					for s.pos < len(s.buf) {
						switch s.buf[s.pos] {
						case ',', '}', ']', ' ', '\n', '\t', '\r':
							return true, nil
						}
						s.pos++
					}
					if !s.fill() {
						return true, nil
					}
				}
			}
		}
		s.pos++
	}
}

// splitSpecial marks the bytes skipValue must look at inside a value.
var splitSpecial = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, '\n': true}

// skipString advances past the string starting at s.pos (which holds '"'). A quote
// is escaped when an odd run of backslashes precedes it; the run may have begun in
// input that fill has already moved out of the buffer (a read boundary between `\`
// and `"`, which tar and gzip streams produce), so its length is carried across fills.
func (s *jsonSplitter) skipString() bool {
	s.pos++
	if end, ok := plainStringEnd(s.buf, s.pos); ok {
		s.pos = end + 1
		return true
	}
	carried := 0 // backslashes ending the input already scanned, before s.pos
	for {
		i := bytes.IndexByte(s.buf[s.pos:], '"')
		if i < 0 {
			seg := s.buf[s.pos:]
			if nl := bytes.Count(seg, []byte{'\n'}); nl > 0 {
				s.line += nl // invalid JSON, but keep line numbers honest
			}
			run := trailingBackslashes(seg)
			if run == len(seg) {
				carried += run
			} else {
				carried = run
			}
			s.pos = len(s.buf)
			if !s.fill() {
				return false
			}
			continue
		}
		end := s.pos + i
		seg := s.buf[s.pos:end]
		bs := trailingBackslashes(seg)
		if bs == len(seg) {
			bs += carried
		}
		if nl := bytes.Count(seg, []byte{'\n'}); nl > 0 {
			s.line += nl
		}
		s.pos = end + 1
		if bs%2 == 0 {
			return true
		}
		carried = 0 // the escaped quote ends the run
	}
}

// plainStringEnd finds the closing quote of a string whose contents start at buf[p],
// when the buffer holds all of it and it has no backslash and no control character
// (most strings): then the quote ends it, whatever came before p. ok is false
// otherwise, and skipString walks the string with its general rules.
func plainStringEnd(buf []byte, p int) (end int, ok bool) {
	for {
		p = skipPlainWords(buf, p)
		if p >= len(buf) {
			return 0, false
		}
		switch c := buf[p]; {
		case c == '"':
			return p, true
		case c == '\\' || c < 0x20:
			return 0, false
		}
		p++
	}
}

// trailingBackslashes counts the backslashes at the end of b.
func trailingBackslashes(b []byte) int {
	n := 0
	for j := len(b) - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n
}

// readString reads a string value at s.pos and returns its raw contents (escapes kept).
func (s *jsonSplitter) readString() (string, bool) {
	s.keep = s.pos
	ok := s.skipString()
	if !ok {
		s.keep = -1
		return "", false
	}
	v := string(s.buf[s.keep+1 : s.pos-1])
	s.keep = -1
	return v, true
}

// next returns the next object, or io.EOF. Malformed input returns an *errSplit after
// which the splitter stops (the caller warns and keeps what it already has).
func (s *jsonSplitter) next(st *splitState) (item, error) {
	if s.pending != nil {
		return item{}, s.pending
	}
	for {
		c := s.peek()
		if c == 0 {
			if st.inList || st.inTop {
				return item{}, &errSplit{s.line, "input ends inside a JSON value (truncated file?)"}
			}
			if s.err != nil {
				return item{}, s.err
			}
			return item{}, io.EOF
		}
		switch {
		case st.inList:
			if c == ']' {
				s.pos++
				st.inList = false
				if st.inArrayTop {
					st.inArrayTop = false
					st.inTop = false
				}
				continue
			}
			return s.collect(st, c)
		case st.inTop:
			// inside a top-level object that is known to be a list: read its keys
			if c == '}' {
				s.pos++
				st.inTop = false
				continue
			}
			if c != '"' {
				return item{}, &errSplit{s.line, fmt.Sprintf("expected a key, found %q", c)}
			}
			key, ok := s.readString()
			if !ok {
				return item{}, &errSplit{s.line, "truncated key"}
			}
			v := s.peek()
			switch {
			case (key == "items" || key == "Items") && v == '[':
				s.pos++
				st.inList = true
				st.internal = key == "Items"
			case (key == "kind" || key == "apiVersion") && v == '"':
				val, ok := s.readString()
				if !ok {
					return item{}, &errSplit{s.line, "truncated value"}
				}
				if key == "kind" {
					st.listKind = val
				} else {
					st.listAPIVersion = val
				}
			default:
				ok, err := s.skipValue()
				if err != nil {
					return item{}, err
				}
				if !ok {
					return item{}, &errSplit{s.line, "input ends inside a JSON value (truncated file?)"}
				}
			}
		default:
			// top level
			switch c {
			case '[':
				s.pos++
				st.inList, st.inTop, st.inArrayTop = true, true, true
				st.listKind, st.listAPIVersion = "", ""
				continue
			case '{':
				return s.topObject(st)
			default:
				return item{}, &errSplit{s.line, fmt.Sprintf("not JSON: unexpected %q at top level", c)}
			}
		}
	}
}

// splitState is the splitter's position in the document structure.
type splitState struct {
	inTop, inList, inArrayTop bool
	listKind, listAPIVersion  string
	internal                  bool // the list's key is "Items" (internal types)
}

// collect reads one element of a list.
func (s *jsonSplitter) collect(st *splitState, c byte) (item, error) {
	if c != '{' {
		ok, err := s.skipValue()
		if err != nil {
			return item{}, err
		}
		if !ok {
			return item{}, &errSplit{s.line, "input ends inside a JSON value (truncated file?)"}
		}
		return s.next(st)
	}
	line := s.line
	s.keep = s.pos
	if it, err := s.skipKeptValue(line); err != nil || it.truncated {
		it.listKind, it.listAPIVer, it.internal = st.listKind, st.listAPIVersion, st.internal
		return it, err
	}
	raw := s.buf[s.keep:s.pos]
	s.keep = -1
	return item{raw: raw, line: line, listKind: st.listKind, listAPIVer: st.listAPIVersion, internal: st.internal}, nil
}

// topObject handles a top-level '{': a List whose items are streamed, or a single object.
// It looks for an "items" key among the first keys; a single object is collected whole.
func (s *jsonSplitter) topObject(st *splitState) (item, error) {
	line := s.line
	start := s.pos
	s.keep = start
	// Scan keys at depth 1 until "items" (a list) or the end of the object.
	s.pos++
	for {
		c := s.peek()
		if c == 0 {
			if it, ok := s.closeKept(line); ok {
				return it, nil
			}
			s.keep = -1
			return item{}, &errSplit{line, "input ends inside an object (truncated file?)"}
		}
		if c == '}' {
			s.pos++
			raw := s.buf[s.keep:s.pos]
			s.keep = -1
			return item{raw: raw, line: line}, nil
		}
		if c != '"' {
			s.keep = -1
			return item{}, &errSplit{s.line, fmt.Sprintf("expected a key, found %q", c)}
		}
		// fill may move the kept bytes to the front of the buffer: keep the key's
		// offset from s.keep, not from the buffer's start
		kOff := s.pos - s.keep
		if !s.skipString() {
			s.keep = -1
			return item{}, &errSplit{s.line, "truncated key"}
		}
		key := string(s.buf[s.keep+kOff+1 : s.pos-1])
		v := s.peek() // may fill, too
		if (key == "items" || key == "Items") && (v == '[' || v == 'n') {
			st.internal = key == "Items"
			// A list: what came before "items" is list metadata; read kind/apiVersion from it.
			head := s.buf[s.keep : s.keep+kOff]
			st.listKind = headString(head, "kind")
			st.listAPIVersion = headString(head, "apiVersion")
			s.keep = -1
			st.inTop = true
			if v == 'n' {
				ok, err := s.skipValue()
				if err != nil || !ok {
					return item{}, &errSplit{s.line, "truncated list"}
				}
				return s.next(st)
			}
			s.pos++
			st.inList = true
			return s.next(st)
		}
		if it, err := s.skipKeptValue(line); err != nil || it.truncated {
			return it, err
		}
	}
}

// closeKept hands out the kept bytes, which the input ends inside, closed
// (closeTruncated); later calls of next return the truncation warning.
func (s *jsonSplitter) closeKept(line int) (item, bool) {
	if s.keep < 0 || s.err != nil {
		return item{}, false
	}
	raw := closeTruncated(s.buf[s.keep:])
	s.keep = -1
	if raw == nil {
		return item{}, false
	}
	s.pending = &errSplit{line, truncatedMsg}
	return item{raw: raw, line: line, truncated: true}, true
}

// skipKeptValue skips a value inside the object being kept (started at line); on
// failure it releases the kept bytes and says where the object began.
// When the input ends inside the value, the object is handed out closed (a truncated
// item, closeKept) if anything of it can be kept.
func (s *jsonSplitter) skipKeptValue(line int) (item, error) {
	ok, err := s.skipValue()
	if err == nil && !ok {
		if it, closed := s.closeKept(line); closed {
			return it, nil
		}
		err = &errSplit{line, "input ends inside an object (truncated file?)"}
	}
	if err != nil {
		s.keep = -1
	}
	return item{}, err
}

// headString finds `"key": "value"` in the small head of a list object.
func headString(head []byte, key string) string {
	k := []byte(`"` + key + `"`)
	i := bytes.Index(head, k)
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(head[i+len(k):], " \t\r\n:")
	if len(rest) == 0 || rest[0] != '"' {
		return ""
	}
	end := bytes.IndexByte(rest[1:], '"')
	if end < 0 {
		return ""
	}
	return string(rest[1 : 1+end])
}
