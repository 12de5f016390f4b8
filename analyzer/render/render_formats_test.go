package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// The golden files of every format live in testdata/ and are rewritten with the
// -update flag (registered in golden_test.go): go test ./analyzer/render -update
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// formatBundles are the fixtures whose Markdown and HTML reports are pinned.
var formatBundles = []string{
	"realdata/a-discovery-failure",
	"realdata/b-finalizer-remaining",
	"realdata/c-webhook-content-failure",
	"handmade/metrics-server-unreachable-route",
	"handmade/operator-deleted-before-cr",
	"realworld/calico-apiserver-projectcalico-v3-discovery",
}

// fixtureReport analyses a fixture bundle the way the command does, with a relative
// bundle path so the output does not depend on where the test runs.
func fixtureReport(t *testing.T, rel string) *findings.Report {
	t.Helper()
	_, r := fixtureRecords(t, rel)
	return r
}

// compareGolden compares got with testdata/name, or rewrites it with -update.
func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./analyzer/render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; if the change is intended run: go test ./analyzer/render -update\n%s",
			name, firstDiff(want, got))
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + clipText(w, 300) + "\n  got:  " + clipText(g, 300)
		}
	}
	return ""
}

func render(t *testing.T, r *findings.Report, format string, o Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := RenderWith(&buf, r, format, o); err != nil {
		t.Fatalf("render %s: %v", format, err)
	}
	return buf.Bytes()
}

func TestGoldenMarkdownAndHTML(t *testing.T) {
	for _, b := range formatBundles {
		t.Run(b, func(t *testing.T) {
			r := fixtureReport(t, b)
			base := filepath.Base(b)
			compareGolden(t, base+".md.golden", render(t, r, "markdown", Options{}))
			compareGolden(t, base+".html.golden", render(t, r, "html", Options{}))
			compareGolden(t, base+".color.golden", render(t, r, "text", Options{Color: true}))
		})
	}
}

// TestRenderDeterministic renders every format twice: same bytes, no absolute path.
func TestRenderDeterministic(t *testing.T) {
	r := fixtureReport(t, formatBundles[0])
	wd, _ := os.Getwd()
	for _, f := range Formats {
		a, b := render(t, r, f, Options{}), render(t, r, f, Options{})
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings differ", f)
		}
		if bytes.Contains(a, []byte(wd)) {
			t.Errorf("%s: output contains the working directory %s", f, wd)
		}
	}
}

// TestTextLayout checks the text report's reading order and that colours only appear when asked.
func TestTextLayout(t *testing.T) {
	r := fixtureReport(t, "realdata/a-discovery-failure")
	plain := string(render(t, r, "text", Options{}))
	if strings.Contains(plain, "\x1b[") {
		t.Error("text without Color contains ANSI escapes")
	}
	colored := string(render(t, r, "text", Options{Color: true}))
	if !strings.Contains(colored, "\x1b[") {
		t.Error("text with Color has no ANSI escapes")
	}
	order := []string{"P1  [", "Root", "First  1.", "== P1:", "ROOT", "Causal chain", "Timing", "-- What to do about P1", "-- Timeline around P1", "-- Ruled out", "== Namespace "}
	last := -1
	for _, s := range order {
		i := strings.Index(plain, s)
		if i < 0 {
			t.Fatalf("text report lacks %q", s)
		}
		if i < last {
			t.Errorf("%q comes before the previous section", s)
		}
		last = i
	}
	for i, l := range strings.Split(plain, "\n") {
		// prose is wrapped at 100 columns; only commands ("$ ...") and unbreakable words may exceed it
		if n := len([]rune(l)); n > TextWidth && !strings.Contains(l, "$ ") && strings.Contains(strings.TrimSpace(l), " ") {
			if !longWordLine(l) {
				t.Errorf("line %d is %d columns: %s", i+1, n, l)
			}
		}
	}
}

// longWordLine reports whether a line is long only because of one unbreakable word.
func longWordLine(l string) bool {
	for _, w := range strings.Fields(l) {
		if len([]rune(w)) > TextWidth/2 {
			return true
		}
	}
	return false
}

type mdHeading struct {
	level int
	text  string
}

// TestMarkdownParses parses the Markdown of every fixture with a CommonMark (+GFM
// tables) parser and checks its structure: the headings, the summary table, the
// collapsible evidence and one fenced shell block per remediation step.
func TestMarkdownParses(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	for _, b := range append(append([]string{}, formatBundles...), "handmade/many-namespaces-one-apiservice", twoProblemsBundle) {
		t.Run(b, func(t *testing.T) {
			r := fixtureReport(t, b)
			src := render(t, r, "markdown", Options{})
			doc := md.Parser().Parse(text.NewReader(src))
			var heads []mdHeading
			tables, shBlocks, details := 0, 0, 0
			shLines := map[string]bool{}
			err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				if !entering {
					return ast.WalkContinue, nil
				}
				switch n := n.(type) {
				case *ast.Heading:
					heads = append(heads, mdHeading{n.Level, plainText(n, src)})
				case *extast.Table:
					tables++
				case *ast.FencedCodeBlock:
					if string(n.Language(src)) == "sh" {
						shBlocks++
						for i := 0; i < n.Lines().Len(); i++ {
							seg := n.Lines().At(i)
							shLines[strings.TrimSuffix(string(seg.Value(src)), "\n")] = true
						}
					}
				case *ast.HTMLBlock:
					var s strings.Builder
					for i := 0; i < n.Lines().Len(); i++ {
						seg := n.Lines().At(i)
						s.Write(seg.Value(src))
					}
					if strings.HasPrefix(s.String(), "<details>") {
						details++
					}
				}
				return ast.WalkContinue, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			has := func(level int, text string) bool {
				for _, h := range heads {
					if h.level == level && h.text == text {
						return true
					}
				}
				return false
			}
			if !has(1, "nsanalyze report") || !has(2, "Summary") {
				t.Errorf("missing title or summary heading: %v", heads)
			}
			for _, ns := range r.Namespaces {
				if len(r.Namespaces) < condensedAt && !has(2, "Namespace "+ns.Name+" ("+strings.Join(ns.Problems, ", ")+")") {
					t.Errorf("no heading for namespace %s: %v", ns.Name, heads)
				}
			}
			for _, p := range r.Problems {
				title := p.ID + ": " + p.CauseType + " (confidence " + p.Confidence + "), " + strconv.Itoa(len(p.Namespaces)) + " namespace"
				if len(p.Namespaces) != 1 {
					title += "s"
				}
				if !has(2, title) {
					t.Errorf("no heading %q: %v", title, heads)
				}
				if !has(3, "What to do about "+p.ID+" (safest first)") {
					t.Errorf("no remediation heading for %s: %v", p.ID, heads)
				}
			}
			// every command of the report is a line of a fenced sh block
			for _, ns := range r.Namespaces {
				for _, s := range ns.Remediation {
					if !shLines[s.Command] {
						t.Errorf("command not in a sh block: %s", s.Command)
					}
				}
			}
			for _, g := range r.Coverage {
				if !shLines[g.Collect] {
					t.Errorf("collect command not in a sh block: %s", g.Collect)
				}
			}
			if len(r.Namespaces) > 0 && tables == 0 {
				t.Error("no table parsed (summary table expected)")
			}
			if len(r.Problems) > 0 && shBlocks == 0 {
				t.Error("no fenced sh block")
			}
			if len(r.Namespaces) > 0 && details == 0 {
				t.Error("no <details> block")
			}
		})
	}
}

func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
