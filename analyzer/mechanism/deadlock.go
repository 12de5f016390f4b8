package mechanism

import (
	"fmt"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// A backend (an APIService's, a webhook's, a conversion webhook's, a finalizer's
// controller) that lives in a namespace being deleted is a self-inflicted deadlock:
// its pods are gone or going and cannot come back (nothing new is created in a
// namespace that is terminating), so restoring or restarting it cannot work; only
// removing what points at it does. The rules say it with DeadlockLink, the deepest
// link of their chain.

// DeadlockLink is the link of a backend (what: "the webhook's backend", ...) that lives
// in namespace ns, itself being deleted; fix is the one step that works.
func DeadlockLink(what, ns, detail string, fix *findings.RemediationStep, ev []findings.Evidence) findings.Link {
	f := findings.F(findings.NamespaceSubject(ns), findings.FactDeleting)
	if fix != nil {
		fix.Premise = append(fix.Premise, f)
	}
	finding := fmt.Sprintf("%s is in namespace %q, itself being deleted", what, ns)
	if detail != "" {
		finding += " (" + detail + ")"
	}
	return findings.Link{Component: "deadlock", Fault: true, Code: findings.CodeInTerminatingNamespace, Evidence: ev, Facts: []findings.Fact{f}, Fix: fix,
		Finding: finding + ": it cannot come back on its own"}
}

// CalledServiceChain follows a Service read from a failed call's error (no object in
// the bundle names it): the backend walk, where an error saying the Service is not
// found makes it missing (why: how the error says it).
func CalledServiceChain(ix *index.Index, ref *objects.ServiceReference, notFound bool, why string, ev []findings.Evidence) []findings.Link {
	links := BackendChain(ix, ref)
	if notFound && len(links) > 0 && findings.HasFact(links[0].Facts, findings.ServiceSubject(ref), findings.FactServiceUnknown) {
		links[0] = ServiceMissingLink(ref, why, ev)
	}
	return links
}
