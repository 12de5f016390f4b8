package kubemsg

import (
	"strings"
	"testing"
)

// TestAdmissionDenials: the denials of every wording, as published or as Kubernetes and
// the engines format them, name the webhook, the engine and the policy.
func TestAdmissionDenials(t *testing.T) {
	cases := []struct {
		name, text                      string
		webhook, engine, policy, prefix string
	}{
		{"kubernetes, no explanation",
			`Error from server: error when creating "pods/nginx.yaml": admission webhook "image-signature.hightowerlabs.com" denied the request without explanation`,
			"image-signature.hightowerlabs.com", "", "", ""},
		{"gatekeeper v3.0-3.3 tag",
			`Error from server ([denied by ns-must-have-gk] you must provide labels: {"gatekeeper"}): error when creating "ns.yaml": admission webhook "validation.gatekeeper.sh" denied the request: [denied by ns-must-have-gk] you must provide labels: {"gatekeeper"}`,
			"validation.gatekeeper.sh", "gatekeeper", "ns-must-have-gk", "[denied by ns-must-have-gk]"},
		{"gatekeeper v3.4+ tag, KCM 1.31 line",
			`E0312 10:11:12.123456       1 namespace_controller.go:164] "Unhandled Error" err="deletion of namespace team-a failed: admission webhook \"validation.gatekeeper.sh\" denied the request: [no-delete-in-prod] deleting ConfigMaps in production namespaces is not allowed" logger="UnhandledError"`,
			"validation.gatekeeper.sh", "gatekeeper", "no-delete-in-prod", "[no-delete-in-prod] deleting"},
		{"gatekeeper message alone",
			`Error from server ([denied by psp-privileged-container] Privileged container is not allowed: nginx, securityContext: {"privileged": true}): error when creating "example.yaml"`,
			"", "gatekeeper", "psp-privileged-container", ""},
		{"kyverno 1.x, condition message",
			"Failed to delete all resource types, 1 remaining: admission webhook \"validate.kyverno.svc\" denied the request: \n\nresource ConfigMap/team-a/settings was blocked due to the following policies\n\nprotect-configmaps:\n  block-delete: 'deleting ConfigMaps is not allowed'",
			"validate.kyverno.svc", "kyverno", "protect-configmaps", ""},
		{"kyverno 1.6+, escaped in a klog value",
			`E0312 10:11:12.123456       1 namespace_controller.go:164] "Unhandled Error" err="deletion of namespace team-a failed: admission webhook \"validate.kyverno.svc-fail\" denied the request: \n\npolicy ConfigMap/team-a/settings for resource violation: \n\nprotect-configmaps:\n  block-delete: deleting ConfigMaps is not allowed\n" logger="UnhandledError"`,
			"validate.kyverno.svc-fail", "kyverno", "protect-configmaps", ""},
		{"kyverno, newlines lost in a paste",
			`Error from server: admission webhook "validate.kyverno.svc-fail" denied the request: policy Namespace//prod for resource violation: disallow-ns-delete: block: Deleting namespaces is not allowed`,
			"validate.kyverno.svc-fail", "kyverno", "disallow-ns-delete", ""},
		{"kubewarden cluster-wide policy",
			`admission webhook "clusterwide-no-delete-labelled.kubewarden.admission" denied the request: resource is protected by the label delete-protection`,
			"clusterwide-no-delete-labelled.kubewarden.admission", "kubewarden", "no-delete-labelled", "resource is protected"},
		{"kubewarden namespaced policy",
			`admission webhook "namespaced-team-a-protect.kubewarden.admission" denied the request: no`,
			"namespaced-team-a-protect.kubewarden.admission", "kubewarden", "team-a-protect", "no"},
		{"OPA kube-mgmt",
			`Error from server (Forbidden): admission webhook "validating-webhook.openpolicyagent.org" denied the request: deleting configmaps in namespace team-a is not permitted`,
			"validating-webhook.openpolicyagent.org", "opa", "", "deleting configmaps"},
		{"rancher (fixtures/realworld/negative-rancher-webhook-refuses-namespace-delete)",
			`Error from server (BadRequest): admission webhook "rancher.cattle.io.namespaces.delete-namespace" denied the request: deletion of namespace "fleet-local" is not allowed`,
			"rancher.cattle.io.namespaces.delete-namespace", "rancher", "", "deletion of namespace"},
		{"kube-apiserver rejected by webhook",
			`W0312 10:11:12.123456       1 dispatcher.go:217] rejected by webhook "validate.kyverno.svc-fail": &errors.StatusError{ErrStatus:v1.Status{Status:"Failure", Message:"admission webhook \"validate.kyverno.svc-fail\" denied the request: \n\npolicy ConfigMap/team-a/settings for resource violation: \n\nprotect-configmaps:\n  block-delete: no\n", Code:400}}`,
			"validate.kyverno.svc-fail", "kyverno", "protect-configmaps", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := ParseAdmissionDenials(c.text)
			if len(ds) != 1 {
				t.Fatalf("got %d denials %+v", len(ds), ds)
			}
			d := ds[0]
			if d.Webhook != c.webhook || d.Engine != c.engine || d.Policy != c.policy || !strings.HasPrefix(d.Message, c.prefix) {
				t.Errorf("got %+v, want webhook %q engine %q policy %q message prefix %q", d, c.webhook, c.engine, c.policy, c.prefix)
			}
		})
	}
	for _, s := range []string{
		`failed calling webhook "x.example.io": Post "https://x.svc:443/": dial tcp: connection refused`,
		`deletion of namespace foo failed: unable to retrieve the complete list of server APIs`,
		`[denied] by nothing`,
		`see [docs] for more`,
	} {
		if ds := ParseAdmissionDenials(s); len(ds) != 0 {
			t.Errorf("%q: got %+v", s, ds)
		}
	}
}

// TestRequestLog: the httplog renderings, and only the namespace controller's refused
// DELETEs of content count.
func TestRequestLog(t *testing.T) {
	cases := []struct {
		text          string
		ok, denied    bool
		ns, res, verb string
		code          int
	}{
		{`I0312 10:11:12.123456       1 httplog.go:132] "HTTP" verb="DELETE" URI="/api/v1/namespaces/team-a/configmaps" latency="4.313ms" userAgent="kube-controller-manager/v1.27.3 (linux/amd64) kubernetes/25b4e43/system:serviceaccount:kube-system:namespace-controller" audit-ID="0b7a" srcIP="10.0.0.5:53412" resp=403`,
			true, true, "team-a", "configmaps", "DELETE", 403},
		{`I0312 10:11:12.123456       1 httplog.go:132] "HTTP" verb="DELETE" URI="/apis/kyverno.io/v1/namespaces/team-a/policies?propagationPolicy=Background" latency="1ms" userAgent="kube-controller-manager/v1.29.0 (linux/amd64) kubernetes/3f7a50f/namespace-controller" audit-ID="x" srcIP="10.0.0.5:1" resp=422`,
			true, true, "team-a", "policies", "DELETE", 422},
		{`I0312 10:11:12.123456       1 httplog.go:90] DELETE /api/v1/namespaces/team-a/pods: (4.313ms) 403 [kube-controller-manager/v1.16.3 (linux/amd64) kubernetes/b3cbbae/system:serviceaccount:kube-system:namespace-controller 10.0.0.5:53412]`,
			true, true, "team-a", "pods", "DELETE", 403},
		{`{"ts":1710238272123.4,"caller":"httplog/httplog.go:132","msg":"HTTP","v":3,"verb":"DELETE","URI":"/api/v1/namespaces/team-a/secrets","latency":"2ms","userAgent":"kube-controller-manager/v1.27.3 (linux/amd64) kubernetes/25b4e43/system:serviceaccount:kube-system:namespace-controller","audit-ID":"y","srcIP":"10.0.0.5:2","resp":403}`,
			true, true, "team-a", "secrets", "DELETE", 403},
		// the namespace itself, by a user: not the controller's content delete
		{`I0312 10:11:12.123456       1 httplog.go:132] "HTTP" verb="DELETE" URI="/api/v1/namespaces/team-a" latency="4ms" userAgent="kubectl/v1.29.0 (linux/amd64) kubernetes/3f7a50f" audit-ID="z" srcIP="10.0.0.9:1" resp=403`,
			true, false, "", "", "DELETE", 403},
		// a list by the controller that succeeded
		{`I0312 10:11:12.123456       1 httplog.go:132] "HTTP" verb="LIST" URI="/api/v1/namespaces/team-a/pods" latency="4ms" userAgent="kube-controller-manager/v1.27.3 (linux/amd64) kubernetes/25b4e43/system:serviceaccount:kube-system:namespace-controller" audit-ID="z" srcIP="10.0.0.5:1" resp=200`,
			true, false, "team-a", "pods", "LIST", 200},
		{`"Started controller" controller="namespace-controller"`, false, false, "", "", "", 0},
	}
	for _, c := range cases {
		r, ok := ParseRequestLog(c.text)
		if ok != c.ok || r.NamespaceControllerDenied() != c.denied || r.Namespace != c.ns || r.Resource != c.res || r.Verb != c.verb || r.Code != c.code {
			t.Errorf("%q:\n got %+v ok=%v denied=%v", c.text, r, ok, r.NamespaceControllerDenied())
		}
	}
}
