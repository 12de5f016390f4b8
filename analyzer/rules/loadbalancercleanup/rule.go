// Package loadbalancercleanup is the rule for LoadBalancer Services whose cloud load
// balancer cannot be deleted: the service controller's finalizer
// service.kubernetes.io/load-balancer-cleanup stays, and with it the Service and the
// namespace.
package loadbalancercleanup

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
const Name = "load-balancer-cleanup"

// Finalizer is the service controller's finalizer on LoadBalancer Services
// (k8s.io/cloud-provider/controllers/service, since 1.16).
const Finalizer = "service.kubernetes.io/load-balancer-cleanup"

// Rule finds LoadBalancer Services that wait for their cloud load balancer's deletion.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `A LoadBalancer Service keeps its cleanup finalizer because the cloud load balancer cannot be deleted.

The service controller of cloud-controller-manager (of kube-controller-manager for the
in-tree cloud providers) puts service.kubernetes.io/load-balancer-cleanup on every
Service of type LoadBalancer and removes it only once it has deleted the cloud load
balancer. When it cannot (it is not running, or the cloud refuses its calls: a role
or policy that lost elasticloadbalancing:DeleteLoadBalancer, Microsoft.Network/
loadBalancers/delete, compute.forwardingRules.delete), the Service stays, and the
namespace with it.

Evidence: the Services of the namespace with the finalizer and a deletionTimestamp,
the NamespaceFinalizersRemaining condition naming it, the service controller's
"failed to delete load balancer" lines and the clouds' refusals attributed to it, the
Services' DeleteLoadBalancerFailed/SyncLoadBalancerFailed events, and whether
cloud-controller-manager runs.`,
	Lines: []index.Match{{Phrases: []string{"error processing service"}, // service controller: "error processing service %v (retrying ...): %v"
		Keys: serviceKeys}},
	Kinds:   []string{"Service", "Deployment", "DaemonSet", "Pod"},
	Run:     run,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers},
	Yields:  []findings.ClaimKind{findings.ClaimsContent}, // a Service not yet deleted while nothing is deleted is not waiting for its load balancer
	Ladder:  ladder,
	Example: example,
}

// serviceKeys keeps the service controller's retry lines by the Service they name
// ("NAMESPACE/NAME").
func serviceKeys(_ *logs.Entry, d string) []string {
	rest := d[strings.Index(d, "error processing service")+len("error processing service"):]
	f := strings.Fields(rest)
	if len(f) == 0 {
		return nil
	}
	ns, name, ok := strings.Cut(strings.Trim(f[0], `"'`), "/")
	if !ok || !kubemsg.IsNamespaceName(ns) || name == "" {
		return nil
	}
	return []string{ns + "/" + name}
}

func run(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	var svcs []*objects.Object
	for _, o := range ix.InNamespace(p.Namespace, "Service") {
		if findings.Contains(o.Finalizers, Finalizer) && !p.Claimed(o) {
			svcs = append(svcs, o)
		}
	}
	cond := p.ConditionTrue(kubemsg.CondFinalizersRemaining)
	named := false
	if cond != nil {
		for _, f := range kubemsg.ParseFinalizersRemaining(cond.Message) {
			named = named || f.Finalizer == Finalizer
		}
	}
	if len(svcs) == 0 && !named {
		return nil, "" // not applicable: said nothing of, so reports without load balancers do not change
	}
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{Finalizer}, Objects: []findings.ObjectRef{}}
	if cond != nil && named {
		cause.Evidence = append(cause.Evidence, findings.ConditionEvidence(p.Object, cond))
		cause.ClaimFinalizer(Finalizer)
	}
	var names []string
	for _, o := range svcs {
		ref := findings.ObjectRefOf(o)
		ref.Resource = "services"
		cause.Objects = append(cause.Objects, ref)
		names = append(names, o.Name)
		typ := "type " + findings.OrDefault(svcType(o), "unknown")
		text := fmt.Sprintf("Service %s (%s): metadata.finalizers %s", o.Name, typ, strings.Join(o.Finalizers, ", "))
		if !o.DeletionTimestamp.IsZero() {
			text += ", deletionTimestamp " + findings.FmtTime(o.DeletionTimestamp)
		}
		cause.Evidence = append(cause.Evidence, findings.FieldEvidence(o, "metadata.finalizers", text))
	}
	what := "Services " + strings.Join(names, ", ")
	if len(svcs) == 1 {
		what = "Service " + svcs[0].Name
	}
	if len(svcs) == 0 {
		what = "a Service not in the bundle"
		collect := shellsafe.Cmd("kubectl", "-n", p.Namespace, "get", "services", "-o", "json")
		cause.Notes = append(cause.Notes, "collect: "+collect)
		cause.Inline = append(cause.Inline, collect)
	}
	cause.Chain = append(cause.Chain, findings.Link{Component: "namespace controller (kube-controller-manager)",
		Finding: fmt.Sprintf("waits for %s, which keeps %s until its cloud load balancer is deleted", what, Finalizer)})

	// what the service controller says, about these Services or without naming one
	failures, denials := ix.CloudLines(kubemsg.CloudService)
	var lines []*logs.Entry
	for _, e := range failures {
		if namesService(e, p.Namespace, names) {
			lines = append(lines, e)
		}
	}
	for _, n := range names {
		lines = append(lines, p.Lines(p.Namespace+"/"+n)...)
	}
	events, eventDenial := warningEvents(ix, p.Namespace, names)
	rest := "It then deletes the load balancer, removes " + Finalizer + " and the namespace finishes on its own."
	perm, denied := mechanism.CloudPermissionLink(ix, kubemsg.CloudService, "service controller", rest)
	if !denied && eventDenial != nil {
		// no log line, but the Service's own event quotes the cloud's refusal
		perm, denied = findings.Link{Component: "cloud permissions of the service controller", Fault: true, Evidence: []findings.Evidence{*eventDenial}, Code: findings.CodePermissionDenied,
			Finding: "the cloud refuses the service controller's calls (the Service's event quotes the refusal): its IAM role or policy lacks the permissions it needs",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: mechanism.CloudLogsCommand + " | " + shellsafe.Cmd("grep", "-F", "load balancer"),
				Why: "Restore the cloud service controller's permissions (the IAM role/policy of cloud-controller-manager; the denied call: " + findings.Clip(eventDenial.Text, 200) + "). " + rest}}, true
	}
	switch {
	case denied:
		cause.Confidence = "high"
		cause.Chain = append(cause.Chain, findings.Link{Component: "cloud-controller-manager (service controller)", Fault: true, Code: findings.CodePermissionDenied,
			Evidence: append(findings.SampleLines(lines, 2), events...),
			Finding:  "cannot delete the cloud load balancer: the cloud refuses its calls"}, perm)
		lines = append(lines, denials...)
	case len(lines)+len(events) > 0:
		cause.Confidence = "high"
		quote := ""
		if len(lines) > 0 {
			quote = findings.Clip(strings.TrimSpace(lines[0].Detail()), 240)
		} else {
			quote = events[0].Text
		}
		cause.Chain = append(cause.Chain, findings.Link{Component: "cloud-controller-manager (service controller)", Fault: true,
			Evidence: append(findings.SampleLines(lines, 3), events...),
			Finding:  "cannot delete the cloud load balancer: " + quote, Code: findings.ErrorCode(quote),
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: mechanism.CloudLogsCommand + " | " + shellsafe.Cmd("grep", "-F", "load balancer"),
				Why: "Fix what the service controller's error names (the load balancer's state in the cloud, its quota, its security groups); it retries and removes the finalizer once the load balancer is gone."}})
	default:
		cause.Chain = append(cause.Chain, mechanism.FinalizerOwnerLink(ix, Finalizer, svcs))
	}
	for _, o := range svcs {
		cause.ClaimObject(o)
	}
	switch {
	case denied:
		cause.Summary = fmt.Sprintf("%s keeps %s: the cloud refuses the service controller's calls, so it cannot delete the cloud load balancer (its IAM role or policy lacks a permission).", what, Finalizer)
	case len(lines)+len(events) > 0:
		cause.Summary = fmt.Sprintf("%s keeps %s: the service controller fails to delete the cloud load balancer.", what, Finalizer)
	default:
		cause.Summary = fmt.Sprintf("%s keeps %s: the service controller has not deleted the cloud load balancer. %s", what, Finalizer, cause.Chain[len(cause.Chain)-1].Finding)
	}
	cause.AttachLines(dedupe(lines), p.Deletion, "service controller failures", 6)
	return []findings.Cause{cause}, ""
}

func svcType(o *objects.Object) string {
	if o.Service == nil {
		return ""
	}
	return o.Service.Type
}

// namesService reports whether a service controller line is about one of the Services
// (or names no Service at all).
func namesService(e *logs.Entry, ns string, names []string) bool {
	d := e.Detail()
	if !strings.Contains(d, ns+"/") && !strings.Contains(d, "service") {
		return true
	}
	for _, n := range names {
		if strings.Contains(d, ns+"/"+n) {
			return true
		}
	}
	return !strings.Contains(d, "/")
}

// warningEvents cites the Services' load balancer events (DeleteLoadBalancerFailed,
// SyncLoadBalancerFailed), and the first that quotes a cloud's refusal.
func warningEvents(ix *index.Index, ns string, names []string) (out []findings.Evidence, denial *findings.Evidence) {
	ix.EachOfKind("Event", func(o *objects.Object) bool {
		ev := o.Event
		if ev == nil || ev.Involved.Kind != "Service" || ev.Involved.Namespace != ns || !findings.Contains(names, ev.Involved.Name) {
			return true
		}
		if ev.Reason == "DeleteLoadBalancerFailed" || ev.Reason == "SyncLoadBalancerFailed" {
			out = append(out, findings.FieldEvidence(o, "message", fmt.Sprintf("Event %s on Service %s (x%d): %s", ev.Reason, ev.Involved.Name, max(ev.Count, 1), ev.Message)))
			if l, _ := kubemsg.ParseCloudLine(ev.Message, ""); l.Denial && denial == nil {
				denial = &out[len(out)-1]
			}
		}
		return len(out) < 3
	})
	return out, denial
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var steps []findings.RemediationStep
	if len(c.Objects) == 0 {
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskSafe,
			Command: shellsafe.Cmd("kubectl", "-n", p.Namespace, "get", "services", "-o", "custom-columns=NAME:.metadata.name,TYPE:.spec.type,FINALIZERS:.metadata.finalizers,LB:.status.loadBalancer.ingress"),
			Why:     "Find the Services that keep " + Finalizer + " and the cloud load balancer each still has (status.loadBalancer.ingress)."})
	}
	for _, o := range c.Objects {
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskSafe,
			Command: shellsafe.Cmd("kubectl", "-n", o.Namespace, "describe", "service", o.Name),
			Why:     "Its events (DeleteLoadBalancerFailed) and status.loadBalancer.ingress say which cloud load balancer the service controller cannot delete, and why."})
	}
	for _, o := range c.Objects {
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: shellsafe.Cmd("kubectl", "-n", o.Namespace, "patch", "service", o.Name, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`),
			Why:     fmt.Sprintf("Only after deleting the cloud load balancer of Service %s by hand (in the cloud console or CLI): removing %s first leaks the load balancer, which keeps costing and may keep serving traffic.", o.Name, Finalizer)})
	}
	return steps
}

func example(p *analyzer.Pass) findings.Cause {
	return findings.Cause{Finalizers: []string{Finalizer}, Objects: []findings.ObjectRef{{APIVersion: "v1", Kind: "Service", Namespace: p.Namespace, Name: "NAME",
		Resource: "services", Finalizers: []string{Finalizer}}}}
}

// dedupe drops the repeats of a line (a retry line is both a failure and a refusal).
func dedupe(ls []*logs.Entry) []*logs.Entry {
	seen := map[*logs.Entry]bool{}
	out := ls[:0:0]
	for _, e := range ls {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
