package findings

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Fact is one thing a chain link establishes about a component (Subject, as in
// Link.Component: "Service ns/name"), or, in a premise, one thing a rung relies on.
type Fact struct {
	Subject string
	Is      string
	// Not (in a premise only) requires that the chain does NOT establish the fact.
	Not bool
}

// The facts links establish.
const (
	FactServiceMissing   = "service-missing"    // the Service does not exist (a dump covering its namespace lacks it, or a ServiceNotFound condition)
	FactServiceExists    = "service-exists"     // the Service is in the bundle
	FactServiceUnknown   = "service-unknown"    // the bundle cannot show the Service
	FactNoReadyEndpoints = "no-ready-endpoints" // its endpoints hold no ready address (or a MissingEndpoints condition)
	FactReadyEndpoints   = "ready-endpoints"    // its endpoints hold ready addresses
	FactEndpointsUnknown = "endpoints-unknown"  // no Endpoints/EndpointSlice of it in the bundle
	FactPodsReady        = "pods-ready"         // every pod its selector matches is Ready
	FactPodsNotReady     = "pods-not-ready"     // some pod its selector matches is not Ready
	FactNoPods           = "no-pods"            // the bundle's pod dump has no pod matching its selector
	FactPodsUnknown      = "pods-unknown"       // the bundle has no pods of its namespace
	FactDeleting         = "deleting"           // the subject (a namespace) is itself being deleted
	FactNotInBundle      = "not-in-bundle"      // the subject (an object, a configuration) is not in the bundle
	FactInBundle         = "in-bundle"          // the subject is in the bundle
	FactOwnerAbsent      = "owner-absent"       // nothing in the bundle runs the controller that removes a finalizer
	FactOwnerFailing     = "owner-failing"      // its controller is present but not healthy
	FactOwnerRunning     = "owner-running"      // its controller runs
	FactHeldBy           = "held-by"            // the subject (an object) is held by another object, named in the link
)

// F is a fact about a subject.
func F(subject, is string) Fact { return Fact{Subject: subject, Is: is} }

// NotF is a premise: the chain must not establish the fact.
func NotF(subject, is string) Fact { return Fact{Subject: subject, Is: is, Not: true} }

// ServiceSubject is the subject of the facts about a Service (its link's component).
func ServiceSubject(ref *objects.ServiceReference) string {
	return "Service " + ref.Namespace + "/" + ref.Name
}

// NamespaceSubject is the subject of the facts about a namespace.
func NamespaceSubject(ns string) string { return "namespace " + ns }

func (f Fact) String() string {
	s := f.Subject + " is " + f.Is
	if f.Not {
		s = "not: " + s
	}
	return s
}

// Establishes reports whether any link of the chain establishes the fact.
func Establishes(chain []Link, f Fact) bool {
	for _, l := range chain {
		for _, g := range l.Facts {
			if g.Subject == f.Subject && g.Is == f.Is {
				return true
			}
		}
	}
	return false
}

// PremiseProblem says why a rung's premise does not hold on a chain ("" when it holds):
// a fact it relies on that no link establishes, or one it excludes that a link does.
func PremiseProblem(chain []Link, s RemediationStep) string {
	var bad []string
	for _, f := range s.Premise {
		if f.Not == Establishes(chain, f) {
			if f.Not {
				bad = append(bad, "it assumes "+f.Subject+" is not "+f.Is+", but the chain shows it is")
			} else {
				bad = append(bad, "it relies on "+f.Subject+" being "+f.Is+", which no link of the chain shows")
			}
		}
	}
	return strings.Join(bad, "; ")
}

// HasFact reports whether facts hold one about subject.
func HasFact(facts []Fact, subject, is string) bool {
	for _, f := range facts {
		if f.Subject == subject && f.Is == is {
			return true
		}
	}
	return false
}
