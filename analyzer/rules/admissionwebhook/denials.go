package admissionwebhook

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// A webhook that answers and says no blocks the namespace controller as surely as one
// that cannot be called: the controller retries the refused delete forever. The
// denial names the webhook and, for policy engines, the policy; kube-apiserver's
// request log shows the refused DELETEs (403, 422) by the controller's user agent.

// denyFinding opens the finding of a link whose webhook answers and denies (the
// ladder tells those links from unreachable backends by it).
const denyFinding = "it answers, and denies"

// keyHTTP is the Collect key of the request-log lines of namespace ns.
func keyHTTP(ns string) string { return "http-denied/" + ns }

// keyDenied is the Collect key of the lines that quote a denial by webhook (or engine) w.
func keyDenied(w string) string { return "denied/" + w }

type denial struct {
	d     kubemsg.AdmissionDenial
	lines []*logs.Entry
}

// collectDenials keeps the denial lines and the namespace controller's refused DELETEs.
func collectDenials(e *logs.Entry, detail string) []string {
	var keys []string
	if strings.Contains(e.Text, "namespace-controller") {
		// the whole line: a structured request log's message is only "HTTP"
		if r, ok := kubemsg.ParseRequestLog(e.Text); ok && r.NamespaceControllerDenied() {
			keys = append(keys, keyHTTP(r.Namespace))
		}
	}
	if strings.Contains(detail, "denied the request") || strings.Contains(detail, "rejected by webhook") || strings.Contains(detail, "blocked due to") {
		for _, d := range kubemsg.ParseAdmissionDenials(detail) {
			keys = append(keys, keyDenied(d.Webhook+"/"+d.Engine))
		}
	}
	return keys
}

// findDenials gathers the denials of the namespace's condition and controller lines.
func findDenials(p *analyzer.Pass) (out []*denial, ev []findings.Evidence) {
	byKey := map[string]*denial{}
	add := func(ds []kubemsg.AdmissionDenial, e *logs.Entry) {
		for _, d := range ds {
			k := d.Webhook + "\x00" + d.Policy
			x := byKey[k]
			if x == nil {
				x = &denial{d: d}
				byKey[k] = x
				out = append(out, x)
			}
			if e != nil {
				x.lines = append(x.lines, e)
			}
		}
	}
	if c := p.ConditionTrue(kubemsg.CondContentFailure); c != nil {
		if ds := kubemsg.ParseAdmissionDenials(c.Message); len(ds) > 0 {
			add(ds, nil)
			ev = append(ev, findings.ConditionEvidence(p.Object, c))
		}
	}
	for _, e := range p.Index.NamespaceDeletionFailed[p.Namespace] {
		add(kubemsg.ParseAdmissionDenials(e.Detail()), e)
	}
	if len(out) == 0 && p.Condition(kubemsg.CondContentFailure) == nil && len(p.Stuck) == 1 {
		// a NamespaceDeletionContentFailure message pasted without its namespace (a
		// loose `message:` fragment) belongs to the one namespace the bundle shows
		// being deleted
		for _, k := range p.LineKeys() {
			if !strings.HasPrefix(k, "denied/") {
				continue
			}
			for _, e := range p.Lines(k) {
				if msg := looseContentFailure(e.Detail()); msg != "" {
					add(kubemsg.ParseAdmissionDenials(msg), e)
				}
			}
		}
	}
	return out, ev
}

// looseContentFailure returns the NamespaceDeletionContentFailure message a line holds
// as a pasted condition (`message: Failed to delete all resource types, ...`), or "".
func looseContentFailure(detail string) string {
	msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(detail), "message:"))
	if t, st, ok := kubemsg.NamespaceConditionOfMessage(msg); ok && t == kubemsg.CondContentFailure && st == "True" && msg != strings.TrimSpace(detail) {
		return msg
	}
	return ""
}

// denialLinks builds the chain and summary of the denials found for a namespace.
func denialLinks(p *analyzer.Pass, cause *findings.Cause, ds []*denial, ev []findings.Evidence, http []*logs.Entry) (summaries []string, lines []*logs.Entry) {
	ix := p.Index
	for _, x := range ds {
		d := x.d
		lines = append(lines, x.lines...)
		// the webhook's own lines (kube-apiserver "rejected by webhook", kubectl's stderr)
		for _, e := range p.Lines(keyDenied(d.Webhook + "/" + d.Engine)) {
			if !containsEntry(lines, e) {
				lines = append(lines, e)
			}
		}
		why := d.Message
		if why == "" {
			why = "without explanation"
		}
		cause.Chain = append(cause.Chain, findings.Link{Component: "namespace controller (kube-controller-manager)", Fault: true, Code: findings.ErrorCode(why),
			Finding:  fmt.Sprintf("deleting content is refused: %s denies the call: %s", d.Named(), why),
			Evidence: append(append([]findings.Evidence{}, ev...), findings.SampleLines(x.lines, 4)...)})
		name := d.Webhook
		if name != "" {
			cause.Webhooks = appendUnique(cause.Webhooks, name)
		}
		s := d.Named()
		if d.Policy != "" && d.Webhook != "" {
			s += fmt.Sprintf(" (webhook %q)", d.Webhook)
		}
		comp := "webhook " + orDash(name)
		if d.Policy != "" {
			comp = d.Named()
			if name != "" {
				comp += " (webhook " + name + ")"
			}
		}
		link := findings.Link{Component: comp, Fault: true,
			Finding: fmt.Sprintf("%s: the policy itself refuses the namespace controller's delete (%s)", denyFinding, why)}
		if name != "" {
			if cfg, wh := ix.FindWebhook(name); cfg != nil {
				cause.Objects = append(cause.Objects, findings.ObjectRefOf(cfg))
				link.Finding = fmt.Sprintf("%s: %s %s (failurePolicy %s, rules %s) refuses the namespace controller's delete (%s)",
					denyFinding, cfg.Kind, cfg.Name, orDash(wh.FailurePolicy), mechanism.FmtRules(wh.Rules), why)
				link.Evidence = []findings.Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: cfg.Ref() + " webhook " + name}}
				s = fmt.Sprintf("%s (%s %s)", s, cfg.Kind, cfg.Name)
			}
		}
		link.Fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: policyCommand(d),
			Why: "The policy refuses what the namespace controller must do: exempt the namespace being deleted (or the controller's service account system:serviceaccount:kube-system:namespace-controller) from it, or change the rule; the controller's next retry then deletes the content."}
		cause.Chain = append(cause.Chain, link)
		summaries = append(summaries, fmt.Sprintf("%s denies the namespace controller's deletes: %s", s, why))
	}
	if len(http) > 0 {
		codes, res := map[int]int{}, map[string]bool{}
		for _, e := range http {
			r, _ := kubemsg.ParseRequestLog(e.Text)
			codes[r.Code]++
			res[r.Resource] = true
		}
		var cs []string
		for c, n := range codes {
			cs = append(cs, fmt.Sprintf("%d× %d", n, c))
		}
		sort.Strings(cs)
		findings.SortEntries(http)
		f := fmt.Sprintf("the namespace controller's DELETE calls of %s in the namespace are refused (%s: Forbidden or Invalid, what an admission webhook or policy answers when it denies)",
			strings.Join(findings.SortedKeys(res), ", "), strings.Join(cs, ", "))
		link := findings.Link{Component: "kube-apiserver (request log)", Fault: true, Finding: f, Evidence: findings.SampleLines(http, 4)}
		if len(ds) == 0 {
			link.Fix = &findings.RemediationStep{Risk: findings.RiskSafe, Command: policyCommand(kubemsg.AdmissionDenial{}),
				Why: "Find the webhook (or policy engine) that intercepts DELETE of " + strings.Join(findings.SortedKeys(res), ", ") +
					" and exempt the namespace or the controller's service account from it; a 403 may also be RBAC: check the namespace controller's ClusterRole system:controller:namespace-controller."}
		}
		cause.Chain = append(cause.Chain, link)
		lines = append(lines, http...)
		if len(ds) == 0 {
			summaries = append(summaries, "kube-apiserver refuses the namespace controller's deletes ("+strings.Join(cs, ", ")+"); the bundle does not say which webhook or policy (collect: the namespace's conditions and kube-controller-manager's log)")
			cause.Notes = append(cause.Notes, "collect: kubectl get namespace "+p.Namespace+" -o json (NamespaceDeletionContentFailure quotes the denial and names the webhook)")
			cause.Inline = append(cause.Inline, "kubectl get namespace "+p.Namespace+" -o json")
		}
	}
	return summaries, lines
}

// policyCommand shows the policy that denies, where the engine says which.
func policyCommand(d kubemsg.AdmissionDenial) string {
	switch {
	case d.Engine == "gatekeeper":
		return shellsafe.Cmd("kubectl", "get", "constraints", "-o", "wide")
	case d.Engine == "kyverno" && d.Policy != "":
		return shellsafe.Cmd("kubectl", "get", "clusterpolicies.kyverno.io,policies.kyverno.io", "-A", "--field-selector", "metadata.name="+d.Policy)
	case d.Engine == "kyverno":
		return shellsafe.Cmd("kubectl", "get", "clusterpolicies.kyverno.io,policies.kyverno.io", "-A")
	case d.Engine == "kubewarden" && d.Policy != "":
		return shellsafe.Cmd("kubectl", "get", "clusteradmissionpolicies.policies.kubewarden.io,admissionpolicies.policies.kubewarden.io", "-A", "--field-selector", "metadata.name="+d.Policy)
	}
	return shellsafe.Cmd("kubectl", "get", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "-o", "wide")
}

func containsEntry(es []*logs.Entry, e *logs.Entry) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
