package rules_test

import (
	"encoding/json"
	"os"
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
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestClaimsTwoObjects holds the claims shape for every specific rule: beside what the
// rule explains, a second object of the namespace holding its own finalizer is still
// reported (by finalizers-remaining), with its own rung in the ladder, and no object
// is explained twice. It runs each rule's first testdata case that finds a cause,
// with every rule of the registry, plus one ConfigMap made in the test.
func TestClaimsTwoObjects(t *testing.T) {
	const extraName, extraFin = "nsanalyze-second-object", "example.com/second-cleanup"
	checked := 0
	for _, r := range rules.All {
		if slices.Contains(r.Yields, findings.ClaimsObjects) { // the generic rules: they explain what the others leave
			continue
		}
		dir, want := firstCaseWithCause(t, r)
		if dir == "" {
			t.Errorf("rule %s: no testdata case finds a cause: the claims test has nothing to run on", r.Name)
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			rec := ruletest.Load(t, rules.All, dir)
			extra := &objects.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: want.Namespace, Name: extraName,
				Finalizers: []string{extraFin}, DeletionTimestamp: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
				Source: objects.Source{File: "second-object.json", Line: 1}}
			rec.Objects = append(rec.Objects, extra)
			rep := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
			var ns *findings.NamespaceReport
			for i := range rep.Namespaces {
				if rep.Namespaces[i].Name == want.Namespace {
					ns = &rep.Namespaces[i]
				}
			}
			if ns == nil {
				t.Fatalf("namespace %s not reported", want.Namespace)
			}
			var types []string
			var fin *findings.Cause
			for i := range ns.Causes {
				types = append(types, ns.Causes[i].Type)
				if ns.Causes[i].Type == finalizers.Name {
					fin = &ns.Causes[i]
				}
			}
			if !slices.Contains(types, r.Name) {
				t.Errorf("the %s cause vanished beside a second object (causes %v)", r.Name, types)
			}
			if fin == nil {
				t.Fatalf("the second object's finalizer is not reported (causes %v, ruled out %v)", types, ns.RuledOut)
			}
			if !slices.Contains(fin.Finalizers, extraFin) || !slices.ContainsFunc(fin.Objects, func(o findings.ObjectRef) bool { return o.Name == extraName }) {
				t.Errorf("finalizers-remaining does not name the second object: finalizers %v, objects %v", fin.Finalizers, fin.Objects)
			}
			rung := slices.ContainsFunc(ns.Remediation, func(s findings.RemediationStep) bool { return strings.Contains(s.Command, extraName) })
			if !rung {
				t.Errorf("no rung of the ladder acts on the second object")
			}
			ruletest.CheckClaims(t, ns, rec)
		})
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d specific rules checked", checked)
	}
}

// firstCaseWithCause returns the bundle directory and want.json of a rule's first
// testdata case that expects a cause.
func firstCaseWithCause(t *testing.T, r *analyzer.Rule) (string, ruletest.Want) {
	t.Helper()
	cases, _ := filepath.Glob(filepath.Join(ruleDir(t, r), "testdata", "*", "want.json"))
	for _, c := range cases {
		raw, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		var w ruletest.Want
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if len(w.Causes) == 0 {
			continue
		}
		dir := filepath.Dir(c)
		if w.Bundle != "" {
			dir = filepath.Join(dir, filepath.FromSlash(w.Bundle))
		}
		return dir, w
	}
	return "", ruletest.Want{}
}

// TestClaimsInMemory checks claims on a namespace made in the test (no bundle on disk):
// ordered deletion on 1.34 claims the pod it waits for (finalizer and all) and the
// objects it holds back; finalizers-remaining reports only the other object being
// deleted with its own finalizer; nothing is claimed twice.
func TestClaimsInMemory(t *testing.T) {
	del := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	ns := &objects.Object{APIVersion: "v1", Kind: "Namespace", Name: "shop", DeletionTimestamp: del, Phase: "Terminating",
		SpecFinalizers: []string{"kubernetes"}}
	pod := &objects.Object{APIVersion: "v1", Kind: "Pod", Namespace: "shop", Name: "web-0", DeletionTimestamp: del,
		Finalizers: []string{"example.com/pod-guard"}, Pod: &objects.PodInfo{}}
	widget := &objects.Object{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "shop", Name: "w1", DeletionTimestamp: del,
		Finalizers: []string{"example.com/widget-cleanup"}}
	waiting := &objects.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings",
		Finalizers: []string{"example.com/not-asked-yet"}}
	version := &objects.Object{Kind: objects.KindVersionInfo, Name: "version", ServerVersion: "v1.34.4"}
	rec := ruletest.Records(ns, pod, widget, waiting, version)
	rep := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
	if len(rep.Namespaces) != 1 {
		t.Fatalf("stuck namespaces %d, want 1 (state %s: %s)", len(rep.Namespaces), rep.State, rep.StateReason)
	}
	nr := &rep.Namespaces[0]
	claims := map[string][]string{}
	for _, c := range nr.Causes {
		claims[c.Type] = c.Claims()
	}
	od, fin := claims["ordered-deletion"], claims[finalizers.Name]
	for _, want := range []string{"object:Pod/shop/web-0", "object:ConfigMap/shop/settings", "finalizer:example.com/pod-guard", "content"} {
		if !slices.Contains(od, want) {
			t.Errorf("ordered-deletion claims %v, want %s among them", od, want)
		}
	}
	if !slices.Contains(fin, "object:example.com/Widget/shop/w1") {
		t.Errorf("finalizers-remaining claims %v, want the Widget", fin)
	}
	for _, k := range fin {
		if strings.Contains(k, "web-0") || strings.Contains(k, "pod-guard") || strings.Contains(k, "settings") {
			t.Errorf("finalizers-remaining claims %s, which ordered-deletion explains", k)
		}
	}
	ruletest.CheckClaims(t, nr, rec)
}
