package markup

import (
	"bytes"
	"html"
	"strings"
)

// blockTags end the line before and after them; paraTags also leave a blank line
// (the blank line that separates blocks of pasted text).
var blockTags = map[string]bool{
	"br": true, "div": true, "li": true, "tr": true, "dt": true, "dd": true, "section": true, "article": true,
	"header": true, "footer": true, "main": true, "nav": true, "aside": true, "details": true, "summary": true,
	"figure": true, "figcaption": true, "form": true, "fieldset": true, "address": true, "caption": true,
	"thead": true, "tbody": true, "tfoot": true, "body": true, "html": true, "dl": true, "center": true,
	"p": true, "pre": true, "table": true, "blockquote": true, "ul": true, "ol": true, "hr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "title": true,
}

var paraTags = map[string]bool{"p": true, "pre": true, "table": true, "blockquote": true, "ul": true, "ol": true,
	"hr": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true}

// rawTags hold content a browser does not show as text: it is dropped up to the
// element's end tag (to the end of the file when it has none, as a browser does).
var rawTags = map[string]bool{"script": true, "style": true, "title": true, "template": true, "textarea": true,
	"noscript": true, "svg": true, "math": true, "iframe": true, "object": true}

// preTags keep their text's line breaks and spaces.
var preTags = map[string]bool{"pre": true, "code": true, "xmp": true, "listing": true, "plaintext": true}

// HTML converts an HTML document to text lines (see the package comment).
func HTML(data []byte) Doc {
	c := &conv{}
	line := 1
	i := 0
	for i < len(data) {
		if data[i] != '<' {
			j := bytes.IndexByte(data[i:], '<')
			if j < 0 {
				j = len(data) - i
			}
			c.text(data[i:i+j], line)
			line += bytes.Count(data[i:i+j], nl)
			i += j
			continue
		}
		end, name, closing, ok := readTag(data, i)
		if !ok {
			// a '<' that starts no tag is text
			c.text(data[i:i+1], line)
			i++
			continue
		}
		tagLine := line
		line += bytes.Count(data[i:end], nl)
		i = end
		if name == "" {
			continue // comment, doctype, processing instruction
		}
		if !closing && rawTags[name] {
			// drop the content up to the end tag
			k := indexEndTag(data[i:], name)
			if k < 0 {
				k = len(data) - i
			}
			line += bytes.Count(data[i:i+k], nl)
			i += k
			c.block(tagLine, blockTags[name], paraTags[name])
			continue
		}
		if preTags[name] {
			if closing {
				if c.pre > 0 {
					c.pre--
				}
				if name != "code" && c.pre == 0 {
					c.blockNo++
				}
			} else {
				if name != "code" && c.pre == 0 {
					c.blockNo++
				}
				c.pre++
				// a newline right after <pre> is not content
				if i < len(data) && data[i] == '\n' {
					i++
					line++
				} else if i+1 < len(data) && data[i] == '\r' && data[i+1] == '\n' {
					i += 2
					line++
				}
			}
		}
		switch {
		case blockTags[name]:
			c.block(tagLine, true, paraTags[name])
		case (name == "td" || name == "th") && !closing:
			if c.cur.Len() > 0 {
				c.cur.WriteString("   ")
			}
			c.space = false
		}
	}
	c.flush()
	// no blank lines at the end
	for len(c.doc.Lines) > 0 && c.doc.Lines[len(c.doc.Lines)-1] == "" {
		c.doc.Lines = c.doc.Lines[:len(c.doc.Lines)-1]
		c.doc.Orig = c.doc.Orig[:len(c.doc.Orig)-1]
		c.doc.Blocks = c.doc.Blocks[:len(c.doc.Blocks)-1]
	}
	return c.doc
}

var nl = []byte{'\n'}

type conv struct {
	doc   Doc
	cur   strings.Builder
	orig  int  // the original line of cur's first character
	pre   int  // depth of elements that keep line breaks
	space bool // a space is due before the next word
	// blockNo is the current block (Doc.Blocks), curBlock cur's
	blockNo, curBlock int
}

// line appends a line.
func (c *conv) line(s string, orig, block int) {
	c.doc.Lines = append(c.doc.Lines, s)
	c.doc.Orig = append(c.doc.Orig, orig)
	c.doc.Blocks = append(c.doc.Blocks, block)
}

func (c *conv) add(s string, line int) {
	if s == "" {
		return
	}
	if c.cur.Len() == 0 {
		c.orig, c.curBlock = line, c.blockNo
	}
	c.cur.WriteString(s)
}

// flush ends the current line (nothing when it is empty).
func (c *conv) flush() {
	if c.cur.Len() == 0 {
		return
	}
	c.line(strings.TrimRight(c.cur.String(), " "), c.orig, c.curBlock)
	c.cur.Reset()
	c.space = false
}

// block ends the line at an element that is a block of its own; para also leaves one
// blank line (never two, none at the start).
func (c *conv) block(line int, brk, para bool) {
	if !brk {
		return
	}
	if c.cur.Len() > 0 {
		c.flush()
	} else if !para && c.pre > 0 {
		// <br> or a row in a preformatted block: an empty line is a line
		c.line("", line, c.blockNo)
	}
	c.space = false
	if para {
		if n := len(c.doc.Lines); n > 0 && c.doc.Lines[n-1] != "" {
			c.line("", line, c.blockNo)
		}
	}
}

// text adds the text between two tags, whose first byte is on line.
func (c *conv) text(raw []byte, line int) {
	for k, piece := range bytes.Split(raw, nl) {
		if k > 0 {
			if c.pre > 0 {
				if c.cur.Len() == 0 {
					c.line("", line+k-1, c.blockNo)
				}
				c.flush()
			} else {
				c.space = true
			}
		}
		s := string(bytes.TrimRight(piece, "\r"))
		if strings.IndexByte(s, '&') >= 0 {
			s = html.UnescapeString(s)
		}
		if c.pre > 0 {
			if c.space && s != "" && c.cur.Len() > 0 {
				c.cur.WriteByte(' ')
			}
			c.space = false
			c.add(s, line+k)
			continue
		}
		if s != "" && isSpace(s[0]) {
			c.space = true
		}
		words := strings.Fields(s)
		for wi, w := range words {
			if (wi > 0 || c.space) && c.cur.Len() > 0 {
				c.cur.WriteByte(' ')
			}
			c.add(w, line+k)
		}
		if len(words) > 0 {
			c.space = isSpace(s[len(s)-1])
		}
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == '\f' }

// readTag reads the markup starting at data[i] == '<': its end (after the '>'), the
// element's lowercase name ("" for a comment, doctype or processing instruction) and
// whether it is an end tag. ok is false when the '<' starts no markup (then it is
// text). Markup left open runs to the end of the file, as in a browser.
func readTag(data []byte, i int) (end int, name string, closing, ok bool) {
	rest := data[i+1:]
	switch {
	case bytes.HasPrefix(rest, []byte("!--")):
		k := bytes.Index(rest[3:], []byte("-->"))
		if k < 0 {
			return len(data), "", false, true
		}
		return i + 1 + 3 + k + 3, "", false, true
	case len(rest) > 0 && (rest[0] == '!' || rest[0] == '?'):
		k := bytes.IndexByte(rest, '>')
		if k < 0 {
			return len(data), "", false, true
		}
		return i + 1 + k + 1, "", false, true
	}
	j := 0
	if len(rest) > 0 && rest[0] == '/' {
		closing = true
		j = 1
	}
	if j >= len(rest) || !isLetter(rest[j]) {
		return 0, "", false, false
	}
	st := j
	for j < len(rest) && (isLetter(rest[j]) || rest[j] >= '0' && rest[j] <= '9' || rest[j] == '-' || rest[j] == ':') {
		j++
	}
	name = strings.ToLower(string(rest[st:j]))
	// attributes: quotes count only as an attribute value's
	afterEq := false
	for j < len(rest) {
		switch b := rest[j]; {
		case b == '>':
			return i + 1 + j + 1, name, closing, true
		case b == '=':
			afterEq = true
		case (b == '"' || b == '\'') && afterEq:
			k := bytes.IndexByte(rest[j+1:], b)
			if k < 0 {
				return len(data), name, closing, true
			}
			j += k + 1
			afterEq = false
		case isSpace(b):
		default:
			afterEq = false
		}
		j++
	}
	return len(data), name, closing, true
}

// indexEndTag finds `</name` (any case) in data: the start of the element's end tag.
func indexEndTag(data []byte, name string) int {
	off := 0
	for {
		k := bytes.Index(data[off:], []byte("</"))
		if k < 0 {
			return -1
		}
		at := off + k
		rest := data[at+2:]
		if len(rest) >= len(name) && strings.EqualFold(string(rest[:len(name)]), name) &&
			(len(rest) == len(name) || !isLetter(rest[len(name)])) {
			return at
		}
		off = at + 2
	}
}
