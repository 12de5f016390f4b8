package kubemsg

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseGVR(t *testing.T) {
	tests := []struct {
		in   string
		want string // GroupVersionResource.String(), "" when not one
	}{
		{"/v1, Resource=pods", "/v1, Resource=pods"},
		{"apps/v1, Resource=deployments", "apps/v1, Resource=deployments"},
		{"example.com/v1, Resource=widgets", "example.com/v1, Resource=widgets"},
		{"stable.example.com/v2, Resource=e2e-test-crd-webhook-3948-crds", "stable.example.com/v2, Resource=e2e-test-crd-webhook-3948-crds"},
		{"a.b.c.d.example.com/v1alpha1, Resource=x1-y2", "a.b.c.d.example.com/v1alpha1, Resource=x1-y2"},
		{"example.com/stable, Resource=widgets", "example.com/stable, Resource=widgets"}, // CRD versions are any DNS-1035 label
		{"{ v1 pods}", "/v1, Resource=pods"},                                             // 1.8-1.12 struct rendering
		{"{apps v1 deployments}", "apps/v1, Resource=deployments"},
		{"{ceph.rook.io v1 cephobjectstoreusers}", "ceph.rook.io/v1, Resource=cephobjectstoreusers"},
		{"Example.com/v1, Resource=widgets", ""},
		{"example..com/v1, Resource=widgets", ""},
		{"example.com/V1, Resource=widgets", ""},
		{"example.com/v1, Resource=Widgets", ""},
		{"example.com/v1 Resource=widgets", ""},
	}
	for _, tt := range tests {
		g, ok := ParseGVR(tt.in)
		got := ""
		if ok {
			got = g.String()
		}
		if got != tt.want {
			t.Errorf("ParseGVR(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Every slot accepts what Kubernetes allows there. Lines are filled from the
// Kubernetes format strings with names the API server accepts (the conformance tests'
// CRDs among them: test/utils/crd names kinds "E2e-test-<base>-<suffix>-crd" in 1.16 and
// "e2e-test-..." later, plurals "e2e-test-...-crds").
func TestWidenedSlots(t *testing.T) {
	conv := []struct {
		text, gv, kind string
	}{
		{"conversion webhook for stable.example.com/v2, Kind=E2e-test-crd-webhook-3948-crd failed: Post \"https://e2e-test-crd-conversion-webhook.crd-webhook-3948.svc:9443/crdconvert?timeout=30s\": dial tcp 10.0.0.7:9443: connect: connection refused", "stable.example.com/v2", "E2e-test-crd-webhook-3948-crd"},
		{"conversion webhook for stable.example.com/v1, Kind=e2e-test-crd-webhook-3948-8rnzw-crd returned 2 objects, expected 1", "stable.example.com/v1", "e2e-test-crd-webhook-3948-8rnzw-crd"},
		{"conversion webhook for a.b.c.d.example.com/v1alpha1, Kind=Widget2 failed: x", "a.b.c.d.example.com/v1alpha1", "Widget2"},
		{"conversion webhook for example.com/stable, Kind=Widget failed: x", "example.com/stable", "Widget"},
		{`err="conversion webhook for example.com/v1, Kind=Widget failed: Post \"https://w.svc:443/convert\": x"`, "example.com/v1", "Widget"},
	}
	for _, tt := range conv {
		f, ok := ParseConversionFailure(tt.text)
		if !ok || f.GroupVersion != tt.gv || f.Kind != tt.kind {
			t.Errorf("ParseConversionFailure(%q) = %+v %v, want %s %s", tt.text, f, ok, tt.gv, tt.kind)
		}
	}
	rc := ParseContentRemaining("Some resources are remaining: e2e-test-crd-webhook-3948-crds.stable.example.com has 1 resource instances, pods. has 2 resource instances, x1.a.b.c.example.io has 3 resource instances")
	want := []ResourceCount{{"e2e-test-crd-webhook-3948-crds", "stable.example.com", 1}, {"pods", "", 2}, {"x1", "a.b.c.example.io", 3}}
	if !reflect.DeepEqual(rc, want) {
		t.Errorf("ParseContentRemaining = %#v", rc)
	}
	ws := ParseWebhookFailures(`Internal error occurred: failed calling webhook "validate.e2e-test-webhook-1234.k8s.io": failed to call webhook: Post "https://e2e-test-webhook.webhook-1234.svc:8443/always-deny?timeout=10s": x`)
	if len(ws) != 1 || ws[0].Webhook != "validate.e2e-test-webhook-1234.k8s.io" {
		t.Errorf("ParseWebhookFailures = %#v", ws)
	}
	// escaped quotes of a structured value, both webhooks of one text
	ws = ParseWebhookFailures(`err="[failed calling webhook \"a.example.io\": x, failed calling webhook \"b-2.example.io\"; no further details available]"`)
	if len(ws) != 2 || ws[0].Webhook != "a.example.io" || ws[1].Webhook != "b-2.example.io" {
		t.Errorf("ParseWebhookFailures(escaped) = %#v", ws)
	}
	fs := ParseDiscoveryFailure("unable to retrieve the complete list of server APIs: a.b.c.example.com/stable: the server is currently unable to handle the request, x-1.example.io/v1alpha1: stale GroupVersion discovery: x-1.example.io/v1alpha1")
	if joinGVs(fs) != "a.b.c.example.com/stable,x-1.example.io/v1alpha1" {
		t.Errorf("ParseDiscoveryFailure = %#v", fs)
	}
	// a word before ": " in an error text is no group/version unless it looks like one
	fs = ParseDiscoveryFailure("unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: proxy/error: dial tcp: lookup x/y: no such host")
	if len(fs) != 1 || fs[0].Err != "proxy/error: dial tcp: lookup x/y: no such host" {
		t.Errorf("ParseDiscoveryFailure(words) = %#v", fs)
	}
	m, ok := ParseMemcacheFailure("couldn't get resource list for e2e-test-crd-publish-openapi-2.example.com/v5: the server could not find the requested resource")
	if !ok || m.GroupVersion != "e2e-test-crd-publish-openapi-2.example.com/v5" {
		t.Errorf("ParseMemcacheFailure = %+v %v", m, ok)
	}
	ns, gvr, ok := ParseContentStillRemains(`deletion of namespace crd-webhook-3948 failed: unexpected items still remain in namespace: crd-webhook-3948 for gvr: stable.example.com/v2, Resource=e2e-test-crd-webhook-3948-crds`)
	if !ok || ns != "crd-webhook-3948" || gvr != (GroupVersionResource{Group: "stable.example.com", Version: "v2", Resource: "e2e-test-crd-webhook-3948-crds"}) {
		t.Errorf("ParseContentStillRemains = %q %+v %v", ns, gvr, ok)
	}
}

// Lines published in public issues (real output), beyond the catalogue's one per form.
func TestPublishedLines(t *testing.T) {
	// kubernetes/minikube#7162 (kube-controller-manager 1.17/1.18): several group/versions
	gc := "W0323 18:13:40.815012       1 garbagecollector.go:640] failed to discover some groups: map[core.gardener.cloud/v1alpha1:the server is currently unable to handle the request core.gardener.cloud/v1beta1:the server is currently unable to handle the request settings.gardener.cloud/v1alpha1:the server is currently unable to handle the request]"
	quota := "E0323 18:13:59.523148       1 resource_quota_controller.go:407] unable to retrieve the complete list of server APIs: core.gardener.cloud/v1alpha1: the server is currently unable to handle the request, core.gardener.cloud/v1beta1: the server is currently unable to handle the request, settings.gardener.cloud/v1alpha1: the server is currently unable to handle the request"
	for _, l := range []string{gc, quota} {
		fs := ParseDiscoveryFailure(l)
		if joinGVs(fs) != "core.gardener.cloud/v1alpha1,core.gardener.cloud/v1beta1,settings.gardener.cloud/v1alpha1" {
			t.Errorf("ParseDiscoveryFailure(%q) = %#v", l, fs)
		}
		for _, f := range fs {
			if f.Err != "the server is currently unable to handle the request" {
				t.Errorf("error %q", f.Err)
			}
		}
	}
	// kubernetes/client-go#1223 (kubectl 1.26, client-go memory/memcache.go:255 and :106)
	for _, l := range []string{
		"E0304 17:51:57.765739  204801 memcache.go:255] couldn't get resource list for wardle.example.com/v2alpha1: the server is currently unable to handle the request",
		"E0304 17:51:57.773603  204801 memcache.go:106] couldn't get resource list for wardle.example.com/v2alpha1: the server is currently unable to handle the request",
	} {
		m, ok := ParseMemcacheFailure(l)
		if !ok || m.GroupVersion != "wardle.example.com/v2alpha1" || m.Err != "the server is currently unable to handle the request" {
			t.Errorf("ParseMemcacheFailure(%q) = %+v %v", l, m, ok)
		}
	}
}

func TestNewParsersReject(t *testing.T) {
	if _, _, ok := ParseContentStillRemains("unexpected items still remain in namespace: Demo for gvr: /v1, Resource=pods"); ok {
		t.Error("namespace Demo accepted")
	}
	if _, _, ok := ParseContentStillRemains("unexpected items still remain in namespace: demo for gvr: pods"); ok {
		t.Error("bare resource accepted as a GVR")
	}
	if _, ok := ParseMemcacheFailure("couldn't get resource list for metrics.k8s.io/v1beta1: "); ok {
		t.Error("empty error accepted")
	}
	if _, _, ok := ParseOrderedDeletionFailure("failed to delete pods for namespace: a.b, err: x"); ok {
		t.Error("namespace a.b accepted")
	}
	if _, ok := ParseAPIServiceFailure(`E0101 00:00:00.000000       1 crd_finalizer.go:300] widgets.example.com failed with: could not confirm zero CustomResources remaining: timed out waiting for the condition`); ok {
		t.Error("the CRD finalizer's line taken for an APIService")
	}
	if ns, _, ok := ParseNamespaceDeletionFailure(`"Deletion of namespace failed" err="x" namespace="Bad_Name"`); ok {
		t.Errorf("namespace %q accepted", ns)
	}
	if _, ok := ParseNamespaceDeleted(`"Namespace has been deleted" logger="namespace-controller"`); ok {
		t.Error("no namespace, but ok")
	}
	if f, ok := ParseConversionFailure("conversion webhook for /, Kind= failed: x"); ok {
		t.Errorf("kind-less 1.27 inner text alone accepted: %+v", f)
	}
	if _, ok := ParseMetricsAPIFailure("unable to fetch metrics"); ok {
		t.Error("fragment accepted")
	}
}

func TestStructuredRenderings(t *testing.T) {
	// klog JSON with the 1.35 structured message
	ns, e, ok := ParseNamespaceDeletionFailure(`{"ts":1795996412345.1,"logger":"UnhandledError","caller":"namespace/namespace_controller.go:164","msg":"Deletion of namespace failed","namespace":"tobedeleted","err":"unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1"}`)
	if !ok || ns != "tobedeleted" || len(ParseDiscoveryFailure(e)) != 1 {
		t.Errorf("JSON 1.35: %q %q %v", ns, e, ok)
	}
	// the analyzer's Detail() of the 1.35 line has no namespace: not this parser's to guess
	if _, _, ok := ParseNamespaceDeletionFailure("Deletion of namespace failed: x"); ok {
		t.Error("Detail() without namespace accepted")
	}
	// printf JSON keeps the trailing newline inside msg; it is not part of the error
	_, e, _ = ParseNamespaceDeletionFailure(`{"msg":"deletion of namespace a failed: x\n"}`)
	if e != "x" {
		t.Errorf("JSON printf err = %q", e)
	}
	// quoted values decode; the keys after a value are not part of it
	fs := ParseDiscoveryFailure(`E1 x.go:1] "Unhandled Error" err="unable to retrieve the complete list of server APIs: v1: \"quoted\" text" logger="UnhandledError"`)
	if len(fs) != 1 || fs[0].Err != `"quoted" text` {
		t.Errorf("ParseDiscoveryFailure(quoted) = %#v", fs)
	}
	// the garbage collector's maps with several entries (1.10-1.27 %v, 1.32+ %q)
	for _, l := range []string{
		`failed to discover some groups: map[a.example.io/v1:err one b.example.io/v2beta1:err two]`,
		`"failed to discover some groups" groups="map[\"a.example.io/v1\":\"err one\" \"b.example.io/v2beta1\":\"err two\"]"`,
	} {
		want := []GroupVersionError{{"a.example.io/v1", "err one"}, {"b.example.io/v2beta1", "err two"}}
		if got := ParseDiscoveryFailure(l); !reflect.DeepEqual(got, want) {
			t.Errorf("ParseDiscoveryFailure(%q) = %#v", l, got)
		}
	}
	a, ok := ParseAPIServiceAvailabilityChange(`{"ts":1,"caller":"remote/remote_available_controller.go:408","msg":"changing APIService availability","v":2,"name":"v1beta1.metrics.k8s.io","oldStatus":"True","newStatus":"False","message":"service/metrics-server in \"kube-system\" is not present","reason":"ServiceNotFound"}`)
	if !ok || a.APIService != "v1beta1.metrics.k8s.io" || a.NewStatus != "False" || a.Reason != "ServiceNotFound" || ClassifyError(a.Message).Code != "service-not-found" {
		t.Errorf("ParseAPIServiceAvailabilityChange(JSON) = %+v %v", a, ok)
	}
	if v, ok := fieldValue(`a="x \"y\"" b=z`, "a"); !ok || v != `x "y"` {
		t.Errorf("fieldValue quoted = %q %v", v, ok)
	}
	if v, ok := fieldValue(`a="x" b=z c=1`, "b"); !ok || v != "z" {
		t.Errorf("fieldValue bare = %q %v", v, ok)
	}
	if got := quotedTail(`k="abc\"def" z`, len(`k="abc\"`)); got != "def" {
		t.Errorf("quotedTail = %q", got)
	}
	if got := quotedTail(`plain "word" tail`, len(`plain "word" `)); got != "tail" {
		t.Errorf("quotedTail(plain) = %q", got)
	}
}

// TestParseNamespaceTerminating: the API server's refusals that prove a namespace is
// being deleted, on the real lines (istio/istio#8503 kubectl apply stderr; the
// crossplane-contrib/provider-helm#309 condition message, folded by YAML into runs of
// spaces; v1.8.0's final period; the 409 of a second delete, also in its pre-1.0 wording),
// and look-alikes that are not.
func TestParseNamespaceTerminating(t *testing.T) {
	for _, c := range []struct{ line, ns string }{
		{`Error from server (Forbidden): error when creating "istio.yaml": configmaps "istio-galley-configuration" is forbidden: unable to create new content in namespace istio-system because it is being terminated`, "istio-system"},
		{`>     message: 'connect failed: failed to resolve provider config: cannot track provider config usage: cannot apply ProviderConfigUsage: cannot create object: providerconfigusages.helm.m.crossplane.io      "2f62106a-8d2f-60d-b883-1cca8bb9c2e1" is forbidden: unable to create new content      in namespace kuttl-test-apt-toucan because it is being terminated'`, "kuttl-test-apt-toucan"},
		{`Error from server (Forbidden): error when creating "x.yaml": pods "p" is forbidden: unable to create new content in namespace team-a because it is being terminated.`, "team-a"},
		{`E0312 10:11:12.123456       1 controller.go:42] "Reconciler error" err="secrets \"s\" is forbidden: unable to create new content in namespace team-b because it is being terminated"`, "team-b"},
		{`Error from server (Conflict): Operation cannot be fulfilled on namespaces "rook": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`, "rook"},
		// kubernetes/kubernetes#9197 (2015, before 1.0): the 409 of a second delete while spec.finalizers holds kubernetes
		{`Error from server: Namespace "thtest" cannot be updated: Termination is in progress, waiting for [kubernetes]`, "thtest"},
		{`Termination is in progress, waiting for [kubernetes]`, ""},                              // the inner error alone names no namespace
		{`namespace istio-system is being terminated`, ""},                                        // the 1.17+ Status cause alone: its namespace is said by the error it belongs to
		{`unable to create new content in namespace Bad_Name because it is being terminated`, ""}, // not a namespace name
		{`the pod is being terminated`, ""},
	} {
		ns, ok := ParseNamespaceTerminating(c.line)
		if ns != c.ns || ok != (c.ns != "") {
			t.Errorf("ParseNamespaceTerminating(%q) = %q, %v; want %q", c.line, ns, ok, c.ns)
		}
	}
}

// TestCutConditionMessages: a condition a paste cut (rook/rook#12218 `| tail -n40`
// ends in the message, before its status and type) is still known: its message
// names its type and status, and the count of its last item is read up to the cut.
func TestCutConditionMessages(t *testing.T) {
	rc := ParseContentRemaining("Some resources are remaining: cephblockpools.ceph.rook.io has 1 resource")
	if len(rc) != 1 || rc[0].GroupResource() != "cephblockpools.ceph.rook.io" || rc[0].Count != 1 {
		t.Errorf("cut item: %+v", rc)
	}
	rc = ParseContentRemaining("Some resources are remaining: a.example.io has 2 resource instances, b.example.io has 3")
	if len(rc) != 2 || rc[1].Count != 3 {
		t.Errorf("cut after the count: %+v", rc)
	}
	if rc := ParseContentRemaining("Some resources are remaining: a.example.io has 2 resources of mine, b.example.io has 3 resource instances"); len(rc) != 1 {
		t.Errorf("an item in other words is not one: %+v", rc)
	}
	for msg, want := range map[string]string{
		"Some resources are remaining: cephblockpools.ceph.rook.io has 1 resource":                         CondContentRemaining + "=True",
		"Some content in the namespace has finalizers remaining: longhorn.io in 11 resource instances":     CondFinalizersRemaining + "=True",
		"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs": CondDiscoveryFailure + "=True",
		"All content successfully removed":           CondContentRemaining + "=False",
		"All content-preserving finalizers finished": CondFinalizersRemaining + "=False",
		"something else":                             "=",
	} {
		ty, st, _ := NamespaceConditionOfMessage(msg)
		if got := ty + "=" + st; got != want {
			t.Errorf("NamespaceConditionOfMessage(%q) = %s, want %s", msg, got, want)
		}
	}
}

// TestConversionObjectDump: the object dump form (cert-manager/cert-manager#1514, as
// kubectl printed it) names the object's own apiVersion and kind, not those of an
// ownerReference inside it.
func TestConversionObjectDump(t *testing.T) {
	s := `Error from server: conversion webhook for &{map[apiVersion:cert-manager.io/v1alpha2 kind:Certificate metadata:map[creationTimestamp:2020-04-09T17:23:46Z generation:1 name:ingress-tls namespace:development ownerReferences:[map[apiVersion:extensions/v1beta1 blockOwnerDeletion:true controller:true kind:Ingress name:ingress uid:42957329-135a-44e4-8823-e104a94d9e74]] uid:897ca221-698a-4ea0-94b9-e092932ac467] spec:map[dnsNames:[<snip>] issuerRef:map[group:cert-manager.io kind:ClusterIssuer name:letsencrypt-production] secretName:ingress-tls]]} failed: Post https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s: service "cert-manager-webhook" not found`
	f, ok := ParseConversionFailure(s)
	if !ok || f.GroupVersion != "cert-manager.io/v1alpha2" || f.Kind != "Certificate" || !strings.HasPrefix(f.Detail, "failed: Post https://cert-manager-webhook") {
		t.Errorf("%+v %v", f, ok)
	}
	if svc, ok := ParseCalledService(f.Detail); !ok || svc.Namespace != "cert-manager" || svc.Name != "cert-manager-webhook" || !svc.NotFound {
		t.Errorf("called service %+v %v", svc, ok)
	}
}
