package render

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// unsafeClasses are characters a hostile bundle may put into any name or message, by
// class: none may reach any output raw.
var unsafeClasses = map[string]string{
	"C0 ESC (clear screen)": "\x1b[2J",
	"C0 BEL, OSC title":     "\x1b]0;pwned\x07",
	"C0 CR":                 "\rfake",
	"C0 backspace, NUL":     "\x08\x00",
	"DEL":                   "\x7f",
	"C1 CSI U+009B":         "\u009b2J",
	"8-bit CSI byte 0x9B":   "\x9b2J",
	"invalid UTF-8":         "\xff\xfe\xc3",
	"bidi override":         "\u202etxt.exe",
	"bidi embeddings":       "\u202a\u202b\u202c\u202d",
	"bidi isolates":         "\u2066\u2067\u2068\u2069",
	"zero width":            "\u200b\u200c\u200d\ufeff",
}

// appendToEveryString returns a deep copy of r with suffix appended to every string.
func appendToEveryString(t *testing.T, r *findings.Report, suffix string) *findings.Report {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var cp findings.Report
	if err := json.Unmarshal(raw, &cp); err != nil {
		t.Fatal(err)
	}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if v.CanSet() {
				v.SetString(v.String() + suffix)
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(&cp).Elem())
	return &cp
}

// firstUnsafe returns the first character of s no output may hold raw, or "".
func firstUnsafe(s string, allowColor bool) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return s[max(0, i-30):min(len(s), i+30)]
		}
		if shellsafe.Unsafe(r) && !(allowColor && r == 0x1b && colorSGR.MatchString(s[i:])) {
			return s[max(0, i-30):min(len(s), i+30)]
		}
		i += n
	}
	return ""
}

// colorSGR is the colour sequence the text format writes itself (--color).
var colorSGR = regexp.MustCompile(`^\x1b\[[0-9;]*m`)

// TestUnsafeCharactersEscapedEveryFormat feeds each class of unsafe character, in
// every string of a real report, to every format: none comes out raw, and the JSON
// still decodes to the same values.
func TestUnsafeCharactersEscapedEveryFormat(t *testing.T) {
	base := fixtureReport(t, formatBundles[0])
	for class, payload := range unsafeClasses {
		t.Run(class, func(t *testing.T) {
			r := appendToEveryString(t, base, payload)
			for _, format := range Formats {
				for _, color := range []bool{false, true} {
					if color && format != "text" {
						continue
					}
					out := string(render(t, r, format, Options{Color: color}))
					if at := firstUnsafe(out, color); at != "" {
						t.Errorf("%s (color %v): raw unsafe character in %q", format, color, at)
					}
				}
			}
			var buf bytes.Buffer
			if err := JSON(&buf, r); err != nil {
				t.Fatal(err)
			}
			var back findings.Report
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
				t.Fatalf("escaped JSON does not decode: %v", err)
			}
			if utf8.ValidString(payload) && back.Namespaces[0].Name != r.Namespaces[0].Name {
				t.Errorf("JSON changed a value: %q, want %q", back.Namespaces[0].Name, r.Namespaces[0].Name)
			}
		})
	}
}

// markdownInjection is what a hostile name or message would use to forge a Markdown
// report: a blank line then a heading, raw HTML, a javascript: link, a tracking image,
// a table row, a code fence, an entity, a list item.
const markdownInjection = "\n\n# Fake heading\n\n<script>alert(1)</script>\n[click](javascript:alert(1)) " +
	"![t](http://tracker.example/p.png) <img src=x onerror=alert(1)> &lt;script&gt; | a | b |\n```\n- item\n`` ` ``"

var allowedTags = map[string]bool{"p": true, "h1": true, "h2": true, "h3": true, "table": true, "thead": true, "tbody": true,
	"tr": true, "th": true, "td": true, "code": true, "pre": true, "strong": true, "em": true, "ul": true, "ol": true,
	"li": true, "details": true, "summary": true, "blockquote": true, "br": true, "hr": true, "a": true, "del": true}

var tagRE = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)

// TestMarkdownInjection: the Markdown of a report whose every string carries an
// injection renders (CommonMark + GFM, raw HTML allowed as some trackers do) to HTML
// with the same headings as the clean report, no <script>, no <img>, no javascript:
// link and no tag a report does not write.
func TestMarkdownInjection(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	headings := func(src []byte) map[int]int {
		n := map[int]int{}
		doc := md.Parser().Parse(text.NewReader(src))
		_ = ast.Walk(doc, func(x ast.Node, entering bool) (ast.WalkStatus, error) {
			if h, ok := x.(*ast.Heading); ok && entering {
				n[h.Level]++
			}
			return ast.WalkContinue, nil
		})
		return n
	}
	for _, b := range formatBundles {
		t.Run(b, func(t *testing.T) {
			clean := fixtureReport(t, b)
			hostile := appendToEveryString(t, clean, markdownInjection)
			src := render(t, hostile, "markdown", Options{})
			var page bytes.Buffer
			if err := md.Convert(src, &page); err != nil {
				t.Fatal(err)
			}
			out := page.String()
			if m := hrefJS.FindString(out); m != "" {
				t.Errorf("rendered Markdown holds a javascript: link: %q", m)
			}
			for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
				if !allowedTags[strings.ToLower(m[2])] || onAttr.MatchString(m[3]) {
					t.Errorf("rendered Markdown holds the tag %q", m[0])
					break
				}
			}
			// the injection must never start a heading of its own (the report's sections may
			// differ: the timeline a problem shares depends on the strings' values)
			if strings.Contains(out, "<h1>Fake heading") || strings.Contains(out, ">Fake heading</h") {
				t.Errorf("rendered Markdown holds a forged heading")
			}
			if got, want := headings(src)[1], headings(render(t, clean, "markdown", Options{}))[1]; got != want {
				t.Errorf("%d top-level headings, want %d (a forged heading)", got, want)
			}
		})
	}
}

var onAttr = regexp.MustCompile(`(?i)\bon[a-z]+\s*=`)

var hrefJS = regexp.MustCompile(`(?i)(href|src)\s*=\s*"?\s*javascript:`)

// TestCodeSpan: code() survives backticks, newlines and table pipes.
func TestCodeSpan(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	for _, s := range []string{"a`b", "``x``", "`", "a\nb\n\n# h", "a|b", " x "} {
		src := []byte("| h |\n|---|\n| " + codeCell(s) + " |\n\npara " + code(s) + "\n")
		var page bytes.Buffer
		if err := md.Convert(src, &page); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(page.String(), "<h1") || strings.Count(page.String(), "<td>") != 1 {
			t.Errorf("code(%q) breaks out: %s", s, page.String())
		}
	}
}
