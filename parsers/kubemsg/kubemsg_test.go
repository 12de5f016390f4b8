package kubemsg

import (
	"reflect"
	"strings"
	"testing"
)

// Lines below are copied from the fixtures (real Kubernetes output) unless noted.
func TestParseDiscoveryFailure(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []GroupVersionError
	}{
		{"1.34 condition, aggregated discovery",
			"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1",
			[]GroupVersionError{{"metrics.k8s.io/v1beta1", "stale GroupVersion discovery: metrics.k8s.io/v1beta1"}}},
		{"1.26 KCM printf line",
			"deletion of namespace stars failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request",
			[]GroupVersionError{{"projectcalico.org/v3", "the server is currently unable to handle the request"}}},
		{"two group/versions, kubevirt describe",
			"Discovery failed for some groups, 2 failing: unable to retrieve the complete list of server APIs: subresources.kubevirt.io/v1: stale GroupVersion discovery: subresources.kubevirt.io/v1, subresources.kubevirt.io/v1alpha3: stale GroupVersion discovery: subresources.kubevirt.io/v1alpha3",
			[]GroupVersionError{{"subresources.kubevirt.io/v1", "stale GroupVersion discovery: subresources.kubevirt.io/v1"}, {"subresources.kubevirt.io/v1alpha3", "stale GroupVersion discovery: subresources.kubevirt.io/v1alpha3"}}},
		{"GC map, 1.14-1.27",
			"failed to discover some groups: map[projectcalico.org/v3:the server is currently unable to handle the request]",
			[]GroupVersionError{{"projectcalico.org/v3", "the server is currently unable to handle the request"}}},
		{"GC map %q, 1.34",
			`failed to discover some groups map["metrics.k8s.io/v1beta1":"stale GroupVersion discovery: metrics.k8s.io/v1beta1"]`,
			[]GroupVersionError{{"metrics.k8s.io/v1beta1", "stale GroupVersion discovery: metrics.k8s.io/v1beta1"}}},
		{"error text with a URL and a comma (illustrative)",
			`unable to retrieve the complete list of server APIs: custom.metrics.k8s.io/v1beta1: Get "https://10.0.0.1:443/apis/custom.metrics.k8s.io/v1beta1": dial tcp 10.0.0.1:443: i/o timeout, metrics.k8s.io/v1beta1: the server is currently unable to handle the request`,
			[]GroupVersionError{{"custom.metrics.k8s.io/v1beta1", `Get "https://10.0.0.1:443/apis/custom.metrics.k8s.io/v1beta1": dial tcp 10.0.0.1:443: i/o timeout`}, {"metrics.k8s.io/v1beta1", "the server is currently unable to handle the request"}}},
		{"unrelated", "All resources successfully discovered", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseDiscoveryFailure(tt.text)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestConditionMessages(t *testing.T) {
	rc := ParseContentRemaining("Some resources are remaining: cephobjectstoreusers.ceph.rook.io has 1 resource instances, pods. has 2 resource instances")
	want := []ResourceCount{{"cephobjectstoreusers", "ceph.rook.io", 1}, {"pods", "", 2}}
	if !reflect.DeepEqual(rc, want) {
		t.Errorf("content remaining: got %#v", rc)
	}
	if rc[1].GroupResource() != "pods" || rc[0].GroupResource() != "cephobjectstoreusers.ceph.rook.io" {
		t.Errorf("GroupResource: %q %q", rc[0].GroupResource(), rc[1].GroupResource())
	}
	fc := ParseFinalizersRemaining("Some content in the namespace has finalizers remaining: kubevirt.io/virtOperatorFinalize in 1 resource instances, finalizer.keda.sh in 3 resource instances")
	if !reflect.DeepEqual(fc, []FinalizerCount{{"kubevirt.io/virtOperatorFinalize", 1}, {"finalizer.keda.sh", 3}}) {
		t.Errorf("finalizers remaining: got %#v", fc)
	}
	n, errText, ok := ParseContentFailure(`Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook "configmap-guard.example.io": failed to call webhook: Post "https://configmap-guard.webhook-system.svc:9443/validate?timeout=5s": dial tcp 127.0.0.1:9443: connect: connection refused`)
	if !ok || n != 1 || ClassifyError(errText).Code != "connection-refused" {
		t.Errorf("content failure: %d %q %v", n, errText, ok)
	}
	ws := ParseWebhookFailures(errText)
	if len(ws) != 1 || ws[0].Webhook != "configmap-guard.example.io" {
		t.Errorf("webhook failures: %#v", ws)
	}
}

func TestNamesAndLines(t *testing.T) {
	if got := APIServiceName("metrics.k8s.io/v1beta1"); got != "v1beta1.metrics.k8s.io" {
		t.Errorf("APIServiceName = %q", got)
	}
	if got := APIServiceName("v1"); got != "v1." {
		t.Errorf("APIServiceName(core) = %q", got)
	}
	if got := GroupVersionOfAPIService("v1alpha3.subresources.kubevirt.io"); got != "subresources.kubevirt.io/v1alpha3" {
		t.Errorf("GroupVersionOfAPIService = %q", got)
	}
	ns, errText, ok := ParseNamespaceDeletionFailed("deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1")
	if !ok || ns != "tobedeleted" || len(ParseDiscoveryFailure(errText)) != 1 {
		t.Errorf("ParseNamespaceDeletionFailed = %q %q %v", ns, errText, ok)
	}
	f, ok := ParseAPIServiceFailure(`v3.projectcalico.org failed with: failing or missing response from https://10.104.159.195:443/apis/projectcalico.org/v3: Get "https://10.104.159.195:443/apis/projectcalico.org/v3": context deadline exceeded`)
	if !ok || f.APIService != "v3.projectcalico.org" || f.Source != "availability" || ClassifyError(f.Detail).Code != "timeout" {
		t.Errorf("ParseAPIServiceFailure = %#v", f)
	}
	f, ok = ParseAPIServiceFailure(`loading OpenAPI spec for "v1beta1.metrics.k8s.io" failed with: failed to download v1beta1.metrics.k8s.io: failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable`)
	if !ok || f.APIService != "v1beta1.metrics.k8s.io" || f.Source != "openapi" {
		t.Errorf("ParseAPIServiceFailure(openapi) = %#v", f)
	}
	cf, ok := ParseConversionFailure(`conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://crontab-conversion.crd-system.svc:443/convert?timeout=30s": service "crontab-conversion" not found`)
	if !ok || cf.GroupVersion != "stable.example.com/v1" || cf.Kind != "CronTab" {
		t.Errorf("ParseConversionFailure = %#v", cf)
	}
}

func TestClassifyError(t *testing.T) {
	for text, want := range map[string]string{
		"dial tcp 10.244.1.7:4443: i/o timeout":                  "timeout",
		"dial tcp 10.244.1.7:4443: connect: no route to host":    "no-route",
		"dial tcp 127.0.0.1:443: connect: connection refused":    "connection-refused",
		"x509: certificate signed by unknown authority":          "x509",
		"the server is currently unable to handle the request":   "service-unavailable",
		"stale GroupVersion discovery: metrics.k8s.io/v1beta1":   "stale-discovery",
		`service/metrics-server in "kube-system" is not present`: "service-not-found",
		"the server could not find the requested resource":       "bad-status",
		"something else entirely":                                "unknown",
	} {
		if got := ClassifyError(text).Code; got != want {
			t.Errorf("ClassifyError(%q) = %s, want %s", text, got, want)
		}
	}
}

// Group/version strings are parsed with apimachinery's schema.ParseGroupVersion and
// built with schema.GroupVersion; the group/versions are those of the fixtures.
func TestGroupVersionNames(t *testing.T) {
	tests := []struct {
		gv, apiService, group string
	}{
		{"metrics.k8s.io/v1beta1", "v1beta1.metrics.k8s.io", "metrics.k8s.io"},
		{"projectcalico.org/v3", "v3.projectcalico.org", "projectcalico.org"},
		{"subresources.kubevirt.io/v1alpha3", "v1alpha3.subresources.kubevirt.io", "subresources.kubevirt.io"},
		{"external.metrics.k8s.io/v1beta1", "v1beta1.external.metrics.k8s.io", "external.metrics.k8s.io"},
		{"v1", "v1.", ""}, // core group: the local APIService "v1."
		// Not group/versions: the hand-written splitting took everything before the
		// last "/" as the group ("a/b") and built "v1.a/b".
		{"a/b/v1", "", ""},
		{"metrics.k8s.io/", "", ""},
		{"Metrics.k8s.io/v1beta1", "", ""},
	}
	for _, tt := range tests {
		if got := APIServiceName(tt.gv); got != tt.apiService {
			t.Errorf("APIServiceName(%q) = %q, want %q", tt.gv, got, tt.apiService)
		}
		if got := GroupOf(tt.gv); got != tt.group {
			t.Errorf("GroupOf(%q) = %q, want %q", tt.gv, got, tt.group)
		}
		if tt.apiService != "" {
			if got := GroupVersionOfAPIService(tt.apiService); got != tt.gv {
				t.Errorf("GroupVersionOfAPIService(%q) = %q, want %q", tt.apiService, got, tt.gv)
			}
		}
	}
	if got := GroupVersionOfAPIService("v1beta1"); got != "v1beta1" {
		t.Errorf("GroupVersionOfAPIService(no dot) = %q", got)
	}
}

func TestParseDiscoveryFailureRejectsMalformedGroup(t *testing.T) {
	// Illustrative: an error text holding " <not a DNS subdomain>/v1: " is not a second
	// entry; the hand-written parser split it off as group/version "a..b/v1".
	got := ParseDiscoveryFailure("unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: proxy error from a..b/v1: x")
	want := []GroupVersionError{{"metrics.k8s.io/v1beta1", "proxy error from a..b/v1: x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	// the core group keeps its "v1" form
	got = ParseDiscoveryFailure("unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x, v1: the server is currently unable to handle the request")
	want = []GroupVersionError{{"metrics.k8s.io/v1beta1", "x"}, {"v1", "the server is currently unable to handle the request"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("core: got %#v\nwant %#v", got, want)
	}
}

func TestParseNamespaceDeletionFailed(t *testing.T) {
	tests := []struct {
		name, text, ns, err string
		ok                  bool
	}{
		{"1.26 klog text (fixtures/realdata, calico stars demo)",
			"E0107 04:30:04.397550       1 namespace_controller.go:157] deletion of namespace stars failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request",
			"stars", "unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request", true},
		{"1.26 JSON msg with printf's newline (fixtures/real/v1.26.13)",
			"deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n",
			"tobedeleted", "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request", true},
		{"1.31 Unhandled Error err (fixtures/real/v1.31.4)",
			"deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1",
			"tobedeleted", "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1", true},
		{"dashed name", "deletion of namespace management-ui failed: x", "management-ui", "x", true},
		// kcp's controller prints its key, {logical-cluster name} (nsKey formatted with %v)
		{"kcp logical cluster", "E1123 10:00:00.000000       1 namespace_controller.go:170] deletion of namespace {root team-a} failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x",
			"team-a", "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x", true},
		{"kcp nested cluster path", "deletion of namespace {root:org:ws default} failed: x", "default", "x", true},
		{"braces without a cluster", "deletion of namespace {shop failed: x", "", "", false},
		// the braces come in pairs: a lost one is no form a controller prints
		{"kcp key without its closing brace (FuzzParseNamespaceMessages)", "deletion of namespace {root shop failed: x", "", "", false},
		{"closing brace alone", "deletion of namespace shop} failed: x", "", "", false},
		// Captures that cannot be namespace names (DNS-1123 labels) are rejected; the
		// hand-written parser returned them.
		{"terminal escape (cmd/nsanalyze hostile test)",
			"E0101 00:00:10.000000       1 namespace_controller.go:164] deletion of namespace evil\x1b[2Jns failed: \x1b]0;pwned\x07unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x",
			"", "", false},
		{"placeholder in a README (fixtures/realcluster)", "deletion of namespace … failed: … stale GroupVersion discovery: …", "", "", false},
		{"quoted", `deletion of namespace "shop" failed: x`, "", "", false},
		{"1.35 wording has no name in the text", `"Deletion of namespace failed" err="x" namespace="tobedeleted"`, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns, err, ok := ParseNamespaceDeletionFailed(tt.text)
			if ns != tt.ns || err != tt.err || ok != tt.ok {
				t.Errorf("got %q %q %v, want %q %q %v", ns, err, ok, tt.ns, tt.err, tt.ok)
			}
		})
	}
}

func TestIsNamespaceNameAndErrorResolving(t *testing.T) {
	for s, want := range map[string]bool{
		"tobedeleted": true, "team-b": true, "kube-system": true, "0": true,
		"": false, "a.b": false, "Shop": false, "-x": false, strings.Repeat("a", 64): false,
		// what the "Namespace has been deleted <ns>" fallback took from the 1.31 structured line
		`" logger="namespace-controller" namespace="shop"`: false,
	} {
		if got := IsNamespaceName(s); got != want {
			t.Errorf("IsNamespaceName(%q) = %v", s, got)
		}
	}
	ns, name, ok := ParseErrorResolving(`error resolving kube-system/metrics-server: no endpoints available for service "metrics-server"`)
	if !ok || ns != "kube-system" || name != "metrics-server" {
		t.Errorf("ParseErrorResolving = %q %q %v", ns, name, ok)
	}
	if ns, name, ok := ParseErrorResolving("error resolving metrics.k8s.io/v1beta1: x"); ok {
		t.Errorf("ParseErrorResolving(group/version) = %q %q", ns, name)
	}
}

// TestParseCalledService reads the Service of a failed webhook call from real error texts.
func TestParseCalledService(t *testing.T) {
	for _, tt := range []struct {
		in       string
		ns, name string
		notFound bool
		ok       bool
	}{
		// netbird (a NamespaceDeletionContentFailure message, fixtures/realworld)
		{`failed calling webhook "vnbroutingpeer-v1.netbird.io": failed to call webhook: Post "https://netbird-operator-kubernetes-operator-webhook-service.netbird.svc:443/validate-netbird-io-v1-nbroutingpeer?timeout=10s": service "netbird-operator-kubernetes-operator-webhook-service" not found`,
			"netbird", "netbird-operator-kubernetes-operator-webhook-service", true, true},
		// conversion webhook, connection refused (real v1.26 kube-apiserver)
		{`conversion webhook for example.com/v1, Kind=Widget failed: Post "https://widget-webhook.widget-system.svc:443/convert?timeout=30s": dial tcp 127.0.0.1:443: connect: connection refused`,
			"widget-system", "widget-webhook", false, true},
		// escaped quotes inside a structured value, .cluster.local
		{`err="failed calling webhook \"w.example.com\": Post \"https://hook.team-a.svc.cluster.local:8443/validate\": context deadline exceeded"`,
			"team-a", "hook", false, true},
		{`failed calling webhook "w.example.com": Post "https://10.0.0.1:443/validate": dial tcp 10.0.0.1:443: i/o timeout`, "", "", false, false},
		{`service "other" not found`, "", "", false, false},
	} {
		got, ok := ParseCalledService(tt.in)
		if ok != tt.ok || got.Namespace != tt.ns || got.Name != tt.name || got.NotFound != tt.notFound {
			t.Errorf("ParseCalledService(%q) = %+v, %v; want %s/%s notFound=%v ok=%v", tt.in, got, ok, tt.ns, tt.name, tt.notFound, tt.ok)
		}
	}
}
