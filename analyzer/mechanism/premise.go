package mechanism

import (
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// A rung of the ladder often rests on a fact about the chain: "the pods behind the
// Service are Ready, so restarting them cannot help" is only true when the chain shows
// them Ready. Links carry the facts their evidence establishes (Link.Facts) and rungs
// the facts they rely on (RemediationStep.Premise); the analyzer checks every rung of a
// cause against its chain (checkPremises), so no rung asserts what the evidence does
// not show. The facts are typed values, never parsed from sentences.

// BackendFacts are what the bundle shows of a Service an APIService or webhook points at:
// whether it exists, whether its endpoints hold ready addresses, and whether the pods its
// selector matches are Ready. The chain's links (BackendChain) carry the same facts.
func BackendFacts(ix *index.Index, ref *objects.ServiceReference) []findings.Fact {
	subj := findings.ServiceSubject(ref)
	svc := ix.Find("Service", ref.Namespace, ref.Name)
	if svc == nil {
		if len(ix.InNamespace(ref.Namespace, "Service")) > 0 || ix.ServicesDumped(ref.Namespace) {
			return []findings.Fact{findings.F(subj, findings.FactServiceMissing)}
		}
		return []findings.Fact{findings.F(subj, findings.FactServiceUnknown)}
	}
	out := []findings.Fact{findings.F(subj, findings.FactServiceExists)}
	if svc.Service == nil || svc.Service.Type == "ExternalName" {
		return out
	}
	out = append(out, findings.F(subj, endpointsFact(ix, ref.Namespace, ref.Name)))
	if len(svc.Service.Selector) > 0 {
		out = append(out, findings.F(subj, podsFact(ix, ref.Namespace, svc.Service.Selector)))
	}
	return out
}

func endpointsFact(ix *index.Index, ns, name string) string {
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
		return findings.FactEndpointsUnknown
	case ready == 0:
		return findings.FactNoReadyEndpoints
	}
	return findings.FactReadyEndpoints
}

func podsFact(ix *index.Index, ns string, selector map[string]string) string {
	pods := ix.PodsSelectedBy(ns, selector)
	if len(pods) == 0 {
		if ix.PodsDumped(ns) {
			return findings.FactNoPods
		}
		return findings.FactPodsUnknown
	}
	for _, p := range pods {
		if p.Pod == nil || !p.Pod.Ready {
			return findings.FactPodsNotReady
		}
	}
	return findings.FactPodsReady
}
