package markup

import (
	"html"
	"strings"
)

// htmlElements are the elements whose tags Markdown drops from inline HTML; any other
// `<word>` is text (kubectl prints `<none>`, `<unknown>`, `<invalid>`, `<pending>`).
var htmlElements = map[string]bool{
	"a": true, "abbr": true, "b": true, "blockquote": true, "br": true, "center": true, "code": true, "dd": true,
	"del": true, "details": true, "div": true, "dl": true, "dt": true, "em": true, "font": true, "h1": true,
	"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "hr": true, "i": true, "img": true, "ins": true,
	"kbd": true, "li": true, "mark": true, "ol": true, "p": true, "picture": true, "pre": true, "s": true,
	"samp": true, "small": true, "source": true, "span": true, "strike": true, "strong": true, "sub": true,
	"summary": true, "sup": true, "table": true, "tbody": true, "td": true, "th": true, "thead": true, "tr": true,
	"tt": true, "u": true, "ul": true, "video": true,
}

// maxTag bounds the length of one inline tag.
const maxTag = 1024

// Markdown converts a Markdown document line for line (Orig is the identity): outside
// fenced code blocks and inline code spans, HTML comments and the tags of HTML's
// elements are dropped and character references decoded. Everything else (fences,
// tables, quotes, emphasis) parsers/paste already reads as it is.
func Markdown(data []byte) Doc {
	raw := strings.Split(string(data), "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	d := Doc{Lines: make([]string, len(raw)), Orig: make([]int, len(raw)), Blocks: make([]int, len(raw))}
	block := 0
	fence := ""
	comment := false
	for i, l := range raw {
		l = strings.TrimRight(l, "\r")
		d.Orig[i] = i + 1
		d.Blocks[i] = block
		t := strings.TrimLeft(l, " ")
		if fence != "" {
			if len(l)-len(t) < 4 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" ") == "" {
				fence = ""
				block++
			}
			d.Lines[i] = l
			continue
		}
		if !comment && len(l)-len(t) < 4 {
			if f := fenceOf(t); f != "" {
				fence = f
				block++
				d.Blocks[i] = block
				d.Lines[i] = l
				continue
			}
		}
		d.Lines[i], comment = inline(l, comment)
	}
	return d
}

// FenceBlocks numbers the blocks of lines of plain text that may hold Markdown fences
// (the text/plain part of a tracker's notification mail): each fenced block is a
// block of its own (Doc.Blocks).
func FenceBlocks(lines []string) []int {
	blocks := make([]int, len(lines))
	block, fence := 0, ""
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		switch {
		case len(l)-len(t) >= 4:
		case fence != "" && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" ") == "":
			fence = ""
			blocks[i] = block
			block++
			continue
		case fence == "":
			if f := fenceOf(t); f != "" {
				fence = f
				block++
			}
		}
		blocks[i] = block
	}
	return blocks
}

// fenceOf returns the fence a line opens (three or more backticks or tildes), "" if none.
func fenceOf(t string) string {
	for _, ch := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == ch {
			n++
		}
		if n >= 3 && (ch == '~' || strings.IndexByte(t[n:], '`') < 0) {
			return t[:n]
		}
	}
	return ""
}

// inline converts one line outside fences; comment says an HTML comment is open.
func inline(l string, comment bool) (string, bool) {
	var b strings.Builder
	for l != "" {
		if comment {
			k := strings.Index(l, "-->")
			if k < 0 {
				return b.String(), true
			}
			l = l[k+3:]
			comment = false
			continue
		}
		// a code span: kept as it is, up to its closing run of backticks
		tick := strings.IndexByte(l, '`')
		seg := l
		if tick >= 0 {
			seg = l[:tick]
		}
		if k := strings.Index(seg, "<!--"); k >= 0 {
			b.WriteString(text(seg[:k]))
			l = l[k+4:]
			comment = true
			continue
		}
		b.WriteString(text(seg))
		if tick < 0 {
			break
		}
		n := tick
		for n < len(l) && l[n] == '`' {
			n++
		}
		run := l[tick:n]
		if k := strings.Index(l[n:], run); k >= 0 {
			b.WriteString(l[tick : n+k+len(run)])
			l = l[n+k+len(run):]
		} else {
			b.WriteString(l[tick:]) // an unpaired backtick (parsers/paste knows them)
			break
		}
	}
	return b.String(), comment
}

// text drops HTML elements' tags and decodes character references.
func text(s string) string {
	if strings.IndexByte(s, '<') < 0 && strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := i + 1
		if j < len(s) && s[j] == '/' {
			j++
		}
		st := j
		for j < len(s) && (isLetter(s[j]) || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		end := -1
		if htmlElements[strings.ToLower(s[st:j])] && j < len(s) && (s[j] == '>' || s[j] == ' ' || s[j] == '/') {
			// a tag is short: a '<' whose '>' is far is text (and the search stays linear)
			end = strings.IndexByte(s[j:min(len(s), j+maxTag)], '>')
		}
		if end < 0 {
			b.WriteString(unescape(s[:i+1]))
			s = s[i+1:]
			continue
		}
		b.WriteString(unescape(s[:i]))
		s = s[j+end+1:]
	}
	b.WriteString(unescape(s))
	return b.String()
}

func unescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return html.UnescapeString(s)
}
