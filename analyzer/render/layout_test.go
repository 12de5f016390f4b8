package render

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestFirstScreen checks, for every fixture, that the first 40 lines of the text and
// Markdown reports hold the summary line and, per problem, its root, its confidence,
// the namespaces it holds and its first safe command; and that every report names the
// nsanalyze that wrote it and the cluster's Kubernetes version when known.
func TestFirstScreen(t *testing.T) {
	for _, b := range allFixtures(t) {
		t.Run(b, func(t *testing.T) {
			shared := fixtureReport(t, b)
			r := new(findings.Report)
			*r = *shared // the analysis is shared with other tests: set the generator on a copy
			r.Generator = &findings.Generator{Name: "nsanalyze", Version: "v9.9.9", Revision: "0123456789abcdef"}
			for _, f := range []string{"text", "markdown"} {
				out := string(render(t, r, f, Options{}))
				lines := strings.Split(out, "\n")
				head := strings.Join(lines[:min(40, len(lines))], "\n")
				flat := squash(strings.NewReplacer("`", "", "\\", "").Replace(head))
				if !strings.Contains(flat, squash(clipText(r.Summary, 60))[:min(50, len(r.Summary))]) {
					t.Errorf("%s: the summary line is not in the first 40 lines", f)
				}
				for _, p := range r.Problems {
					root := squash(p.Root)
					if len(root) > 50 {
						root = root[:50]
					}
					if !strings.Contains(flat, root) {
						t.Errorf("%s: the root of %s is not in the first 40 lines: %q", f, p.ID, root)
					}
					if !strings.Contains(flat, "confidence "+p.Confidence) {
						t.Errorf("%s: the confidence of %s is not in the first 40 lines", f, p.ID)
					}
					if !strings.Contains(flat, p.Namespaces[0].Name) {
						t.Errorf("%s: the first namespace of %s is not in the first 40 lines", f, p.ID)
					}
					for _, s := range p.Remediation {
						if s.Risk == findings.RiskSafe {
							if !strings.Contains(head, s.Command) {
								t.Errorf("%s: the first safe command of %s is not whole in the first 40 lines: %s", f, p.ID, s.Command)
							}
							break
						}
					}
				}
				if !strings.Contains(out, "nsanalyze v9.9.9 (revision 0123456789ab)") {
					t.Errorf("%s: the report does not say which nsanalyze wrote it", f)
				}
				if v := r.Bundle.KubernetesVersion; v != "" && !strings.Contains(head, "Kubernetes "+v) {
					t.Errorf("%s: the Kubernetes version %s is not in the first 40 lines", f, v)
				}
			}
			html := string(render(t, r, "html", Options{}))
			if !strings.Contains(html, "nsanalyze v9.9.9 (revision 0123456789ab)") {
				t.Error("html: the report does not say which nsanalyze wrote it")
			}
		})
	}
}

// TestManyNamespacesGrouped checks that 33 namespaces stuck on one APIService are one
// problem, reported once: text within 400 lines, Markdown within 32,767 characters
// (a Jira comment), one chain and one ladder, every namespace listed, and one last
// resort that covers them all.
func TestManyNamespacesGrouped(t *testing.T) {
	r := fixtureReport(t, "handmade/many-namespaces-one-apiservice")
	if len(r.Namespaces) != 33 || len(r.Problems) != 1 {
		t.Fatalf("%d namespaces in %d problems, want 33 in 1", len(r.Namespaces), len(r.Problems))
	}
	text := string(render(t, r, "text", Options{}))
	if n := strings.Count(text, "\n"); n > 400 {
		t.Errorf("text report is %d lines, want at most 400", n)
	}
	md := string(render(t, r, "markdown", Options{}))
	if n := len(md); n > 32767 {
		t.Errorf("Markdown report is %d characters, want at most 32767", n)
	}
	for f, out := range map[string]string{"text": text, "markdown": md} {
		if n := strings.Count(out, "Causal chain"); n != 1 {
			t.Errorf("%s: %d causal chains, want 1", f, n)
		}
		if n := strings.Count(out, "What to do about P1"); n != 1 {
			t.Errorf("%s: %d ladders, want 1", f, n)
		}
		if n := strings.Count(out, "Last resort"); n != 1 {
			t.Errorf("%s: the last resort is written %d times, want once", f, n)
		}
		for _, ns := range r.Namespaces {
			if !strings.Contains(out, "/api/v1/namespaces/"+ns.Name+"/finalize") {
				t.Errorf("%s: no /finalize command for %s", f, ns.Name)
			}
			if !strings.Contains(out, ns.Name) {
				t.Errorf("%s: namespace %s not listed", f, ns.Name)
			}
		}
	}
}

// TestTwoProblemsApart checks that two independent problems get separate sections in
// every format, and in HTML separate chain diagrams.
func TestTwoProblemsApart(t *testing.T) {
	r := fixtureReport(t, twoProblemsBundle)
	if len(r.Problems) < 2 {
		t.Fatalf("%d problems, want 2", len(r.Problems))
	}
	text := string(render(t, r, "text", Options{}))
	md := string(render(t, r, "markdown", Options{}))
	html := string(render(t, r, "html", Options{}))
	for _, p := range r.Problems {
		if !strings.Contains(text, "== "+p.ID+": "+p.CauseType) {
			t.Errorf("text: no section for %s", p.ID)
		}
		if !strings.Contains(md, "## "+p.ID+": "+p.CauseType) {
			t.Errorf("markdown: no section for %s", p.ID)
		}
		if !strings.Contains(html, `<section class="problem" id="problem-`+p.ID+`"`) {
			t.Errorf("html: no section for %s", p.ID)
		}
	}
	chains := regexp.MustCompile(`(?s)<ol class="chain" data-problem="(P\d+)".*?</ol>`).FindAllStringSubmatch(html, -1)
	if len(chains) != len(r.Problems) {
		t.Fatalf("%d chain diagrams, want one per problem (%d)", len(chains), len(r.Problems))
	}
	for _, c := range chains {
		for _, p := range r.Problems {
			if p.ID != c[1] && strings.Contains(c[0], "root cause: "+p.RootComponent) && p.RootComponent != "" {
				t.Errorf("the chain of %s draws the root of %s", c[1], p.ID)
			}
		}
	}
}

// TestTextWidth renders at several widths: prose stays within the width, commands are
// printed whole on their own line however long.
func TestTextWidth(t *testing.T) {
	r := fixtureReport(t, "handmade/many-namespaces-one-apiservice")
	var cmds []string
	for _, ns := range r.Namespaces {
		for _, s := range ns.Remediation {
			cmds = append(cmds, s.Command)
		}
	}
	for _, g := range r.Coverage {
		cmds = append(cmds, g.Collect)
	}
	for _, w := range []int{0, 20, 72, 100, 160, 1000} {
		width := ClampWidth(w)
		out := string(render(t, r, "text", Options{Width: w}))
		for i, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "$ ") {
				continue
			}
			if n := len([]rune(l)); n > width && !longWordLineAt(l, width) {
				t.Errorf("width %d: line %d is %d columns: %s", width, i+1, n, l)
			}
		}
		for _, c := range cmds {
			if !strings.Contains(out, "$ "+c+"\n") {
				t.Errorf("width %d: command not printed whole on its own line: %s", width, c)
			}
		}
	}
	if ClampWidth(0) != TextWidth || ClampWidth(10) != MinTextWidth || ClampWidth(5000) != MaxTextWidth {
		t.Error("ClampWidth does not keep the width sane")
	}
}

func longWordLineAt(l string, width int) bool {
	for _, w := range strings.Fields(l) {
		if len([]rune(w)) > width/2 {
			return true
		}
	}
	return false
}

// TestRisksShowFix checks that every latent risk's fix is in every format.
func TestRisksShowFix(t *testing.T) {
	seen := 0
	for _, b := range allFixtures(t) {
		r := fixtureReport(t, b)
		for _, rk := range r.Risks {
			for _, s := range rk.Fix {
				seen++
				for _, f := range Formats {
					out := string(render(t, r, f, Options{}))
					cmd := s.Command
					if f == "html" {
						// html/template escapes more than esc does ('+' as &#43;): the
						// page's text, unescaped, must hold the command
						out = html.UnescapeString(out)
					}
					if f == "json" {
						continue // the JSON keeps the fix as is
					}
					if !strings.Contains(out, cmd) {
						t.Errorf("%s %s: the fix of risk %s is missing: %s", b, f, rk.Type, s.Command)
					}
				}
			}
		}
	}
	if seen == 0 {
		t.Log("no fixture has a latent risk with a fix")
	}
	_ = fmt.Sprint
}
