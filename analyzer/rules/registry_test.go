package rules_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	genbundle "github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/fixtures"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// ruleDir is the directory of the package that defines the rule's Run function.
func ruleDir(t *testing.T, r *analyzer.Rule) string {
	t.Helper()
	fn := runtime.FuncForPC(reflect.ValueOf(r.Run).Pointer()).Name() // .../analyzer/rules/<pkg>.runX
	i := strings.Index(fn, "/analyzer/rules/")
	if i < 0 {
		t.Fatalf("rule %s: Run %s is not defined under analyzer/rules/", r.Name, fn)
	}
	pkg := fn[i+len("/analyzer/rules/"):]
	pkg = pkg[:strings.IndexByte(pkg, '.')]
	return pkg
}

// TestRegistry checks every rule of the registry: a valid graph, a doc whose first line
// is a sentence, a Run, a ladder and an example, its own package with testdata cases
// and a test that runs them.
func TestRegistry(t *testing.T) {
	if err := analyzer.Validate(rules.All); err != nil {
		t.Fatal(err)
	}
	seenDir := map[string]string{}
	for _, r := range rules.All {
		dir := ruleDir(t, r)
		if other, ok := seenDir[dir]; ok {
			t.Errorf("rules %s and %s share the package %s: one package per rule", r.Name, other, dir)
		}
		seenDir[dir] = r.Name
		if first, _, _ := strings.Cut(r.Doc, "\n"); !strings.HasSuffix(strings.TrimSpace(first), ".") {
			t.Errorf("rule %s: the doc's first line must be a one-sentence summary: %q", r.Name, first)
		}
		cases, _ := filepath.Glob(filepath.Join(dir, "testdata", "*", "want.json"))
		if len(cases) == 0 {
			t.Errorf("rule %s: no testdata/<case>/want.json in analyzer/rules/%s", r.Name, dir)
		}
		test, err := os.ReadFile(filepath.Join(dir, "rule_test.go"))
		if err != nil || !strings.Contains(string(test), "ruletest.Run(") {
			t.Errorf("rule %s: analyzer/rules/%s/rule_test.go must call ruletest.Run", r.Name, dir)
		}
		// pods kept slim (objects.SlimPods) are not in the index's maps: a rule that
		// reads ByNamespace or ByKind["Pod"] would miss most of a big cluster's pods
		srcs, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range srcs {
			b, _ := os.ReadFile(f)
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for _, bad := range []string{"ByNamespace[", `ByKind["Pod"]`} {
				if strings.Contains(string(b), bad) {
					t.Errorf("%s reads Index.%s: use Index.InNamespace, Find or EachOfKind, which see the slim pods", f, strings.TrimSuffix(bad, "["))
				}
			}
		}
		steps := analyzer.ExampleLadder(r)
		if len(steps) < 2 {
			t.Errorf("rule %s: its example ladder has %d steps; want its own rungs before the /finalize last resort", r.Name, len(steps))
		} else if last := steps[len(steps)-1]; last.Risk != findings.RiskDestructive || !strings.Contains(last.Command, "/finalize") {
			t.Errorf("rule %s: the example ladder must end with /finalize", r.Name)
		} else if steps[0].Risk == findings.RiskDestructive {
			t.Errorf("rule %s: the example ladder starts with a destructive step", r.Name)
		}
	}
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the schema's causeType enum and docs/json.md's list of cause types from the registry")

// causeListRE is docs/json.md's list of cause types.
var causeListRE = regexp.MustCompile("(\\| `type` \\| string \\| One of )[^|]*?( \\(`nsanalyze explain TYPE` describes each\\)\\. \\|)")

// causeEnumRE is the schema's causeType enum.
var causeEnumRE = regexp.MustCompile(`("causeType": \{\s*"type": "string",\s*"enum": )\[[^\]]*\]`)

// TestRegistryDocumented holds the JSON schema's cause enum, docs/json.md and the
// README's "What it detects" table to the registry. With -update-docs it rewrites the
// enum and the json.md list (the README row, a sentence, is written by hand).
func TestRegistryDocumented(t *testing.T) {
	names := []string{findings.CauseUndetermined}
	for _, r := range rules.All {
		names = append(names, r.Name)
	}
	sort.Strings(names)
	schemaPath := filepath.Join("..", "..", "docs", "report.schema.json")
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	if *updateDocs {
		var ordered []string
		for _, r := range rules.All {
			ordered = append(ordered, r.Name)
		}
		ordered = append(ordered, findings.CauseUndetermined)
		q, _ := json.Marshal(ordered)
		raw = causeEnumRE.ReplaceAll(raw, []byte("${1}"+strings.ReplaceAll(string(q), ",", ", ")))
		if err := os.WriteFile(schemaPath, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		mdPath := filepath.Join("..", "..", "docs", "json.md")
		md, err := os.ReadFile(mdPath)
		if err != nil {
			t.Fatal(err)
		}
		md = causeListRE.ReplaceAll(md, []byte("${1}`"+strings.Join(ordered, "`, `")+"`${2}"))
		if err := os.WriteFile(mdPath, md, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var schema struct {
		Defs struct {
			CauseType struct {
				Enum []string `json:"enum"`
			} `json:"causeType"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	enum := append([]string{}, schema.Defs.CauseType.Enum...)
	sort.Strings(enum)
	if !slices.Equal(enum, names) {
		t.Errorf("docs/report.schema.json causeType enum %v, registry %v", enum, names)
	}
	for _, doc := range []string{filepath.Join("..", "..", "docs", "json.md"), filepath.Join("..", "..", "README.md")} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if !strings.Contains(string(b), "`"+n+"`") {
				t.Errorf("%s does not document cause type `%s`", doc, n)
			}
		}
	}
}

// TestPrefilterKeepsEveryMatchedLine reads every fixture bundle twice: with the prefilter
// derived from the registry, and with a prefilter that lets (almost) every line
// through. The reports must be the same: a phrase a matcher needs that no rule declares
// drops lines before parsing, and this test fails.
func TestPrefilterKeepsEveryMatchedLine(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads every fixture twice")
	}
	everything := []string{" ", "\t", "\"", ":"}
	for _, dir := range fixtureBundles(t) {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "fixtures"), dir)
		t.Run(rel, func(t *testing.T) {
			report := func(kw []string) string {
				rec, err := bundle.Load(dir, bundle.Options{Keywords: kw, KeepObject: rules.KeepObject,
					Exclude: []string{"raw", "expected.json", "README.md"}})
				if err != nil {
					t.Fatal(err)
				}
				r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
				r.Bundle.LogFiles = nil
				r.Warnings = nil
				b, _ := json.MarshalIndent(r, "", " ")
				return string(b)
			}
			sameReport(t, "the derived prefilter", "prefiltered", report(rules.Phrases), "every line", report(everything))
		})
	}
}

func fixtureBundles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..", "fixtures")
	rel, err := fixtures.Bundles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rel) < 10 {
		t.Fatalf("only %d fixture bundles found", len(rel))
	}
	dirs := make([]string, len(rel))
	for i, d := range rel {
		dirs[i] = filepath.Join(root, filepath.FromSlash(d))
	}
	return dirs
}

// TestCatalogLinesPassPrefilter holds the derived prefilter to the message catalog:
// every catalogued log, stderr or text line contains a phrase of the registry (or the
// core), so no line a matcher recognises is dropped before parsing; an APIService
// condition message (an "object" form) is let through inside the two aggregator lines
// that log it (the V(2) availability line, 1.22+, and "%v failed with: %v").
func TestCatalogLinesPassPrefilter(t *testing.T) {
	cat, err := kubemsg.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	passes := func(line string) bool {
		return slices.ContainsFunc(rules.Phrases, func(p string) bool { return strings.Contains(line, p) })
	}
	n := 0
	for _, m := range cat.Messages {
		for _, f := range m.Forms {
			switch f.Channel {
			case "log", "stderr", "text":
				n++
				if !passes(f.Example) {
					t.Errorf("%s/%s (%s-%s): no rule declares a phrase of %q", m.ID, f.ID, f.From, f.To, f.Example)
				}
			case "object":
				for _, line := range []string{
					fmt.Sprintf(`I1129 23:23:55.506005   10428 remote_available_controller.go:408] "changing APIService availability" name="v1beta1.metrics.k8s.io" oldStatus="True" newStatus="False" message=%q reason="X"`, f.Example),
					"E1130 00:03:38.965785   24900 available_controller.go:456] v1beta1.metrics.k8s.io failed with: " + f.Example,
				} {
					if !passes(line) {
						t.Errorf("%s/%s: %q not let through", m.ID, f.ID, line)
					}
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d catalogued log lines", n)
	}
}

// TestMatcherPhrasesPassPrefilter runs under -short on one generated line per phrase
// of every rule's matchers and of the core, in klog text, JSON logging and a CRI
// frame: the loader keeps the line and its detail still holds the phrase, so the
// matcher that declared it sees it (a phrase that only matches the unescaped text,
// such as one with a double quote inside JSON, fails here).
func TestMatcherPhrasesPassPrefilter(t *testing.T) {
	type phrase struct{ rule, text string }
	var all []phrase
	for _, p := range analyzer.CorePhrases {
		all = append(all, phrase{"core", p})
	}
	for _, p := range kubemsg.CloudPhrases() {
		all = append(all, phrase{"cloud", p})
	}
	for _, r := range rules.All {
		for _, p := range analyzer.RulePhrases(r) {
			all = append(all, phrase{r.Name, p})
		}
	}
	if len(all) < 30 {
		t.Fatalf("only %d phrases", len(all))
	}
	dir := t.TempDir()
	var text, js, cri strings.Builder
	for i, p := range all {
		msg := "x " + p.text + " y"
		fmt.Fprintf(&text, "E0301 10:00:%02d.000000       1 gen.go:%d] %s\n", i%60, i+1, msg)
		b, _ := json.Marshal(map[string]any{"ts": 1772359200.0 + float64(i), "caller": "gen.go:1", "msg": msg, "v": 0})
		js.Write(append(b, '\n'))
		fmt.Fprintf(&cri, "2026-03-01T10:00:%02d.000000000Z stderr F E0301 10:00:%02d.000000       1 gen.go:%d] %s\n", i%60, i%60, i+1, msg)
	}
	for name, body := range map[string]string{"kube-controller-manager.log": text.String(), "kube-apiserver.json.log": js.String(),
		"containers/kube-scheduler_kube-system_kube-scheduler-0123.log": cri.String()} {
		path := filepath.Join(dir, "logs", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]map[string]bool{} // file -> phrases seen in a kept line's detail
	for i := range rec.Entries {
		e := &rec.Entries[i]
		d := e.Detail()
		for _, p := range all {
			if strings.Contains(d, p.text) {
				if kept[e.File] == nil {
					kept[e.File] = map[string]bool{}
				}
				kept[e.File][p.text] = true
			}
		}
	}
	if len(kept) != 3 {
		t.Fatalf("lines kept from %d files, want 3 (%v)", len(kept), rec.Warnings)
	}
	for file, seen := range kept {
		for _, p := range all {
			if !seen[p.text] {
				t.Errorf("%s: the line holding %s's phrase %q is dropped or loses it", file, p.rule, p.text)
			}
		}
	}
}

// TestSlimPodsSameReport holds the slim pod table (objects.SlimPods, issue 16) to its
// promise: over every fixture and a generated bundle, the report, the names redaction
// works from and the name warnings are the same whether pods are kept whole or slim.
func TestSlimPodsSameReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads every fixture twice")
	}
	gen := t.TempDir()
	if _, err := genbundle.Generate(genbundle.Config{Out: gen, Size: 6 << 20, Seed: 3, Mix: "objects"}); err != nil {
		t.Fatal(err)
	}
	slimmed := 0
	for _, dir := range append(fixtureBundles(t), gen) {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "fixtures"), dir)
		t.Run(rel, func(t *testing.T) {
			report := func(whole bool) string {
				rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject, WholePods: whole,
					Exclude: []string{"raw", "expected.json", "README.md"}})
				if err != nil {
					t.Fatal(err)
				}
				if !whole {
					slimmed += rec.SlimPods.Len()
				}
				rd := redact.New()
				rd.Records(rec)
				tokens := rd.Tokens()
				warnings := index.NameWarnings(rec)
				r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
				b, _ := json.MarshalIndent(struct {
					Report   *findings.Report
					Tokens   map[string]string
					Warnings any
				}{r, tokens, warnings}, "", " ")
				return string(b)
			}
			sameReport(t, "keeping pods slim", "slim", report(false), "whole", report(true))
		})
	}
	if slimmed < 200 {
		t.Fatalf("only %d pods were kept slim: the comparison proves little", slimmed)
	}
}

// sameReport fails at the first line where two renderings of a report differ; what
// names the change that made them differ.
func sameReport(t *testing.T, what, gotName, got, wantName, want string) {
	t.Helper()
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			t.Fatalf("%s changes the report at line %d:\n %s: %s\n %s: %s", what, i+1, gotName, gl[i], wantName, wl[i])
		}
	}
	t.Fatalf("%s changes the report (%d vs %d lines)", what, len(gl), len(wl))
}

// TestSlimNamespacesSameReport holds the slim namespace table (objects.SlimNamespaces,
// issue 32) to its promise: over every fixture and a generated cluster of Active
// namespaces, the report (also with -n naming a slim namespace, a stuck one and a
// missing one), the names redaction works from and the name warnings are the same
// whether Active namespaces are kept whole or slim.
func TestSlimNamespacesSameReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads every fixture twice")
	}
	gen := filepath.Join(t.TempDir(), "activenamespaces")
	if _, err := genbundle.GenerateShape(gen, "activenamespaces", 300); err != nil {
		t.Fatal(err)
	}
	slimmed := 0
	for _, dir := range append(fixtureBundles(t), gen) {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "fixtures"), dir)
		if dir == gen {
			rel = "generated-activenamespaces"
		}
		t.Run(rel, func(t *testing.T) {
			report := func(whole bool, asked []string) string {
				rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject, WholeNamespaces: whole,
					Exclude: []string{"raw", "expected.json", "README.md"}})
				if err != nil {
					t.Fatal(err)
				}
				if !whole {
					slimmed += rec.SlimNamespaces.Len()
				}
				rd := redact.New()
				rd.Records(rec)
				tokens := rd.Tokens()
				warnings := index.NameWarnings(rec)
				r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All, Namespaces: asked})
				b, _ := json.MarshalIndent(struct {
					Report      *findings.Report
					NotInBundle []string
					Tokens      map[string]string
					Warnings    any
				}{r, r.NotInBundle, tokens, warnings}, "", " ")
				return string(b)
			}
			sameReport(t, "keeping namespaces slim", "slim", report(false, nil), "whole", report(true, nil))
			if dir == gen {
				for _, asked := range [][]string{{"tenant-0000007"}, {"tenant-0000007", "team-a"}, {"tenant-x"}, {"tenant-0000299", "tenant-x"}} {
					sameReport(t, fmt.Sprintf("keeping namespaces slim, -n %v", asked), "slim", report(false, asked), "whole", report(true, asked))
				}
			}
		})
	}
	if slimmed < 300 {
		t.Fatalf("only %d namespaces were kept slim: the comparison proves little", slimmed)
	}
	t.Logf("%d namespaces kept slim", slimmed)
}
