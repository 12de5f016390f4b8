package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/admissionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/contentremaining"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/conversionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/namespacefinalizer"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// No false findings: fields set to unexpected values are read exactly as Kubernetes
// reads them. The namespace registry sets metadata.deletionTimestamp and phase
// Terminating in one update and the namespace controller acts on deletionTimestamp
// alone; every namespace condition is a problem only with status "True" (exactly
// that string: ConditionStatus is case-sensitive); messages are never read as status.

const del = `"deletionTimestamp":"2026-01-01T00:00:00Z"`

func cond(typ, status, reason, msg string) string {
	return fmt.Sprintf(`{"type":%q,"status":%q,"reason":%q,"message":%q,"lastTransitionTime":"2026-01-01T00:00:05Z"}`, typ, status, reason, msg)
}

// allFalse are the conditions of a namespace whose deletion is merely waiting, as the
// namespace controller writes them (1.16+).
var allFalse = []string{
	cond(kubemsg.CondDiscoveryFailure, "False", "ResourcesDiscovered", "All resources successfully discovered"),
	cond(kubemsg.CondGVParsingFailure, "False", "ParsedGroupVersions", "All legacy kube types successfully parsed"),
	cond(kubemsg.CondContentFailure, "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"),
	cond(kubemsg.CondContentRemaining, "False", "ContentRemoved", "All content successfully removed"),
	cond(kubemsg.CondFinalizersRemaining, "False", "ContentHasNoFinalizers", "All content-preserving finalizers finished"),
}

func nsJSON(name, meta, spec, phase string, conds ...string) string {
	s := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q%s}`, name, meta)
	if spec != "" {
		s += `,"spec":` + spec
	}
	s += fmt.Sprintf(`,"status":{"phase":%q,"conditions":[%s]}}`, phase, strings.Join(conds, ","))
	return s
}

func analyzeObjects(t *testing.T, objs ...string) *findings.Report {
	t.Helper()
	dir := t.TempDir()
	list := `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(objs, ",") + `]}`
	if err := os.WriteFile(filepath.Join(dir, "namespaces.json"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject})
	if err != nil {
		t.Fatal(err)
	}
	return analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
}

func causeTypes(nr findings.NamespaceReport) []string {
	var out []string
	for _, c := range nr.Causes {
		out = append(out, c.Type)
	}
	return out
}

func findNS(r *findings.Report, name string) *findings.NamespaceReport {
	for i := range r.Namespaces {
		if r.Namespaces[i].Name == name {
			return &r.Namespaces[i]
		}
	}
	return nil
}

// specific reports whether a cause names anything (a group/version, APIService,
// finalizer, webhook or object) that only evidence could justify.
func specific(c findings.Cause) bool {
	return len(c.GroupVersions)+len(c.APIServices)+len(c.Finalizers)+len(c.Webhooks) > 0
}

func TestNoFalseFindings(t *testing.T) {
	t.Run("active namespace with problem-looking conditions is not being deleted", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("calm", "", `{"finalizers":["kubernetes"]}`, "Active",
			cond(kubemsg.CondDiscoveryFailure, "True", "DiscoveryFailed", "Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1")))
		if ns := findNS(r, "calm"); ns != nil {
			t.Errorf("namespace without deletionTimestamp, phase Active, reported as stuck: %v", causeTypes(*ns))
		}
	})
	t.Run("deletionTimestamp with phase Active is being deleted, for no known reason", func(t *testing.T) {
		// the namespace controller acts on deletionTimestamp and sets the phase itself
		r := analyzeObjects(t, nsJSON("racing", ","+del, `{"finalizers":["kubernetes"]}`, "Active"))
		ns := findNS(r, "racing")
		if ns == nil {
			t.Fatal("a namespace with a deletionTimestamp is being deleted, whatever its phase says")
		}
		for _, c := range ns.Causes {
			if c.Type != findings.CauseUndetermined && c.Type != "controller-not-running" || specific(c) {
				t.Errorf("cause %s %+v from a namespace that shows no problem", c.Type, c)
			}
		}
	})
	t.Run("conditions with status False are no problem", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("waiting", ","+del, `{"finalizers":["kubernetes"]}`, "Terminating", allFalse...))
		ns := findNS(r, "waiting")
		if ns == nil {
			t.Fatal("not reported")
		}
		for _, c := range ns.Causes {
			switch c.Type {
			case apidiscovery.Name, admissionwebhook.Name, conversionwebhook.Name, finalizers.Name, contentremaining.Name:
				t.Errorf("cause %s from conditions that are all False: %s", c.Type, c.Summary)
			}
			if specific(c) {
				t.Errorf("cause %s names %v %v %v %v without evidence", c.Type, c.GroupVersions, c.APIServices, c.Finalizers, c.Webhooks)
			}
		}
		for _, c := range ns.Conditions {
			if c.Problem {
				t.Errorf("condition %s (status %s) marked as a problem", c.Type, c.Status)
			}
		}
	})
	t.Run("status is case-sensitive: true and TRUE are not True", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("cased", ","+del, `{"finalizers":["kubernetes"]}`, "Terminating",
			cond(kubemsg.CondDiscoveryFailure, "true", "DiscoveryFailed", "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x"),
			cond(kubemsg.CondFinalizersRemaining, "TRUE", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: example.com/f in 1 resource instances")))
		ns := findNS(r, "cased")
		if ns == nil {
			t.Fatal("not reported")
		}
		for _, c := range ns.Causes {
			if c.Type == apidiscovery.Name || c.Type == finalizers.Name {
				t.Errorf("cause %s from a condition whose status is not \"True\"", c.Type)
			}
		}
	})
	t.Run("a True condition saying all content was deleted names nothing", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("odd", ","+del, `{"finalizers":["kubernetes"]}`, "Terminating",
			cond(kubemsg.CondContentFailure, "True", "ContentDeletionFailed", "All content successfully deleted, may be waiting on finalization"),
			cond(kubemsg.CondContentRemaining, "True", "SomeResourcesRemain", "All content successfully removed")))
		ns := findNS(r, "odd")
		if ns == nil {
			t.Fatal("a namespace with problem conditions is stuck")
		}
		for _, c := range ns.Causes {
			if specific(c) {
				t.Errorf("cause %s names %v %v %v %v; the messages name nothing", c.Type, c.GroupVersions, c.APIServices, c.Finalizers, c.Webhooks)
			}
		}
	})
	t.Run("deletionTimestamp of the wrong type is not a deletion", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("typed", `,"deletionTimestamp":12`, `{"finalizers":["kubernetes"]}`, "Active"))
		if ns := findNS(r, "typed"); ns != nil {
			t.Errorf("deletionTimestamp 12 read as a deletion: %v", causeTypes(*ns))
		}
		if len(r.Warnings) == 0 {
			t.Error("no warning about the field of the wrong type")
		}
	})
	t.Run("spec.finalizers as a string names no finalizer", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("strfin", ","+del, `{"finalizers":"kubernetes"}`, "Terminating", allFalse...))
		ns := findNS(r, "strfin")
		if ns == nil {
			t.Fatal("not reported")
		}
		for _, c := range ns.Causes {
			if c.Type == namespacefinalizer.Name || len(c.Finalizers) > 0 {
				t.Errorf("cause %s with finalizers %v from a string-typed spec.finalizers", c.Type, c.Finalizers)
			}
		}
		if len(r.Warnings) == 0 {
			t.Error("no warning about the field of the wrong type")
		}
	})
	t.Run("control: a True discovery failure is found", func(t *testing.T) {
		r := analyzeObjects(t, nsJSON("real", ","+del, `{"finalizers":["kubernetes"]}`, "Terminating",
			cond(kubemsg.CondDiscoveryFailure, "True", "DiscoveryFailed", "Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1")))
		ns := findNS(r, "real")
		if ns == nil || !strings.Contains(strings.Join(causeTypes(*ns), ","), apidiscovery.Name) {
			t.Fatalf("discovery failure not found: %+v", ns)
		}
	})
}
