package knownissues

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
)

// entryCases holds every shipped entry to a fingerprint it must fit (as nsanalyze
// writes it for the story of the issue) and a near miss it must not fit (the same
// cause with another identity or another root state). TestCatalogFixtures
// (cmd/nsanalyze) adds the real fixture bundles that tell those stories.
var entryCases = map[string]struct{ match, miss string }{
	"metrics-server-apiservice-unavailable": {"api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=pod-unschedulable",
		"api-discovery-failure/apiservice=v1beta1.custom.metrics.k8s.io/backend=pod-unschedulable"},
	"metrics-server-timeout-security-group": {"api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=timeout",
		"api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=connection-refused"},
	"apiservice-backend-service-gone": {"api-discovery-failure/apiservice=v1beta1.example.com/backend=service-not-found",
		"conversion-webhook/group=example.com/v1/backend=service-not-found"},
	"custom-metrics-adapter-unavailable": {"api-discovery-failure/apiservice=v1beta1.custom.metrics.k8s.io/backend=pod-crashloop",
		"api-discovery-failure/apiservice=v1beta2.custom.metrics.k8s.io/backend=pod-crashloop"},
	"cert-manager-legacy-admission-apiservice": {"api-discovery-failure/apiservice=v1beta1.admission.certmanager.k8s.io/backend=service-not-found",
		"api-discovery-failure/apiservice=v1beta1.webhook.certmanager.k8s.io/backend=service-not-found"},
	"cert-manager-legacy-admission-apiservice-self": {"api-discovery-failure/apiservice=v1beta1.admission.certmanager.k8s.io/backend=in-terminating-namespace",
		"api-discovery-failure/apiservice=v1beta1.admission.certmanager.k8s.io/backend=service-not-found"},
	"cert-manager-legacy-webhook-apiservice": {"api-discovery-failure/apiservice=v1beta1.webhook.certmanager.k8s.io/backend=service-unavailable",
		"api-discovery-failure/apiservice=v1beta1.webhook.cert-manager.io/backend=service-unavailable"},
	"cert-manager-webhook-apiservice": {"api-discovery-failure/apiservice=v1beta1.webhook.cert-manager.io/backend=service-unavailable",
		"admission-webhook/webhook=webhook.cert-manager.io/backend=service-not-found"},
	"cert-manager-challenge-conversion-webhook": {"conversion-webhook/group=acme.cert-manager.io/v1alpha2/backend=service-not-found",
		"conversion-webhook/group=cert-manager.io/v1/backend=service-not-found"},
	"conversion-webhook-service-gone": {"conversion-webhook/group=stable.example.com/v1/backend=service-not-found",
		"conversion-webhook/group=stable.example.com/v1/backend=x509"},
	"osm-meshconfig-conversion-webhook": {"conversion-webhook/group=config.openservicemesh.io/v1alpha1/backend=service-not-found",
		"conversion-webhook/group=policy.openservicemesh.io/v1alpha1/backend=service-not-found"},
	"kubevirt-operator-finalizer": {"finalizers-remaining/finalizer=kubevirt.io/virtOperatorFinalize/controller=absent",
		"finalizers-remaining/finalizer=cdi.kubevirt.io.example/x/controller=absent"},
	"kubevirt-virt-api-apiservice-self": {"api-discovery-failure/apiservice=v1alpha3.subresources.kubevirt.io/backend=in-terminating-namespace",
		"api-discovery-failure/apiservice=v1alpha3.subresources.kubevirt.io/backend=not-found"},
	"kubevirt-subresources-apiservice-stale": {"api-discovery-failure/apiservice=v1.subresources.kubevirt.io/backend=not-found",
		"api-discovery-failure/apiservice=v1.kubevirt.io/backend=not-found"},
	"rook-cephcluster-finalizer": {"finalizers-remaining/finalizer=cephcluster.ceph.rook.io/controller=absent",
		"finalizers-remaining/finalizer=cephblockpool.ceph.rook.io/controller=absent"},
	"rook-ceph-resources-finalizers": {"finalizers-remaining/finalizer=cephobjectstoreuser.ceph.rook.io/controller=unknown",
		"finalizers-remaining/finalizer=objectbucket.io/finalizer/controller=unknown"},
	"ocs-cephcluster-finalizer-failing": {"finalizers-remaining/finalizer=cephcluster.ceph.rook.io/controller=failing",
		"finalizers-remaining/finalizer=cephcluster.ceph.rook.io/controller=absent"},
	"rancher-namespace-auth-finalizer": {"namespace-finalizer/finalizer=controller.cattle.io/namespace-auth/controller=absent",
		"finalizers-remaining/finalizer=controller.cattle.io/namespace-auth/controller=absent"},
	"harvester-namespace-auth-after-rancher-disconnect": {"namespace-finalizer/finalizer=controller.cattle.io/namespace-auth/controller=absent",
		"namespace-finalizer/finalizer=controller.cattle.io/namespace-auth/controller=running"},
	"longhorn-admission-webhook-service-gone": {"admission-webhook/webhook=validator.longhorn.io/backend=service-not-found",
		"admission-webhook/webhook=mutator.longhorn.io/backend=service-not-found"},
	"longhorn-resources-finalizers": {"finalizers-remaining/finalizer=longhorn.io/controller=absent",
		"finalizers-remaining/finalizer=longhorn.io.example/controller=absent"},
	"calico-apiserver-timeout": {"api-discovery-failure/apiservice=v3.projectcalico.org/backend=timeout",
		"api-discovery-failure/apiservice=v3.projectcalico.org/backend=stale-discovery"},
	"calico-apiserver-uninstall": {"api-discovery-failure/apiservice=v3.projectcalico.org/backend=stale-discovery",
		"api-discovery-failure/group=crd.projectcalico.org/v1/backend=stale-discovery"},
	"keda-external-metrics-apiservice": {"api-discovery-failure/apiservice=v1beta1.external.metrics.k8s.io/backend=stale-discovery",
		"api-discovery-failure/apiservice=v1beta1.custom.metrics.k8s.io/backend=stale-discovery"},
	"keda-scaledobject-finalizer": {"finalizers-remaining/finalizer=finalizer.keda.sh/controller=unknown",
		"finalizers-remaining/finalizer=keda.sh/other/controller=unknown"},
	"olm-packageserver-unavailable": {"api-discovery-failure/apiservice=v1.packages.operators.coreos.com/backend=pod-unschedulable",
		"api-discovery-failure/apiservice=v1.operators.coreos.com/backend=pod-unschedulable"},
	"olm-uninstall-stale-packageserver": {"api-discovery-failure/apiservice=v1.packages.operators.coreos.com/backend=stale-discovery",
		"api-discovery-failure/apiservice=v1.packages.operators.coreos.com/backend=service-unavailable"},
	"ordered-deletion-conditions-say-removed": {"ordered-deletion/finalizer=example.com/hold/controller=absent",
		"finalizers-remaining/finalizer=example.com/hold/controller=absent"},
	"argocd-self-managed-namespace": {"finalizers-remaining/finalizer=resources-finalizer.argocd.argoproj.io/controller=absent",
		"finalizers-remaining/finalizer=post-delete-finalizer.argocd.argoproj.io/cleanup/controller=absent"},
	"crossplane-provider-removed-before-resources": {"finalizers-remaining/finalizer=finalizer.managedresource.crossplane.io/controller=absent",
		"finalizers-remaining/finalizer=in-use.crossplane.io/controller=absent"},
	"kyverno-webhook-blocks-uninstall": {"admission-webhook/webhook=validate.kyverno.svc-fail/backend=service-not-found",
		"admission-webhook/webhook=validation.gatekeeper.sh/backend=service-not-found"},
	"kyverno-generated-configmap-timeout": {"admission-webhook/webhook=validate.kyverno.svc-fail/backend=timeout",
		"admission-webhook/webhook=validate.kyverno.svc-fail/backend=connection-refused"},
	"agones-allocation-apiservice": {"api-discovery-failure/apiservice=v1.allocation.agones.dev/backend=service-unavailable",
		"api-discovery-failure/apiservice=v1.multicluster.agones.dev/backend=service-unavailable"},
	"carvel-data-packaging-apiservice": {"api-discovery-failure/apiservice=v1alpha1.data.packaging.carvel.dev/backend=service-unavailable",
		"api-discovery-failure/apiservice=v1alpha1.packaging.carvel.dev/backend=service-unavailable"},
	"kapp-controller-packageinstall-finalizer": {"finalizers-remaining/finalizer=finalizers.kapp-ctrl.k14s.io/delete/controller=unknown",
		"finalizers-remaining/finalizer=kapp.k14s.io/delete/controller=unknown"},
	"netbird-operator-webhook": {"admission-webhook/webhook=vnbroutingpeer-v1.netbird.io/backend=service-not-found",
		"conversion-webhook/group=netbird.io/v1/backend=service-not-found"},
	"pods-on-dead-node": {"content-remaining/kind=Pod/node=not-ready",
		"content-remaining/kind=PersistentVolumeClaim/node=not-ready"},
}

func causeTypes() []string {
	out := []string{findings.CauseUndetermined}
	for _, r := range rules.All {
		out = append(out, r.Name)
	}
	return out
}

// TestCatalog: the shipped catalog parses with every pattern naming a known cause
// type, has at least 30 entries with https links, and every entry fits its story's
// fingerprint and not its near miss.
func TestCatalog(t *testing.T) {
	entries, err := Parse(builtinYAML, BuiltinSource, causeTypes())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 30 {
		t.Errorf("%d entries, want at least 30", len(entries))
	}
	if _, err := Builtin(); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		tc, ok := entryCases[e.ID]
		if !ok {
			t.Errorf("entry %s has no case in entryCases (a fingerprint it fits and one it must not)", e.ID)
			continue
		}
		if !e.Fits(tc.match) {
			t.Errorf("%s: pattern %q does not fit %q", e.ID, e.Pattern, tc.match)
		}
		if e.Fits(tc.miss) {
			t.Errorf("%s: pattern %q fits the near miss %q", e.ID, e.Pattern, tc.miss)
		}
		if !strings.HasPrefix(e.URL, "https://") {
			t.Errorf("%s: url %q", e.ID, e.URL)
		}
		// a name the pattern spells out must be one a fingerprint writes as it is
		// (public vocabulary), or it could never fit
		for _, s := range e.segs {
			if !strings.ContainsAny(s.Value, "*~") && !findings.PublicName(s.Key, s.Value) {
				t.Errorf("%s: %s=%s is not public vocabulary: a fingerprint writes it hashed (%s)", e.ID, s.Key, s.Value, findings.HashedName(s.Value))
			}
		}
	}
	for id := range entryCases {
		found := false
		for _, e := range entries {
			found = found || e.ID == id
		}
		if !found {
			t.Errorf("entryCases has %s, which is not in the catalog", id)
		}
	}
}

// TestMatchOrder: the more specific entry comes first; nothing fits without the pattern.
func TestMatchOrder(t *testing.T) {
	c, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	got := c.Match("api-discovery-failure/apiservice=v1beta1.admission.certmanager.k8s.io/backend=in-terminating-namespace")
	if len(got) < 2 || got[0].ID != "cert-manager-legacy-admission-apiservice-self" || got[1].ID != "cert-manager-legacy-admission-apiservice" {
		var ids []string
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		t.Errorf("order %v", ids)
	}
	for _, fp := range []string{"undetermined", "api-discovery-failure/apiservice=~1a2b3c4d/backend=pod-unschedulable", "not a fingerprint/"} {
		if m := c.Match(fp); len(m) != 0 {
			t.Errorf("%q fits %s", fp, m[0].ID)
		}
	}
	r := &findings.Report{Problems: []findings.Problem{{Fingerprint: "content-remaining/kind=Pod/node=not-ready"}, {Fingerprint: "undetermined"}}}
	c.Annotate(r)
	if len(r.Problems[0].KnownIssues) != 1 || r.Problems[0].KnownIssues[0].ID != "pods-on-dead-node" || r.Problems[0].KnownIssues[0].Source != BuiltinSource || r.Problems[1].KnownIssues != nil {
		t.Errorf("Annotate: %+v", r.Problems)
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		p, s string
		ok   bool
	}{
		{"*", "", true}, {"a*c", "abbbc", true}, {"a*c", "abbb", false}, {"*ceph.rook.io*", "cephcluster.ceph.rook.io", true},
		{"*.kyverno.svc*", "validate.kyverno.svc-fail", true}, {"x", "xy", false}, {"*a*a*a*b", strings.Repeat("a", 200), false},
	} {
		if glob(tc.p, tc.s) != tc.ok {
			t.Errorf("glob(%q, %q) = %v", tc.p, tc.s, !tc.ok)
		}
	}
}

// TestParseErrors: a team's file is validated with every problem named by file,
// entry, line, id and field.
func TestParseErrors(t *testing.T) {
	good := "- id: team-one\n  title: t\n  pattern: api-discovery-failure/backend=x509\n  affects: all\n  url: https://wiki.example.com/kb/1\n  fix: f\n"
	if es, err := Parse([]byte(good), "team.yaml", causeTypes()); err != nil || len(es) != 1 || es[0].Line != 1 || es[0].Source != "team.yaml" {
		t.Fatalf("good file: %v %v", es, err)
	}
	for _, tc := range []struct{ doc, want string }{
		{"a: b", "team.yaml: not a list of known issues"},
		{"- id: x\n  colour: red\n", "field colour not found"},
		{good + "- id: Bad_ID\n  title: t\n  pattern: undetermined\n  affects: a\n  url: https://x.example.com\n  fix: f\n", `team.yaml: entry 2 (line 7, id "Bad_ID"): id: must be lower-case`},
		{good + good, `entry 2 (line 7, id "team-one"): id: already used by entry 1`},
		{"- id: x\n  title: t\n  pattern: api-discovery-failure/backnd=x509\n  affects: a\n  url: https://x.example.com\n  fix: f\n", `pattern: "api-discovery-failure/backnd=x509": unknown key "backnd"`},
		{"- id: x\n  title: t\n  pattern: api-discovery-failur/backend=x509\n  affects: a\n  url: https://x.example.com\n  fix: f\n", `unknown cause type "api-discovery-failur"`},
		{"- id: x\n  title: t\n  pattern: undetermined\n  affects: a\n  url: http://x.example.com\n  fix: f\n", `url: "http://x.example.com" is not an https:// link`},
		{"- id: x\n  title: t\n  pattern: undetermined\n  affects: a\n  url: https://x.example.com/a(b)\n  fix: f\n", "holds a space, quote, bracket"},
		{"- id: x\n  pattern: undetermined\n  affects: a\n  url: https://x.example.com\n", "title: missing"},
		{"- id: x\n  title: \"a\\x1b[2Jb\"\n  pattern: undetermined\n  affects: a\n  url: https://x.example.com\n  fix: f\n", "title: holds a control character"},
	} {
		_, err := Parse([]byte(tc.doc), "team.yaml", causeTypes())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n  error %v\n  want  %q", tc.doc, err, tc.want)
		}
	}
	// every problem at once
	_, err := Parse([]byte("- id: x\n  pattern: undetermined\n  affects: a\n  url: https://x.example.com\n- id: y\n  title: t\n  affects: a\n  url: ftp://x\n  fix: f\n"), "team.yaml", nil)
	if err == nil || !strings.Contains(err.Error(), "title: missing") || !strings.Contains(err.Error(), "fix: missing") || !strings.Contains(err.Error(), "pattern: missing") ||
		!strings.Contains(err.Error(), `entry 2 (line 5, id "y"): url`) {
		t.Errorf("not every problem reported: %v", err)
	}
	// a team's id may not reuse a shipped one
	c, _ := Builtin()
	es, _ := Parse([]byte(strings.Replace(good, "team-one", "pods-on-dead-node", 1)), "team.yaml", nil)
	if err := c.Add(es); err == nil || !strings.Contains(err.Error(), "already used by builtin") {
		t.Errorf("duplicate of a shipped id: %v", err)
	}
}

// TestMatchLinear: matching n fingerprints costs n times one (counted, not timed).
func TestMatchLinear(t *testing.T) {
	c, _ := Builtin()
	count := func(n int) int {
		calls := 0
		for i := 0; i < n; i++ {
			calls += len(c.Match(fmt.Sprintf("api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=s%d", i)))
		}
		return calls
	}
	if a, b := count(100), count(200); b != 2*a || a == 0 {
		t.Errorf("matches %d for 100, %d for 200", a, b)
	}
}

// TestMatchOnReadableFingerprint: a pattern that spells a customer's name out fits the
// problem with that name (whose shown fingerprint holds only its placeholder), and not
// a problem with another name; a placeholder pattern fits by the placeholder; a
// project pattern with a wildcard fits a name of that project that is not catalogued.
func TestMatchOnReadableFingerprint(t *testing.T) {
	entries, err := Parse([]byte(`- id: acme-hooks
  title: acme admission hooks time out after the node pool rotation
  pattern: admission-webhook/webhook=acme-hooks.acme-system.svc
  affects: every acme cluster
  url: https://wiki.example.com/kb/acme-hooks
  fix: restart the acme-hooks deployment
- id: acme-hashed
  title: the same, written with the placeholder
  pattern: admission-webhook/webhook=`+findings.HashedName("acme-hooks.acme-system.svc")+`
  affects: every acme cluster
  url: https://wiki.example.com/kb/acme-hooks
  fix: restart the acme-hooks deployment
- id: kubevirt-any
  title: any KubeVirt finalizer
  pattern: finalizers-remaining/finalizer=kubevirt.io/*
  affects: KubeVirt
  url: https://wiki.example.com/kb/kubevirt
  fix: reinstall virt-operator
`), "team.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &Catalog{ids: map[string]*Entry{}}
	if err := c.Add(entries); err != nil {
		t.Fatal(err)
	}
	problem := func(ct string, webhooks, finalizers []string) findings.Problem {
		cause := &findings.Cause{Type: ct, Webhooks: webhooks, Finalizers: finalizers}
		return findings.Problem{Fingerprint: findings.Fingerprint(cause), ReadableFingerprint: findings.ReadableFingerprint(cause)}
	}
	ids := func(p findings.Problem) string {
		var out []string
		for _, e := range c.MatchProblem(p.Fingerprint, p.ReadableFingerprint) {
			out = append(out, e.ID)
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		p    findings.Problem
		want string
	}{
		{problem("admission-webhook", []string{"acme-hooks.acme-system.svc"}, nil), "acme-hashed,acme-hooks"},
		{problem("admission-webhook", []string{"other-hooks.acme-system.svc"}, nil), ""},
		{problem("finalizers-remaining", nil, []string{"kubevirt.io/acme-vm-cleanup"}), "kubevirt-any"},
		{problem("finalizers-remaining", nil, []string{"acme.io/kubevirt.io/x"}), ""},
	} {
		if strings.Contains(tc.p.Fingerprint, "acme") {
			t.Errorf("shown fingerprint holds a customer name: %q", tc.p.Fingerprint)
		}
		if got := ids(tc.p); got != tc.want {
			t.Errorf("%s: fits %q, want %q", tc.p.ReadableFingerprint, got, tc.want)
		}
	}
	// without the readable form (a report read back from JSON), a spelled-out customer
	// name cannot fit its placeholder
	p := problem("admission-webhook", []string{"acme-hooks.acme-system.svc"}, nil)
	if got := c.Match(p.Fingerprint); len(got) != 1 || got[0].ID != "acme-hashed" {
		t.Errorf("fingerprint alone: %d entries fit, want acme-hashed only", len(got))
	}
}

// TestLoadFileBounded: a known-issues file is read with a cap before any parsing: an
// endless device and a file over the cap are refused at once, naming the cap.
func TestLoadFileBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		_, err := LoadFile("/dev/zero", nil)
		runtime.ReadMemStats(&m1)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxFileBytes)) {
			t.Errorf("/dev/zero: %v, want a refusal naming the cap", err)
		}
		if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 4*MaxFileBytes {
			t.Errorf("/dev/zero: %d bytes allocated, want at most a few times the cap", grew)
		}
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("# padding\n"), MaxFileBytes/10+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(big, nil); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("a file over the cap: %v, want a refusal", err)
	}
}

// TestErrorsAreTerminalSafe: an ESC or a right-to-left override in a known-issues
// file's name or fields never reaches an error message raw.
func TestErrorsAreTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "team\x1b[31m\u202e.yaml")
	doc := "- id: \"bad\x1b[2J\u202eid\"\n  title: \"t\x1b]8;;x\a\"\n  pattern: \"\u202eadmission-webhook\"\n  affects: a\n  url: https://x.example.com/\x1b\n  fix: f\n- {: [\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{doc, strings.SplitAfter(doc, "fix: f\n")[0]} {
		if err := os.WriteFile(path, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadFile(path, nil)
		if err == nil {
			t.Fatal("want an error")
		}
		if strings.ContainsAny(err.Error(), "\x1b\u202e\a") {
			t.Errorf("raw control or bidi character in %q", err.Error())
		}
	}
}
