package analyzer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

func namespace(name string, deleted time.Time, file string) *objects.Object {
	o := &objects.Object{APIVersion: "v1", Kind: "Namespace", Name: name, Phase: "Active", SpecFinalizers: []string{"kubernetes"},
		CreationTimestamp: time.Date(2021, 8, 17, 17, 0, 0, 0, time.UTC), Source: objects.Source{File: file, Line: 1}}
	if !deleted.IsZero() {
		o.DeletionTimestamp, o.Phase = deleted, "Terminating"
	}
	return o
}

// TestStillDeleting: a namespace seconds into its deletion, with no blocker, is
// "deleting" (no ladder, exit 0) only against the collector's own clock; an estimated
// capture time (a lower bound) or a blocker or an age past the threshold keeps it stuck.
func TestStillDeleting(t *testing.T) {
	del := time.Date(2021, 8, 17, 17, 43, 44, 0, time.UTC)
	cases := []struct {
		name      string
		clock     time.Time // zero: no clock, the capture is estimated
		extra     func(*objects.Object)
		state     string
		reason    string
		noVersion bool
		newest    time.Time // the newest time in the records (the estimate without a clock)
	}{
		{name: "14s by the collector's clock", clock: del.Add(14 * time.Second), state: findings.StateDeleting, reason: "crd-publish-openapi-8311 (deleted 14s before the capture)"},
		{name: "estimated capture only bounds the age from below", newest: del.Add(14 * time.Second), state: findings.StateStuck},
		// without a version no rule reads the missing conditions as a blocker: the threshold alone decides
		{name: "at the threshold", clock: del.Add(analyzer.DeletingThreshold), state: findings.StateStuck, noVersion: true},
		{name: "just under the threshold", clock: del.Add(analyzer.DeletingThreshold - time.Second), state: findings.StateDeleting, noVersion: true, reason: "(deleted 4m59s before the capture)"},
		{name: "a blocker however young", clock: del.Add(14 * time.Second), state: findings.StateStuck,
			extra: func(o *objects.Object) { o.SpecFinalizers = []string{"kubernetes", "example.com/hold"} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ns := namespace("crd-publish-openapi-8311", del, "resources/cluster/core_v1_namespaces.json")
			if c.extra != nil {
				c.extra(ns)
			}
			rec := &bundle.Records{Objects: []*objects.Object{namespace("default", time.Time{}, ns.Source.File), namespace("kube-system", time.Time{}, ns.Source.File), ns},
				NamespaceListSeen: true, CaptureClock: c.clock, CaptureClockSource: "meta/run.log", ServerVersion: "v1.21.1", ServerVersionFile: "serverversion.json"}
			if c.noVersion {
				rec.ServerVersion, rec.ServerVersionFile = "", ""
			}
			rec.NewestObjectTime = c.newest
			r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
			if r.State != c.state || !strings.Contains(r.StateReason, c.reason) {
				t.Fatalf("state %q (%s), want %q", r.State, r.StateReason, c.state)
			}
			if c.noVersion {
				return
			}
			if r.Bundle.KubernetesVersion != "v1.21.1" || r.Bundle.KubernetesVersionSource != "serverversion.json" {
				t.Errorf("version %q from %q", r.Bundle.KubernetesVersion, r.Bundle.KubernetesVersionSource)
			}
			if c.state != findings.StateDeleting {
				if len(r.Namespaces) != 1 || len(r.Deleting) != 0 {
					t.Errorf("stuck %d deleting %d", len(r.Namespaces), len(r.Deleting))
				}
				return
			}
			if len(r.Namespaces) != 0 || len(r.Problems) != 0 || len(r.Deleting) != 1 || !r.Bundle.CapturedAtRecorded {
				t.Fatalf("namespaces %v problems %v deleting %v", r.Namespaces, r.Problems, r.Deleting)
			}
			d := r.Deleting[0]
			if d.DeletingSeconds != 14 || !strings.Contains(d.Why, "recorded by the collector (meta/run.log)") || len(d.Watch) == 0 {
				t.Errorf("deleting %+v", d)
			}
			for _, w := range d.Watch {
				if w.Risk != findings.RiskSafe || strings.Contains(w.Command, "finalize") || strings.Contains(w.Command, "delete") || strings.Contains(w.Command, "patch") {
					t.Errorf("watch step %+v", w)
				}
			}
			if !strings.HasPrefix(r.Summary, "No namespace is stuck: 1 namespace still being deleted") {
				t.Errorf("summary %q", r.Summary)
			}
		})
	}
}

// TestPartialListing: namespaces dumped one by one (a must-gather, an inspect), without
// a listing of all namespaces, say which they are and that the others were not
// collected: unknown when none is stuck, stuck (with the gap) when one is.
func TestPartialListing(t *testing.T) {
	for _, stuck := range []bool{false, true} {
		var del time.Time
		if stuck {
			del = time.Date(2023, 1, 9, 10, 0, 0, 0, time.UTC)
		}
		rec := &bundle.Records{Layouts: []string{bundle.LayoutInspect}, Objects: []*objects.Object{
			namespace("openshift-etcd", del, "namespaces/openshift-etcd/openshift-etcd.yaml"),
			namespace("openshift-kube-apiserver", time.Time{}, "namespaces/openshift-kube-apiserver/openshift-kube-apiserver.yaml")}}
		r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
		want := findings.StateUnknown
		if stuck {
			want = findings.StateStuck
		}
		if r.State != want {
			t.Errorf("stuck %v: state %q (%s)", stuck, r.State, r.StateReason)
		}
		gap := "a listing of all namespaces: this oc adm inspect (it holds only the namespaces named on its command line) covers only 2 namespaces (openshift-etcd, openshift-kube-apiserver), the others were not collected"
		found := false
		for _, g := range r.Coverage {
			found = found || g.Missing == gap && g.Collect == "oc get namespaces -o json" // OpenShift: its client
		}
		if !found {
			t.Errorf("stuck %v: no gap %q in %+v", stuck, gap, r.Coverage)
		}
		if !stuck && !strings.Contains(r.StateReason, "the others were not collected") {
			t.Errorf("reason %q", r.StateReason)
		}
	}
}

// TestVersionAndCaptureFromRenderings: without a version file or start-up line the
// nodes' newest kubelet version is the cluster's (said so); a capture bound from a
// table's AGE raises the capture estimate.
func TestVersionAndCaptureFromRenderings(t *testing.T) {
	node := func(name, v string) *objects.Object {
		return &objects.Object{APIVersion: "v1", Kind: "Node", Name: name, KubeletVersion: v, Source: objects.Source{File: "nodes.json", Line: 3}}
	}
	del := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	bound := time.Date(2026, 3, 5, 23, 0, 0, 0, time.UTC)
	rec := &bundle.Records{NamespaceListSeen: true, Objects: []*objects.Object{node("n1", "v1.28.9"), node("n2", "v1.29.4"), node("n3", "v1.9.11"),
		namespace("default", time.Time{}, "ns.json"), namespace("kube-system", time.Time{}, "ns.json"), namespace("shop", del, "ns.json")},
		NewestObjectTime: del, CaptureBounds: []bundle.CaptureBound{{Time: bound, File: "notes.txt", Line: 3, Object: "Pod web-0", ObjectFile: "pods.json",
			Field: "metadata.creationTimestamp", Age: 4*24*time.Hour + 13*time.Hour}}}
	r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
	if r.Bundle.KubernetesVersion != "v1.29.4" || !strings.HasPrefix(r.Bundle.KubernetesVersionSource, "kubelet version of node n2 (nodes.json:3)") {
		t.Errorf("version %q from %q", r.Bundle.KubernetesVersion, r.Bundle.KubernetesVersionSource)
	}
	if r.Bundle.CapturedAt == nil || !r.Bundle.CapturedAt.Equal(bound) || r.Bundle.CapturedAtRecorded ||
		r.Bundle.CapturedAtSource != "metadata.creationTimestamp of Pod web-0 (pods.json) + its AGE 4d13h at notes.txt:3" {
		t.Errorf("captured %v from %q", r.Bundle.CapturedAt, r.Bundle.CapturedAtSource)
	}
	if len(r.Namespaces) != 1 || r.Namespaces[0].StuckFor != "3d13h" {
		t.Errorf("namespaces %+v", r.Namespaces)
	}
}

// TestStateless: a Namespace with no phase, no deletion timestamp and no condition
// (an `-o name` line, a manifest) says nothing of its state; one read from the
// cluster says Active or Terminating.
func TestStateless(t *testing.T) {
	for _, tc := range []struct {
		o    objects.Object
		want bool
	}{
		{objects.Object{Kind: "Namespace", Name: "a"}, true},
		{objects.Object{Kind: "Namespace", Name: "a", Phase: "Active"}, false},
		{objects.Object{Kind: "Namespace", Name: "a", DeletionTimestamp: time.Unix(1, 0)}, false},
		{objects.Object{Kind: "Namespace", Name: "a", Conditions: []objects.Condition{{Type: "NamespaceContentRemaining"}}}, false},
	} {
		if got := analyzer.Stateless(&tc.o); got != tc.want {
			t.Errorf("Stateless(%+v) = %v, want %v", tc.o, got, tc.want)
		}
	}
}

// TestNamesOnlyListing, on a real trace (fixtures/realworld/forge-2018-...):
// a `kubectl get ns -oname` listing shows which namespaces exist, not their state, so
// alone it gives "unknown", never "none stuck"; with the Conflict for one of them
// printed after it in the same file, that namespace is stuck.
func TestNamesOnlyListing(t *testing.T) {
	src, err := os.ReadFile("../fixtures/realworld/forge-2018-box-drawing-prefixed-kubectl-trace-conflict-on-labelled-namespace/forge-delete-output.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	for _, c := range []struct {
		name  string
		text  string
		state string
		stuck []string
	}{
		{"listing only", strings.Join(lines[:5], ""), findings.StateUnknown, nil},
		{"listing, then the Conflict", string(src), findings.StateStuck, []string{"datawire"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "forge-delete-output.txt"), []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject})
			if err != nil {
				t.Fatal(err)
			}
			r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
			var stuck []string
			for _, ns := range r.Namespaces {
				stuck = append(stuck, ns.Name)
			}
			if r.State != c.state || strings.Join(stuck, ",") != strings.Join(c.stuck, ",") {
				t.Fatalf("state %q (%s), stuck %v; want %q, %v", r.State, r.StateReason, stuck, c.state, c.stuck)
			}
			if c.state == findings.StateUnknown && !strings.Contains(r.StateReason, "by name only") {
				t.Errorf("state reason does not say the listing holds names only: %s", r.StateReason)
			}
		})
	}
}
