package analyzer

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
		ix := NewIndex(rec, nil)
		c := ix.Namespaces["team-a"].Condition(tc.condType)
		if c == nil || c.Message != tc.want || c.Status != "True" || c.Line != 11 {
			t.Errorf("%q read as %q, scanned %q: condition %+v, want message %q", tc.condType, tc.copied, tc.scanned, c, tc.want)
		}
	}
}
