package apidiscovery

import (
	"fmt"
	"regexp"
	"slices"
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

// ladder fixes each failing APIService's backend first, then offers to delete the
// stale APIService (safe when its backend lives in a namespace being deleted).
func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var safe, caution []findings.RemediationStep
	for _, name := range c.APIServices {
		safe, caution = apiServiceLadder(p.Index, p.Stuck, name, safe, caution)
	}
	return append(safe, caution...)
}

func apiServiceLadder(ix *index.Index, stuck map[string]bool, name string, safe, caution []findings.RemediationStep) ([]findings.RemediationStep, []findings.RemediationStep) {
	a := ix.APIServices[name]
	var svc *objects.ServiceReference
	if a != nil && a.APIService != nil {
		svc = a.APIService.Service
	}
	gv := kubemsg.GroupVersionOfAPIService(name)
	owner := kubemsg.WellKnownGroupOwner(kubemsg.GroupOf(gv))
	if svc != nil && !stuck[svc.Namespace] {
		if step, ok := tlsStep(ix, a, name, svc); ok {
			safe = append(safe, step) // the certificate is the fault: fix it before looking at pods
		}
		subj := findings.ServiceSubject(svc)
		facts := mechanism.BackendFacts(ix, svc)
		if c := a.Condition("Available"); c != nil {
			facts = append(facts, conditionFacts(svc, c)...)
		}
		look := shellsafe.Cmd("kubectl", "get", "apiservice", name, "-o", "yaml") + " && " +
			shellsafe.Cmd("kubectl", "-n", svc.Namespace, "get", "service", svc.Name, "-o", "wide") + " && " +
			shellsafe.Cmd("kubectl", "-n", svc.Namespace, "get", "endpointslices", "-l", "kubernetes.io/service-name="+svc.Name) + " && " +
			shellsafe.Cmd("kubectl", "-n", svc.Namespace, "get", "pods", "-o", "wide")
		then := fmt.Sprintf(" As soon as %s is Available=True, the namespace controller finishes within seconds.", name)
		notReady := findings.HasFact(facts, subj, findings.FactPodsNotReady) || findings.HasFact(facts, subj, findings.FactNoPods)
		switch {
		case findings.HasFact(facts, subj, findings.FactServiceMissing):
			safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe,
				Command: shellsafe.Cmd("kubectl", "-n", svc.Namespace, "get", "service,deployment,pods", "-o", "wide"),
				Premise: []findings.Fact{findings.F(subj, findings.FactServiceMissing)},
				Why:     fmt.Sprintf("Recreate Service %s/%s and its backend (reinstall %s), or remove what points at it.", svc.Namespace, svc.Name, findings.OrDefault(owner, "the component that serves "+name)) + then})
		case findings.HasFact(facts, subj, findings.FactPodsReady):
			safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe, Command: look,
				Premise: []findings.Fact{findings.F(subj, findings.FactPodsReady)},
				Why:     fmt.Sprintf("The pods behind Service %s/%s are Ready, so restarting them cannot help: the fault is on the way from kube-apiserver to them (see the root). Once it is fixed, check that %s turns Available=True; the namespace controller then finishes within seconds.", svc.Namespace, svc.Name, name)})
		case notReady || findings.HasFact(facts, subj, findings.FactNoReadyEndpoints):
			safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe, Command: look,
				Premise: []findings.Fact{findings.NotF(subj, findings.FactServiceMissing)},
				Why:     fmt.Sprintf("Fix the backend: make Service %s/%s have ready pods that kube-apiserver can reach (pod Ready? network path from the control plane to the pod network? certificates?).", svc.Namespace, svc.Name) + then})
		default:
			safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe, Command: look,
				Why: fmt.Sprintf("Check the backend: the bundle does not show whether Service %s/%s has ready pods; make it have Ready pods that kube-apiserver can reach (network path from the control plane to the pod network, certificates).", svc.Namespace, svc.Name) + then})
		}
		if d := mechanism.BackendWorkload(ix, svc); d != nil && notReady {
			kind := strings.ToLower(d.Kind)
			fact := findings.FactPodsNotReady
			if findings.HasFact(facts, subj, findings.FactNoPods) {
				fact = findings.FactNoPods
			}
			safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe,
				Command: shellsafe.Cmd("kubectl", "-n", d.Namespace, "rollout", "restart", kind+"/"+d.Name) + " && " + shellsafe.Cmd("kubectl", "-n", d.Namespace, "rollout", "status", kind+"/"+d.Name),
				Premise: []findings.Fact{findings.F(subj, fact)},
				Why:     fmt.Sprintf("Restart the backend %s once its root problem is fixed.", d.Ref())})
		}
	}
	if a == nil {
		usually := ""
		if owner != "" {
			usually = " (usually " + owner + ")"
		}
		safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe,
			Command: shellsafe.Cmd("kubectl", "get", "apiservice", name, "-o", `jsonpath={.spec.service}{"\n"}{.status.conditions}{"\n"}`),
			Why:     fmt.Sprintf("The APIService is not in the bundle: find the Service it points at and make its pods ready and reachable from the control plane%s. As soon as it is Available=True, the namespace controller finishes.", usually)})
	}
	del := shellsafe.Cmd("kubectl", "delete", "apiservice", name)
	if svc != nil && stuck[svc.Namespace] {
		safe = append(safe, findings.RemediationStep{Risk: findings.RiskSafe, Command: del,
			Premise: []findings.Fact{findings.F(findings.NamespaceSubject(svc.Namespace), findings.FactDeleting)},
			Why:     fmt.Sprintf("The backend lives in namespace %s, which is being deleted: this is the fix. Delete the APIService now; reinstall %s in a namespace that stays, if it is still needed.", svc.Namespace, findings.OrDefault(owner, "its server"))})
		return safe, caution
	}
	why := fmt.Sprintf("If the backend was removed on purpose or cannot be restored soon, delete the stale APIService: discovery succeeds again and every stuck namespace finishes. Whatever uses %s stops working until its server is reinstalled (reinstalling recreates the APIService).", gv)
	if owner != "" {
		why += " Usually served by " + owner + "."
	}
	caution = append(caution, findings.RemediationStep{Risk: findings.RiskCaution, Command: del, Why: why})
	return safe, caution
}

// tlsKind says which TLS failure an APIService's Available condition reports: "san"
// (the certificate does not name the Service), "expired", "ca" (signed by another CA
// than spec.caBundle), "" when it is not a certificate failure.
func tlsKind(text string) string {
	if kubemsg.ClassifyError(text).Code != "x509" {
		return ""
	}
	switch {
	case strings.Contains(text, "certificate is valid for") || strings.Contains(text, "doesn't contain any IP SANs") || strings.Contains(text, "not valid for any names"):
		return "san"
	case strings.Contains(text, "certificate has expired") || strings.Contains(text, "is not yet valid"):
		return "expired"
	}
	return "ca"
}

// tlsStep is the first rung when the aggregator cannot verify the backend's serving
// certificate (FailedDiscoveryCheck with an x509 error): from 1.36 the availability
// check verifies it with spec.caBundle and the name <service>.<namespace>.svc
// (kube-aggregator v0.36 remote_available_controller.go BuildTransportConfig; 1.35 and
// earlier used Insecure: true there, while the proxy verified), so an APIService that
// looked Available=True turns False on the upgrade, with nothing wrong in its pods.
func tlsStep(ix *index.Index, a *objects.Object, name string, svc *objects.ServiceReference) (findings.RemediationStep, bool) {
	c := a.Condition("Available")
	if c == nil || c.Status == "True" {
		return findings.RemediationStep{}, false
	}
	kind := tlsKind(c.Reason + " " + c.Message)
	if kind == "" {
		return findings.RemediationStep{}, false
	}
	host := svc.Name + "." + svc.Namespace + ".svc"
	var fix string
	switch kind {
	case "san":
		fix = fmt.Sprintf("the backend's serving certificate does not name %s: reissue it with that DNS name (SAN)", host)
	case "expired":
		fix = "the backend's serving certificate has expired (or is not valid yet): renew it and restart the backend"
	default:
		fix = fmt.Sprintf("the backend's serving certificate is not signed by the CA in spec.caBundle of APIService %s: put the CA that signed it in spec.caBundle (cert-manager: the cert-manager.io/inject-ca-from annotation; a chart: its caBundle value), or serve a certificate signed by that CA", name)
	}
	version := " " + TLSCheckNote(ix.KubernetesVersion, host) + "."
	if version == " ." {
		version = ""
	}
	look := shellsafe.Cmd("kubectl", "get", "apiservice", name, "-o", "jsonpath={.spec.caBundle}") + " | base64 -d | openssl x509 -noout -subject -issuer -enddate && " +
		shellsafe.Cmd("kubectl", "-n", svc.Namespace, "get", "service", svc.Name, "-o", "wide")
	return findings.RemediationStep{Risk: findings.RiskSafe, Command: look,
		Why: fmt.Sprintf("Fix the certificate, not the pods: %s.%s Setting spec.insecureSkipTLSVerify: true is only a stopgap. As soon as %s is Available=True, the namespace controller finishes within seconds.", fix, version, name)}, true
}

// TLSCheckNote says what the cluster's version means for a certificate failure of the
// availability check: from 1.36 it verifies the backend (kube-aggregator v0.36
// BuildTransportConfig, shared with the proxy, which verified in 1.35 too), so the fault
// is visible in the condition only from 1.36; "" for a version before 1.36 (the check
// did not verify there: the x509 error comes from elsewhere).
func TLSCheckNote(version, host string) string {
	if version != "" && !index.MinorAtLeast(version, 36) {
		return ""
	}
	n := "from 1.36 kube-apiserver's availability check verifies the backend's certificate against spec.caBundle and the name " + host + ", as its proxy (and so discovery) always did; 1.35 and earlier skipped it in the check, so the same fault showed there as Available=True with discovery failing anyway"
	if version != "" {
		n += "; the cluster runs " + version
	} else {
		n += "; the bundle does not say which version the cluster runs"
	}
	return n
}

func example(p *analyzer.Pass) findings.Cause {
	name := "v1beta1.metrics.k8s.io"
	p.Index.APIServices[name] = &objects.Object{Kind: "APIService", Name: name, APIService: &objects.APIServiceInfo{
		Group: "metrics.k8s.io", Version: "v1beta1",
		Service: &objects.ServiceReference{Namespace: "SERVICE-NAMESPACE", Name: "SERVICE"}}}
	return findings.Cause{GroupVersions: []string{"metrics.k8s.io/v1beta1"}, APIServices: []string{name}}
}

// risks lists APIServices that are not Available, and API groups that Warning events
// show answering 503 (for bundles without APIService objects).
func risks(ix *index.Index, reported map[string]bool) []findings.Risk {
	var out []findings.Risk
	for _, name := range findings.SortedKeys(ix.APIServices) {
		a := ix.APIServices[name]
		c := a.Condition("Available")
		if c == nil || c.Status == "True" || reported["APIService/"+name] {
			continue
		}
		safe, caution := apiServiceLadder(ix, nil, name, nil, nil)
		why := c.Reason // a table row shows the reason only, a dump the message too
		if c.Message != "" {
			why = strings.TrimPrefix(why+": "+c.Message, ": ")
		}
		if why != "" {
			why = " (" + why + ")"
		}
		out = append(out, findings.Risk{Type: Name, Object: "APIService/" + name,
			Summary:  fmt.Sprintf("APIService %s is Available=%s%s. Discovery of %s fails, so any namespace deleted now will hang in Terminating.", name, c.Status, why, kubemsg.GroupVersionOfAPIService(name)),
			Evidence: []findings.Evidence{findings.ConditionEvidence(a, c)},
			Fix:      append(safe, caution...)})
	}
	out = append(out, eventRisks(ix)...)
	return append(out, lineRisks(ix, reported, out)...)
}

// lineRisks finds group/versions that cluster-wide discovery lines (kubectl stderr,
// the garbage collector, quota, a condition message pasted without its namespace) show
// failing, when no APIService object or event already speaks for them: a namespace
// deleted while they fail hangs.
func lineRisks(ix *index.Index, reported map[string]bool, found []findings.Risk) []findings.Risk {
	byName := map[string][]*logs.Entry{}
	errs := map[string]string{}
	var names []string
	for _, e := range ix.RuleLines(Name, wideKey) {
		_, fs := parseDiscovery(e, e.Detail())
		for _, f := range fs {
			name := kubemsg.APIServiceName(f.GroupVersion)
			if _, ok := byName[name]; !ok {
				names = append(names, name)
				errs[name] = f.Err
			}
			byName[name] = append(byName[name], e)
		}
	}
	var out []findings.Risk
	for _, name := range names {
		if reported["APIService/"+name] || ix.APIServices[name] != nil || slices.ContainsFunc(found, func(r findings.Risk) bool {
			return r.Object == "APIService/"+name || strings.Contains(r.Summary, kubemsg.GroupOf(kubemsg.GroupVersionOfAPIService(name)))
		}) {
			continue // the APIService object (healthy or not) or an event speaks for it
		}
		lines := byName[name]
		findings.SortEntries(lines)
		gv := kubemsg.GroupVersionOfAPIService(name)
		safe, caution := apiServiceLadder(ix, nil, name, nil, nil)
		summary := fmt.Sprintf("Discovery of %s fails (%s, %s): while it does, any namespace deleted will hang in Terminating. The bundle has no APIService object to confirm it (collect: kubectl get apiservice %s -o yaml).",
			gv, findings.Clip(errs[name], 120), findings.LineSpan(lines), name)
		if owner := kubemsg.WellKnownGroupOwner(kubemsg.GroupOf(gv)); owner != "" {
			summary += " " + kubemsg.GroupOf(gv) + " is usually served by " + owner + "."
		}
		out = append(out, findings.Risk{Type: Name, Object: "APIService/" + name, Summary: summary,
			Evidence: findings.SampleLines(lines, 3), Fix: append(safe, caution...), Inline: []string{"kubectl get apiservice " + name + " -o yaml"}})
	}
	return out
}

// unavailableGroupRE finds the group of a client-side 503 in an event message:
// "the server is currently unable to handle the request (get pods.metrics.k8s.io)".
var unavailableGroupRE = regexp.MustCompile(`the server is currently unable to handle the request \((?:get|list|watch) [a-z0-9-]+\.([a-z0-9.-]+)\)`)

// eventRisks finds API groups that Warning events show as unavailable, for bundles
// without APIService objects (cluster-info dumps, troubleshoot bundles).
func eventRisks(ix *index.Index) []findings.Risk {
	var risks []findings.Risk
	byGroup := map[string][]*objects.Object{}
	var groups []string
	for _, ev := range ix.ByKind["Event"] {
		if ev.Event == nil {
			continue
		}
		m := unavailableGroupRE.FindStringSubmatch(ev.Event.Message)
		if m == nil {
			continue
		}
		if _, ok := byGroup[m[1]]; !ok {
			groups = append(groups, m[1])
		}
		byGroup[m[1]] = append(byGroup[m[1]], ev)
	}
	for _, g := range groups {
		known := false
		for name := range ix.APIServices {
			if kubemsg.GroupOf(kubemsg.GroupVersionOfAPIService(name)) == g {
				known = true // the APIService objects speak for themselves
			}
		}
		if known {
			continue
		}
		evs := byGroup[g]
		var evidence []findings.Evidence
		for _, e := range evs[:min(3, len(evs))] {
			evidence = append(evidence, findings.Evidence{File: e.Source.File, Line: e.Source.Line, Time: findings.TimePtr(e.Event.Last), Object: e.Ref(),
				Text: fmt.Sprintf("%s %s (%s/%s): %s", e.Event.Type, e.Event.Reason, e.Event.Involved.Kind, e.Event.Involved.Name, e.Event.Message)})
		}
		summary := fmt.Sprintf("Events show the API group %s answering 503 (\"the server is currently unable to handle the request\"): its aggregated API server is down, and while it is, any namespace deleted will hang in Terminating.", g)
		if owner := kubemsg.WellKnownGroupOwner(g); owner != "" {
			summary += " " + g + " is usually served by " + owner + "."
		}
		summary += " The bundle has no APIService objects to confirm it (collect: kubectl get apiservices -o json)."
		risks = append(risks, findings.Risk{Type: Name, Object: "group " + g, Summary: summary, Evidence: evidence, Inline: []string{"kubectl get apiservices -o json"},
			Fix: []findings.RemediationStep{{Risk: findings.RiskSafe,
				Command: "kubectl get apiservices | grep -F " + shellsafe.Quote(g),
				Why:     "Find the APIService of " + g + " and the Service it points at; make its pods ready and reachable from the control plane, or delete the APIService if its server was removed on purpose."}}})
	}
	return risks
}
