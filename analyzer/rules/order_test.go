package rules_test

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestRunOrderIrrelevant: the order the rules run in is derived from their
// declarations; among the orders the declarations allow, none changes a report. Every
// fixture is analysed with the derived order (ties by name), ties reversed and ties in
// random orders, and the JSON reports must be the same. (Under -short: the handmade
// fixtures.)
func TestRunOrderIrrelevant(t *testing.T) {
	base, err := analyzer.NewPlan(rules.All)
	if err != nil {
		t.Fatal(err)
	}
	plans := map[string]*analyzer.Plan{}
	add := func(name string, less func(a, b *analyzer.Rule) bool) {
		p, err := analyzer.NewPlanTies(rules.All, less)
		if err != nil {
			t.Fatal(err)
		}
		plans[name] = p
	}
	add("ties reversed", func(a, b *analyzer.Rule) bool { return a.Name > b.Name })
	for seed := range uint64(3) {
		rank := map[string]int{}
		for i, j := range rand.New(rand.NewPCG(seed, 33)).Perm(len(rules.All)) {
			rank[rules.All[i].Name] = j
		}
		add("ties shuffled "+string(rune('a'+seed)), func(a, b *analyzer.Rule) bool { return rank[a.Name] < rank[b.Name] })
	}
	differ := 0
	for _, p := range plans {
		if !slices.Equal(p.Run, base.Run) {
			differ++
		}
	}
	if differ < 3 {
		t.Fatalf("only %d of the other plans run the rules in another order: the test proves little", differ)
	}
	root := filepath.Join("..", "..", "fixtures")
	compared := 0
	for _, dir := range fixtureBundles(t) {
		rel, _ := filepath.Rel(root, dir)
		if testing.Short() && !strings.HasPrefix(rel, "handmade") {
			continue
		}
		rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject,
			Exclude: []string{"raw", "expected.json", "README.md"}})
		if err != nil {
			t.Fatal(err)
		}
		report := func(p *analyzer.Plan) string {
			b, err := json.MarshalIndent(analyzer.Analyze(rec, analyzer.Options{Rules: rules.All, Plan: p}), "", " ")
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		want := report(base)
		for name, p := range plans {
			sameReport(t, rel+": running the rules with "+name, name, report(p), "derived", want)
		}
		compared++
	}
	if compared < 25 {
		t.Fatalf("only %d fixtures compared", compared)
	}
}

// foregroundDeletion is a new cause in the way issue 33 tells of: it explains the
// objects finalizers-remaining owned (here: every object of the namespace with
// finalizers), declaring what its constructor says.
func foregroundDeletion(claims, yields []findings.ClaimKind) *analyzer.Rule {
	return &analyzer.Rule{Name: "foreground-deletion", Doc: "test rule", Claims: claims, Yields: yields,
		Run: func(p *analyzer.Pass) ([]findings.Cause, string) {
			c := findings.Cause{Summary: "Objects wait for their dependents.", Objects: []findings.ObjectRef{}}
			for _, o := range p.Index.InNamespace(p.Namespace, "") {
				if len(o.Finalizers) > 0 && o.Kind != "Namespace" {
					c.Objects = append(c.Objects, findings.ObjectRefOf(o))
				}
			}
			if len(c.Objects) == 0 {
				return nil, ""
			}
			return []findings.Cause{c}, ""
		},
		Ladder:  func(*analyzer.Pass, *findings.Cause) []findings.RemediationStep { return nil },
		Example: func(*analyzer.Pass) findings.Cause { return findings.Cause{} }}
}

// TestTakeoverDetected: a new rule that claims what another rule explains never does
// so silently. Without declaring its claims, or declared as a peer of the generic rule
// (both yield, neither requires the other), the report carries a rule warning (and
// TestFingerprintsAcrossBundles fails on any such warning over every fixture); declared
// as a specific rule, the generic rule yields to it, which changes the owners that
// cmd/nsanalyze's testdata/ownership.golden states.
func TestTakeoverDetected(t *testing.T) {
	dir, want := firstCaseWithCause(t, finalizers.Rule)
	if dir == "" {
		t.Fatal("finalizers-remaining has no testdata case with a cause")
	}
	owners := func(extra *analyzer.Rule) (string, []string) {
		reg := append(slices.Clone(rules.All), extra)
		if err := analyzer.Validate(reg); err != nil {
			t.Fatalf("registry with %s: %v", extra.Name, err)
		}
		rep := analyzer.Analyze(ruletest.Load(t, reg, dir), analyzer.Options{Rules: reg})
		var types, warns []string
		for _, ns := range rep.Namespaces {
			if ns.Name == want.Namespace {
				for _, c := range ns.Causes {
					types = append(types, c.Type)
				}
			}
		}
		for _, w := range rep.Warnings {
			if w.File == analyzer.RuleWarningFile {
				warns = append(warns, w.Message)
			}
		}
		return strings.Join(types, ","), warns
	}
	all := []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers}
	before, _ := owners(foregroundDeletion(all, nil))
	if !strings.Contains(before, "foreground-deletion") || strings.Contains(before, finalizers.Name) {
		t.Fatalf("declared as specific: owners %s, want foreground-deletion to take the case over", before)
	}
	alone := analyzer.Analyze(ruletest.Load(t, rules.All, dir), analyzer.Options{Rules: rules.All})
	for _, ns := range alone.Namespaces {
		if ns.Name == want.Namespace && !slices.ContainsFunc(ns.Causes, func(c findings.Cause) bool { return c.Type == finalizers.Name }) {
			t.Fatalf("without the new rule, finalizers-remaining does not own the case")
		}
	}
	for _, tc := range []struct {
		name           string
		claims, yields []findings.ClaimKind
		warn           string
	}{
		{"claims undeclared", nil, nil, "foreground-deletion: a cause claims objects, which the rule does not declare in Claims"},
		{"a peer of the generic rule", all, all, "rules finalizers-remaining and foreground-deletion both claim"},
	} {
		_, warns := owners(foregroundDeletion(tc.claims, tc.yields))
		if !slices.ContainsFunc(warns, func(w string) bool { return strings.Contains(w, tc.warn) }) {
			t.Errorf("%s: no rule warning %q (warnings %q)", tc.name, tc.warn, warns)
		}
	}
}

// holder is a specific rule that claims all content and a resource of every stuck
// namespace: two of them overlap on what they claim, with no declared order.
func holder(name string) *analyzer.Rule {
	return &analyzer.Rule{Name: name, Doc: "test rule", Claims: []findings.ClaimKind{findings.ClaimsContent, findings.ClaimsResources},
		Run: func(p *analyzer.Pass) ([]findings.Cause, string) {
			c := findings.Cause{Summary: name + " holds everything back."}
			c.ClaimContent()
			c.ClaimResource("widgets.example.com")
			return []findings.Cause{c}, ""
		},
		Ladder:  func(*analyzer.Pass, *findings.Cause) []findings.RemediationStep { return nil },
		Example: func(*analyzer.Pass) findings.Cause { return findings.Cause{} }}
}

// TestClaimOwnerIndependentOfOrder: when rules the declarations leave unordered claim
// the same content and resource, who is named as explaining it (content-remaining's
// ruled-out reason) does not depend on which of them ran first.
func TestClaimOwnerIndependentOfOrder(t *testing.T) {
	reg := append(slices.Clone(rules.All), holder("x-holder"), holder("w-holder"))
	del := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	ns := &objects.Object{APIVersion: "v1", Kind: "Namespace", Name: "shop", DeletionTimestamp: del, Phase: "Terminating",
		SpecFinalizers: []string{"kubernetes"}, Source: objects.Source{File: "ns.json", Line: 1},
		Conditions: []objects.Condition{{Type: kubemsg.CondContentRemaining, Status: "True", Reason: "SomeResourcesRemain",
			Message: "Some resources are remaining: widgets.example.com has 1 resource instances"}}}
	var reasons []string
	for _, less := range []func(a, b *analyzer.Rule) bool{
		func(a, b *analyzer.Rule) bool { return a.Name < b.Name },
		func(a, b *analyzer.Rule) bool { return a.Name > b.Name },
	} {
		p, err := analyzer.NewPlanTies(reg, less)
		if err != nil {
			t.Fatal(err)
		}
		rep := analyzer.Analyze(ruletest.Records(ns), analyzer.Options{Rules: reg, Plan: p})
		if len(rep.Namespaces) != 1 {
			t.Fatalf("%d namespaces reported", len(rep.Namespaces))
		}
		why := ""
		for _, r := range rep.Namespaces[0].RuledOut {
			if r.Type == "content-remaining" {
				why = r.Reason
			}
		}
		if !strings.Contains(why, "x-holder") || !strings.Contains(why, "w-holder") {
			t.Fatalf("content-remaining's ruled-out reason %q does not name both holders", why)
		}
		reasons = append(reasons, why)
	}
	if reasons[0] != reasons[1] {
		t.Errorf("the order the unordered rules ran in changes the report:\n %s\n %s", reasons[0], reasons[1])
	}
}
