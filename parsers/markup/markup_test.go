package markup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// issuePage is the shape of a GitHub issue a browser saves: chrome around the
// comment body, prose in <p>, a session in <pre><code> (HTML-escaped), a <table>
// rendered from a Markdown table.
const issuePage = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Namespace stuck &middot; Issue #1 &middot; GitHub</title>
  <script>if (a < b && c > d) { document.write("<pre>NAME STATUS</pre>"); }</script>
  <style>pre > code { white-space: pre }</style>
</head>
<body>
<nav><a href="/">Home</a></nav>
<!-- a comment with a <pre> in it -->
<div class="comment-body">
<p dir="auto">The namespace hangs &amp; <code>kubectl delete ns foo</code> never
returns.</p>
<pre><code>$ kubectl get ns
NAME          STATUS        AGE
foo           Terminating   23m
$ kubectl get ns foo -o yaml | grep -A3 message
    message: &#39;Discovery failed for some groups, 1 failing: unable to retrieve the
      complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently
      unable to handle the request&#39;
</code></pre>
<table><thead><tr><th>NAME</th><th>SERVICE</th></tr></thead>
<tbody><tr><td>v1beta1.metrics.k8s.io</td><td>kube-system/metrics-server</td></tr></tbody></table>
<p>Thanks<br>Ann</p>
</div>
<svg viewBox="0 0 16 16"><path d="M0 0h16"></path><text>not shown</text></svg>
</body>
</html>
`

// TestHTMLIssuePage: the text a browser shows, line for line, each line citing the
// page's line it starts on; scripts, styles, the head, comments and SVG are dropped.
func TestHTMLIssuePage(t *testing.T) {
	d := HTML([]byte(issuePage))
	src := strings.Split(issuePage, "\n")
	want := []struct {
		text string
		line int
	}{
		{"Home", 10},
		{"The namespace hangs & kubectl delete ns foo never returns.", 13},
		{"$ kubectl get ns", 15},
		{"NAME          STATUS        AGE", 16},
		{"foo           Terminating   23m", 17},
		{"$ kubectl get ns foo -o yaml | grep -A3 message", 18},
		{"    message: 'Discovery failed for some groups, 1 failing: unable to retrieve the", 19},
		{"      complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently", 20},
		{"      unable to handle the request'", 21},
		{"NAME   SERVICE", 23},
		{"v1beta1.metrics.k8s.io   kube-system/metrics-server", 24},
		{"Thanks", 25},
		{"Ann", 25},
	}
	var got []string
	for i, l := range d.Lines {
		if l != "" {
			got = append(got, fmt.Sprintf("%d %s", d.Orig[i], l))
		}
	}
	var exp []string
	for _, w := range want {
		exp = append(exp, fmt.Sprintf("%d %s", w.line, w.text))
	}
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(exp, "\n"))
	}
	for i, l := range d.Lines {
		if f := strings.Fields(l); len(f) > 0 && !strings.Contains(src[d.Orig[i]-1], strings.TrimSuffix(f[0], "'")) && !strings.Contains(l, "message:") {
			t.Errorf("line %q cites %d: %q", l, d.Orig[i], src[d.Orig[i]-1])
		}
	}
	// the <pre> block is a block of its own: the prose around it is not
	pre := d.Blocks[indexOf(d.Lines, "$ kubectl get ns")]
	for i, l := range d.Lines {
		inPre := d.Orig[i] >= 15 && d.Orig[i] <= 21 && l != ""
		if (d.Blocks[i] == pre) != inPre && l != "" {
			t.Errorf("line %d %q: block %d, the <pre> block is %d", d.Orig[i], l, d.Blocks[i], pre)
		}
	}
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

// TestHTMLShapes: table-driven shapes of real pages.
func TestHTMLShapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<p>a</p><p>b</p>", "a\n\nb"},
		{"x<br>y<br/>z", "x\ny\nz"},
		{"<ul><li>one</li><li>two</li></ul>", "one\ntwo"},
		{"<pre>\nNAME   AGE\n\nfoo    1d\n</pre>", "NAME   AGE\n\nfoo    1d"},
		{"a &lt;none&gt; &#x41;&#66; &nbsp;b", "a <none> AB b"},
		{"1 < 2 and 3 <= 4", "1 < 2 and 3 <= 4"},
		{"<a title='x>y' href=\"a>b\">link</a>", "link"},
		{"<div>unclosed <b attr=\"never closed", "unclosed"},
		{"<script>never closed", ""},
		{"<!-- never closed", ""},
		{"text<code>x  y</code>more", "textx  ymore"},
		{"say <code>kubectl get ns</code> here", "say kubectl get ns here"},
		{"<PRE>A\nB</PRE>", "A\nB"},
		{"<textarea>raw <p> source</textarea>shown", "shown"},
	} {
		d := HTML([]byte(tc.in))
		if got := strings.Join(d.Lines, "\n"); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
		if len(d.Orig) != len(d.Lines) || len(d.Blocks) != len(d.Lines) {
			t.Errorf("%q: %d lines, %d origins, %d blocks", tc.in, len(d.Lines), len(d.Orig), len(d.Blocks))
		}
	}
}

// TestLooksHTML: by content; a name only helps a fragment.
func TestLooksHTML(t *testing.T) {
	for _, tc := range []struct {
		head string
		hint bool
		want bool
	}{
		{"<!DOCTYPE html>\n<html>", false, true},
		{"\ufeff<html lang=en>", false, true},
		{"<!-- saved from url=(0014)about:internet -->\n<html>", false, true},
		{"<div class=x>fragment</div>", true, true},
		{"<div class=x>fragment</div>", false, false},
		{"NAME   STATUS   AGE\n", true, false},
		{"<none>   Terminating", false, false},
		{"<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">", false, true},
		{"<?xml version=\"1.0\"?><svg>", false, false},
	} {
		if got := LooksHTML([]byte(tc.head), tc.hint); got != tc.want {
			t.Errorf("LooksHTML(%q, %v) = %v", tc.head, tc.hint, got)
		}
	}
}

// TestMarkdown: line for line; inline HTML and references outside code, code kept.
func TestMarkdown(t *testing.T) {
	in := "<details><summary>kubectl get ns</summary>\n\n```\nNAME   STATUS        AGE\nfoo    Terminating   &lt;invalid&gt;\n<b>kept</b>\n```\n\nfoo is `<none>` &amp; <b>stuck</b> <none> <!-- hidden\nstill hidden -->shown\n</details>\n"
	d := Markdown([]byte(in))
	want := []string{"kubectl get ns", "", "```", "NAME   STATUS        AGE", "foo    Terminating   &lt;invalid&gt;",
		"<b>kept</b>", "```", "", "foo is `<none>` & stuck <none> ", "shown", ""}
	if strings.Join(d.Lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%q\nwant\n%q", d.Lines, want)
	}
	for i, o := range d.Orig {
		if o != i+1 {
			t.Errorf("line %d cites %d", i+1, o)
		}
	}
	if d.Blocks[3] == d.Blocks[0] || d.Blocks[3] == d.Blocks[8] || d.Blocks[2] != d.Blocks[3] {
		t.Errorf("blocks %v: the fence is not a block of its own", d.Blocks)
	}
}

// TestHTMLLinear and TestMarkdownLinear: work grows with the input, whatever it is
// made of (unclosed tags, quotes, comments, entities, deep nesting).
func TestHTMLLinear(t *testing.T) {
	for _, unit := range []string{"<p>a &amp; b</p>\n", "<pre>x\n", "<a b=\"", "<div ", "&", "<!-", "</", "<b>",
		"<td>x", "<script>x</scrip", "<br>"} {
		hostile.CheckLinear(t, "HTML "+unit, func(n int) int64 {
			d := HTML([]byte(strings.Repeat(unit, n)))
			return int64(len(d.Lines))
		}, 20000)
	}
}

func TestMarkdownLinear(t *testing.T) {
	for _, unit := range []string{"a <b c\n", "`", "<!--", "```\n", "<details ", "&amp;"} {
		hostile.CheckLinear(t, "Markdown "+unit, func(n int) int64 {
			d := Markdown([]byte(strings.Repeat(unit, n)))
			return int64(len(d.Lines))
		}, 20000)
	}
}

// FuzzHTML: never a panic; as many origins and blocks as lines, each a line of the
// input; the output no longer than the input plus a separator per tag.
func FuzzHTML(f *testing.F) {
	f.Add(issuePage)
	f.Add("<pre>\r\nA\r\n</pre><table><tr><td>1<td>2</table>")
	if files, _ := filepath.Glob("../../fixtures/realworld/*/*.html"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := HTML([]byte(s))
		checkDoc(t, s, d)
		out := len(d.Bytes())
		if max := 2*len(s) + 1; out > max {
			t.Fatalf("%d bytes out of %d in", out, len(s))
		}
	})
}

// FuzzMarkdown: never a panic; one line out for each line in, never longer.
func FuzzMarkdown(f *testing.F) {
	f.Add("<details>\n```\nx\n```\n`<b>` &amp; <b>x</b> <!-- y\n-->z\n")
	f.Fuzz(func(t *testing.T, s string) {
		d := Markdown([]byte(s))
		checkDoc(t, s, d)
		if len(d.Bytes()) > len(s)+1 {
			t.Fatalf("%d bytes out of %d in", len(d.Bytes()), len(s))
		}
	})
}

func checkDoc(t *testing.T, in string, d Doc) {
	t.Helper()
	lines := strings.Count(in, "\n") + 1
	if len(d.Orig) != len(d.Lines) || len(d.Blocks) != len(d.Lines) {
		t.Fatalf("%d lines, %d origins, %d blocks", len(d.Lines), len(d.Orig), len(d.Blocks))
	}
	for i, o := range d.Orig {
		if o < 1 || o > lines {
			t.Fatalf("line %d cites line %d of %d", i, o, lines)
		}
		if i > 0 && o < d.Orig[i-1] {
			t.Fatalf("line %d cites %d, before the previous line's %d", i, o, d.Orig[i-1])
		}
	}
}

// TestFenceBlocks: a fenced block is a block of its own, fences included; the text
// before and after are others.
func TestFenceBlocks(t *testing.T) {
	lines := strings.Split("Hello\n```\na: 'b\n```\nAnn\n~~~~\nx\n```\n~~~~\nend", "\n")
	got := FenceBlocks(lines)
	want := []int{0, 1, 1, 1, 2, 3, 3, 3, 3, 4}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("blocks %v, want %v", got, want)
	}
}
