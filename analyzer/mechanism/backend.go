package mechanism

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Port returns the port a ServiceReference names (443 when it names none, as in
// Kubernetes' APIService, webhook and CRD conversion APIs).
func Port(ref *objects.ServiceReference) int {
	if ref != nil && ref.Port != nil {
		return *ref.Port
	}
	return 443
}

// BackendChain follows a ServiceReference (of an APIService, a webhook or a CRD's
// conversion webhook) to its Service, endpoints and pods: the backend walk every rule
// shares.
func BackendChain(ix *index.Index, ref *objects.ServiceReference) []findings.Link {
	ns, name, port := ref.Namespace, ref.Name, Port(ref)
	var chain []findings.Link
	svc := ix.Find("Service", ns, name)
	comp := findings.ServiceSubject(ref)
	facts := BackendFacts(ix, ref)
	if svc == nil {
		if findings.HasFact(facts, comp, findings.FactServiceMissing) {
			chain = append(chain, ServiceMissingLink(ref, fmt.Sprintf("the bundle's dump of Services covers namespace %s and does not have it", ns), nil))
		} else {
			collect := fmt.Sprintf("kubectl -n %s get service %s -o json", ns, name)
			chain = append(chain, findings.Link{Component: comp, Facts: facts, Finding: "not in the bundle (collect: " + collect + ")", Inline: []string{collect}})
		}
		return chain
	}
	s := svc.Service
	f := fmt.Sprintf("type %s", findings.OrDefault(s.Type, "ClusterIP"))
	if s.ExternalName != "" {
		f += " externalName " + s.ExternalName
	}
	if s.ClusterIP != "" {
		f += " clusterIP " + s.ClusterIP
	}
	var ports []string
	for _, sp := range s.Ports {
		ports = append(ports, fmt.Sprintf("%s:%d->%s", findings.OrDefault(sp.Name, "(unnamed)"), sp.Port, sp.TargetPort))
	}
	f += " ports [" + strings.Join(ports, " ") + "]"
	if len(s.Selector) > 0 {
		f += " selector " + findings.FmtLabels(s.Selector)
	}
	chain = append(chain, findings.Link{Component: comp, Finding: f, Facts: facts, Evidence: []findings.Evidence{{File: svc.Source.File, Line: svc.Source.Line, Object: svc.Ref(), Text: "Service " + ns + "/" + name + ": " + f}}})

	// endpoints
	var eps []*objects.Object
	for _, o := range ix.InNamespace(ns, "EndpointSlice") {
		if o.Endpoints != nil && o.Endpoints.ServiceName == name {
			eps = append(eps, o)
		}
	}
	if len(eps) == 0 {
		if e := ix.Find("Endpoints", ns, name); e != nil {
			eps = append(eps, e)
		}
	}
	if len(eps) == 0 {
		if s.Type != "ExternalName" {
			collect := fmt.Sprintf("kubectl -n %s get endpointslices -l kubernetes.io/service-name=%s -o json", ns, name)
			chain = append(chain, findings.Link{Component: "Endpoints " + ns + "/" + name, Inline: []string{collect},
				Finding: "no Endpoints/EndpointSlice for the Service in the bundle (collect: " + collect + ")"})
		}
	} else {
		ready, notReady := 0, 0
		var evs []findings.Evidence
		var portNames []string
		for _, e := range eps {
			ready += e.Endpoints.Ready
			notReady += e.Endpoints.NotReady
			portNames = append(portNames, e.Endpoints.PortNames...)
			evs = append(evs, findings.Evidence{File: e.Source.File, Line: e.Source.Line, Object: e.Ref(),
				Text: fmt.Sprintf("%s: %d ready, %d not ready addresses%s", e.Ref(), e.Endpoints.Ready, e.Endpoints.NotReady, portList(e.Endpoints.PortNames))})
		}
		f := fmt.Sprintf("%d ready and %d not-ready addresses", ready, notReady)
		if want := servicePortName(s, port); want != "" && len(portNames) > 0 && !slices.Contains(portNames, want) {
			f += fmt.Sprintf("; the Service port %d is named %q but the endpoints offer ports %v: the port names do not match, so kube-apiserver finds no address for it", port, want, portNames)
		}
		fault := false
		if want := servicePortName(s, port); want != "" && len(portNames) > 0 && !slices.Contains(portNames, want) {
			fault = true
		}
		if ready == 0 {
			f += ": no backend pod can receive traffic"
			fault = true
		}
		l := findings.Link{Component: "Endpoints " + ns + "/" + name, Finding: f, Evidence: evs, Fault: fault}
		switch want := servicePortName(s, port); {
		case want != "" && len(portNames) > 0 && !slices.Contains(portNames, want):
			l.Code = findings.CodePortMismatch
		case ready == 0:
			l.Code = findings.CodeNotReady
		}
		if fault {
			l.Fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "-n", ns, "get", "endpointslices", "-l", "kubernetes.io/service-name="+name, "-o", "yaml"),
				Why: fmt.Sprintf("Make Service %s/%s select ready pods on the port it names (its selector and port names must match the pods).", ns, name)}
		}
		chain = append(chain, l)
	}
	// pods, and the nodes they run on
	if len(s.Selector) > 0 {
		chain = append(chain, podLinks(ix, ns, s.Selector)...)
	}
	return chain
}

// ServiceMissingLink is the link of a Service that does not exist (why: how the bundle
// shows it), with the fix that recreates it.
func ServiceMissingLink(ref *objects.ServiceReference, why string, ev []findings.Evidence) findings.Link {
	ns, name := ref.Namespace, ref.Name
	return findings.Link{Component: findings.ServiceSubject(ref), Fault: true, Evidence: ev, Code: findings.CodeNotFound,
		Facts:   []findings.Fact{findings.F(findings.ServiceSubject(ref), findings.FactServiceMissing)},
		Finding: "the Service does not exist: " + why,
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "-n", ns, "get", "service,deployment,pods", "-o", "wide"),
			Premise: []findings.Fact{findings.F(findings.ServiceSubject(ref), findings.FactServiceMissing)},
			Why:     fmt.Sprintf("Recreate Service %s/%s and its backend (reinstall the component that provides it), or remove what points at it.", ns, name)}}
}

// portList is ", ports a, b" or ", unnamed ports" for endpoints.
func portList(names []string) string {
	var named []string
	for _, n := range names {
		if n != "" {
			named = append(named, n)
		}
	}
	if len(named) == 0 {
		return ", unnamed ports"
	}
	return ", ports " + strings.Join(named, ", ")
}

// servicePortName returns the name of the Service port with the given number ("" when
// unnamed or absent).
func servicePortName(s *objects.ServiceInfo, port int) string {
	for _, sp := range s.Ports {
		if sp.Port == port {
			return sp.Name
		}
	}
	return ""
}

// PodState describes a pod in a few words for evidence and chains: its phase,
// readiness, node, restarts, waiting and terminated containers, and why it is not
// scheduled.
func PodState(pod *objects.Object) string {
	pi := pod.Pod
	s := "phase " + findings.OrDefault(pod.Phase, "unknown")
	if pi == nil {
		return s
	}
	if pi.Ready {
		s += ", Ready"
	} else {
		s += ", not Ready"
	}
	if pi.NodeName == "" {
		s += ", not scheduled to any node"
	} else {
		s += ", node " + pi.NodeName
	}
	if pi.Restarts > 0 {
		s += fmt.Sprintf(", %d restarts", pi.Restarts)
	}
	if len(pi.Waiting) > 0 {
		s += ", waiting: " + strings.Join(pi.Waiting, ",")
	}
	if len(pi.Terminated) > 0 {
		s += ", last terminated: " + strings.Join(pi.Terminated, ",")
	}
	if c := pod.Condition("PodScheduled"); c != nil && c.Status == "False" && c.Message != "" {
		s += " (" + c.Reason + ": " + c.Message + ")"
	}
	return s
}

// podLinks describes the pods a selector matches, with their faults and fixes, then
// the nodes they run on (conditions that keep their traffic away).
func podLinks(ix *index.Index, ns string, selector map[string]string) []findings.Link {
	pods := ix.PodsSelectedBy(ns, selector)
	comp := "Pods " + ns + " " + findings.FmtLabels(selector)
	if len(pods) == 0 {
		if ix.PodsDumped(ns) {
			return []findings.Link{{Component: comp, Fault: true, Code: findings.CodeNone, Finding: "no pod matches the Service's selector: the backend is not deployed (or was deleted)",
				Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "-n", ns, "get", "deployments,statefulsets,daemonsets,replicasets", "-o", "wide"),
					Why: "Deploy the backend again (reinstall the component), so pods match the Service's selector " + findings.FmtLabels(selector) + "."}}}
		}
		collect := shellsafe.Cmd("kubectl", "-n", ns, "get", "pods", "-o", "json")
		return []findings.Link{{Component: comp, Finding: fmt.Sprintf("pods of namespace %s are not in the bundle (collect: %s)", ns, collect), Inline: []string{collect}}}
	}
	var evs []findings.Evidence
	var states []string
	var fix *findings.RemediationStep
	fault := false
	for _, pod := range pods {
		st := PodState(pod)
		states = append(states, pod.Name+": "+st)
		evs = append(evs, findings.Evidence{File: pod.Source.File, Line: pod.Source.Line, Object: pod.Ref(), Text: "Pod " + pod.Name + ": " + st})
		if pod.Pod != nil && pod.Pod.Ready {
			continue
		}
		fault = true
		if fix != nil {
			continue
		}
		switch {
		case pod.Pod != nil && pod.Pod.NodeName == "" || pod.Phase == "Pending" && pod.Condition("PodScheduled") != nil && pod.Condition("PodScheduled").Status == "False":
			why := "Pod " + pod.Name + " is not scheduled"
			if c := pod.Condition("PodScheduled"); c != nil && c.Message != "" {
				why += " (" + c.Reason + ": " + c.Message + ")"
			}
			fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "-n", ns, "describe", "pod", pod.Name) + " && " + shellsafe.Cmd("kubectl", "get", "nodes", "-o", "wide"),
				Why: why + ": make a node able to take it (untaint or add a node, free resources, fix its node selector or tolerations)."}
		case pod.Pod != nil && (len(pod.Pod.Waiting) > 0 || pod.Pod.Restarts > 0):
			fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "-n", ns, "logs", pod.Name, "--all-containers", "--previous") + "; " + shellsafe.Cmd("kubectl", "-n", ns, "describe", "pod", pod.Name),
				Why: "Pod " + pod.Name + " does not run (" + st + "): its logs and events say why; fix that (image, configuration, certificates, resources)."}
		default:
			fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "-n", ns, "describe", "pod", pod.Name),
				Why: "Pod " + pod.Name + " is not Ready (" + st + "): its readiness probe and events say why."}
		}
	}
	finding := strings.Join(states, "; ")
	if len(pods) > findings.GroupExamples {
		finding = podGroups(pods)
	}
	links := []findings.Link{{Component: comp, Finding: finding, Evidence: evs, Fault: fault, Fix: fix, Code: findings.PodsCode(pods)}}
	return append(links, nodeLinks(ix, pods)...)
}

// podGroups describes many pods by state, one phrase per state (node and restart
// count aside), the most common first: "2,000 pods, none Ready: 2,000 phase Running,
// not Ready, waiting: CrashLoopBackOff on 1 node, up to 40 restarts (metrics-server-0,
// metrics-server-1, metrics-server-2, ...)". One pass, a map by state.
func podGroups(pods []*objects.Object) string {
	type group struct {
		state    string
		n        int
		nodes    map[string]bool
		restarts int
		examples []string
	}
	var gs []*group
	by := map[string]*group{}
	ready := 0
	for _, pod := range pods {
		var node string
		restarts := 0
		if pi := pod.Pod; pi != nil {
			node, restarts = pi.NodeName, pi.Restarts
			if pi.Ready {
				ready++
			}
		}
		st := PodState(pod)
		if node != "" {
			st = strings.Replace(st, ", node "+node, "", 1)
		}
		if restarts > 0 {
			st = strings.Replace(st, fmt.Sprintf(", %d restarts", restarts), "", 1)
		}
		g := by[st]
		if g == nil {
			g = &group{state: st, nodes: map[string]bool{}}
			by[st] = g
			gs = append(gs, g)
		}
		g.n++
		if node != "" {
			g.nodes[node] = true
		}
		g.restarts = max(g.restarts, restarts)
		if len(g.examples) < findings.GroupExamples {
			g.examples = append(g.examples, pod.Name)
		}
	}
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].n > gs[j].n })
	readyWords := "none Ready"
	if ready > 0 {
		readyWords = findings.Count(ready) + " Ready"
	}
	var parts []string
	for i, g := range gs {
		if i == findings.GroupExamples {
			rest := 0
			for _, h := range gs[i:] {
				rest += h.n
			}
			parts = append(parts, fmt.Sprintf("%s more pods in %d other states", findings.Count(rest), len(gs)-i))
			break
		}
		s := findings.Count(g.n) + " " + g.state
		if len(g.nodes) > 0 {
			s += fmt.Sprintf(" on %s node%s", findings.Count(len(g.nodes)), findings.Plural(len(g.nodes), "s", ""))
		}
		if g.restarts > 0 {
			s += fmt.Sprintf(", up to %d restarts", g.restarts)
		}
		ex := strings.Join(g.examples, ", ")
		if g.n > len(g.examples) {
			ex += ", ..."
		}
		parts = append(parts, s+" ("+ex+")")
	}
	return fmt.Sprintf("%s pods, %s: %s", findings.Count(len(pods)), readyWords, strings.Join(parts, "; "))
}

// nodeLinks describes the nodes the pods run on, when the bundle holds them: Ready and
// NetworkUnavailable conditions (a node without its pod-network route cannot be
// reached from the control plane).
func nodeLinks(ix *index.Index, pods []*objects.Object) []findings.Link {
	var out []findings.Link
	for _, pn := range ix.PodNodes(pods) {
		n := pn.Node
		if n == nil {
			continue
		}
		var parts []string
		var evs []findings.Evidence
		l := findings.Link{Component: "Node " + n.Name}
		for _, typ := range []string{"Ready", "NetworkUnavailable"} {
			c := n.Condition(typ)
			if c == nil {
				continue
			}
			bad := typ == "Ready" && c.Status != "True" || typ == "NetworkUnavailable" && c.Status == "True"
			part := fmt.Sprintf("%s=%s", c.Type, c.Status)
			if c.Reason != "" {
				part += " (" + c.Reason
				if c.Message != "" {
					part += ": " + c.Message
				}
				part += ")"
			}
			if !c.LastTransitionTime.IsZero() {
				part += " since " + findings.FmtTime(c.LastTransitionTime)
			}
			parts = append(parts, part)
			if bad {
				if typ == "Ready" {
					l.Code = findings.CodeNotReady
				}
				l.Fault = true
				evs = append(evs, findings.ConditionEvidence(n, c))
				if typ == "NetworkUnavailable" {
					l.Fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "node", n.Name, "-o", "jsonpath={.status.conditions[?(@.type==\"NetworkUnavailable\")]}"),
						Why: fmt.Sprintf("Node %s has no route to its pod network (%s): restore the route (the cloud route controller or the CNI creates it), so the control plane can reach the pods on it.", n.Name, c.Reason)}
				} else if l.Fix == nil {
					l.Fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "describe", "node", n.Name),
						Why: fmt.Sprintf("Node %s is not Ready: bring its kubelet back, or move the pods to a Ready node.", n.Name)}
				}
			}
		}
		if len(parts) == 0 {
			continue
		}
		l.Finding = strings.Join(parts, "; ")
		if len(evs) == 0 {
			evs = []findings.Evidence{{File: n.Source.File, Line: n.Source.Line, Object: n.Ref(), Text: "Node " + n.Name + ": " + l.Finding}}
		}
		l.Evidence = evs
		out = append(out, l)
	}
	return out
}
