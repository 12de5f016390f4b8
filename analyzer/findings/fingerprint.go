package findings

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// A fingerprint names a problem's root so that the same fault reads the same in every
// bundle: across clusters, Kubernetes versions, log formats, capture times and
// --redact. It is made of the cause type, the cluster-wide things the cause names (its
// identity) and the root's role, kind and state (docs/fingerprint.md has the grammar):
//
//	api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=pod-unschedulable
//	finalizers-remaining/finalizer=kubevirt.io/virtOperatorFinalize/controller=absent
//	admission-webhook/webhook=~3f2a9c1d5b7e0a44/backend=connection-refused
//
// It holds no timestamp, count, pod hash, IP or namespace name. Public vocabulary stays
// as it is (APIService names and API groups of well-known projects, Kubernetes' and
// well-known projects' finalizers, built-in kinds); every other name (a customer's
// webhook, API group, finalizer or kind) becomes a hashed placeholder "~" + 16 hex
// digits (64 bits) of its SHA-256, the same for the same name everywhere, which --redact leaves
// as it is (the placeholder confirms a guessed name, it does not reveal one).
//
// Every segment comes from the structured fields of the cause (APIServices, Webhooks,
// Finalizers, GroupVersions, Objects) and from its chain: the root link's component
// gives the root's kind, and the links' codes (Link.Code, set where each finding is
// composed: linkcode.go), read from the root link up the faulty links, give its state.
// No sentence is read.

// Fingerprint keys, in the order they appear in a fingerprint.
const (
	FPAPIService = "apiservice"
	FPGroup      = "group"
	FPWebhook    = "webhook"
	FPFinalizer  = "finalizer"
	FPKind       = "kind"
	FPBackend    = "backend"
	FPController = "controller"
	FPNode       = "node"
)

// FingerprintKeys are the keys a fingerprint segment may have, in their order.
var FingerprintKeys = []string{FPAPIService, FPGroup, FPWebhook, FPFinalizer, FPKind, FPBackend, FPController, FPNode}

// FingerprintSegment is one key=value part of a fingerprint.
type FingerprintSegment struct {
	Key, Value string
}

// Fingerprint returns the fingerprint of a cause (see above).
func Fingerprint(c *Cause) string { return fingerprint(c, false) }

// ReadableFingerprint is the fingerprint with every name written as it is, hashed or
// not: what known issues are matched against (a pattern that spells a name out fits
// the name itself, never a placeholder that two names could share). It is not shown:
// it holds the customer's names.
func ReadableFingerprint(c *Cause) string { return fingerprint(c, true) }

func fingerprint(c *Cause, readable bool) string {
	var segs []FingerprintSegment
	add := func(key string, values []string) {
		seen := map[string]bool{}
		var vs []string
		for _, v := range values {
			if v == "" || IsRedactedValue(v) {
				continue
			}
			if !readable && !PublicName(key, v) {
				v = HashedName(v)
			}
			if !seen[v] {
				seen[v] = true
				vs = append(vs, v)
			}
		}
		sort.Strings(vs)
		for _, v := range vs {
			segs = append(segs, FingerprintSegment{key, v})
		}
	}
	add(FPAPIService, c.APIServices)
	if len(c.APIServices) == 0 {
		add(FPGroup, c.GroupVersions)
	}
	add(FPWebhook, c.Webhooks)
	var kinds []string
	for _, o := range c.Objects {
		if o.Namespace != "" && o.Kind != "" && (len(kinds) == 0 || kinds[len(kinds)-1] != o.Kind) {
			kinds = append(kinds, o.Kind) // add dedupes; a run of one kind is one entry
		}
	}
	add(FPFinalizer, c.Finalizers)
	if len(segs) == 0 {
		// nothing cluster-wide names the cause (content left behind): the kinds of what remains
		add(FPKind, kinds)
	}
	if role, value := rootState(c); role != "" {
		segs = append(segs, FingerprintSegment{role, value})
	}
	return FormatFingerprint(c.Type, segs)
}

// FormatFingerprint writes a cause type and its segments in the fingerprint grammar:
// cause-type *("/" key "=" value); characters outside [A-Za-z0-9._~:/-] are written %XX.
func FormatFingerprint(causeType string, segs []FingerprintSegment) string {
	var b strings.Builder
	b.WriteString(causeType)
	for _, s := range segs {
		b.WriteString("/" + s.Key + "=" + escapeFPValue(s.Value))
	}
	return b.String()
}

func escapeFPValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._~:/-", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// ParseFingerprint splits a fingerprint (or a fingerprint pattern) into its cause type
// and segments. A segment starts at a "/" followed by a known key and "="; a value may
// hold "/" (finalizer names do). It fails on an empty cause type, a first segment that
// is not key=value, or an unknown key.
func ParseFingerprint(s string) (causeType string, segs []FingerprintSegment, err error) {
	starts := []int{}
	for i := 0; i < len(s); i++ {
		if s[i] != '/' {
			continue
		}
		rest := s[i+1:]
		if eq := strings.IndexByte(rest, '='); eq > 0 && isFPKey(rest[:eq]) {
			starts = append(starts, i)
		}
	}
	end := len(s)
	if len(starts) > 0 {
		end = starts[0]
	}
	causeType = s[:end]
	if ct, rest, ok := strings.Cut(causeType, "/"); ok && ct != "" && !strings.Contains(ct, "=") {
		if key, _, ok := strings.Cut(rest, "="); ok {
			return "", nil, fmt.Errorf("%q: unknown key %q (keys: %s)", s, key, strings.Join(FingerprintKeys, ", "))
		}
	}
	if causeType == "" || strings.ContainsAny(causeType, "/=") {
		return "", nil, fmt.Errorf("%q does not start with a cause type followed by /key=value segments (keys: %s)", s, strings.Join(FingerprintKeys, ", "))
	}
	for i, st := range starts {
		e := len(s)
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		key, value, _ := strings.Cut(s[st+1:e], "=")
		if j := strings.IndexByte(value, '='); j >= 0 {
			bad := value[:j]
			if k := strings.LastIndexByte(bad, '/'); k >= 0 {
				bad = bad[k+1:]
			}
			return "", nil, fmt.Errorf("%q: unknown key %q (keys: %s)", s, bad, strings.Join(FingerprintKeys, ", "))
		}
		segs = append(segs, FingerprintSegment{key, value})
	}
	return causeType, segs, nil
}

func isFPKey(k string) bool {
	for _, x := range FingerprintKeys {
		if x == k {
			return true
		}
	}
	return false
}

// PublicName reports whether a value of an identity key is public vocabulary, written
// as it is in a fingerprint (otherwise it becomes its HashedName). A value is public
// only when the whole of it is catalogued (publicValues, Kubernetes' own finalizers and
// groups, the well-known aggregated API groups) or lies under a domain reserved for
// examples (example.com, .org, .net: RFC 2606), never because of a public suffix: a customer's
// "kubernetes.io/acme-billing-cleanup" finalizer or "acme-hooks.acme.svc" webhook is
// hashed.
func PublicName(key, v string) bool {
	switch key {
	case FPAPIService:
		return publicAPIService(v)
	case FPGroup:
		return publicGroupVersion(v)
	case FPWebhook:
		return publicValues[FPWebhook][v] || reservedExample(v)
	case FPFinalizer:
		return publicFinalizer(v)
	case FPKind:
		return builtinKinds[v]
	}
	return true // the root segments hold fixed words
}

// HashedName is the placeholder of a customer-specific name in a fingerprint: "~" and
// the first 16 hex digits (64 bits) of the SHA-256 of the name, so that two names
// sharing one is not practical to find (32 bits were: a collision in about a second).
func HashedName(name string) string {
	h := sha256.Sum256([]byte(name))
	return "~" + hex.EncodeToString(h[:8])
}

// publicGroup reports whether an API group is public vocabulary: a group without a dot
// (Kubernetes' legacy built-in groups; a CRD's group must hold one), one of
// kubemsg.WellKnownGroupOwner, a catalogued group (publicValues), or a group under a
// reserved example domain.
func publicGroup(g string) bool {
	if g == "" || !strings.Contains(g, ".") || kubemsg.WellKnownGroupOwner(g) != "" || publicValues[FPGroup][g] {
		return true
	}
	return reservedExample(g)
}

// reservedExample reports whether a DNS name is, or is under, a name reserved for
// documentation (example.com, example.org, example.net: RFC 2606): it names no one.
func reservedExample(n string) bool {
	n = strings.ToLower(n)
	if i := strings.IndexByte(n, '/'); i >= 0 {
		n = n[:i]
	}
	for _, d := range []string{"example.com", "example.org", "example.net"} {
		if n == d || strings.HasSuffix(n, "."+d) {
			return true
		}
	}
	return false
}

// publicAPIService: an APIService name is version.group.
func publicAPIService(name string) bool {
	_, g, ok := strings.Cut(name, ".")
	return ok && publicGroup(g)
}

func publicGroupVersion(gv string) bool {
	g, _, ok := strings.Cut(gv, "/")
	if !ok {
		return true // "v1"
	}
	return publicGroup(g)
}

// publicFinalizer: a finalizer of Kubernetes itself (the finalizer catalog's built-in
// entries, all exact names), a catalogued project finalizer, or one under a reserved
// example domain.
func publicFinalizer(f string) bool {
	if o, ok := LookupFinalizer(f); ok && o.BuiltIn {
		return true
	}
	return publicValues[FPFinalizer][f] || strings.Contains(f, ".") && reservedExample(f)
}

// publicValues are the names of well-known projects that a fingerprint writes as they
// are, each whole: the webhooks, API groups and finalizers that the known-issue catalog
// (analyzer/knownissues) spells out or that public projects install under fixed names.
// Anything else, even under a project's or Kubernetes' domain, is hashed.
var publicValues = map[string]map[string]bool{
	FPGroup: set(
		"acme.cert-manager.io", "cert-manager.io", "webhook.certmanager.k8s.io", "certmanager.k8s.io",
		"config.openservicemesh.io", "allocation.agones.dev", "data.packaging.carvel.dev",
		"kubevirt.io", "cdi.kubevirt.io", "ceph.rook.io", "longhorn.io", "keda.sh", "argoproj.io",
		"monitoring.coreos.com", "operators.coreos.com", "crd.projectcalico.org", "operator.tigera.io",
		"networking.istio.io", "security.istio.io", "install.istio.io", "serving.knative.dev", "eventing.knative.dev",
		"kafka.strimzi.io", "velero.io", "tekton.dev", "kyverno.io", "cilium.io", "metallb.io",
		"external-secrets.io", "elasticsearch.k8s.elastic.co", "cluster.x-k8s.io", "management.cattle.io",
	),
	FPWebhook: set(
		"validator.longhorn.io", "mutator.longhorn.io", "validation.gatekeeper.sh", "check-ignore-label.gatekeeper.sh",
		"validate.kyverno.svc", "validate.kyverno.svc-fail", "validate.kyverno.svc-ignore",
		"mutate.kyverno.svc", "mutate.kyverno.svc-fail", "mutate.kyverno.svc-ignore",
		"vnbroutingpeer-v1.netbird.io", "webhook.cert-manager.io", "rancher.cattle.io",
		"validation.webhook.serving.knative.dev", "webhook.serving.knative.dev", "sidecar-injector.istio.io",
		"namespace.sidecar-injector.istio.io", "rev.namespace.sidecar-injector.istio.io",
	),
	FPFinalizer: set(
		"kubevirt.io/virtOperatorFinalize", "controller.cattle.io/namespace-auth", "finalizer.keda.sh",
		"trident.netapp.io", "longhorn.io", "finalizers.kapp-ctrl.k14s.io/delete", "etcd.database.coreos.com/cleanup",
		"cephcluster.ceph.rook.io", "cephobjectstoreuser.ceph.rook.io", "cephblockpool.ceph.rook.io",
		"cephfilesystem.ceph.rook.io", "resources-finalizer.argocd.argoproj.io", "finalizer.managedresource.crossplane.io",
		"service.kubernetes.io/load-balancer-cleanup", "wrangler.cattle.io/namespace-auth",
		"finalizers.kubevirt.io", "foregroundDeletion.kubevirt.io", "velero.io/restic-repository",
		"finalizers.gateway.networking.k8s.io/gateway-exists-finalizer", "elbv2.k8s.aws/resources",
		"service.k8s.aws/resources", "ingress.k8s.aws/resources", "cluster.cluster.x-k8s.io",
		"strimzi.io/finalizer", "external-secrets.io/externalsecret-cleanup", "objectbucket.io/finalizer",
		"kyverno.io/policy-finalizer", "metallb.io/finalizer",
	),
}

func set(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// builtinKinds are Kubernetes' own kinds (public vocabulary in a fingerprint).
var builtinKinds = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`Pod Service Endpoints EndpointSlice ConfigMap Secret ServiceAccount PersistentVolumeClaim
		Deployment StatefulSet DaemonSet ReplicaSet Job CronJob Ingress NetworkPolicy Role RoleBinding Lease Event
		ResourceQuota LimitRange PodDisruptionBudget HorizontalPodAutoscaler ControllerRevision ReplicationController
		CSIStorageCapacity PodTemplate`) {
		builtinKinds[k] = true
	}
}

// rootKinds map the first words of a root link's component to the root's kind and the
// role it plays for the cause (what the state describes): "Pods kube-system app=x" is
// a backend pod, "finalizer x/y" stands for the controller that owns the finalizer.
var rootKinds = []struct {
	prefix, kind, role string
	// prefixed: the kind is written before the state (pod-unschedulable), because the
	// state alone would not say what it is about
	prefixed bool
}{
	{"Pods ", "pod", FPBackend, true},
	{"Pod ", "pod", FPBackend, true},
	{"Endpoints ", "endpoints", FPBackend, true},
	{"EndpointSlices ", "endpoints", FPBackend, true},
	{"Service ", "service", FPBackend, true},
	{"Node ", "node", FPNode, false},
	{"kubelet", "node", FPNode, false},
	{"CRD ", "crd", FPBackend, true},
	{"APIService ", "apiservice", FPBackend, false},
	{"webhook ", "webhook", FPBackend, false},
	{"deadlock", "deadlock", FPBackend, false},
	{"network path", "network", FPBackend, true},
	{"cloud permissions", "cloud", FPBackend, true},
	{"cloud-controller-manager", "cloud", FPBackend, true},
	{"kube-apiserver", "kube-apiserver", FPBackend, false},
	{"namespace controller", "namespace-controller", FPBackend, false},
	{"finalizer ", "finalizer", FPController, false},
	{"kube-controller-manager", "kube-controller-manager", FPController, true},
	{"other objects of ", "objects", FPBackend, true},
}

// codeSlugs renames error classes whose code holds digits, which a fingerprint never does
// (digits there are addresses, times or counts): "x509" is a TLS certificate problem.
var codeSlugs = map[string]string{"x509": "tls-certificate"}

// rootState returns the last segment of a fingerprint: the root's role and its kind
// and state. The subject is the root link, or (no link shows a fault) the deepest link
// of a known kind; its state is its code or, going up the chain, the code of a faulty
// link above it ("unknown" when none has one).
func rootState(c *Cause) (role, value string) {
	subject := -1
	for i := range c.Chain {
		if c.Chain[i].Root {
			subject = i
		}
	}
	if subject < 0 {
		for i := len(c.Chain) - 1; i >= 0 && subject < 0; i-- {
			if k := kindOf(c.Chain[i].Component); k >= 0 && rootKinds[k].kind != "namespace-controller" {
				subject = i
			}
		}
	}
	if subject < 0 {
		return "", ""
	}
	k := kindOf(c.Chain[subject].Component)
	if k < 0 {
		role, value = FPBackend, "other"
	} else {
		role = rootKinds[k].role
	}
	state := c.Chain[subject].Code
	for i := subject - 1; i >= 0 && state == ""; i-- {
		if c.Chain[i].Fault {
			state = c.Chain[i].Code
		}
	}
	if state == "" {
		state = "unknown"
	}
	if k >= 0 && rootKinds[k].prefixed && !strings.HasPrefix(state, rootKinds[k].kind+"-") {
		return role, rootKinds[k].kind + "-" + state
	}
	if value != "" {
		return role, value + "-" + state
	}
	return role, state
}

func kindOf(component string) int {
	for i, k := range rootKinds {
		if strings.HasPrefix(component, k.prefix) {
			return i
		}
	}
	return -1
}
