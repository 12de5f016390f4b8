package render

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/fixtures"
)

// allFixtures lists every bundle under fixtures/ with an expected.json (as the command's
// fixture test does), relative to fixtures/.
func allFixtures(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..", "fixtures")
	dirs, err := fixtures.Bundles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("only %d fixture bundles under %s", len(dirs), root)
	}
	return dirs
}

// sentenceCheck is one way a rendered sentence reads wrong.
type sentenceCheck struct {
	name string
	re   *regexp.Regexp
	// formats it applies to (all when empty)
	formats []string
}

var sentenceChecks = []sentenceCheck{
	{name: "negative duration", re: regexp.MustCompile(`(^|[\s(:,])-\d+(\.\d+)?(ms|s|m|h|d)\b|renewed -|\(-\d`)},
	{name: "empty list in prose", re: regexp.MustCompile(`matches \):|\(\)|: \.(\s|$)|\[\] |\[\]$|\[\],|\[\]\.|\[\];|: ;|, \.(\s|$)`)},
	{name: "cut-off quote", re: regexp.MustCompile(`"<\s*$`)},
	{name: "escaped Markdown shown literally", re: regexp.MustCompile("\\\\[\\[\\]`*_#|~]"), formats: []string{"text", "html"}},
	{name: "only after the steps above, with no step above", re: regexp.MustCompile(`(?m)^\s*1\. \[destructive\] Last resort, only after the steps above`), formats: []string{"text"}},
	{name: "only after the steps above, with no step above", re: regexp.MustCompile(`(?m)^1\. \*\*destructive\*\*: Last resort, only after the steps above`), formats: []string{"markdown"}},
}

var timelineRow = regexp.MustCompile(`^\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  `)

// TestClipProse checks that a clip never leaves a quotation open.
func TestClipProse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`abc "def ghi jkl" mno`, `abc "def ghi jkl" mno`},
		{`message="failing or missing response from https://x"`, `message…`},
		{`a b c d e f "g h i j k l m n o p"`, `a b c d e f…`},
	} {
		if got := clipProse(c.in, 22); got != c.want && len([]rune(c.in)) > 22 {
			t.Errorf("clipProse(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := clipProse(c.in, 22); quotedClip(got) {
			t.Errorf("clipProse(%q) = %q leaves a quotation open", c.in, got)
		}
	}
}

// analyzerSentences are flagged sentences the analyzer writes (not the renderers),
// reported to its owners; the test logs them instead of failing until they are fixed.
// Delete an entry once its sentence reads right.
// analyzerSentences were sentences of the analyzer the test reported without failing
// while they were being fixed; they are fixed, so the list is empty and every finding
// fails the test.
var analyzerSentences = []struct {
	re    *regexp.Regexp
	where string
}{}

func knownAnalyzerSentence(line string) string {
	for _, a := range analyzerSentences {
		if a.re.MatchString(line) {
			return a.where
		}
	}
	return ""
}

// quotedClip finds a clipped line ("…" at the end) that leaves a quotation open.
func quotedClip(line string) bool {
	i := strings.LastIndex(line, "…")
	if i < 0 {
		return false
	}
	return strings.Count(line[:i], `"`)%2 == 1 && !strings.Contains(line[i:], `"`)
}

// TestSentencesReadRight renders every fixture in text, Markdown, JSON and HTML and
// fails on sentences that read wrong: negative durations, empty lists in prose,
// quotations cut off by a clip, escaped Markdown shown literally in text or HTML, a time
// stuck stated as fact when the capture time is an estimate, and a last resort "only
// after the steps above" with no step above. Each finding names the fixture, format and
// line, so a sentence from the analyzer can be told from one of the renderers.
func TestSentencesReadRight(t *testing.T) {
	known := map[string]int{}
	defer func() {
		for where, n := range known {
			t.Logf("known analyzer sentence (reported, not a renderer's): %d lines from %s", n, where)
		}
	}()
	for _, b := range allFixtures(t) {
		t.Run(b, func(t *testing.T) {
			r := fixtureReport(t, b)
			for _, f := range Formats {
				out := string(render(t, r, f, Options{}))
				lines := strings.Split(out, "\n")
				for i, l := range lines {
					if f == "html" && strings.HasPrefix(strings.TrimSpace(l), "<style") {
						continue
					}
					for _, c := range sentenceChecks {
						if len(c.formats) > 0 && !contains(c.formats, f) {
							continue
						}
						if f == "json" && c.name == "empty list in prose" {
							continue // JSON holds real empty lists
						}
						if m := c.re.FindString(l); m != "" {
							if where := knownAnalyzerSentence(l); where != "" {
								known[where]++
								continue
							}
							t.Errorf("%s line %d: %s (%q): %s", f, i+1, c.name, m, clipText(l, 300))
						}
					}
					// text wraps quotations over lines: only its one-line timeline rows are checked
					if f != "json" && (f != "text" || timelineRow.MatchString(l)) && quotedClip(l) {
						t.Errorf("%s line %d: a clip leaves a quotation open: %s", f, i+1, clipText(l, 300))
					}
				}
				if f == "text" || f == "markdown" {
					checkStuckStated(t, r, f, out)
				}
			}
		})
	}
}

// checkStuckStated fails when the capture time is an estimate but the report states how
// long a namespace has been stuck without "at least".
func checkStuckStated(t *testing.T, r *findings.Report, f, out string) {
	t.Helper()
	if r.Bundle.CapturedAtSource == "" {
		return
	}
	for _, ns := range r.Namespaces {
		if ns.StuckFor == "" {
			continue
		}
		for _, pat := range []string{"stuck for " + ns.StuckFor, "stuck " + ns.StuckFor, "| " + ns.StuckFor + " |"} {
			if strings.Contains(out, pat) {
				t.Errorf("%s: %q stated as fact, but the capture time is an estimate (%s): say \"at least\"", f, pat, r.Bundle.CapturedAtSource)
			}
		}
	}
}
