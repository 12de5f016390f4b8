package analyzer

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// APIDiscoveryRule finds aggregated API group/versions whose discovery fails.
var APIDiscoveryRule = &Rule{
	Name: CauseAPIDiscovery,
	Doc: `An aggregated API group/version cannot be discovered.

The namespace controller lists every API group/version the server advertises and
deletes the namespace's objects of each. When discovery of one group/version fails
(its APIService is unavailable: the backing Service has no ready pods, the network
path from kube-apiserver to the pod network is broken, certificates are wrong), the
controller cannot prove that no objects of that group remain, so it never removes the
namespace's "kubernetes" finalizer. One broken APIService blocks the deletion of every
namespace in the cluster, even empty ones.

Evidence: the NamespaceDeletionDiscoveryFailure condition, kube-controller-manager's
"unable to retrieve the complete list of server APIs: <gv>: <error>" lines (with
"deletion of namespace <ns> failed:" from 1.16, wrapped in "Unhandled Error" from
1.31; "stale GroupVersion discovery" with aggregated discovery), kube-apiserver's
"<apiservice> failed with: ..." and "changing APIService availability" lines, and the
APIService objects' Available condition.`,
	Run: runAPIDiscovery,
}

type gvFinding struct {
	gv       string
	errText  string
	evidence []Evidence
}

func runAPIDiscovery(p *Pass) ([]Cause, string) {
	ix := p.Index
	found := map[string]*gvFinding{}
	var order []string
	add := func(gv, errText string, ev ...Evidence) {
		f, ok := found[gv]
		if !ok {
			f = &gvFinding{gv: gv, errText: errText}
			found[gv] = f
			order = append(order, gv)
		}
		f.evidence = append(f.evidence, ev...)
	}
	var causeEvidence []Evidence
	var lines []*logs.Entry
	confidence := ""
	var notes []string

	cond := p.Condition(kubemsg.CondDiscoveryFailure)
	if cond != nil && cond.Status == "True" {
		ev := conditionEvidence(p.Object, cond)
		causeEvidence = append(causeEvidence, ev)
		confidence = "medium"
		fs := kubemsg.ParseDiscoveryFailure(cond.Message)
		for _, f := range fs {
			add(f.GroupVersion, f.Err)
		}
		if len(fs) == 0 {
			notes = append(notes, "the discovery error names no group/version: "+cond.Message)
		}
	}
	// kube-controller-manager lines naming this namespace
	var nsLines []*logs.Entry
	for _, dl := range ix.DiscoveryFailures {
		if dl.Namespace == p.Namespace {
			nsLines = append(nsLines, dl.Entry)
			for _, f := range dl.Failures {
				add(f.GroupVersion, f.Err)
			}
		}
	}
	if len(nsLines) > 0 {
		confidence = "medium"
		if cond != nil && cond.Status == "True" {
			confidence = "high"
		}
	}
	lines = append(lines, nsLines...)
	// Cluster-wide discovery lines (resource quota, garbage collector, the pre-1.16
	// namespace controller that did not name the namespace, kubectl output). They
	// support the namespace's own evidence; when there is none, they are the evidence.
	if cond != nil && cond.Status != "True" && len(nsLines) == 0 {
		return nil, fmt.Sprintf("%s is %s (%s): discovery succeeded on the controller's last pass",
			cond.Type, cond.Status, cond.Reason)
	}
	specific := len(found) > 0
	var wide []*logs.Entry
	for _, dl := range ix.DiscoveryFailures {
		if dl.Namespace != "" || (specific && !anyGV(dl.Failures, found)) {
			continue
		}
		wide = append(wide, dl.Entry)
		if !specific {
			for _, f := range dl.Failures {
				add(f.GroupVersion, f.Err)
			}
		}
	}
	if len(wide) > 0 {
		lines = append(lines, wide...)
		if confidence == "" {
			confidence = "medium"
			notes = append(notes, "no line names this namespace; the failing discovery is cluster-wide and blocks every namespace deletion")
		}
	}
	if len(found) == 0 && cond == nil {
		// No condition and no log line: an unavailable APIService still blocks every deletion.
		for _, name := range sortedKeys(ix.APIServices) {
			a := ix.APIServices[name]
			if c := a.Condition("Available"); c != nil && c.Status != "True" && a.APIService != nil && a.APIService.Service != nil {
				add(kubemsg.GroupVersionOfAPIService(name), c.Reason+": "+c.Message)
				confidence = "low"
			}
		}
		if len(found) > 0 {
			notes = append(notes, "the namespace has no status conditions and no controller log line names it; the unavailable APIService is the likely blocker because discovery failures block every namespace deletion")
		}
	}
	if len(found) == 0 {
		if cond == nil {
			return nil, "no NamespaceDeletionDiscoveryFailure condition, no discovery error in the logs and no unavailable APIService in the bundle"
		}
		return nil, ""
	}

	cause := Cause{Type: CauseAPIDiscovery, Confidence: confidence, Finalizers: []string{}, Objects: []ObjectRef{}}
	var failingAPIServices []string
	var summaries []string
	var apiLines []*logs.Entry
	for _, gv := range order {
		f := found[gv]
		cause.GroupVersions = append(cause.GroupVersions, gv)
		name := kubemsg.APIServiceName(gv)
		failingAPIServices = append(failingAPIServices, name)
		chain, summary, kasLines := apiServiceChain(p, gv, name, f.errText, causeEvidence, nsLines, wide)
		cause.Chain = append(cause.Chain, chain...)
		summaries = append(summaries, summary)
		apiLines = append(apiLines, kasLines...)
		if a := ix.APIServices[name]; a != nil {
			cause.Objects = append(cause.Objects, objectRef(a))
		}
	}
	cause.APIServices = failingAPIServices
	if len(apiLines) > 0 && confidence == "medium" && cond != nil {
		cause.Confidence = "high"
	}
	cause.Summary = fmt.Sprintf("Discovery of %s fails: %s. The namespace controller cannot list the namespace's content, so it keeps the namespace's \"kubernetes\" finalizer; every namespace deleted while this lasts hangs the same way.",
		strings.Join(cause.GroupVersions, ", "), strings.Join(summaries, "; "))
	all := append(append([]*logs.Entry{}, lines...), apiLines...)
	sortEntries(all)
	cause.Evidence = append(causeEvidence, sampleLines(all, 8)...)
	correlate(all, p.Deletion).apply(&cause, p.Deletion, "discovery errors for "+strings.Join(cause.GroupVersions, ", "))
	cause.Notes = notes
	return []Cause{cause}, ""
}

func anyGV(fs []kubemsg.GroupVersionError, found map[string]*gvFinding) bool {
	for _, f := range fs {
		if _, ok := found[f.GroupVersion]; ok {
			return true
		}
	}
	return false
}

// apiServiceChain follows one failing group/version from the namespace controller to
// the deepest component the bundle has evidence for.
func apiServiceChain(p *Pass, gv, name, errText string, condEv []Evidence, nsLines, wide []*logs.Entry) (chain []Link, summary string, kasLines []*logs.Entry) {
	ix := p.Index
	kcm := Link{Component: "namespace controller (kube-controller-manager)",
		Finding: fmt.Sprintf("discovery of %s fails: %s", gv, errText)}
	kcm.Evidence = append(kcm.Evidence, condEv...)
	kcm.Evidence = append(kcm.Evidence, sampleLines(filterGV(append(append([]*logs.Entry{}, nsLines...), wide...), gv), 4)...)
	chain = append(chain, kcm)

	summary = "APIService " + name
	kasLines = ix.APIServiceLines[name]
	if len(kasLines) > 0 {
		sorted := append([]*logs.Entry{}, kasLines...)
		sortEntries(sorted)
		classes := map[string]kubemsg.ErrorClass{}
		var order []string
		for _, e := range sorted {
			c := kubemsg.ClassifyError(e.Detail() + " " + e.Field("message") + " " + e.Field("reason"))
			if c.Code == "unknown" {
				continue
			}
			if _, ok := classes[c.Code]; !ok {
				order = append(order, c.Code)
				classes[c.Code] = c
			}
		}
		finding := fmt.Sprintf("kube-apiserver reports APIService %s failing (%d lines)", name, len(sorted))
		for _, code := range order {
			finding += "; " + code + ": " + classes[code].Meaning
		}
		chain = append(chain, Link{Component: "kube-apiserver (aggregator)", Finding: finding, Evidence: sampleLines(sorted, 6)})
		_, timeout := classes["timeout"]
		_, noRoute := classes["no-route"]
		if timeout || noRoute {
			// the network path is the deepest link: append it after the backend's links
			defer func() { chain = append(chain, networkLinks(ix)...) }()
		}
	} else if ix.HasLogsOf("kube-apiserver") {
		chain = append(chain, Link{Component: "kube-apiserver (aggregator)", Finding: "the kube-apiserver log in the bundle has no line about APIService " + name})
	}

	a := ix.APIServices[name]
	group := kubemsg.GroupOf(gv)
	owner := kubemsg.WellKnownGroupOwner(group)
	if a == nil {
		f := "APIService " + name + " is not in the bundle"
		if owner != "" {
			f += "; " + group + " is usually served by " + owner
		}
		if !ix.Has("APIService") {
			f += " (collect: kubectl get apiservices -o json)"
		}
		if ns := stuckOwnerNamespace(p, owner); ns != "" {
			f += fmt.Sprintf(". Namespace %q, which is itself being deleted, is named like that owner: if the APIService's Service lives there, this is a self-inflicted deadlock that only deleting the APIService breaks (check spec.service)", ns)
		}
		chain = append(chain, Link{Component: "APIService " + name, Finding: f})
		if owner != "" {
			summary += " (usually " + owner + ")"
		}
		summary += " cannot serve it (" + kubemsg.ClassifyError(errText).Code + ")"
		return chain, summary, kasLines
	}
	link := Link{Component: "APIService " + name}
	if c := a.Condition("Available"); c != nil {
		link.Finding = fmt.Sprintf("Available=%s reason=%s: %s", c.Status, c.Reason, c.Message)
		if !c.LastTransitionTime.IsZero() {
			link.Finding += " (since " + fmtTime(c.LastTransitionTime) + ")"
		}
		link.Evidence = append(link.Evidence, conditionEvidence(a, c))
		summary += fmt.Sprintf(" is Available=%s (%s)", c.Status, c.Reason)
		if cl := kubemsg.ClassifyError(c.Reason + " " + c.Message); cl.Code != "unknown" {
			link.Finding += " — " + cl.Meaning
		}
	} else {
		link.Finding = "no Available condition recorded"
		summary += " has no Available condition"
	}
	chain = append(chain, link)
	if a.APIService == nil || a.APIService.Service == nil {
		return chain, summary, kasLines
	}
	svcRef := a.APIService.Service
	port := 443
	if svcRef.Port != nil {
		port = *svcRef.Port
	}
	summary += fmt.Sprintf(", backed by Service %s/%s", svcRef.Namespace, svcRef.Name)
	if p.Stuck[svcRef.Namespace] {
		chain = append(chain, Link{Component: "deadlock",
			Finding:  fmt.Sprintf("the APIService's backend Service lives in namespace %q, which is itself being deleted: its pods are gone or going, so discovery can never recover on its own. Delete the APIService (or recreate the backend elsewhere) to break the cycle", svcRef.Namespace),
			Evidence: []Evidence{fieldEvidence(a, "spec.service", fmt.Sprintf("spec.service: %s/%s:%d", svcRef.Namespace, svcRef.Name, port))}})
		summary += fmt.Sprintf(" in namespace %s, which is itself being deleted (self-inflicted deadlock)", svcRef.Namespace)
	}
	chain = append(chain, backendChain(ix, svcRef.Namespace, svcRef.Name, port)...)
	return chain, summary, kasLines
}

// networkLinks adds what the bundle says about the network path from the control
// plane to the pod network when the aggregator's calls time out or find no route:
// cloud route-controller failures and cloud permission errors.
func networkLinks(ix *Index) []Link {
	if len(ix.CloudLines) == 0 {
		return []Link{{Component: "network path (control plane → pod network)",
			Finding: "the calls time out or find no route, which points at the network path (routes, CNI, firewalls) rather than at the backend pods; the bundle has no cloud-controller-manager or CNI log line about routes or permissions (collect: cloud-controller-manager and CNI logs, the node's routing table `ip route`, the cloud route table)"}}
	}
	lines := append([]*logs.Entry{}, ix.CloudLines...)
	sortEntries(lines)
	var perm, route bool
	for _, e := range lines {
		d := e.Detail()
		if strings.Contains(d, "reconcile node routes") || strings.Contains(d, "Could not create route") {
			route = true
		}
		if strings.Contains(d, "UnauthorizedOperation") || strings.Contains(d, "AuthorizationFailed") || strings.Contains(d, "AccessDenied") {
			perm = true
		}
	}
	comp := "cloud-controller-manager (route controller)"
	if c := lines[0].Component; c != "" && c != "cloud-controller-manager" {
		comp = c
	}
	finding := fmt.Sprintf("%d lines about pod-network routes or cloud permissions (first %s, last %s)", len(lines), fmtTime(lines[0].Time), fmtTime(lines[len(lines)-1].Time))
	switch {
	case route && perm:
		finding += ": the route controller cannot manage the routes to the pod network because the cloud refuses its calls (permissions). Without those routes kube-apiserver cannot reach pods on other nodes; restore the cloud permissions (IAM role/policy of the controller) and the routes come back"
	case route:
		finding += ": the route controller cannot manage the routes to the pod network, so kube-apiserver cannot reach pods on other nodes"
	case perm:
		finding += ": the cloud refuses the controller's calls (permissions)"
	}
	return []Link{{Component: comp, Finding: finding, Evidence: sampleLines(lines, 4)}}
}

func filterGV(es []*logs.Entry, gv string) []*logs.Entry {
	var out []*logs.Entry
	for _, e := range es {
		if strings.Contains(e.Detail(), gv) || strings.Contains(e.Field("groups"), gv) {
			out = append(out, e)
		}
	}
	sortEntries(out)
	return out
}

// backendChain follows a Service to its endpoints and pods.
func backendChain(ix *Index, ns, name string, port int) []Link {
	var chain []Link
	svc := ix.Find("Service", ns, name)
	comp := "Service " + ns + "/" + name
	if svc == nil {
		if len(ix.InNamespace(ns, "Service")) > 0 || ix.servicesDumped(ns) {
			chain = append(chain, Link{Component: comp, Finding: fmt.Sprintf("the Service does not exist: the bundle's dump of Services covers namespace %s and does not have it", ns)})
		} else {
			chain = append(chain, Link{Component: comp, Finding: fmt.Sprintf("not in the bundle (collect: kubectl -n %s get service %s -o json)", ns, name)})
		}
		return chain
	}
	s := svc.Service
	f := fmt.Sprintf("type %s", orDefault(s.Type, "ClusterIP"))
	if s.ExternalName != "" {
		f += " externalName " + s.ExternalName
	}
	if s.ClusterIP != "" {
		f += " clusterIP " + s.ClusterIP
	}
	var ports []string
	for _, sp := range s.Ports {
		ports = append(ports, fmt.Sprintf("%s:%d->%s", orDefault(sp.Name, "(unnamed)"), sp.Port, sp.TargetPort))
	}
	f += " ports [" + strings.Join(ports, " ") + "]"
	if len(s.Selector) > 0 {
		f += " selector " + fmtLabels(s.Selector)
	}
	chain = append(chain, Link{Component: comp, Finding: f, Evidence: []Evidence{{File: svc.Source.File, Line: svc.Source.Line, Object: svc.Ref(), Text: "Service " + ns + "/" + name + ": " + f}}})

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
			chain = append(chain, Link{Component: "Endpoints " + ns + "/" + name,
				Finding: fmt.Sprintf("no Endpoints/EndpointSlice for the Service in the bundle (collect: kubectl -n %s get endpointslices -l kubernetes.io/service-name=%s -o json)", ns, name)})
		}
	} else {
		ready, notReady := 0, 0
		var evs []Evidence
		var portNames []string
		for _, e := range eps {
			ready += e.Endpoints.Ready
			notReady += e.Endpoints.NotReady
			portNames = append(portNames, e.Endpoints.PortNames...)
			evs = append(evs, Evidence{File: e.Source.File, Line: e.Source.Line, Object: e.Ref(),
				Text: fmt.Sprintf("%s: %d ready, %d not ready addresses, ports %v", e.Ref(), e.Endpoints.Ready, e.Endpoints.NotReady, e.Endpoints.PortNames)})
		}
		f := fmt.Sprintf("%d ready and %d not-ready addresses", ready, notReady)
		if want := servicePortName(s, port); want != "" && len(portNames) > 0 && !slices.Contains(portNames, want) {
			f += fmt.Sprintf("; the Service port %d is named %q but the endpoints offer ports %v: the port names do not match, so kube-apiserver finds no address for it", port, want, portNames)
		}
		if ready == 0 {
			f += ": no backend pod can receive traffic"
		}
		chain = append(chain, Link{Component: "Endpoints " + ns + "/" + name, Finding: f, Evidence: evs})
	}
	// pods
	if len(s.Selector) > 0 {
		pods := ix.PodsSelectedBy(ns, s.Selector)
		comp := "Pods " + ns + " " + fmtLabels(s.Selector)
		if len(pods) == 0 {
			if ix.podsDumped(ns) {
				chain = append(chain, Link{Component: comp, Finding: "no pod matches the Service's selector: the backend is not deployed (or was deleted)"})
			} else {
				chain = append(chain, Link{Component: comp, Finding: fmt.Sprintf("pods of namespace %s are not in the bundle (collect: kubectl -n %s get pods -o json)", ns, ns)})
			}
		} else {
			var evs []Evidence
			var states []string
			for _, pod := range pods {
				st := podState(pod)
				states = append(states, pod.Name+": "+st)
				evs = append(evs, Evidence{File: pod.Source.File, Line: pod.Source.Line, Object: pod.Ref(), Text: "Pod " + pod.Name + ": " + st})
			}
			chain = append(chain, Link{Component: comp, Finding: strings.Join(states, "; "), Evidence: evs})
		}
	}
	return chain
}

// stuckOwnerNamespace returns a stuck namespace whose name is a word of the usual
// owner's name ("keda" for "KEDA or an external metrics adapter"), or "".
func stuckOwnerNamespace(p *Pass, owner string) string {
	if owner == "" {
		return ""
	}
	words := strings.FieldsFunc(strings.ToLower(owner), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	})
	for _, ns := range sortedKeys(p.Stuck) {
		for _, w := range words {
			if len(w) >= 4 && (ns == w || strings.HasPrefix(ns, w+"-") || strings.HasSuffix(ns, "-"+w)) {
				return ns
			}
		}
	}
	return ""
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

func podState(pod *objects.Object) string {
	pi := pod.Pod
	s := "phase " + orDefault(pod.Phase, "unknown")
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

func (ix *Index) servicesDumped(ns string) bool { return ix.kindDumped(ns, "Service") }
func (ix *Index) podsDumped(ns string) bool     { return ix.kindDumped(ns, "Pod") }

// kindDumped reports whether the bundle has a dump of a kind covering namespace ns,
// even an empty one: an object of it in ns, a dump file of it inside a directory named
// after ns (`namespaces/ns/services.json`, `ns/pods.json`), or an all-namespaces dump
// (a file of it that holds several namespaces, or that lies outside every namespace
// directory, like `cluster/services.json`).
func (ix *Index) kindDumped(ns, kind string) bool {
	perFile := map[string]map[string]bool{}
	for _, o := range ix.ByKind[kind] {
		if o.Namespace == ns {
			return true
		}
		if perFile[o.Source.File] == nil {
			perFile[o.Source.File] = map[string]bool{}
		}
		perFile[o.Source.File][o.Namespace] = true
	}
	for _, nss := range perFile {
		if len(nss) > 1 {
			return true
		}
	}
	plural := strings.ToLower(kind) + "s"
	for _, f := range ix.Records.Files {
		base := path.Base(f)
		if !strings.HasPrefix(base, plural+".") && base != plural {
			continue
		}
		dir := path.Base(path.Dir(f))
		if dir == ns {
			return true
		}
		_, isNS := ix.Namespaces[dir]
		if _, hasObjects := ix.ByNamespace[dir]; !isNS && !hasObjects {
			return true // e.g. cluster/services.json: an all-namespaces dump
		}
	}
	return false
}

func objectRef(o *objects.Object) ObjectRef {
	ev := Evidence{File: o.Source.File, Line: o.Source.Line, Object: o.Ref(), Text: o.Ref()}
	return ObjectRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name,
		Finalizers: o.Finalizers, Deletion: timePtr(o.DeletionTimestamp), Source: &ev}
}

func fmtLabels(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
