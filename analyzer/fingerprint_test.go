package analyzer

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// chainCause builds a cause whose last link is the root.
func chainCause(typ string, links ...findings.Link) findings.Cause {
	c := findings.Cause{Type: typ, Chain: links}
	for i := range c.Chain {
		c.Chain[i].Fault = c.Chain[i].Fault || i == len(c.Chain)-1
	}
	markRoots(&c)
	return c
}

// TestFingerprintStates reads the root's state from the links' codes (set where the
// rules and the backend walk compose their findings, here with findings quoted from
// fixture reports), never from the findings: the role, the kind prefix and the walk
// up the faulty links.
func TestFingerprintStates(t *testing.T) {
	kcm := findings.Link{Component: "namespace controller (kube-controller-manager)", Fault: true, Finding: "discovery of metrics.k8s.io/v1beta1 fails: stale GroupVersion discovery: metrics.k8s.io/v1beta1", Code: findings.ErrorCode("stale GroupVersion discovery: metrics.k8s.io/v1beta1")}
	for _, tc := range []struct {
		name string
		c    findings.Cause
		want string
	}{
		{"unscheduled pod", chainCause("api-discovery-failure", kcm, findings.Link{Component: "Pods kube-system k8s-app=metrics-server",
			Finding: "metrics-server-785b9ccd8d-545g5: phase Pending, not Ready, not scheduled to any node", Code: findings.CodeUnschedulable}), "backend=pod-unschedulable"},
		{"crash-looping pod", chainCause("api-discovery-failure", kcm, findings.Link{Component: "Pods monitoring app.kubernetes.io/name=prometheus-adapter",
			Finding: "prometheus-adapter-7d9c-abcde: phase Running, not Ready, node node-1, 14 restarts, waiting: CrashLoopBackOff", Code: findings.CodeCrashLoop}), "backend=pod-crashloop"},
		{"connection refused at the APIService", chainCause("api-discovery-failure", kcm, findings.Link{Component: "APIService v1beta1.metrics.k8s.io",
			Finding: `Available=False reason=FailedDiscoveryCheck: failing or missing response from https://10.96.0.12:443/apis/metrics.k8s.io/v1beta1: Get "https://10.96.0.12:443/apis/metrics.k8s.io/v1beta1": dial tcp 10.96.0.12:443: connect: connection refused (since 2026-11-30 00:03:38Z)`,
			Code:    findings.ErrorCode(`FailedDiscoveryCheck failing or missing response from https://10.96.0.12:443/apis/metrics.k8s.io/v1beta1: Get "https://10.96.0.12:443/apis/metrics.k8s.io/v1beta1": dial tcp 10.96.0.12:443: connect: connection refused`)}), "backend=connection-refused"},
		{"port names", chainCause("api-discovery-failure", kcm, findings.Link{Component: "Endpoints kube-system/metrics-server",
			Finding: `1 ready and 0 not-ready addresses; the Service port 443 is named "https" but the endpoints offer ports [metrics]: the port names do not match, so kube-apiserver finds no address for it`, Code: findings.CodePortMismatch}), "backend=endpoints-port-mismatch"},
		{"service gone", chainCause("conversion-webhook", findings.Link{Component: "Service widget-system/widget-webhook",
			Finding: "the Service does not exist: the bundle's dump of Services covers namespace widget-system and does not have it", Code: findings.CodeNotFound}), "backend=service-not-found"},
		{"deadlock", chainCause("api-discovery-failure", kcm, findings.Link{Component: "deadlock",
			Finding: `the APIService's backend Service lives in namespace "kube-metrics", which is itself being deleted`, Code: findings.CodeInTerminatingNamespace}), "backend=in-terminating-namespace"},
		{"cloud permissions", chainCause("api-discovery-failure", kcm, findings.Link{Component: "cloud permissions of the route controller",
			Finding: "the cloud refuses the route controller's calls: its IAM role or policy lacks the permissions it needs. 12 log lines, first 2026-03-12 09:01:00Z", Code: findings.CodePermissionDenied}), "backend=cloud-permission-denied"},
		{"finalizer owner absent", chainCause("finalizers-remaining", findings.Link{Component: "finalizer kubevirt.io/virtOperatorFinalize",
			Finding: `kubevirt.io/virtOperatorFinalize is removed by KubeVirt (virt-operator / virt-controller), and nothing in the bundle looks like it (no Deployment, StatefulSet, DaemonSet or Pod whose name or image matches "virt-operator")`, Code: findings.CodeAbsent}), "controller=absent"},
		{"finalizer owner failing", chainCause("finalizers-remaining", findings.Link{Component: "finalizer ceph.rook.io/disaster-protection",
			Finding: "ceph.rook.io/disaster-protection is removed by the Rook operator (rook-ceph-operator), which is present but not healthy: Deployment/rook-ceph/rook-ceph-operator (0/1 ready).", Code: findings.CodeFailing}), "controller=failing"},
		{"kube-controller-manager without leader", chainCause("controller-not-running", findings.Link{Component: "kube-controller-manager",
			Finding: "its leader Lease was last renewed at 2026-11-30 00:15:39Z, 50s earlier than other Leases dumped with it, although it must be renewed every few seconds: no kube-controller-manager holds the leadership", Code: findings.CodeNoLeader}), "controller=kube-controller-manager-no-leader"},
		{"dead node", chainCause("content-remaining", findings.Link{Component: "kubelet",
			Finding: "node worker-3 is Ready=Unknown (NodeStatusUnknown: Kubelet stopped posting node status.) since 2026-05-03 11:40:00Z", Code: findings.CodeNotReady}), "node=not-ready"},
		{"state from the links above the root", chainCause("admission-webhook",
			findings.Link{Component: "namespace controller (kube-controller-manager)", Fault: true, Finding: `deleting content fails: webhook "guard.example.io" rejects the call: failed to call webhook: Post "https://guard.guard-system.svc:9443/validate?timeout=5s": dial tcp 10.0.0.7:9443: connect: connection refused`,
				Code: findings.ErrorCode(`failed to call webhook: Post "https://guard.guard-system.svc:9443/validate?timeout=5s": dial tcp 10.0.0.7:9443: connect: connection refused`)},
			findings.Link{Component: "kube-apiserver (admission)", Fault: true, Finding: `16 lines: calling webhook "guard.example.io" fails (connection-refused: the address was reached but nothing is listening)`},
			findings.Link{Component: "webhook guard.example.io", Finding: "ValidatingWebhookConfiguration guard: failurePolicy Fail, rules [DELETE configmaps]"}), "backend=connection-refused"},
		{"nothing names a state", chainCause("api-discovery-failure", findings.Link{Component: "APIService v1beta1.metrics.k8s.io", Finding: "no Available condition recorded"}), "backend=unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fp := findings.Fingerprint(&tc.c)
			if !strings.HasSuffix(fp, "/"+tc.want) {
				t.Errorf("fingerprint %q, want it to end in /%s", fp, tc.want)
			}
		})
	}
	if fp := findings.Fingerprint(&findings.Cause{Type: findings.CauseUndetermined}); fp != findings.CauseUndetermined {
		t.Errorf("an undetermined cause: %q, want %q", fp, findings.CauseUndetermined)
	}
}

// TestFingerprintIgnoresWhatVaries: the same fault in another cluster (other pod hash,
// addresses, namespace, times and counts) reads the same; another fault does not.
func TestFingerprintIgnoresWhatVaries(t *testing.T) {
	mk := func(pod, ip, ns, when string, lines int) findings.Cause {
		c := chainCause("api-discovery-failure",
			findings.Link{Component: "namespace controller (kube-controller-manager)", Fault: true, Finding: "deletion of namespace " + ns + " failed at " + when},
			findings.Link{Component: "APIService v1beta1.metrics.k8s.io", Fault: true, Finding: "Available=False reason=FailedDiscoveryCheck: dial tcp " + ip + ":443: i/o timeout"},
			findings.Link{Component: "Pods kube-system k8s-app=metrics-server", Finding: pod + ": phase Pending, not Ready, not scheduled to any node (" + strings.Repeat("x", lines) + ")", Code: findings.CodeUnschedulable})
		c.APIServices = []string{"v1beta1.metrics.k8s.io"}
		c.GroupVersions = []string{"metrics.k8s.io/v1beta1"}
		c.Objects = []findings.ObjectRef{{Kind: "APIService", Name: "v1beta1.metrics.k8s.io"}}
		return c
	}
	a, b := mk("metrics-server-785b9ccd8d-545g5", "10.96.0.12", "tobedeleted", "2026-11-29 22:26:10Z", 3),
		mk("metrics-server-644686b84c-s57hm", "172.20.1.9", "team-a", "2024-01-02 03:04:05Z", 40)
	want := "api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=pod-unschedulable"
	if fa, fb := findings.Fingerprint(&a), findings.Fingerprint(&b); fa != want || fb != want {
		t.Errorf("got %q and %q, want both %q", fa, fb, want)
	}
	c := mk("metrics-server-785b9ccd8d-545g5", "10.96.0.12", "tobedeleted", "2026-11-29 22:26:10Z", 3)
	c.Chain[2].Finding = "metrics-server-785b9ccd8d-545g5: phase Running, not Ready, node node-1, 3 restarts, waiting: CrashLoopBackOff"
	c.Chain[2].Code = findings.CodeCrashLoop
	if fc := findings.Fingerprint(&c); fc == want {
		t.Errorf("a crash-looping backend reads like an unscheduled one: %q", fc)
	}
}

// TestFingerprintNames: public vocabulary stays, customer names become the same hashed
// placeholder wherever they occur; identity segments are sorted and unique.
func TestFingerprintNames(t *testing.T) {
	c := chainCause("finalizers-remaining", findings.Link{Component: "finalizer widgets.acme-corp.io/cleanup", Finding: "is removed by its controller, which the bundle cannot name", Code: findings.CodeAbsent})
	c.Finalizers = []string{"widgets.acme-corp.io/cleanup", "kubernetes.io/pvc-protection", "widgets.acme-corp.io/cleanup"}
	fp := findings.Fingerprint(&c)
	want := "finalizers-remaining/finalizer=kubernetes.io/pvc-protection/finalizer=" + findings.HashedName("widgets.acme-corp.io/cleanup") + "/controller=absent"
	if fp != want {
		t.Errorf("got  %q\nwant %q", fp, want)
	}
	if strings.Contains(fp, "acme") {
		t.Errorf("the customer's domain is in the fingerprint: %q", fp)
	}
	h := findings.HashedName("widgets.acme-corp.io/cleanup")
	if len(h) != 17 || h[0] != '~' || h != findings.HashedName("widgets.acme-corp.io/cleanup") || h == findings.HashedName("widgets.acme-corp.io/clean") {
		t.Errorf("HashedName: %q is not a stable ~ and 16 hex digits placeholder", h)
	}
	for _, tc := range []struct {
		key, name string
		public    bool
	}{
		{findings.FPAPIService, "v1beta1.metrics.k8s.io", true},
		{findings.FPAPIService, "v3.projectcalico.org", true},
		{findings.FPAPIService, "v1beta1.packages.operators.coreos.com", true},
		{findings.FPAPIService, "v1alpha1.billing.acme-corp.io", false},
		{findings.FPGroup, "external.metrics.k8s.io/v1beta1", true},
		{findings.FPGroup, "stable.acme-corp.io/v1", false},
		{findings.FPWebhook, "webhook.cert-manager.io", true},
		{findings.FPWebhook, "validator.longhorn.io", true},
		{findings.FPWebhook, "guard.acme-corp.io", false},
		{findings.FPFinalizer, "kubevirt.io/virtOperatorFinalize", true},
		{findings.FPFinalizer, "controller.cattle.io/namespace-auth", true},
		{findings.FPFinalizer, "acme-corp.io/hold", false},
		// public only when the whole value is catalogued, never by its suffix
		{findings.FPFinalizer, "kubernetes.io/acme-billing-cleanup", false},
		{findings.FPFinalizer, "kubevirt.io/acme-billing", false},
		{findings.FPFinalizer, "kubernetes.io/pvc-protection", true},
		{findings.FPFinalizer, "example.com/hold", true},
		{findings.FPWebhook, "acme-hooks.acme-system.svc", false},
		{findings.FPWebhook, "acme-hooks.acme-system.svc.cluster.local", false},
		{findings.FPWebhook, "ip-10-1-2-3.eu-west-1.compute.internal", false},
		{findings.FPWebhook, "billing-guard.longhorn.io", false},
		{findings.FPWebhook, "cm-guard.example.com", true},
		{findings.FPGroup, "billing.acme.k8s.io/v1", false},
		{findings.FPGroup, "acme-billing.projectcalico.org/v1", false},
		{findings.FPAPIService, "v1.acme-billing.svc", false},
	} {
		ok := findings.PublicName(tc.key, tc.name)
		if ok != tc.public {
			t.Errorf("%s %q: public %v, want %v", tc.key, tc.name, ok, tc.public)
		}
	}
}

func TestParseFingerprint(t *testing.T) {
	fp := "finalizers-remaining/finalizer=kubevirt.io/virtOperatorFinalize/finalizer=~1a2b3c4d/controller=absent"
	ct, segs, err := findings.ParseFingerprint(fp)
	if err != nil || ct != "finalizers-remaining" || len(segs) != 3 || segs[0] != (findings.FingerprintSegment{Key: findings.FPFinalizer, Value: "kubevirt.io/virtOperatorFinalize"}) ||
		segs[2] != (findings.FingerprintSegment{Key: findings.FPController, Value: "absent"}) {
		t.Fatalf("ParseFingerprint(%q) = %q, %v, %v", fp, ct, segs, err)
	}
	if back := findings.FormatFingerprint(ct, segs); back != fp {
		t.Errorf("round trip: %q, want %q", back, fp)
	}
	if got := findings.FormatFingerprint("x", []findings.FingerprintSegment{{Key: findings.FPKind, Value: "a b=c"}}); got != "x/kind=a%20b%3Dc" {
		t.Errorf("escaping: %q", got)
	}
	for _, bad := range []string{"", "/backend=x", "api-discovery-failure/backnd=x", "api-discovery-failure/backend=x/colour=red", "a=b"} {
		if _, _, err := findings.ParseFingerprint(bad); err == nil {
			t.Errorf("ParseFingerprint(%q) accepted", bad)
		}
	}
	if _, _, err := findings.ParseFingerprint("api-discovery-failure/backnd=x"); err == nil || !strings.Contains(err.Error(), `unknown key "backnd"`) {
		t.Errorf("the error does not name the unknown key: %v", err)
	}
}

// TestHashedNameCollisions: two names whose SHA-256 share their first 32 bits (found
// here by a birthday search, as anyone can) get different placeholders, so a team's
// known issue cannot fit another team's fault by a collision of the placeholder.
func TestHashedNameCollisions(t *testing.T) {
	seen := make(map[[4]byte]string, 1<<17)
	var a, b string
	for i := 0; i < 1<<20 && a == ""; i++ {
		n := fmt.Sprintf("hook-%d.acme.svc", i)
		h := sha256.Sum256([]byte(n))
		k := [4]byte(h[:4])
		if prev, ok := seen[k]; ok {
			a, b = prev, n
		}
		seen[k] = n
	}
	if a == "" {
		t.Fatal("no 32-bit collision in 2^20 names: the search is broken")
	}
	if findings.HashedName(a) == findings.HashedName(b) {
		t.Errorf("HashedName(%q) = HashedName(%q) = %s: placeholders collide", a, b, findings.HashedName(a))
	}
}

// TestReadableFingerprint: the readable form writes every name as it is; the shown
// form hashes exactly the names that are not public.
func TestReadableFingerprint(t *testing.T) {
	c := &findings.Cause{Type: "admission-webhook", Webhooks: []string{"acme-hooks.acme-system.svc", "validate.kyverno.svc-fail"}}
	if got, want := findings.ReadableFingerprint(c), "admission-webhook/webhook=acme-hooks.acme-system.svc/webhook=validate.kyverno.svc-fail"; got != want {
		t.Errorf("readable: got %q, want %q", got, want)
	}
	fp := findings.Fingerprint(c)
	if strings.Contains(fp, "acme") || !strings.Contains(fp, findings.HashedName("acme-hooks.acme-system.svc")) || !strings.Contains(fp, "validate.kyverno.svc-fail") {
		t.Errorf("shown: %q", fp)
	}
}
