package index

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// TestMessagesCompleteCondition: a condition whose message a structured reader kept in
// part (a describe row a client wrapped: fixtures/handmade/text-denied-gatekeeper-describe
// wrapped at 169 columns) takes the message the scan read whole over the wrap; a copy the
// rules read the same from, or one the scan's reading only adds other text to (a cut list
// of remaining resources followed by a page's footer), is kept.
func TestMessagesCompleteCondition(t *testing.T) {
	const (
		kept  = "Failed to delete all resource types, 1 remaining: admission"
		whole = `Failed to delete all resource types, 1 remaining: admission webhook "validation.gatekeeper.sh" denied the request: [no-delete-in-prod] deleting ConfigMaps in production namespaces is not allowed`
		cut   = "Some resources are remaining: cephblockpools.ceph.rook.io has 1 resource"
	)
	for _, tc := range []struct {
		condType, copied, scanned, want string
	}{
		{"NamespaceDeletionContentFailure", kept, whole, whole},
		{"NamespaceDeletionContentFailure", whole, whole, whole},
		{"NamespaceContentRemaining", cut, cut + " © 2023 GitHub, Inc.", cut},
	} {
		ns := &objects.Object{APIVersion: "v1", Kind: "Namespace", Name: "team-a", Phase: "Terminating",
			Conditions: []objects.Condition{{Type: tc.condType, Status: "True", Message: tc.copied, Line: 11}}}
		rec := &bundle.Records{Objects: []*objects.Object{ns}, Messages: []text.Message{{
			Fact: kubemsg.Fact{Family: "namespace-conditions", Text: tc.scanned, Line: 11, EndLine: 12, CondType: tc.condType, CondStatus: "True"},
			File: "ticket.txt", Context: "team-a"}}}
		ix := New(rec, nil)
		c := ix.Namespaces["team-a"].Condition(tc.condType)
		if c == nil || c.Message != tc.want || c.Status != "True" || c.Line != 11 {
			t.Errorf("%q read as %q, scanned %q: condition %+v, want message %q", tc.condType, tc.copied, tc.scanned, c, tc.want)
		}
	}
}

// TestMessagesAPIServiceCondition: kube-aggregator's availability check failure found in
// text without its object (fixtures/realworld/linkerd-viz-2022-*: "FailedDiscoveryCheck:
// failing or missing response from https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1:
// ...") is APIService v1alpha1.tap.linkerd.io Available=False, citing the message's
// file:line; an APIService object with its own Available condition is not changed, one
// without (a describe cut before its conditions) gains the message's.
func TestMessagesAPIServiceCondition(t *testing.T) {
	const msg = `failing or missing response from https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1: Get "https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1": context deadline exceeded`
	fact := text.Message{Fact: kubemsg.Fact{Family: "apiservice-conditions", Form: "avail-failing-response", Text: msg, Line: 7, EndLine: 7}, File: "check.txt"}
	for _, tc := range []struct {
		name   string
		object *objects.Object
		status string
		line   int
	}{
		{"no object", nil, "False", 7},
		{"object available", &objects.Object{APIVersion: "apiregistration.k8s.io/v1", Kind: "APIService", Name: "v1alpha1.tap.linkerd.io",
			Conditions: []objects.Condition{{Type: "Available", Status: "True", Line: 3}}}, "True", 3},
		{"object without conditions", &objects.Object{APIVersion: "apiregistration.k8s.io/v1", Kind: "APIService", Name: "v1alpha1.tap.linkerd.io"}, "False", 7},
	} {
		rec := &bundle.Records{Messages: []text.Message{fact}}
		if tc.object != nil {
			rec.Objects = []*objects.Object{tc.object}
		}
		ix := New(rec, nil)
		a := ix.APIServices["v1alpha1.tap.linkerd.io"]
		if a == nil || len(ix.ByKind["APIService"]) != 1 || ix.ByKind["APIService"][0] != a {
			t.Fatalf("%s: APIService not indexed once: %v %v", tc.name, a, ix.ByKind["APIService"])
		}
		c := a.Condition("Available")
		if c == nil || c.Status != tc.status || c.Line != tc.line {
			t.Errorf("%s: Available %+v, want status %s at line %d", tc.name, c, tc.status, tc.line)
		}
		if tc.object == nil && (a.Source.File != "check.txt" || a.Source.Line != 7 || c.Reason != "FailedDiscoveryCheck" ||
			a.APIService == nil || a.APIService.Group != "tap.linkerd.io" || a.APIService.Version != "v1alpha1") {
			t.Errorf("%s: %+v %+v", tc.name, a, a.APIService)
		}
	}
	// the inner error alone, or another form, names no APIService
	for _, f := range []kubemsg.Fact{{Form: "avail-timed-out", Text: "timed out waiting for https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1"},
		{Form: "avail-failing-response", Text: "failing or missing response from the server"}} {
		ix := New(&bundle.Records{Messages: []text.Message{{Fact: f, File: "x.txt"}}}, nil)
		if len(ix.APIServices) != 0 {
			t.Errorf("%q: read as %v", f.Text, ix.APIServices)
		}
	}
}
