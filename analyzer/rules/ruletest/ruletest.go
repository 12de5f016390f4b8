// Package ruletest runs one rule on small bundles and checks what it finds, in the
// spirit of golang.org/x/tools/go/analysis/analysistest: a rule's test is a folder of
// cases and one call.
//
// Each case is a directory under the rule's testdata/ holding a bundle snippet (the
// files nsanalyze would read) and want.json:
//
//	{
//	  "namespace": "shop",                  // the stuck namespace to check
//	  "bundle": "../../../../fixtures/...", // optional: read this bundle instead of the case directory
//	  "causes": [{                          // the rule's causes for it, in order ([] = none)
//	    "confidence": "high",
//	    "chain": ["APIService v1beta1", "FailedDiscoveryCheck"], // substrings, each in some link
//	    "root": "route controller",         // substring of the root link (deepest fault)
//	    "summary": ["metrics.k8s.io/v1beta1"],
//	    "ladder": ["kubectl get apiservice"] // substrings of the rule's rungs, in order
//	  }],
//	  "ruledOut": "no NamespaceDeletionDiscoveryFailure" // substring of the reason when causes is []
//	}
//
// The rule runs alone: the bundle is read with the rule's own log phrases and kinds
// (plus the analyzer's core ones), so a phrase or kind the rule forgot to declare makes
// its test fail.
package ruletest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Want is a case's want.json.
type Want struct {
	Namespace string      `json:"namespace"`
	Bundle    string      `json:"bundle"`
	Causes    []WantCause `json:"causes"`
	RuledOut  string      `json:"ruledOut"`
}

// WantCause is what one cause must show.
type WantCause struct {
	Confidence string   `json:"confidence"`
	Chain      []string `json:"chain"`
	Root       string   `json:"root"`
	Summary    []string `json:"summary"`
	Ladder     []string `json:"ladder"`
}

// Run checks the rule on every case under dir (usually "testdata"). It fails when dir
// has no case: a rule without testdata is a defect.
func Run(t *testing.T, rule *analyzer.Rule, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("rule %s: %v (every rule needs testdata/<case>/want.json)", rule.Name, err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), "want.json")); err == nil {
				cases = append(cases, e.Name())
			}
		}
	}
	if len(cases) == 0 {
		t.Fatalf("rule %s: no case with want.json under %s", rule.Name, dir)
	}
	sort.Strings(cases)
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			runCase(t, rule, filepath.Join(dir, name))
		})
	}
}

func runCase(t *testing.T, rule *analyzer.Rule, dir string) {
	raw, err := os.ReadFile(filepath.Join(dir, "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want Want
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("want.json: %v", err)
	}
	path := dir
	excl := []string{"want.json", "README.md"}
	if want.Bundle != "" {
		path = filepath.Join(dir, filepath.FromSlash(want.Bundle))
		abs, _ := filepath.Abs(path)
		root, _ := filepath.Abs(filepath.Join(dir, "..", "..", "..", "..", ".."))
		if !strings.HasPrefix(abs, root+string(filepath.Separator)) {
			t.Fatalf("bundle %s is outside the repository", want.Bundle)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("bundle %s: %v", want.Bundle, err)
		}
		excl = append(excl, "raw", "expected.json")
	}
	only := []*analyzer.Rule{rule}
	rec, err := bundle.Load(path, bundle.Options{Keywords: analyzer.Phrases(only), KeepObject: analyzer.KeepObject(only), Exclude: excl})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range rec.Warnings {
		t.Logf("warning: %s", w.String())
	}
	r := analyzer.Analyze(rec, analyzer.Options{Rules: only})
	var ns *findings.NamespaceReport
	for i := range r.Namespaces {
		if r.Namespaces[i].Name == want.Namespace {
			ns = &r.Namespaces[i]
		}
	}
	if ns == nil {
		var names []string
		for _, n := range r.Namespaces {
			names = append(names, n.Name)
		}
		t.Fatalf("namespace %q is not reported as stuck (stuck: %v; state %s: %s)", want.Namespace, names, r.State, r.StateReason)
	}
	var got []findings.Cause
	for _, c := range ns.Causes {
		if c.Type == rule.Name {
			got = append(got, c)
		}
	}
	if len(got) != len(want.Causes) {
		t.Fatalf("%d %s causes, want %d (causes %v, ruled out %v)", len(got), rule.Name, len(want.Causes), types(ns.Causes), ns.RuledOut)
	}
	if len(got) == 0 {
		reason := ""
		for _, ro := range ns.RuledOut {
			if ro.Type == rule.Name {
				reason = ro.Reason
			}
		}
		if !strings.Contains(reason, want.RuledOut) {
			t.Errorf("ruled-out reason %q lacks %q", reason, want.RuledOut)
		}
		return
	}
	for i, w := range want.Causes {
		c := got[i]
		if w.Confidence != "" && c.Confidence != w.Confidence {
			t.Errorf("cause %d: confidence %s, want %s", i, c.Confidence, w.Confidence)
		}
		if len(c.Evidence) == 0 {
			t.Errorf("cause %d has no evidence", i)
		}
		var links []string
		for _, l := range c.Chain {
			links = append(links, l.Component+": "+l.Finding)
		}
		all := strings.Join(links, "\n")
		for _, s := range w.Chain {
			if !strings.Contains(all, s) {
				t.Errorf("cause %d: no chain link mentions %q; chain:\n%s", i, s, all)
			}
		}
		if w.Root != "" {
			l := analyzer.RootLink(&c)
			if l == nil || !strings.Contains(l.Component+": "+l.Finding, w.Root) {
				t.Errorf("cause %d: root link %v does not mention %q", i, l, w.Root)
			}
		}
		for _, s := range w.Summary {
			if !strings.Contains(c.Summary, s) {
				t.Errorf("cause %d: summary lacks %q: %s", i, s, c.Summary)
			}
		}
		var cmds []string
		for _, s := range ns.Remediation {
			cmds = append(cmds, s.Command)
		}
		at := 0
		for _, s := range w.Ladder {
			found := false
			for at < len(cmds) {
				at++
				if strings.Contains(cmds[at-1], s) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("cause %d: ladder has no rung %q after the previous ones; ladder:\n%s", i, s, strings.Join(cmds, "\n"))
			}
		}
	}
}

func types(cs []findings.Cause) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Type)
	}
	return out
}

// Load reads a case bundle (a directory) with the given rules' phrases and kinds, as
// the command does, without its want.json and README.md.
func Load(t testing.TB, rules []*analyzer.Rule, dir string) *bundle.Records {
	t.Helper()
	rec, err := bundle.Load(dir, bundle.Options{Keywords: analyzer.Phrases(rules), KeepObject: analyzer.KeepObject(rules),
		Exclude: []string{"want.json", "README.md", "raw", "expected.json"}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// Records builds records from objects made in the test, without a bundle on disk: a
// rule's claims can be checked on a namespace described in a few lines. Every object
// gets a source ("test.json", its position) so evidence can cite it.
func Records(objs ...*objects.Object) *bundle.Records {
	rec := &bundle.Records{Path: "test", FileObjects: map[string]int{}, Dropped: map[string]map[string]int{}}
	for i, o := range objs {
		if o.Source.File == "" {
			o.Source.File = "test.json"
			o.Source.Line = i + 1
		}
		rec.Objects = append(rec.Objects, o)
		rec.FileObjects[o.Source.File]++
		rec.ObjectCount++
	}
	rec.ObjectFiles = []string{"test.json"}
	return rec
}

// CheckClaims fails when an object of the namespace's report is claimed by two causes,
// or when an object of the namespace that blocks on its own (being deleted, with
// finalizers) is claimed by none: every object is explained exactly once.
func CheckClaims(t testing.TB, ns *findings.NamespaceReport, rec *bundle.Records) {
	t.Helper()
	by := map[string]string{}
	for i := range ns.Causes {
		c := &ns.Causes[i]
		for _, k := range c.Claims() {
			if !strings.HasPrefix(k, "object:") {
				continue
			}
			if other, ok := by[k]; ok && other != c.Type {
				t.Errorf("%s is claimed by both %s and %s", k, other, c.Type)
			}
			by[k] = c.Type
		}
	}
	for _, o := range rec.Objects {
		if o.Namespace != ns.Name || o.Kind == "Namespace" || len(o.Finalizers) == 0 || o.DeletionTimestamp.IsZero() {
			continue
		}
		found := false
		for k := range by {
			if strings.HasSuffix(k, "/"+o.Kind+"/"+o.Namespace+"/"+o.Name) || k == "object:"+o.Kind+"/"+o.Namespace+"/"+o.Name {
				found = true
			}
		}
		if !found {
			t.Errorf("%s (finalizers %v, being deleted) is explained by no cause (causes %v)", o.Ref(), o.Finalizers, types(ns.Causes))
		}
	}
}
