package rules_test

import (
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
	"github.com/nsanalyze/nsanalyze/analyzer/rules/controllernotrunning"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/conversionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/namespacefinalizer"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

func analyze(t *testing.T, rel string) *findings.Report {
	t.Helper()
	rec, err := bundle.Load(filepath.Join("..", "..", "fixtures", filepath.FromSlash(rel)), bundle.Options{
		Keywords: rules.Phrases, KeepObject: rules.KeepObject, Exclude: []string{"raw", "expected.json", "README.md"}})
	if err != nil {
		t.Fatal(err)
	}
	return analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
}

// TestRuleChains checks, per cause, the links of the causal chain, the confidence, the
// causes ruled out and the first rung of the ladder on fixtures of that cause.
func TestRuleChains(t *testing.T) {
	tests := []struct {
		fixture    string
		namespace  string
		cause      string
		confidence string
		chain      []string // substrings that must each appear in some link (component or finding)
		ruledOut   []string // cause types that must be ruled out
		firstStep  string   // substring of the first remediation command
	}{
		{"handmade/metrics-server-unreachable-route", "team-a", apidiscovery.Name, "high",
			[]string{"namespace controller", "kube-apiserver (aggregator)", "timeout", "APIService v1beta1.metrics.k8s.io", "FailedDiscoveryCheck",
				"Service kube-system/metrics-server", "1 ready", "Ready, node worker-1", "route controller", "permissions"},
			[]string{finalizers.Name, admissionwebhook.Name, controllernotrunning.Name, namespacefinalizer.Name},
			"grep -E 'UnauthorizedOperation"},
		{"realdata/a-discovery-failure", "tobedeleted", apidiscovery.Name, "high",
			[]string{"stale GroupVersion discovery", "MissingEndpoints", "0 ready", "Pending", "not scheduled"},
			[]string{finalizers.Name, admissionwebhook.Name, controllernotrunning.Name},
			"kubectl -n kube-system describe pod metrics-server-"},
		{"realworld/kube-metrics-circular-metrics-server-in-deleted-ns", "kube-metrics", apidiscovery.Name, "medium",
			[]string{"deadlock", "itself being deleted"}, nil,
			"kubectl delete apiservice v1beta1.metrics.k8s.io"},
		{"realworld/calico-apiserver-projectcalico-v3-discovery", "stars", apidiscovery.Name, "medium",
			[]string{"v3.projectcalico.org", "timeout", "not in the bundle", "Calico"}, nil, ""},
		{"handmade/apiservice-port-name-mismatch", "old-project", apidiscovery.Name, "medium",
			[]string{"MissingEndpoints", "named \"https\" but the endpoints offer ports [metrics]"}, nil, ""},
		{"handmade/operator-deleted-before-cr", "etcd-operator", finalizers.Name, "high",
			[]string{"etcd.database.coreos.com/cleanup", "will never be removed"},
			[]string{apidiscovery.Name, admissionwebhook.Name}, "kubectl get deployments,statefulsets,daemonsets -A -o wide"},
		{"real/v1.35.8/f-controller-not-running", "reports", controllernotrunning.Name, "high",
			[]string{"Leases dumped with it", "conditions are stale", "backups.batch.example.org.json"}, []string{finalizers.Name, apidiscovery.Name}, ""},
		{"realdata/b-finalizer-remaining", "kubevirt", finalizers.Name, "high",
			[]string{"KubeVirt (virt-operator", "will never be removed"}, []string{apidiscovery.Name}, ""},
		{"realdata/c-webhook-content-failure", "appteam", admissionwebhook.Name, "high",
			[]string{"webhook configmap-guard.example.io", "failurePolicy Fail", "connection-refused", "Service webhook-system/configmap-guard"},
			[]string{apidiscovery.Name, finalizers.Name}, ""},
		{"handmade/conversion-webhook", "cron", conversionwebhook.Name, "medium",
			[]string{"CRD crontabs.stable.example.com", "conversion strategy Webhook", "Service crd-system/crontab-conversion", "does not exist"},
			[]string{admissionwebhook.Name}, ""},
		{"handmade/namespace-finalizer-rancher", "p-team", namespacefinalizer.Name, "high",
			[]string{"controller.cattle.io/namespace-auth", "Rancher"}, []string{finalizers.Name, apidiscovery.Name}, ""},
		{"handmade/content-remaining-dead-node", "web", contentremaining.Name, "high",
			[]string{"worker-3", "Ready=Unknown"}, []string{finalizers.Name}, ""},
		{"handmade/controller-not-running", "batch-jobs", controllernotrunning.Name, "high",
			[]string{"Lease was last renewed", "ends at"}, []string{apidiscovery.Name}, "kube-controller-manager"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			r := analyze(t, tt.fixture)
			var ns *findings.NamespaceReport
			for i := range r.Namespaces {
				if r.Namespaces[i].Name == tt.namespace {
					ns = &r.Namespaces[i]
				}
			}
			if ns == nil {
				t.Fatalf("namespace %s not reported", tt.namespace)
			}
			var cause *findings.Cause
			for i := range ns.Causes {
				if ns.Causes[i].Type == tt.cause {
					cause = &ns.Causes[i]
				}
			}
			if cause == nil {
				t.Fatalf("cause %s not found in %+v", tt.cause, ns.Causes)
			}
			if cause.Confidence != tt.confidence {
				t.Errorf("confidence %s, want %s", cause.Confidence, tt.confidence)
			}
			var all strings.Builder
			for _, l := range cause.Chain {
				all.WriteString(l.Component + ": " + l.Finding + "\n")
			}
			for _, want := range tt.chain {
				if !strings.Contains(all.String(), want) {
					t.Errorf("chain lacks %q:\n%s", want, all.String())
				}
			}
			ruled := map[string]bool{}
			for _, ro := range ns.RuledOut {
				ruled[ro.Type] = true
				if ro.Reason == "" {
					t.Errorf("ruled-out %s has no reason", ro.Type)
				}
			}
			for _, want := range tt.ruledOut {
				if !ruled[want] {
					t.Errorf("%s not ruled out (ruled out: %v)", want, ns.RuledOut)
				}
			}
			// the first rung that changes something (reads may come before it)
			first := ns.Remediation[0]
			for _, s := range ns.Remediation {
				if s.Changes != findings.ChangesNothing {
					first = s
					break
				}
			}
			if tt.firstStep != "" && !strings.Contains(ns.Remediation[0].Command, tt.firstStep) && !strings.Contains(first.Command, tt.firstStep) {
				t.Errorf("first step %q (first change %q), want it to contain %q", ns.Remediation[0].Command, first.Command, tt.firstStep)
			}
			last := ns.Remediation[len(ns.Remediation)-1]
			if len(ns.SpecFinalizers) == 0 && len(ns.MetadataFinalizers) > 0 {
				// held by its own metadata.finalizers: /finalize would change nothing
				if !strings.Contains(last.Command, `{"metadata":{"finalizers":null}}`) || strings.Contains(last.Command, "/finalize") {
					t.Errorf("last step %+v is not the metadata.finalizers patch", last)
				}
			} else if last.Risk != findings.RiskDestructive || !strings.Contains(last.Command, "/api/v1/namespaces/"+tt.namespace+"/finalize") {
				t.Errorf("last step %+v is not the /finalize last resort", last)
			}
		})
	}
}

// TestNoFindingsOnHealthyBundles: healthy and resolved bundles give no stuck namespace;
// broken APIServices and webhooks without a stuck namespace are latent risks.
func TestNoFindingsOnHealthyBundles(t *testing.T) {
	for _, f := range []string{"handmade/healthy-cluster", "handmade/resolved-namespace"} {
		r := analyze(t, f)
		if len(r.Namespaces) != 0 || len(r.Risks) != 0 {
			t.Errorf("%s: namespaces %v, risks %v", f, r.Namespaces, r.Risks)
		}
	}
	r := analyze(t, "handmade/latent-risk-apiservice")
	if len(r.Namespaces) != 0 {
		t.Fatalf("stuck namespaces reported: %v", r.Namespaces)
	}
	var objs []string
	for _, rk := range r.Risks {
		objs = append(objs, rk.Object)
		if len(rk.Evidence) == 0 {
			t.Errorf("risk %s has no evidence", rk.Object)
		}
	}
	if strings.Join(objs, ",") != "APIService/v1beta1.custom.metrics.k8s.io,ValidatingWebhookConfiguration/policy-guard" {
		t.Errorf("risks %v", objs)
	}
}

// TestEventRiskWithoutAPIServices: a real cluster-info dump (no Namespace or APIService
// objects) still shows the broken metrics API through the HPA's Warning events.
func TestEventRiskWithoutAPIServices(t *testing.T) {
	r := analyze(t, "realdata/a-discovery-failure-clusterinfo")
	if len(r.Namespaces) != 0 {
		t.Errorf("no Namespace object or controller log says a namespace is stuck, got %v", r.Namespaces)
	}
	if len(r.Risks) != 1 || r.Risks[0].Object != "group metrics.k8s.io" || len(r.Risks[0].Evidence) == 0 {
		t.Fatalf("risks %+v", r.Risks)
	}
	if !strings.Contains(r.Risks[0].Evidence[0].Text, "(get pods.metrics.k8s.io)") {
		t.Errorf("evidence %+v", r.Risks[0].Evidence[0])
	}
}

// TestCollectorErrors: a troubleshoot bundle's groups-resources-errors.json is discovery
// evidence, and its RBAC denials are coverage gaps.
func TestCollectorErrors(t *testing.T) {
	r := analyze(t, "handmade/troubleshoot-groups-resources-errors")
	if len(r.Namespaces) != 1 || r.Namespaces[0].Causes[0].Type != apidiscovery.Name ||
		r.Namespaces[0].Causes[0].Evidence[0].File != "cluster-resources/groups-resources-errors.json" {
		t.Fatalf("namespaces %+v", r.Namespaces)
	}
	found := false
	for _, g := range r.Coverage {
		if strings.Contains(g.Missing, "cluster-resources/pods-errors.json:1: failed to list pods: pods is forbidden") {
			found = true
		}
	}
	if !found {
		t.Errorf("coverage %+v lacks the RBAC denial", r.Coverage)
	}
	if !strings.Contains(strings.Join(r.Bundle.Layouts, ","), "troubleshoot") {
		t.Errorf("layouts %v", r.Bundle.Layouts)
	}
}

// TestNamespaceFailureWordings: the namespace controller's failure line names the
// namespace in every version's wording, so its lines are attributed to the namespace.
func TestNamespaceFailureWordings(t *testing.T) {
	for _, f := range []string{
		"real/v1.26.13/c-webhook-content-failure", // deletion of namespace appteam failed: ... (printf)
		"real/v1.29.5/c-webhook-content-failure",  // the same, line 159
		"realdata/c-webhook-content-failure",      // 1.34: "Unhandled Error" err="deletion of namespace appteam failed: ..."
		"real/v1.35.8/c-webhook-content-failure",  // 1.35: "Deletion of namespace failed" err=... namespace="appteam"
		"real/v1.35.8/c-webhook-content-failure-json",
	} {
		r := analyze(t, f)
		if len(r.Namespaces) != 1 {
			t.Fatalf("%s: %d namespaces", f, len(r.Namespaces))
		}
		c := r.Namespaces[0].Causes[0]
		kcm := false
		for _, e := range c.Chain[0].Evidence { // the namespace controller's own link
			if strings.Contains(e.File, "kube-controller-manager") {
				kcm = true
			}
		}
		if !kcm {
			t.Errorf("%s: no kube-controller-manager line attributed to the namespace: %+v", f, c.Chain[0])
		}
	}
}

// TestUndetermined: with nothing but a Terminating Namespace, nsanalyze does not guess:
// it says what it checked (every rule, with its reason) and what to collect.
func TestUndetermined(t *testing.T) {
	r := analyze(t, "handmade/undetermined-bare-namespace")
	if len(r.Namespaces) != 1 {
		t.Fatalf("namespaces %v", r.Namespaces)
	}
	ns := r.Namespaces[0]
	if len(ns.Causes) != 1 || ns.Causes[0].Type != findings.CauseUndetermined || ns.Causes[0].Confidence != "low" {
		t.Fatalf("causes %+v", ns.Causes)
	}
	c := ns.Causes[0]
	for _, rule := range rules.All {
		if !strings.Contains(c.Summary, rule.Name+": ") {
			t.Errorf("summary does not say what %s checked: %s", rule.Name, c.Summary)
		}
	}
	collect := strings.Join(c.Notes, "\n")
	for _, want := range []string{"kubectl get namespace mystery -o json", "kubectl get apiservices -o json", "component=kube-controller-manager"} {
		if !strings.Contains(collect, want) {
			t.Errorf("notes lack %q: %s", want, collect)
		}
	}
	if last := ns.Remediation[len(ns.Remediation)-1]; last.Risk != findings.RiskDestructive {
		t.Errorf("ladder %+v", ns.Remediation)
	}
}

// TestCoverageNamesPodsNotRunning: the logs a support engineer needs but cannot have
// (the backend pod never ran) are named with the command to collect them.
func TestCoverageNamesPodsNotRunning(t *testing.T) {
	r := analyze(t, "realdata/a-discovery-failure")
	for _, g := range r.Coverage {
		if strings.Contains(g.Missing, "logs of pod kube-system/metrics-server-785b9ccd8d-545g5") &&
			strings.Contains(g.Collect, "kubectl -n kube-system logs metrics-server-785b9ccd8d-545g5 --all-containers --previous") {
			return
		}
	}
	t.Errorf("coverage %+v", r.Coverage)
}

// TestDiscoveryLinesAloneAreALatentRisk: kubectl's stderr naming a failing group/version,
// in a bundle without APIService objects and without a stuck namespace, is a latent risk
// for that APIService (with the line as evidence), and only once; with the APIService
// dumped healthy, the object speaks and the line makes no risk.
func TestDiscoveryLinesAloneAreALatentRisk(t *testing.T) {
	write := func(dir, name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stderr := "E0304 17:51:57.765739  204801 memcache.go:255] couldn't get resource list for wardle.example.com/v2alpha1: the server is currently unable to handle the request\n" +
		"E0304 17:51:57.773603  204801 memcache.go:106] couldn't get resource list for wardle.example.com/v2alpha1: the server is currently unable to handle the request\n"
	namespaces := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"},"status":{"phase":"Active"}},{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system"},"status":{"phase":"Active"}}]}`
	load := func(dir string) *findings.Report {
		rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject})
		if err != nil {
			t.Fatal(err)
		}
		return analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
	}
	dir := t.TempDir()
	write(dir, "kubectl-get-pods.stderr", stderr)
	write(dir, "namespaces.json", namespaces)
	r := load(dir)
	var risks []findings.Risk
	for _, rk := range r.Risks {
		if rk.Object == "APIService/v2alpha1.wardle.example.com" {
			risks = append(risks, rk)
		}
	}
	if len(risks) != 1 || len(risks[0].Evidence) == 0 || risks[0].Evidence[0].Line == 0 || len(risks[0].Fix) == 0 {
		t.Fatalf("risks %+v, want one for APIService v2alpha1.wardle.example.com with the stderr line and a fix", r.Risks)
	}
	if !strings.Contains(risks[0].Summary, "wardle.example.com/v2alpha1") {
		t.Errorf("summary %q", risks[0].Summary)
	}
	write(dir, "apiservices.json", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v2alpha1.wardle.example.com"},"spec":{"group":"wardle.example.com","version":"v2alpha1","service":{"namespace":"wardle","name":"api"}},"status":{"conditions":[{"type":"Available","status":"True","reason":"Passed"}]}}]}`)
	for _, rk := range load(dir).Risks {
		if strings.Contains(rk.Object, "wardle") {
			t.Errorf("with the APIService dumped Available, the old stderr line still makes a risk: %+v", rk)
		}
	}
}
