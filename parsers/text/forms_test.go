package text

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestMoreForms: the text forms of issue 21 item 2, each on real-shaped lines.
func TestMoreForms(t *testing.T) {
	parse := func(s string) (*Result, *diag.Sink) {
		w := &diag.Sink{}
		return Parse(strings.NewReader(s), "ticket.txt", Options{}, w), w
	}
	t.Run("jsonpath conditions", func(t *testing.T) {
		r, w := parse(`$ kubectl get ns monitoring -o jsonpath='{range .status.conditions[*]}{.type}={.status} {.message}{"\n"}{end}'
NamespaceDeletionDiscoveryFailure=True Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request
NamespaceDeletionGroupVersionParsingFailure=False All legacy kube types successfully parsed
NamespaceDeletionContentFailure=False All content successfully deleted, may be waiting on finalization
NamespaceContentRemaining=False All content successfully removed
NamespaceFinalizersRemaining=False All content-preserving finalizers finished
`)
		o := find(r, "Namespace", "monitoring")
		if o == nil || o.Phase != "Terminating" || len(o.Conditions) != 5 || o.Source.Rendering != RenderingTemplate {
			t.Fatalf("%+v %v", o, w.List)
		}
		c := o.Condition("NamespaceDeletionDiscoveryFailure")
		if c == nil || c.Status != "True" || c.Line != 2 || !strings.Contains(c.Message, "metrics.k8s.io/v1beta1: the server") {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("jsonpath with reasons, no newlines", func(t *testing.T) {
		r, _ := parse(`$ kubectl get namespace team-a -o jsonpath="{range .status.conditions[*]}{.type}={.status} {.reason} {.message}{end}"
NamespaceDeletionDiscoveryFailure=False ResourcesDiscovered All resources successfully discoveredNamespaceDeletionContentFailure=True ContentDeletionFailed Failed to delete all resource types, 1 remaining: admission webhook "validation.gatekeeper.sh" denied the request: [no-delete] not allowed
`)
		o := find(r, "Namespace", "team-a")
		if o == nil || len(o.Conditions) != 2 {
			t.Fatalf("%+v", o)
		}
		if c := o.Condition("NamespaceDeletionContentFailure"); c == nil || c.Reason != "ContentDeletionFailed" || !strings.HasPrefix(c.Message, "Failed to delete") {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("go-template type: message", func(t *testing.T) {
		r, _ := parse(`$ kubectl get ns x -o go-template='{{range .status.conditions}}{{.type}}: {{.message}}{{"\n"}}{{end}}'
NamespaceDeletionDiscoveryFailure: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1
`)
		o := find(r, "Namespace", "x")
		if o == nil || o.Phase != "Terminating" || o.Conditions[0].Status != "Unknown" {
			t.Fatalf("%+v", o)
		}
	})
	t.Run("apiservice jsonpath", func(t *testing.T) {
		r, _ := parse(`$ kubectl get apiservice v1beta1.metrics.k8s.io -o jsonpath='{range .status.conditions[*]}{.type}={.status} {.reason} {.message}{"\n"}{end}'
Available=False FailedDiscoveryCheck failing or missing response from https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1: Get "https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1": context deadline exceeded
`)
		o := find(r, "APIService", "v1beta1.metrics.k8s.io")
		if o == nil || o.APIService == nil || o.APIService.Group != "metrics.k8s.io" {
			t.Fatalf("%+v", o)
		}
		if c := o.Condition("Available"); c == nil || c.Status != "False" || c.Reason != "FailedDiscoveryCheck" {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("jsonpath name phase list", func(t *testing.T) {
		r, _ := parse("$ kubectl get ns -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}'\ndefault\tActive\nkube-system\tActive\nold-team\tTerminating\n")
		if o := find(r, "Namespace", "old-team"); o == nil || o.Phase != "Terminating" {
			t.Fatalf("%+v", r.Objects)
		}
		if len(r.NamespaceLists) != 1 || r.NamespaceLists[0].Rows != 3 {
			t.Fatalf("%+v", r.NamespaceLists)
		}
	})
	t.Run("jsonpath phase", func(t *testing.T) {
		r, _ := parse("$ kubectl get ns x -o jsonpath='{.status.phase}'\nTerminating\n")
		if o := find(r, "Namespace", "x"); o == nil || o.Phase != "Terminating" {
			t.Fatalf("%+v", r.Objects)
		}
	})
	t.Run("custom-columns", func(t *testing.T) {
		r, _ := parse("$ kubectl get ns -o custom-columns=NAME:.metadata.name,STATUS:.status.phase\nNAME          STATUS\ndefault       Active\nkube-system   Active\nx             Terminating\n")
		if o := find(r, "Namespace", "x"); o == nil || o.Phase != "Terminating" || len(r.NamespaceLists) != 1 {
			t.Fatalf("%+v %+v", r.Objects, r.NamespaceLists)
		}
	})
	t.Run("describe ns trimmed by hand", func(t *testing.T) {
		r, _ := parse("$ kubectl describe ns payments\nName:   payments\nStatus: Terminating\nConditions:\n  Type       Status   LastTransitionTime   Reason   Message\n  ----    ------   ------------------   ------   -------\n\n  NamespaceDeletionDiscoveryFailure   True   Mon, 02 Sep 2024 10:11:12 +0200   DiscoveryFailed   Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: custom.metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n")
		o := find(r, "Namespace", "payments")
		if o == nil || o.Phase != "Terminating" {
			t.Fatalf("%+v", r.Objects)
		}
		if c := o.Condition("NamespaceDeletionDiscoveryFailure"); c == nil || c.Status != "True" || c.Reason != "DiscoveryFailed" || c.Line != 8 ||
			c.LastTransitionTime.Format("15:04") != "08:11" || !strings.Contains(c.Message, "custom.metrics.k8s.io/v1beta1") {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("stderr wrapped mid-word", func(t *testing.T) {
		r, _ := parse("$ kubectl get certificates -A\n" +
			"Error from server: conversion webhook for cert-manager.io/v1alpha2, Kind=Certifi\n" +
			"cate failed: Post \"https://cert-manager-webhook.cert-manager.svc:443/convert?tim\n" +
			"eout=30s\": service \"cert-manager-webhook\" not found\n")
		if r.Log == nil || len(r.Log.Entries) != 1 {
			t.Fatalf("%+v", r.Log)
		}
		e := r.Log.Entries[0]
		if e.Line != 2 || !strings.Contains(e.Message, "Kind=Certificate failed") || !strings.Contains(e.Message, `service "cert-manager-webhook" not found`) {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("yaml flattened with elisions", func(t *testing.T) {
		r, w := parse(`$ kubectl get ns kube-metrics -o yaml
apiVersion: v1
kind: Namespace
metadata:
...
deletionTimestamp: "2024-06-11T17:20:10Z"
name: kube-metrics
spec:
finalizers:
- kubernetes
status:
conditions:
- lastTransitionTime: "2024-06-11T17:20:17Z"
message: 'Discovery failed for some groups, 1 failing: unable to retrieve the
complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery:
metrics.k8s.io/v1beta1'
reason: DiscoveryFailed
status: "True"
type: NamespaceDeletionDiscoveryFailure
...
phase: Terminating
`)
		o := find(r, "Namespace", "kube-metrics")
		if o == nil || o.Phase != "Terminating" || o.DeletionTimestamp.IsZero() || len(o.SpecFinalizers) != 1 {
			t.Fatalf("%+v %v", o, w.List)
		}
		c := o.Condition("NamespaceDeletionDiscoveryFailure")
		if c == nil || c.Status != "True" || !strings.Contains(c.Message, "metrics.k8s.io/v1beta1: stale") {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("pods terminating", func(t *testing.T) {
		r, _ := parse("$ kubectl get all -n web\nNAME        READY   STATUS        RESTARTS   AGE\npod/web-0   1/1     Terminating   0          9d\npod/web-1   1/1     Running       0          9d\n\nNAME          TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE\nservice/web   ClusterIP   10.0.0.12     <none>        80/TCP    9d\n")
		if o := find(r, "Pod", "web-0"); o == nil || !o.DeletionShown || !o.Deleting() || o.Namespace != "web" {
			t.Fatalf("%+v", o)
		}
		if o := find(r, "Pod", "web-1"); o == nil || o.Deleting() {
			t.Fatalf("%+v", o)
		}
		r, _ = parse("$ kubectl describe pod web-0 -n web\nName:                      web-0\nNamespace:                 web\nPriority:                  0\nNode:                      worker-3/10.0.0.13\nStart Time:                Mon, 02 Sep 2024 10:11:12 +0200\nLabels:                    app=web\nStatus:                    Terminating (lasts 13h)\nTermination Grace Period:  30s\nIP:                        10.42.3.7\nContainers:\n  web:\n    Image:          nginx\n    State:          Running\n    Ready:          True\n    Restart Count:  0\n")
		if o := find(r, "Pod", "web-0"); o == nil || !o.DeletionShown || o.Pod == nil || o.Pod.NodeName != "worker-3" {
			t.Fatalf("%+v", r.Objects)
		}
	})
}
