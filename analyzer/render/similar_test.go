package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

func TestIDRanges(t *testing.T) {
	for _, tc := range []struct {
		ids  []string
		max  int
		want string
	}{
		{[]string{"P1"}, 6, "P1"},
		{[]string{"P1", "P2"}, 6, "P1, P2"},
		{[]string{"P1", "P2", "P3"}, 6, "P1–P3"},
		{[]string{"P2", "P4", "P5", "P6", "P7", "P9"}, 6, "P2, P4–P7, P9"},
		{[]string{"P1", "P3", "P5", "P7", "P9"}, 2, "P1, P3 and 3 more"},
		{[]string{"P1", "P1", "P2"}, 6, "P1, P1, P2"}, // a repeat is no run
		{[]string{"X", "P2"}, 6, "X, P2"},
	} {
		if got := idRanges(tc.ids, tc.max); got != tc.want {
			t.Errorf("idRanges(%q, %d) = %q, want %q", tc.ids, tc.max, got, tc.want)
		}
	}
}

func TestSimilarKey(t *testing.T) {
	key := func(fp string) string { return similarKey(&problemView{Problem: findings.Problem{Fingerprint: fp}}) }
	same := [][2]string{
		{"api-discovery-failure/apiservice=v1beta1.a.example.com/backend=service-not-found", "api-discovery-failure/apiservice=v1beta1.b.example.com/backend=service-not-found"},
		{"finalizers-remaining/finalizer=op00.example.com/cleanup/controller=unknown", "finalizers-remaining/finalizer=op19.example.com/cleanup/controller=unknown"},
		{"finalizers-remaining/finalizer=a.io/x/finalizer=b.io/y/controller=absent", "finalizers-remaining/finalizer=c.io/z/controller=absent"},
	}
	for _, p := range same {
		if key(p[0]) != key(p[1]) || key(p[0]) == "" {
			t.Errorf("%s and %s are not similar (%q, %q)", p[0], p[1], key(p[0]), key(p[1]))
		}
	}
	differ := [][2]string{
		{"api-discovery-failure/apiservice=v1beta1.a.example.com/backend=service-not-found", "api-discovery-failure/apiservice=v1beta1.a.example.com/backend=pod-crashloop"},
		{"finalizers-remaining/finalizer=a.io/x/controller=absent", "finalizers-remaining/finalizer=a.io/x/controller=running"},
		{"admission-webhook/webhook=~1/backend=timeout", "api-discovery-failure/apiservice=x/backend=timeout"},
	}
	for _, p := range differ {
		if key(p[0]) == key(p[1]) {
			t.Errorf("%s and %s are similar (%q)", p[0], p[1], key(p[0]))
		}
	}
	if key("") != "" || key("undetermined") == "" {
		t.Errorf("no fingerprint must be similar to none; undetermined has a key")
	}
}

// manyProblems is a report of one namespace held by n problems of one kind (each its
// own APIService) and one of another kind.
func manyProblems(n int) *findings.Report {
	r := &findings.Report{Namespaces: []findings.NamespaceReport{{Name: "team-a", Phase: "Terminating"}}}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("P%d", i+1)
		r.Problems = append(r.Problems, findings.Problem{ID: id, CauseType: "api-discovery-failure",
			Fingerprint: fmt.Sprintf("api-discovery-failure/apiservice=v1beta1.g%d.example.com/backend=service-not-found", i),
			Root:        fmt.Sprintf("Service metrics/adapter-%d: the Service does not exist.", i),
			Namespaces:  []findings.ProblemNamespace{{Name: "team-a"}}})
		r.Namespaces[0].Problems = append(r.Namespaces[0].Problems, id)
		r.Namespaces[0].Causes = append(r.Namespaces[0].Causes, findings.Cause{Type: "api-discovery-failure"})
	}
	id := fmt.Sprintf("P%d", n+1)
	r.Problems = append(r.Problems, findings.Problem{ID: id, CauseType: "finalizers-remaining",
		Fingerprint: "finalizers-remaining/finalizer=a.io/x/controller=absent", Root: "finalizer a.io/x: its controller is gone.",
		Namespaces: []findings.ProblemNamespace{{Name: "team-a"}}})
	r.Namespaces[0].Problems = append(r.Namespaces[0].Problems, id)
	r.Namespaces[0].Causes = append(r.Namespaces[0].Causes, findings.Cause{Type: "finalizers-remaining"})
	r.Namespaces[0].Verdict = strings.Repeat("Root: something. Also: ", n)
	return r
}

func TestFoldSimilar(t *testing.T) {
	// few problems: every one is shown, however similar
	v := newView(manyProblems(4))
	if len(v.Shown) != 5 || len(v.Problems[0].Similar) != 0 {
		t.Errorf("5 problems: %d shown, P1 folds %d; want every one shown", len(v.Shown), len(v.Problems[0].Similar))
	}
	v = newView(manyProblems(200))
	if len(v.Shown) != 2 || v.Shown[0].ID != "P1" || v.Shown[1].ID != "P201" {
		t.Fatalf("201 problems, 200 of one kind: shown %d, want P1 and P201", len(v.Shown))
	}
	if n := len(v.Shown[0].Similar); n != 199 {
		t.Errorf("P1 folds %d problems, want 199", n)
	}
	if v.Problems[5].Like != v.Shown[0] {
		t.Errorf("P6 is not folded under P1")
	}
	lines, more := similarLines(v.Shown[0])
	if len(lines) != shownItems || !strings.Contains(more, "189 more similar problems") {
		t.Errorf("similar lines: %d, %q; want %d and 189 more", len(lines), more, shownItems)
	}
	if h := similarHead(v.Shown[0]); !strings.Contains(h, "199 more problems like P1 (P2–P200)") {
		t.Errorf("similar head: %s", h)
	}
	ns := &v.R.Namespaces[0]
	if got := problemIDs(ns); got != "P1–P201" {
		t.Errorf("problem IDs of the namespace: %q", got)
	}
	if vd := v.verdict(ns); len(vd) > 1200 || !strings.Contains(vd, "198 more problems") || !strings.Contains(vd, "201 problems") {
		t.Errorf("verdict not summarised (%d bytes): %s", len(vd), vd)
	}
}

func TestGroupGapsFolds(t *testing.T) {
	r := &findings.Report{Namespaces: []findings.NamespaceReport{{Name: "team-a"}, {Name: "team-b"}}}
	r.Coverage = append(r.Coverage,
		findings.Gap{Kind: findings.GapControllerManagerLog, Missing: "no kube-controller-manager log", Collect: "kubectl -n kube-system logs -l component=kube-controller-manager --tail=-1   # or the node's /var/log/pods/kube-system_kube-controller-manager-*"},
		findings.Gap{Kind: findings.GapAPIServerLog, Missing: "no kube-apiserver log", Collect: "kubectl -n kube-system logs -l component=kube-apiserver --tail=-1"})
	for i := 0; i < 25; i++ {
		pod := fmt.Sprintf("metrics-server-%06d", i)
		state := fmt.Sprintf("phase Running, not Ready, node node-01, %d restarts", 40+i)
		r.Coverage = append(r.Coverage, findings.Gap{Kind: findings.GapBackendPodLogs, Object: "kube-system/" + pod, Detail: state,
			Missing: fmt.Sprintf("logs of pod kube-system/%s, a backend of an APIService or webhook, which is not running normally (%s)", pod, state),
			Collect: "kubectl -n kube-system logs " + pod + " --all-containers --previous; kubectl -n kube-system describe pod " + pod})
	}
	r.Coverage = append(r.Coverage,
		findings.Gap{Kind: findings.GapNamespaceObjects, Object: "team-a", Missing: "no object of the stuck namespace team-a was dumped", Collect: "kubectl get all -n team-a -o json"},
		findings.Gap{Kind: findings.GapNamespaceObjects, Object: "team-b", Missing: "no object of the stuck namespace team-b was dumped", Collect: "kubectl get all -n team-b -o json"})
	gs := groupGaps(r)
	if len(gs) != 4 {
		for _, g := range gs {
			t.Logf("%s", g.Sentence())
		}
		t.Fatalf("%d groups, want 4 (two logs, the pods, the namespaces)", len(gs))
	}
	pods := gs[2]
	if len(pods.More) != 24 || len(pods.Collect) != 25 {
		t.Errorf("pod gaps: %d more, %d commands; want 24 and 25", len(pods.More), len(pods.Collect))
	}
	s := pods.Sentence()
	if !strings.Contains(s, "kube-system/metrics-server-000001 (phase Running, not Ready, node node-01, 41 restarts)") || !strings.Contains(s, "and 14 more") || strings.Contains(s, "metrics-server-000024") {
		t.Errorf("pod gaps sentence: %s", s)
	}
	if ns := gs[3]; len(ns.More) != 1 || ns.More[0] != "team-b" {
		t.Errorf("namespace gaps: more %q, want team-b", ns.More)
	}
}

// TestGapsReadFieldsNotSentences: grouping gaps reads their kind and object, never
// their sentences. Rewording every sentence (and making them all alike) changes no
// group; two gaps of different kinds whose sentences differ only in a name are not
// folded; gaps about the bundle as a whole (no object) never are.
func TestGapsReadFieldsNotSentences(t *testing.T) {
	gap := func(kind, object, missing string) findings.Gap {
		return findings.Gap{Kind: kind, Object: object, Missing: missing, Collect: "kubectl get " + kind + " " + object}
	}
	r := &findings.Report{Namespaces: []findings.NamespaceReport{{Name: "team-a"}, {Name: "team-b"}}, Coverage: []findings.Gap{
		gap(findings.GapNamespaceObjects, "team-a", "no object of the stuck namespace team-a was dumped"),
		gap(findings.GapNamespace, "team-b", "no object of the stuck namespace team-b was dumped"), // another kind, same words
		gap(findings.GapBackendPodLogs, "ns/pod-1", "logs of pod ns/pod-1"),
		gap(findings.GapBackendPodLogs, "ns/pod-2", "logs of pod ns/pod-2"),
		gap(findings.GapCollectorFailed, "", "the bundle collector could not collect pods (a.json:1: x)"),
		gap(findings.GapCollectorFailed, "", "the bundle collector could not collect pods (a.json:2: x)"),
	}}
	shape := func(gs []gapGroup) string {
		var b strings.Builder
		for _, g := range gs {
			fmt.Fprintf(&b, "[%d more %q, %q] ", len(g.More), g.More, g.Collect)
		}
		return b.String()
	}
	want := shape(groupGaps(r))
	if n := len(groupGaps(r)); n != 5 {
		t.Fatalf("%d groups, want 5 (the two kinds of namespace gap apart, the pods folded, the collector's apart): %s", n, want)
	}
	reworded := *r
	reworded.Coverage = slices.Clone(r.Coverage)
	for i := range reworded.Coverage {
		reworded.Coverage[i].Missing = "something is missing"
	}
	if got := shape(groupGaps(&reworded)); got != want {
		t.Errorf("rewording the sentences changes the groups:\n got  %s\n want %s", got, want)
	}
}

// TestOwnEventsReadTheField: which timeline events are the namespace's own is the
// analyzer's field (TimelineEvent.Own), never whether the text names the namespace.
func TestOwnEventsReadTheField(t *testing.T) {
	ns := &findings.NamespaceReport{Name: "team-a", Timeline: []findings.TimelineEvent{
		{Component: "kube-controller-manager", Text: "namespace team-a: deletion failed"}, // names it, not own
		{Component: "kube-controller-manager", Text: "something happened", Own: true},     // own, names nothing
	}}
	got := ownEvents(ns)
	if len(got) != 1 || got[0].Text != "something happened" {
		t.Errorf("own events %+v, want only the one marked own", got)
	}
}

// TestKubeVersionReadsTheField: whether the version shown is the kubelet's is the
// analyzer's field, never the wording of where it came from.
func TestKubeVersionReadsTheField(t *testing.T) {
	const kubelet = "(the nodes' kubelet version)"
	if s := kubeVersion(findings.BundleInfo{KubernetesVersion: "v1.30.1", KubernetesVersionSource: "kubelet version of node a (nodes.json:3)"}); strings.Contains(s, kubelet) {
		t.Errorf("a source sentence without the field: %q", s)
	}
	if s := kubeVersion(findings.BundleInfo{KubernetesVersion: "v1.30.1", KubernetesVersionSource: "nodes.json:3", KubernetesVersionKubelet: true}); !strings.Contains(s, kubelet) {
		t.Errorf("the field without the sentence: %q", s)
	}
}
