package analyzer

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// A rung of the ladder often rests on a fact about the chain: "the pods behind the
// Service are Ready, so restarting them cannot help" is only true when the chain shows
// them Ready. Links carry the facts their evidence establishes (Link.Facts) and rungs
// the facts they rely on (RemediationStep.Premise); the analyzer checks every rung of a
// cause against its chain (checkPremises), so no rung asserts what the evidence does
// not show. The facts are typed values, never parsed from sentences.

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

// checkPremises keeps the rungs whose premise holds on the cause's chain. A rung that
// fails its premise is a bug of its rule: it is left out, and said as an internal-error
// warning (tests fail on those).
func (ix *Index) checkPremises(ns string, c *Cause, steps []RemediationStep) []RemediationStep {
	out := steps[:0:0]
	for _, s := range steps {
		if why := PremiseProblem(c.Chain, s); why != "" {
			ix.premiseWarnings = append(ix.premiseWarnings, diag.Warning{File: "namespace " + ns,
				Message: fmt.Sprintf("%s: rung %q of %s left out: %s", diag.InternalError, Clip(s.Command, 120), c.Type, why)})
			continue
		}
		out = append(out, s)
	}
	return out
}

// BackendFacts are what the bundle shows of a Service an APIService or webhook points at:
// whether it exists, whether its endpoints hold ready addresses, and whether the pods its
// selector matches are Ready. The chain's links (BackendChain) carry the same facts.
func (ix *Index) BackendFacts(ref *objects.ServiceReference) []Fact {
	subj := ServiceSubject(ref)
	svc := ix.Find("Service", ref.Namespace, ref.Name)
	if svc == nil {
		if len(ix.InNamespace(ref.Namespace, "Service")) > 0 || ix.ServicesDumped(ref.Namespace) {
			return []Fact{F(subj, FactServiceMissing)}
		}
		return []Fact{F(subj, FactServiceUnknown)}
	}
	out := []Fact{F(subj, FactServiceExists)}
	if svc.Service == nil || svc.Service.Type == "ExternalName" {
		return out
	}
	out = append(out, F(subj, endpointsFact(ix, ref.Namespace, ref.Name)))
	if len(svc.Service.Selector) > 0 {
		out = append(out, F(subj, podsFact(ix, ref.Namespace, svc.Service.Selector)))
	}
	return out
}

func endpointsFact(ix *Index, ns, name string) string {
	ready, seen := 0, false
	for _, o := range ix.InNamespace(ns, "EndpointSlice") {
		if o.Endpoints != nil && o.Endpoints.ServiceName == name {
			seen = true
			ready += o.Endpoints.Ready
		}
	}
	if !seen {
		if e := ix.Find("Endpoints", ns, name); e != nil && e.Endpoints != nil {
			seen = true
			ready = e.Endpoints.Ready
		}
	}
	switch {
	case !seen:
		return FactEndpointsUnknown
	case ready == 0:
		return FactNoReadyEndpoints
	}
	return FactReadyEndpoints
}

func podsFact(ix *Index, ns string, selector map[string]string) string {
	pods := ix.PodsSelectedBy(ns, selector)
	if len(pods) == 0 {
		if ix.PodsDumped(ns) {
			return FactNoPods
		}
		return FactPodsUnknown
	}
	for _, p := range pods {
		if p.Pod == nil || !p.Pod.Ready {
			return FactPodsNotReady
		}
	}
	return FactPodsReady
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
