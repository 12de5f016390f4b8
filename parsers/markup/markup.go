// Package markup turns documents written for a browser or a Markdown renderer (a
// ticket saved from a tracker as HTML, a ticket's Markdown source) into the plain text
// lines a reader of pasted text (parsers/text) reads, each line keeping the line of the
// original file it starts on, so every record still cites the real file:line.
//
// HTML: tags are dropped, character references decoded, the text of <pre>, <code> and
// <textarea>-less blocks is kept line for line, block elements (paragraphs, list items,
// table rows, headings, <br>) end lines, table cells are separated like a Markdown
// table's (parsers/paste removes the pipes), and what a browser never shows (<head>,
// <script>, <style>, comments) is dropped. Markdown: lines are kept one for one, inline
// HTML tags (of HTML's own elements, not kubectl's `<none>`) dropped and character
// references decoded outside code.
//
// Both converters are single passes over their input: linear, never panicking, their
// output never longer than a bounded multiple of the input (Doc.Bytes).
package markup

import (
	"bytes"
	"strings"
)

// Doc is a converted document.
type Doc struct {
	Lines []string
	// Orig is, for each line, the line of the original file (1-based) it starts on.
	Orig []int
	// Blocks numbers, for each line, the block of the document it is in: each <pre>
	// block (each fenced code block in Markdown) and the prose between them are blocks
	// of their own (parsers/text reads no YAML or JSON value across two).
	Blocks []int
}

// Bytes joins the lines with newlines.
func (d Doc) Bytes() []byte {
	n := 0
	for _, l := range d.Lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for _, l := range d.Lines {
		b = append(b, l...)
		b = append(b, '\n')
	}
	return b
}

// LooksHTML reports whether the start of a file is an HTML document (a page saved from
// a browser, an HTML mail part): a doctype, an <html>, <head> or <body> tag first, or
// (hint: the file is named .html or .htm) any tag first.
func LooksHTML(head []byte, hint bool) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	// a saved page may start with a comment (`<!-- saved from url=... -->`)
	for bytes.HasPrefix(t, []byte("<!--")) {
		end := bytes.Index(t, []byte("-->"))
		if end < 0 {
			return false
		}
		t = bytes.TrimLeft(t[end+3:], " \t\r\n")
	}
	if len(t) < 2 || t[0] != '<' {
		return false
	}
	low := strings.ToLower(string(t[:min(len(t), 16)]))
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<meta ", "<?xml"} {
		if strings.HasPrefix(low, p) {
			return p != "<?xml" || bytes.Contains(bytes.ToLower(t[:min(len(t), 1024)]), []byte("<html"))
		}
	}
	return hint && isLetter(t[1])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// LooksMarkdown reports whether a file is Markdown by its name (.md, .markdown): the
// text of a ticket reads as text whatever it is called; its name only says that its
// inline HTML and character references are markup.
func LooksMarkdown(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".md") || strings.HasSuffix(n, ".markdown")
}
