package apidiscovery

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Name is the cause type this rule reports.
const Name = "api-discovery-failure"

// Rule finds aggregated API group/versions whose discovery fails.
var Rule = &analyzer.Rule{
	Name: Name,
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
	Lines: []index.Match{
		{Phrases: []string{
			"unable to retrieve the complete list of server APIs", // client-go discovery (KCM quota, pre-1.16 namespace controller, kubectl)
			"failed to discover some groups",                      // KCM garbage collector
			"nable to get all supported resources from server",    // namespace deleter start-up (1.35: "Unable to get ...")
			"Discovery failed for some groups",                    // the NamespaceDeletionDiscoveryFailure message echoed in logs and events
			"unable to fetch metrics from",                        // HPA metrics clients (metrics.k8s.io & co. unavailable)
			"couldn't get resource list for",                      // client-go memcache (KCM RESTMapper, kubectl) to 1.36
			kubemsg.MemcacheStructured,                            // the same, 1.37+: "Couldn't get resource list" err=... groupVersion=|gv=
			"currently unable to handle the request",              // 503 rendered by clients
		}, Keys: discoveryKeys},
		{Phrases: []string{
			"failed with: ",                    // aggregator availability and OpenAPI aggregation
			"changing APIService availability", // aggregator, V(2), 1.22+
			"error resolving ",                 // aggregator proxy
		}, Keys: apiServiceKeys},
	},
	Kinds:   []string{"APIService", "Service", "Endpoints", "EndpointSlice", "Pod", "Node", "Deployment", "StatefulSet", "DaemonSet"},
	Run:     runAPIDiscovery,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsGroups},
	Ladder:  ladder,
	Risks:   risks,
	Example: example,
}

// apiServiceKeys keeps kube-apiserver's lines about an APIService, by APIService name.
func apiServiceKeys(e *logs.Entry, d string) []string {
	if f, ok := kubemsg.ParseAPIServiceFailure(d); ok {
		return []string{f.APIService}
	} else if e.Message == "changing APIService availability" && e.Field("name") != "" {
		return []string{e.Field("name")}
	}
	return nil
}

// Keys of the discovery lines: nsKey+NAMESPACE for the namespace controller's own
// failures, wideKey for the cluster-wide ones (quota, garbage collector, kubectl, the
// pre-1.16 namespace controller). Both start with a NUL, which no APIService name has.
const (
	nsKey   = "\x00ns/"
	wideKey = "\x00wide"
)

// discoveryKeys keeps the lines that list failing group/versions.
func discoveryKeys(e *logs.Entry, d string) []string {
	if ns, fs := parseDiscovery(e, d); len(fs) > 0 {
		if ns != "" {
			return []string{nsKey + ns}
		}
		return []string{wideKey}
	}
	return nil
}

// parseDiscovery returns the failing group/versions a line lists, and the namespace
// it names when it is the namespace controller's own failure.
func parseDiscovery(e *logs.Entry, d string) (string, []kubemsg.GroupVersionError) {
	ns, errText, ok := kubemsg.ParseNamespaceDeletionFailed(d)
	if !ok && e.Message == "Deletion of namespace failed" && kubemsg.IsNamespaceName(e.Field("namespace")) {
		// 1.35+: "Deletion of namespace failed" err="..." namespace="<ns>"
		ns, errText, ok = e.Field("namespace"), e.Field("err"), true
	}
	if ok {
		return ns, kubemsg.ParseDiscoveryFailure(errText)
	}
	if f := kubemsg.ParseDiscoveryFailure(d); len(f) > 0 {
		return "", f
	}
	if f, ok := kubemsg.ParseMemcacheFailure(d); ok {
		return "", []kubemsg.GroupVersionError{f}
	}
	// 1.37+ client-go: the group/version is a key of its own (groupVersion= or gv=)
	if f, ok := kubemsg.MemcacheFailureOf(e.Message, e.Field); ok {
		return "", []kubemsg.GroupVersionError{f}
	}
	if g := e.Field("groups"); g != "" && strings.Contains(d, "failed to discover some groups") {
		return "", kubemsg.ParseDiscoveryFailure("failed to discover some groups " + g)
	}
	return "", nil
}

// discoveryLine is a kept line with the group/versions it lists.
type discoveryLine struct {
	entry    *logs.Entry
	failures []kubemsg.GroupVersionError
}

// discoveryLines returns the kept discovery lines under a key, parsed.
func discoveryLines(p *analyzer.Pass, key string) []discoveryLine {
	var out []discoveryLine
	for _, e := range p.Lines(key) {
		_, fs := parseDiscovery(e, e.Detail())
		out = append(out, discoveryLine{e, fs})
	}
	return out
}

type gvFinding struct {
	gv       string
	errText  string
	evidence []findings.Evidence
}

func runAPIDiscovery(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	found := map[string]*gvFinding{}
	var order []string
	add := func(gv, errText string, ev ...findings.Evidence) {
		f, ok := found[gv]
		if !ok {
			f = &gvFinding{gv: gv, errText: errText}
			found[gv] = f
			order = append(order, gv)
		}
		f.evidence = append(f.evidence, ev...)
	}
	var causeEvidence []findings.Evidence
	var lines []*logs.Entry
	confidence := ""
	wideOnly := false
	var notes []string

	cond := p.Condition(kubemsg.CondDiscoveryFailure)
	if cond != nil && cond.Status == "True" {
		ev := findings.ConditionEvidence(p.Object, cond)
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
	for _, dl := range discoveryLines(p, nsKey+p.Namespace) {
		nsLines = append(nsLines, dl.entry)
		for _, f := range dl.failures {
			add(f.GroupVersion, f.Err)
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
		return nil, findings.CondState(cond) + ": discovery succeeded on the controller's last pass"
	}
	specific := len(found) > 0
	var wide []*logs.Entry
	for _, dl := range discoveryLines(p, wideKey) {
		if specific && !anyGV(dl.failures, found) {
			continue
		}
		wide = append(wide, dl.entry)
		if !specific {
			for _, f := range dl.failures {
				add(f.GroupVersion, f.Err)
			}
		}
	}
	if len(wide) > 0 {
		if n := kubectlWording(wide, ix.KubernetesVersion); n != "" {
			notes = append(notes, n)
		}
		lines = append(lines, wide...)
		if confidence == "" {
			// only cluster-wide lines (garbage collector, quota, memcache, kubectl):
			// enough at lower confidence, higher when an APIService object confirms
			confidence = "low"
			wideOnly = true
			notes = append(notes, "no condition or line names this namespace; the failing discovery is cluster-wide (it blocks every namespace deletion while it lasts), correlated here by time")
		}
	}
	if len(found) == 0 && cond == nil {
		// No condition and no log line: an unavailable APIService still blocks every deletion.
		for _, name := range findings.SortedKeys(ix.APIServices) {
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
		if cond.Status == "True" {
			return []findings.Cause{unnamedDiscovery(cond, causeEvidence, notes)}, ""
		}
		return nil, ""
	}

	// one cause per failing backend: the group/versions whose APIServices point at the
	// same Service are one fault (one chain, one root, one ladder); the others, and
	// those whose APIService is not in the bundle, one cause each
	var causes []findings.Cause
	for _, gvs := range byBackend(ix, order) {
		var names []string
		var heads [][]findings.Link
		var backend []findings.Link
		var summaries []string
		var kasAll []*logs.Entry
		for i, gv := range gvs {
			f := found[gv]
			name := kubemsg.APIServiceName(gv)
			names = append(names, name)
			head, back, summary, kasLines := apiServiceChain(p, gv, name, f.errText, causeEvidence, nsLines, wide)
			if i > 0 {
				head = head[1:] // one namespace-controller link for all (merged below)
			}
			heads = append(heads, head)
			if i == 0 {
				backend = back
			}
			summaries = append(summaries, summary)
			kasAll = append(kasAll, kasLines...)
		}
		var chain []findings.Link
		for _, h := range heads {
			chain = append(chain, h...)
		}
		if len(gvs) > 1 {
			chain = mergeSiblings(chain)
			for i := range summaries[:len(summaries)-1] {
				summaries[i] = strings.TrimSuffix(summaries[i], ", backed by "+backendOf(ix, names[i]))
			}
			var errs []string
			for _, gv := range gvs {
				errs = append(errs, gv+": "+found[gv].errText)
			}
			chain[0].Finding = "discovery of " + strings.Join(gvs, " and ") + " fails: " + strings.Join(errs, "; ")
		}
		chain = append(chain, backend...)
		cause := findings.Cause{Confidence: confidence, Finalizers: []string{}, Objects: []findings.ObjectRef{},
			GroupVersions: gvs, APIServices: names, Chain: chain, Notes: notes}
		ev := append([]findings.Evidence{}, causeEvidence...)
		for _, name := range names {
			if a := ix.APIServices[name]; a != nil {
				cause.Objects = append(cause.Objects, findings.ObjectRefOf(a))
				if c := a.Condition("Available"); c != nil && c.Status != "True" && len(causeEvidence) == 0 {
					ev = append(ev, findings.ConditionEvidence(a, c)) // the only evidence: the APIService's own condition
				}
			}
		}
		if len(kasAll) > 0 && confidence == "medium" && cond != nil {
			cause.Confidence = "high"
		}
		if a := ix.APIServices[names[0]]; wideOnly && a != nil {
			if c := a.Condition("Available"); c != nil && c.Status != "True" {
				cause.Confidence = "medium"
			}
		} else if wideOnly && len(kasAll) > 0 {
			cause.Confidence = "medium"
		}
		what := "Discovery of " + strings.Join(gvs, " and ") + " fails"
		cause.Summary = fmt.Sprintf("%s: %s. The namespace controller cannot list the namespace's content, so it keeps the namespace's \"kubernetes\" finalizer; every namespace deleted while this lasts hangs the same way.",
			what, strings.Join(summaries, "; "))
		var all []*logs.Entry
		if len(order) == len(gvs) {
			all = append(append(all, lines...), kasAll...)
		} else {
			for _, gv := range gvs {
				all = append(all, filterGV(lines, gv)...)
			}
			all = append(all, kasAll...)
		}
		cause.Evidence = ev
		cause.AttachLines(all, p.Deletion, "discovery errors for "+strings.Join(gvs, ", "), 8)
		for _, gv := range gvs {
			cause.ClaimGroup(kubemsg.GroupOf(gv)) // objects of the group cannot be listed or deleted
		}
		causes = append(causes, cause)
	}
	return causes, ""
}

// kubectlWording says which client printed the cluster-wide discovery lines when
// their wording dates them: client-go v0.37+ (kubectl 1.37+) writes
// "Couldn't get resource list" with the group/version in its own key, and asks only for
// aggregated discovery v2, so what it reports depends on the kubectl × server pair.
func kubectlWording(wide []*logs.Entry, server string) string {
	for _, e := range wide {
		if e.Message != kubemsg.MemcacheStructured {
			continue
		}
		who := "a client-go v0.37+ client (kubectl 1.37+)"
		if e.Component == "kubectl" {
			who = "kubectl 1.37 or newer"
		}
		n := fmt.Sprintf("the discovery errors at %s are in the wording of %s: \"Couldn't get resource list\" with the group/version in its own groupVersion=/gv= key (client-go v0.37 memcache.go:403/:133); that kubectl asks only for aggregated discovery v2, so against a 1.27-1.29 server it reports the 503 itself, never \"stale GroupVersion discovery\"", fmt.Sprintf("%s:%d", e.File, e.Line), who)
		if server != "" {
			n += "; the cluster runs " + server
		}
		return n
	}
	return ""
}

// backendOf names the Service an APIService points at ("Service ns/name"), or "".
func backendOf(ix *index.Index, name string) string {
	if a := ix.APIServices[name]; a != nil && a.APIService != nil && a.APIService.Service != nil {
		return findings.ServiceSubject(a.APIService.Service)
	}
	return ""
}

// mergeSiblings makes one link of the links of several APIServices (and of their
// kube-apiserver lines) that share a backend: they are one step of the chain, side by
// side, not one behind the other.
func mergeSiblings(chain []findings.Link) []findings.Link {
	var out []findings.Link
	at := map[string]int{}
	for _, l := range chain {
		kind := l.Component
		switch {
		case strings.HasPrefix(kind, "APIService "):
			kind = "APIService"
		case kind == "deadlock" || strings.HasPrefix(kind, "kube-apiserver"):
		default:
			out = append(out, l)
			continue
		}
		i, ok := at[kind]
		if !ok {
			at[kind] = len(out)
			out = append(out, l)
			continue
		}
		m := &out[i]
		if kind == "APIService" {
			m.Component = "APIServices " + strings.TrimPrefix(m.Component, "APIService ") + ", " + strings.TrimPrefix(l.Component, "APIService ")
		}
		if m.Finding != l.Finding {
			m.Finding += "; " + l.Finding
		}
		m.Fault = m.Fault || l.Fault
		m.Evidence = append(m.Evidence, l.Evidence...)
		m.Facts = append(m.Facts, l.Facts...)
		if m.Fix == nil {
			m.Fix = l.Fix
		}
	}
	return out
}

// byBackend groups failing group/versions by the Service their APIService points at
// (in the order first seen); a group/version whose APIService is not in the bundle, or
// names no Service, is a group of its own.
func byBackend(ix *index.Index, order []string) [][]string {
	var out [][]string
	at := map[string]int{}
	for _, gv := range order {
		key := "gv:" + gv
		if a := ix.APIServices[kubemsg.APIServiceName(gv)]; a != nil && a.APIService != nil && a.APIService.Service != nil {
			key = "svc:" + findings.ServiceSubject(a.APIService.Service)
		}
		if i, ok := at[key]; ok {
			out[i] = append(out[i], gv)
			continue
		}
		at[key] = len(out)
		out = append(out, []string{gv})
	}
	return out
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
// the deepest component the bundle has evidence for: head is the namespace controller,
// kube-apiserver and APIService links, backend the links of the Service it points at
// (and of the network path), which APIServices sharing the Service share.
func apiServiceChain(p *analyzer.Pass, gv, name, errText string, condEv []findings.Evidence, nsLines, wide []*logs.Entry) (head, backend []findings.Link, summary string, kasLines []*logs.Entry) {
	ix := p.Index
	kcm := findings.Link{Component: "namespace controller (kube-controller-manager)", Fault: true,
		Finding: fmt.Sprintf("discovery of %s fails: %s", gv, errText), Code: findings.ErrorCode(errText)}
	kcm.Evidence = append(kcm.Evidence, condEv...)
	kcm.Evidence = append(kcm.Evidence, findings.SampleLines(filterGV(append(append([]*logs.Entry{}, nsLines...), wide...), gv), 4)...)
	head = append(head, kcm)

	summary = "APIService " + name
	kasLines = p.Lines(name)
	network := false
	if len(kasLines) > 0 {
		sorted := append([]*logs.Entry{}, kasLines...)
		findings.SortEntries(sorted)
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
		finding := fmt.Sprintf("kube-apiserver reports APIService %s failing (%d %s)", name, len(sorted), findings.Plural(len(sorted), "lines", "line"))
		for _, code := range order {
			finding += "; " + code + ": " + classes[code].Meaning
		}
		agg := findings.Link{Component: "kube-apiserver (aggregator)", Finding: finding, Evidence: findings.SampleLines(sorted, 6), Fault: true}
		if len(order) > 0 {
			agg.Code = findings.ClassCode(order[0])
		}
		head = append(head, agg)
		_, timeout := classes["timeout"]
		_, noRoute := classes["no-route"]
		network = timeout || noRoute // the network path is the deepest link: after the backend's links
	} else if ix.HasLogsOf("kube-apiserver") {
		head = append(head, findings.Link{Component: "kube-apiserver (aggregator)", Finding: "the kube-apiserver log in the bundle has no line about APIService " + name})
	}
	defer func() {
		if network {
			backend = append(backend, networkLinks(p)...)
		}
	}()

	a := ix.APIServices[name]
	group := kubemsg.GroupOf(gv)
	owner := kubemsg.WellKnownGroupOwner(group)
	if a == nil {
		f := "APIService " + name + " is not in the bundle"
		if owner != "" {
			f += "; " + group + " is usually served by " + owner
		}
		var inline []string
		if !ix.Has("APIService") {
			f += " (collect: kubectl get apiservices -o json)"
			inline = []string{"kubectl get apiservices -o json"}
		}
		// not in the bundle: a gap, not a proven fault (the ladder says what to look at)
		head = append(head, findings.Link{Component: "APIService " + name, Finding: f, Inline: inline, Facts: []findings.Fact{findings.F("APIService "+name, findings.FactNotInBundle)}})
		if owner != "" {
			summary += " (usually " + owner + ")"
		}
		summary += " cannot serve it (" + kubemsg.ClassifyError(errText).Code + ")"
		return head, backend, summary, kasLines
	}
	link := findings.Link{Component: "APIService " + name, Facts: []findings.Fact{findings.F("APIService "+name, findings.FactInBundle)}}
	if c := a.Condition("Available"); c != nil {
		link.Finding = fmt.Sprintf("Available=%s reason=%s", c.Status, c.Reason)
		if c.Message != "" {
			link.Finding += ": " + c.Message
		}
		if !c.LastTransitionTime.IsZero() {
			link.Finding += " (since " + findings.FmtTime(c.LastTransitionTime) + ")"
		}
		link.Evidence = append(link.Evidence, findings.ConditionEvidence(a, c))
		link.Fault = c.Status != "True"
		link.Code = findings.ErrorCode(c.Reason + " " + c.Message)
		summary += fmt.Sprintf(" is Available=%s (%s)", c.Status, c.Reason)
		if cl := kubemsg.ClassifyError(c.Reason + " " + c.Message); cl.Code != "unknown" {
			link.Finding += " — " + cl.Meaning
			if cl.Code == "x509" && c.Status != "True" && a.APIService != nil && a.APIService.Service != nil {
				if n := TLSCheckNote(ix.KubernetesVersion, a.APIService.Service.Name+"."+a.APIService.Service.Namespace+".svc"); n != "" {
					link.Finding += "; " + n
				}
			}
		}
		if a.APIService != nil && a.APIService.Service != nil {
			link.Facts = append(link.Facts, conditionFacts(a.APIService.Service, c)...)
		}
	} else {
		link.Finding = "no Available condition recorded"
		summary += " has no Available condition"
	}
	head = append(head, link)
	if a.APIService == nil || a.APIService.Service == nil {
		return head, backend, summary, kasLines
	}
	svcRef := a.APIService.Service
	port := mechanism.Port(svcRef)
	summary += fmt.Sprintf(", backed by Service %s/%s", svcRef.Namespace, svcRef.Name)
	backend = mechanism.BackendChain(ix, svcRef)
	if c := a.Condition("Available"); c != nil && c.Status != "True" && c.Reason == "ServiceNotFound" &&
		len(backend) > 0 && findings.HasFact(backend[0].Facts, findings.ServiceSubject(svcRef), findings.FactServiceUnknown) {
		// the Service is not in the bundle, but the aggregator's condition says it does not exist
		backend[0] = mechanism.ServiceMissingLink(svcRef, "APIService "+name+" reports ServiceNotFound", []findings.Evidence{findings.ConditionEvidence(a, c)})
	}
	// a backend in a namespace being deleted is the deepest link: why the Service or its
	// pods are gone, and why they cannot come back
	if p.Stuck[svcRef.Namespace] {
		backend = append(backend, findings.Link{Component: "deadlock", Fault: true, Code: findings.CodeInTerminatingNamespace,
			Facts: []findings.Fact{findings.F(findings.NamespaceSubject(svcRef.Namespace), findings.FactDeleting)},
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "delete", "apiservice", name),
				Premise: []findings.Fact{findings.F(findings.NamespaceSubject(svcRef.Namespace), findings.FactDeleting)},
				Why:     fmt.Sprintf("The backend lives in namespace %s, which is being deleted: delete the APIService to break the cycle; reinstall its server in a namespace that stays, if it is still needed.", svcRef.Namespace)},
			Finding:  fmt.Sprintf("the APIService's backend Service lives in namespace %q, which is itself being deleted: its pods are gone or going, so discovery can never recover on its own. Delete the APIService (or recreate the backend elsewhere) to break the cycle", svcRef.Namespace),
			Evidence: []findings.Evidence{findings.FieldEvidence(a, "spec.service", fmt.Sprintf("spec.service: %s/%s:%d", svcRef.Namespace, svcRef.Name, port))}})
		summary += fmt.Sprintf(" in namespace %s, which is itself being deleted (self-inflicted deadlock)", svcRef.Namespace)
	}
	return head, backend, summary, kasLines
}

// conditionFacts are what an APIService's Available condition establishes about its
// Service: the aggregator checks that the Service exists and has endpoints.
func conditionFacts(ref *objects.ServiceReference, c *objects.Condition) []findings.Fact {
	if c.Status == "True" {
		return nil
	}
	switch c.Reason {
	case "ServiceNotFound":
		return []findings.Fact{findings.F(findings.ServiceSubject(ref), findings.FactServiceMissing)}
	case "MissingEndpoints":
		return []findings.Fact{findings.F(findings.ServiceSubject(ref), findings.FactNoReadyEndpoints)}
	}
	return nil
}

// networkLinks adds what the bundle says about the network path from the control
// plane to the pod network when the aggregator's calls time out or find no route:
// cloud route-controller failures and cloud permission errors.
func networkLinks(p *analyzer.Pass) []findings.Link {
	ix := p.Index
	routeLines, denials := ix.CloudLines(kubemsg.CloudRoute)
	if len(routeLines)+len(denials) == 0 {
		// a hypothesis from the error class, not a proven fault: never the root
		return []findings.Link{{Component: "network path (control plane → pod network)",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "nodes", "-o", "wide") + " && " + mechanism.CloudLogsCommand,
				Why: "kube-apiserver's calls to the backend time out or find no route: check the routes from the control-plane hosts to the pod network (cloud route table, CNI, firewalls, security groups)."},
			Finding: "the calls time out or find no route, which points at the network path (routes, CNI, firewalls) rather than at the backend pods; the bundle has no cloud-controller-manager or CNI log line about routes or permissions (collect: cloud-controller-manager and CNI logs, the node's routing table (ip route), the cloud route table)"}}
	}
	// a refused call ("Couldn't reconcile node routes: ... UnauthorizedOperation") is
	// filed as a refusal: the permission link says it; the route link shows the others
	comp := "cloud-controller-manager (route controller)"
	first := append(append([]*logs.Entry{}, routeLines...), denials...)
	findings.SortEntries(first)
	if c := first[0].Component; c != "" && c != "cloud-controller-manager" {
		comp = c
	}
	var out []findings.Link
	if len(routeLines) > 0 {
		out = append(out, findings.Link{Component: comp, Fault: true, Evidence: findings.SampleLines(routeLines, 3), Code: findings.CodeNoRoute,
			Finding: "the route controller cannot create the routes to the pod network, so kube-apiserver cannot reach pods on other nodes. " + findings.LineSpan(routeLines) + ".",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "nodes", "-o", "custom-columns=NAME:.metadata.name,PODCIDR:.spec.podCIDR,NETWORK:.status.conditions[?(@.type==\"NetworkUnavailable\")].reason"),
				Why: "Restore the routes from the control plane to every node's pod CIDR (the route controller recreates them once it can)."}})
	}
	if l, ok := mechanism.CloudPermissionLink(ix, kubemsg.CloudRoute, "route controller",
		"The routes come back on its next pass, kube-apiserver reaches the backend again and every stuck namespace finishes on its own."); ok {
		out = append(out, l)
	}
	return out
}

func filterGV(es []*logs.Entry, gv string) []*logs.Entry {
	var out []*logs.Entry
	for _, e := range es {
		if index.LineHolds(e, e.Detail(), gv) || strings.Contains(e.Field("groups"), gv) ||
			e.Field("groupVersion") == gv || e.Field("gv") == gv { // 1.37+ client-go memcache keys
			out = append(out, e)
		}
	}
	findings.SortEntries(out)
	return out
}

// unnamedDiscovery is the cause a NamespaceDeletionDiscoveryFailure condition proves
// when its message does not name the group/version (the paste cut it, "... 1 failing:
// unable t"): the namespace deleter writes the condition only when discovery failed.
func unnamedDiscovery(cond *objects.Condition, ev []findings.Evidence, notes []string) findings.Cause {
	finding := "NamespaceDeletionDiscoveryFailure is True: " + findings.Clip(cond.Message, 160)
	return findings.Cause{Confidence: "low", Finalizers: []string{}, Objects: []findings.ObjectRef{},
		GroupVersions: []string{}, APIServices: []string{},
		Chain:    []findings.Link{{Component: "namespace controller", Finding: finding, Fault: true, Evidence: ev, Code: findings.ErrorCode(cond.Message)}},
		Evidence: ev, Notes: notes, Inline: []string{"kubectl get apiservice; kubectl get ns NAME -o yaml"},
		Summary: "Discovery of some API group/version fails (the namespace's NamespaceDeletionDiscoveryFailure condition), but the message the bundle shows does not name it: " +
			"the namespace controller cannot list the namespace's content, so it keeps the namespace's \"kubernetes\" finalizer (collect: kubectl get apiservice; kubectl get ns NAME -o yaml)."}
}
