package render

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// adviceBundle is a bundle the advice tests read: a fixture, or a real third-party bundle
// of ../shared/peer-bundles (read in place, never copied into the repository).
type adviceBundle struct {
	name, dir string
	peer      bool
}

// adviceBundles lists every fixture and every peer bundle present beside the repository
// (the peer bundles, large archives, not with -short: make test-long reads them).
func adviceBundles(t *testing.T) []adviceBundle {
	var out []adviceBundle
	for _, b := range allFixtures(t) {
		out = append(out, adviceBundle{b, filepath.Join("..", "..", "fixtures", filepath.FromSlash(b)), false})
	}
	if testing.Short() {
		t.Log("-short: fixtures only, no peer bundles")
		return out
	}
	peers := filepath.Join("..", "..", "..", "shared", "peer-bundles")
	entries, err := os.ReadDir(peers)
	if err != nil {
		t.Logf("no peer bundles at %s (%v): fixtures only", peers, err)
		return out
	}
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, adviceBundle{"peer:" + e.Name(), filepath.Join(peers, e.Name()), true})
		}
	}
	return out
}

func adviceReport(t *testing.T, b adviceBundle) *findings.Report {
	t.Helper()
	if !b.peer {
		return fixtureReport(t, b.name) // (no fixture holds a SOURCE.md)
	}
	_, r := loadBundle(t, b.name, b.dir, "raw", "expected.json", "README.md", "SOURCE.md")
	return r
}

// TestAdvicePremises renders every fixture and peer bundle and fails on advice that
// outruns the evidence: a problem without a safe first rung, a destructive rung before
// the last, a rung whose premise (the chain facts it relies on) its problem's chain does
// not establish, a premise the analyzer had to drop (an internal-error warning), and, in
// every format, a first screen without a safe step or a /finalize shown before the
// problem's first safe command.
func TestAdvicePremises(t *testing.T) {
	for _, b := range adviceBundles(t) {
		t.Run(b.name, func(t *testing.T) {
			r := adviceReport(t, b)
			for _, w := range r.Warnings {
				if strings.Contains(w.Message, diag.InternalError) {
					t.Errorf("internal error: %s", w.String())
				}
			}
			for _, p := range r.Problems {
				steps := p.Remediation // the problem's own rungs; the renderers add the one /finalize last resort
				if len(steps) == 0 {
					t.Errorf("%s [%s]: no rung but the last resort", p.ID, p.CauseType)
					continue
				}
				if steps[0].Risk != findings.RiskSafe {
					t.Errorf("%s [%s]: first rung is %s: %s", p.ID, p.CauseType, steps[0].Risk, steps[0].Command)
				}
				for i, s := range steps {
					if s.Risk == findings.RiskDestructive || strings.Contains(s.Command, "/finalize") {
						t.Errorf("%s: destructive rung %d before the last resort: %s", p.ID, i+1, s.Command)
					}
					if why := findings.PremiseProblem(p.Chain, s); why != "" {
						t.Errorf("%s [%s] rung %d (%s): %s", p.ID, p.CauseType, i+1, clipText(s.Command, 100), why)
					}
				}
			}
			for _, ns := range r.Namespaces {
				last := ns.Remediation[len(ns.Remediation)-1]
				if len(ns.SpecFinalizers) == 0 && len(ns.MetadataFinalizers) > 0 {
					// held by its own metadata.finalizers: /finalize would change nothing (TestReportsTrue)
					if !strings.Contains(last.Command, `{"metadata":{"finalizers":null}}`) {
						t.Errorf("namespace %s: held by metadata.finalizers, the last rung does not patch them: %s", ns.Name, last.Command)
					}
				} else if last.Risk != findings.RiskDestructive || !strings.Contains(last.Command, "/finalize") {
					t.Errorf("namespace %s: the last rung is not the /finalize last resort: %s", ns.Name, last.Command)
				}
				if len(ns.Remediation) < 2 || ns.Remediation[0].Risk != findings.RiskSafe {
					t.Errorf("namespace %s: /finalize is the only step or not preceded by a safe one", ns.Name)
				}
			}
			for _, f := range Formats {
				out := string(render(t, r, f, Options{}))
				if strings.Contains(out, "no safe step is known") {
					t.Errorf("%s: a problem without a safe step", f)
				}
				if f == "json" {
					continue
				}
				if f == "html" {
					out = html.UnescapeString(out)
				}
				for _, p := range r.Problems {
					if len(p.Remediation) == 0 {
						continue
					}
					first := p.Remediation[0].Command
					at := strings.Index(out, first)
					fin := strings.Index(out, "/finalize -f -")
					if at < 0 {
						t.Errorf("%s: %s's first safe command is not shown: %s", f, p.ID, clipText(first, 120))
					} else if fin >= 0 && fin < at {
						t.Errorf("%s: %s's /finalize is shown before its first safe command", f, p.ID)
					}
				}
			}
		})
	}
}

// grammarChecks are sentences that read wrong whatever the case: a number that does not
// agree with its noun, a doubled word, the ungrammatical finalizer sentence of old.
var grammarChecks = []struct {
	name string
	re   *regexp.Regexp
}{
	{"plural number, singular noun", regexp.MustCompile(`(?:^|[\s(])(?:0|[2-9]|[1-9]\d+) (?:namespace|object|pod|problem|file|log file|warning|rung|finalizer|webhook|dependent)(?:[ ,.;:)]|$)`)},
	{"one, plural noun", regexp.MustCompile(`(?:^|[^\d.,:-])1 (?:namespaces|objects|pods|problems|files|log files|warnings|rungs|dependents)\b`)},
	{"plural subject, singular verb", regexp.MustCompile(`(?i)\bobjects [^.;]{0,60}\bstill carries\b`)},
	{"not included in the bundle in the namespace", regexp.MustCompile(`not included in the bundle in the namespace`)},
}

// doubledWord finds a small word written twice in a row ("the the", "is is").
func doubledWord(l string) string {
	small := map[string]bool{"the": true, "a": true, "an": true, "is": true, "are": true, "of": true, "to": true, "in": true, "and": true,
		"or": true, "by": true, "it": true, "its": true, "be": true, "not": true, "no": true, "with": true, "for": true, "from": true, "on": true, "at": true, "this": true, "that": true}
	ws := strings.Fields(strings.ToLower(l))
	for i := 1; i < len(ws); i++ {
		if ws[i] == ws[i-1] && small[ws[i]] {
			return ws[i] + " " + ws[i]
		}
	}
	return ""
}

// TestAdviceSentences renders every fixture and peer bundle in every format and fails on
// a summary over 200 characters or cut inside a word, grammar that reads wrong, literal
// backticks in Markdown or HTML, and, in text, a collect: command broken over lines.
func TestAdviceSentences(t *testing.T) {
	for _, b := range adviceBundles(t) {
		t.Run(b.name, func(t *testing.T) {
			r := adviceReport(t, b)
			if n := utf8.RuneCountInString(r.Summary); n > findings.MaxSummary {
				t.Errorf("summary of %d characters: %s", n, r.Summary)
			}
			checkCutAtWord(t, r)
			for _, f := range Formats {
				out := string(render(t, r, f, Options{Width: 100}))
				if f == "json" {
					continue // the checks below are of prose (the JSON is rendered, and must render)
				}
				for i, l := range strings.Split(out, "\n") {
					if f == "html" && strings.HasPrefix(strings.TrimSpace(l), "<style") {
						continue
					}
					if w := doubledWord(l); w != "" && f != "json" {
						t.Errorf("%s line %d: doubled word %q: %s", f, i+1, w, clipText(l, 240))
					}
					for _, c := range grammarChecks {
						if m := c.re.FindString(l); m != "" && f != "json" {
							t.Errorf("%s line %d: %s (%q): %s", f, i+1, c.name, m, clipText(l, 240))
						}
					}
					switch {
					case f == "markdown" && strings.Contains(l, "\\`"):
						t.Errorf("markdown line %d: a literal (escaped) backtick: %s", i+1, clipText(l, 240))
					case f == "html" && strings.Contains(l, "`"):
						t.Errorf("html line %d: a literal backtick: %s", i+1, clipText(l, 240))
					}
				}
				if f == "text" {
					checkCollectWhole(t, r, out)
				}
			}
		})
	}
}

// checkCutAtWord fails when the summary was cut inside a word: the word before "…" must
// be a whole word of the first problem's text.
func checkCutAtWord(t *testing.T, r *findings.Report) {
	t.Helper()
	i := strings.LastIndex(r.Summary, "…")
	if i < 0 || len(r.Problems) == 0 {
		return
	}
	words := strings.Fields(r.Summary[:i])
	if len(words) == 0 {
		t.Errorf("summary is only an ellipsis: %q", r.Summary)
		return
	}
	last := words[len(words)-1]
	var text []string
	text = append(text, r.Problems[0].Root)
	for _, l := range r.Problems[0].Chain {
		text = append(text, l.Component+": "+l.Finding)
	}
	for _, s := range text {
		for _, w := range strings.Fields(s) {
			if w == last || strings.TrimRight(w, `.,;:)"'`) == strings.TrimRight(last, `.,;:)"'`) {
				return
			}
		}
	}
	t.Errorf("summary cut inside a word (%q is no word of the problem): %s", last, r.Summary)
}

// checkCollectWhole fails when a "collect:" command of the report is not on one line of
// the text output.
func checkCollectWhole(t *testing.T, r *findings.Report, out string) {
	t.Helper()
	var cmds []string
	for _, p := range r.Problems {
		for _, l := range p.Chain {
			if _, c, ok := strings.Cut(l.Finding, "(collect: "); ok {
				if j := strings.LastIndex(c, ")"); j >= 0 {
					c = c[:j]
				}
				if strings.HasPrefix(c, "kubectl ") {
					cmds = append(cmds, c)
				}
			}
		}
	}
	for _, c := range cmds {
		if !strings.Contains(out, c) {
			t.Errorf("text: the collect command is broken over lines: %s", clipText(c, 160))
		}
	}
}
