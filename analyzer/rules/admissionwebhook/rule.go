package admissionwebhook

import (
	"fmt"
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

// Name is the cause type this rule reports.
const Name = "admission-webhook"

// Rule finds fail-closed admission webhooks that reject the namespace controller's deletes.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `An admission webhook rejects the namespace controller's delete calls.

A Validating- or MutatingWebhookConfiguration that intercepts DELETE (or UPDATE, which
controllers use to remove finalizers) with failurePolicy Fail makes every such call
fail while its backend is unreachable. The namespace controller records the error in
NamespaceDeletionContentFailure ("Failed to delete all resource types, N remaining:
Internal error occurred: failed calling webhook ...") and retries forever.

A webhook that answers and denies blocks it the same way: "admission webhook "X"
denied the request: ...", with the policy named by the engine's own wording
(Gatekeeper "[denied by C]", Kyverno "blocked due to the following policies",
Kubewarden, OPA, Rancher); kube-apiserver's request log shows the controller's
DELETEs answered 403 or 422.

Evidence: the condition, kube-controller-manager's "deletion of namespace ... failed:"
lines, kube-apiserver's "Failed calling webhook, failing closed" and "rejected by
webhook" lines and its request log, and the webhook configuration with its backend
Service, endpoints and pods.`,
	Lines: []index.Match{{Phrases: []string{"ailed calling webhook", "failed calling admission webhook"}, // admission webhooks (both capitalisations; 1.8-1.12 wording)
		Keys: collect},
		// denials, in Kubernetes' and the policy engines' words, and the request log of
		// the namespace controller's calls (its user agent: its service account or client name)
		{Phrases: []string{"denied the request", "rejected by webhook", "blocked due to the following policies",
			":kube-system:namespace-controller", "/namespace-controller"}, Keys: collectDenials}},
	Kinds:   []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "Service", "Endpoints", "EndpointSlice", "Pod", "Node"},
	Run:     runAdmissionWebhook,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsContent},
	Ladder:  ladder,
	Risks:   risks,
	Example: example,
}

// collect keeps the lines naming a failing webhook, by webhook name.
func collect(_ *logs.Entry, detail string) []string {
	var keys []string
	for _, w := range kubemsg.ParseWebhookFailures(detail) {
		keys = append(keys, w.Webhook)
	}
	return keys
}

func runAdmissionWebhook(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	names := map[string]string{} // webhook -> detail
	var order []string
	var ev []findings.Evidence
	add := func(ws []kubemsg.WebhookFailure) {
		for _, w := range ws {
			if _, ok := names[w.Webhook]; !ok {
				names[w.Webhook] = w.Detail
				order = append(order, w.Webhook)
			}
		}
	}
	if c := p.ConditionTrue(kubemsg.CondContentFailure); c != nil {
		if ws := kubemsg.ParseWebhookFailures(c.Message); len(ws) > 0 {
			add(ws)
			ev = append(ev, findings.ConditionEvidence(p.Object, c))
		}
	}
	var nsLines []*logs.Entry
	for _, e := range ix.NamespaceDeletionFailed[p.Namespace] {
		if ws := kubemsg.ParseWebhookFailures(e.Detail()); len(ws) > 0 {
			add(ws)
			nsLines = append(nsLines, e)
		}
	}
	denials, denialEv := findDenials(p)
	http := p.Lines(keyHTTP(p.Namespace))
	if len(order) == 0 && (len(denials) > 0 || len(http) > 0) {
		cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{},
			Finalizers: []string{}, Objects: []findings.ObjectRef{}, Webhooks: []string{}}
		summaries, lines := denialLinks(p, &cause, denials, denialEv, http)
		if len(denials) > 0 && (len(denialEv) > 0 && len(lines) > 0 || len(http) > 0) {
			cause.Confidence = "high"
		}
		cause.Summary = strings.Join(summaries, "; ") + ". Objects it guards stay in the namespace."
		cause.Evidence = denialEv
		cause.AttachLines(lines, p.Deletion, "refused deletes", 8)
		cause.ClaimContent() // the objects it guards stay: the deletes are refused
		return []findings.Cause{cause}, ""
	}
	if len(order) == 0 {
		if c := p.Condition(kubemsg.CondContentFailure); c != nil && c.Status != "True" {
			return nil, findings.CondState(c) + ": every delete call succeeded"
		}
		if c := inferBlockingWebhook(p); c != nil {
			c.ClaimContent() // the objects it guards stay
			return []findings.Cause{*c}, ""
		}
		return nil, "no webhook failure in the namespace's conditions or in the controller's log lines for it"
	}
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{},
		Finalizers: []string{}, Objects: []findings.ObjectRef{}, Webhooks: order}
	var lines []*logs.Entry
	lines = append(lines, nsLines...)
	var summaries []string
	for _, name := range order {
		kas := p.Lines(name)
		var kasOnly []*logs.Entry
		for _, e := range kas {
			if !slices.Contains(nsLines, e) {
				kasOnly = append(kasOnly, e)
			}
		}
		lines = append(lines, kasOnly...)
		detail := names[name]
		cl := kubemsg.ClassifyError(detail)
		chain := []findings.Link{{Component: "namespace controller (kube-controller-manager)", Fault: true, Code: findings.ErrorCode(detail),
			Finding: fmt.Sprintf("deleting content fails: webhook %q rejects the call: %s", name, detail), Evidence: append(append([]findings.Evidence{}, ev...), findings.SampleLines(nsLines, 4)...)}}
		if len(kasOnly) > 0 {
			findings.SortEntries(kasOnly)
			chain = append(chain, findings.Link{Component: "kube-apiserver (admission)", Fault: true, Code: findings.ClassCode(cl.Code), Finding: fmt.Sprintf("%d %s: calling webhook %q fails (%s: %s)", len(kasOnly), findings.Plural(len(kasOnly), "lines", "line"), name, cl.Code, cl.Meaning), Evidence: findings.SampleLines(kasOnly, 4)})
		}
		cfg, wh := ix.FindWebhook(name)
		s := fmt.Sprintf("admission webhook %q", name)
		if cfg == nil {
			f := "the webhook configuration is not in the bundle"
			if !ix.Has("ValidatingWebhookConfiguration") && !ix.Has("MutatingWebhookConfiguration") {
				f += " (collect: kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json)"
			}
			chain = append(chain, findings.Link{Component: "webhook " + name, Finding: f,
				Inline: []string{"kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json"},
				Facts:  []findings.Fact{findings.F("webhook "+name, findings.FactNotInBundle)}})
			if back, deadlock := calledBackend(p, name, detail, ev); back != nil {
				chain = append(chain, back...)
				if deadlock != "" {
					s += fmt.Sprintf(" whose backend is in namespace %s, itself being deleted (self-inflicted deadlock)", deadlock)
				}
			}
		} else {
			cause.Objects = append(cause.Objects, findings.ObjectRefOf(cfg))
			f := fmt.Sprintf("%s %s: failurePolicy %s, rules %s", cfg.Kind, cfg.Name, wh.FailurePolicy, mechanism.FmtRules(wh.Rules))
			if wh.Service != nil {
				f += fmt.Sprintf(", service %s/%s%s", wh.Service.Namespace, wh.Service.Name, wh.Service.Path)
			} else if wh.URL != "" {
				f += ", url " + wh.URL
			}
			chain = append(chain, findings.Link{Component: "webhook " + name, Finding: f, Evidence: []findings.Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: f}},
				Fault: wh.FailurePolicy == "Fail",
				Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", strings.ToLower(cfg.Kind), cfg.Name, "-o", "yaml"),
					Why: fmt.Sprintf("Restore the backend of webhook %q so its calls succeed; the namespace controller's next retry then deletes the content.", name)}})
			s = fmt.Sprintf("%s %s (webhook %q, failurePolicy %s)", cfg.Kind, cfg.Name, name, wh.FailurePolicy)
			if wh.Service != nil {
				chain = append(chain, mechanism.BackendChain(ix, wh.Service)...)
				if p.Stuck[wh.Service.Namespace] {
					chain = append(chain, findings.Link{Component: "deadlock", Fault: true, Code: findings.CodeInTerminatingNamespace,
						Facts: []findings.Fact{findings.F(findings.NamespaceSubject(wh.Service.Namespace), findings.FactDeleting)},
						Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "delete", strings.ToLower(cfg.Kind), cfg.Name),
							Premise: []findings.Fact{findings.F(findings.NamespaceSubject(wh.Service.Namespace), findings.FactDeleting)},
							Why:     "The webhook's backend is in a namespace being deleted and can never answer again: delete (or narrow with a namespaceSelector) the webhook configuration; reinstall it with its backend if it is still needed."},
						Finding: fmt.Sprintf("the webhook's backend lives in namespace %q, which is itself being deleted: the webhook can never answer again; delete or narrow the webhook configuration", wh.Service.Namespace)})
					s += fmt.Sprintf(" whose backend is in namespace %s, itself being deleted (self-inflicted deadlock)", wh.Service.Namespace)
				}
			}
		}
		cause.Chain = append(cause.Chain, chain...)
		summaries = append(summaries, fmt.Sprintf("%s rejects the namespace controller's deletes because its backend cannot be called (%s)", s, cl.Code))
	}
	if len(denials) > 0 || len(http) > 0 {
		more, dl := denialLinks(p, &cause, denials, denialEv, http)
		summaries = append(summaries, more...)
		lines = append(lines, dl...)
	}
	if len(ev) > 0 && len(lines) > 0 {
		cause.Confidence = "high"
	}
	cause.Summary = strings.Join(summaries, "; ") + ". Objects it guards stay in the namespace."
	cause.Evidence = ev
	cause.AttachLines(lines, p.Deletion, "webhook call failures", 8)
	cause.ClaimContent() // the objects it guards stay: the deletes are refused
	return []findings.Cause{cause}, ""
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var steps []findings.RemediationStep
	if p != nil {
		for _, name := range c.Webhooks {
			if cfg, _ := p.Index.FindWebhook(name); cfg == nil {
				steps = append(steps, findThenAct(c, name)...)
			}
		}
	}
	denied := map[string]bool{}
	for _, l := range c.Chain {
		if strings.HasPrefix(l.Finding, denyFinding+": ") {
			for _, e := range l.Evidence {
				denied[e.Object] = true
			}
		}
	}
	for _, o := range c.Objects {
		kind := strings.ToLower(o.Kind)
		if denied[o.Kind+"/"+o.Name] {
			steps = append(steps, findings.RemediationStep{Risk: findings.RiskSafe,
				Command: shellsafe.Cmd("kubectl", "get", kind, o.Name, "-o", "yaml"),
				Why:     "Read the webhook whose policy refuses the namespace controller's deletes (read-only): exempt the namespace in the policy, or the controller's user (system:serviceaccount:kube-system:namespace-controller), and its next retry succeeds."})
			steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
				Command: shellsafe.Cmd("kubectl", "delete", kind, o.Name),
				Why:     "Removes the webhook whose policy refuses the deletes (or narrow it with a namespaceSelector, or exempt the namespace in the policy): the policy is off until it is reinstalled."})
			continue
		}
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskSafe,
			Command: shellsafe.Cmd("kubectl", "get", kind, o.Name, "-o", "yaml") + "   # restore the webhook's backend Service/pods",
			Why:     "Fix the webhook's backend; the namespace controller's next retry then succeeds."})
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: shellsafe.Cmd("kubectl", "delete", kind, o.Name),
			Why:     "Removes the webhook (or patch its failurePolicy to Ignore, or exclude the namespace with a namespaceSelector): the policy it enforces is off until it is reinstalled."})
	}
	return steps
}

// FindConfigCmd prints the kind/name of the webhook configuration that holds a
// webhook (read-only): the first step when the bundle does not have it.
func FindConfigCmd(webhook string) string {
	return shellsafe.Cmd("kubectl", "get", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "-o", "json") + " | " +
		shellsafe.Cmd("jq", "-r", "--arg", "w", webhook, `.items[]|select(any(.webhooks[]?; .name == $w)) | (.kind | ascii_downcase) + "/" + .metadata.name`)
}

// calledBackend follows the Service a failed call went to (read from its error) when
// the webhook configuration is not in the bundle; deadlock is the namespace of that
// Service when it is itself being deleted.
func calledBackend(p *analyzer.Pass, name, detail string, ev []findings.Evidence) (links []findings.Link, deadlock string) {
	svc, ok := kubemsg.ParseCalledService(detail)
	if !ok {
		return nil, ""
	}
	ref := &objects.ServiceReference{Namespace: svc.Namespace, Name: svc.Name}
	links = mechanism.CalledServiceChain(p.Index, ref, svc.NotFound, fmt.Sprintf("the call's error says service %q not found", ref.Name), ev)
	if p.Stuck[ref.Namespace] {
		deadlock = ref.Namespace
		links = append(links, mechanism.DeadlockLink("the webhook's backend", ref.Namespace, fmt.Sprintf("Service %s/%s, from the call's URL", ref.Namespace, ref.Name),
			&findings.RemediationStep{Risk: findings.RiskSafe, Command: FindConfigCmd(name),
				Why: fmt.Sprintf("Find the webhook configuration that holds webhook %q (it is not in the bundle; this prints its kind/name and changes nothing): its backend is in namespace %s, which is being deleted, so the next step, deleting that configuration, is the fix.", name, ref.Namespace)}, ev))
	}
	return links, deadlock
}

// findThenAct is the ladder of a webhook whose configuration the bundle lacks: find it
// (read-only), then delete it: the fix when its backend's namespace is being deleted,
// a workaround otherwise.
func findThenAct(c *findings.Cause, name string) []findings.RemediationStep {
	find := findings.RemediationStep{Risk: findings.RiskSafe, Command: FindConfigCmd(name),
		Why: fmt.Sprintf("Find the webhook configuration that holds webhook %q (it is not in the bundle; this prints its kind/name and changes nothing), then restore the backend it calls so the namespace controller's next retry succeeds.", name)}
	del := FindConfigCmd(name) + " | xargs -r kubectl delete"
	for _, l := range c.Chain {
		for _, f := range l.Facts {
			if l.Component == "deadlock" && f.Is == findings.FactDeleting {
				ns := strings.TrimPrefix(f.Subject, "namespace ")
				return []findings.RemediationStep{find, {Risk: findings.RiskSafe, Command: del, Premise: []findings.Fact{f},
					Why: fmt.Sprintf("Delete the webhook configuration found above: its backend lives in namespace %s, which is being deleted, so the webhook can never answer again; this is the fix. Reinstall it with its backend in a namespace that stays, if it is still needed.", ns)}}
			}
		}
	}
	return []findings.RemediationStep{find, {Risk: findings.RiskCaution, Command: del,
		Why: "Deletes the webhook configuration found above (or patch its failurePolicy to Ignore, or exclude the namespace with a namespaceSelector): the policy it enforces is off until it is reinstalled."}}
}

// risks lists fail-closed webhooks that intercept deletes and whose backend is broken.
func risks(ix *index.Index, reported map[string]bool) []findings.Risk {
	var out []findings.Risk
	for _, kind := range []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"} {
		for _, cfg := range ix.ByKind[kind] {
			for _, wh := range cfg.Webhooks {
				if wh.FailurePolicy != "Fail" || wh.Service == nil || reported["webhook/"+wh.Name] || !mechanism.InterceptsDelete(wh) {
					continue
				}
				if broken, why := mechanism.BackendBroken(ix, wh.Service); broken {
					c := findings.Cause{Objects: []findings.ObjectRef{findings.ObjectRefOf(cfg)}}
					out = append(out, findings.Risk{Type: Name, Object: cfg.Ref(),
						Summary:  fmt.Sprintf("Webhook %q (%s %s, failurePolicy Fail) intercepts deletes and its backend %s/%s %s: deleting a namespace with matching objects will hang.", wh.Name, cfg.Kind, cfg.Name, wh.Service.Namespace, wh.Service.Name, why),
						Evidence: []findings.Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: cfg.Ref() + " webhook " + wh.Name}},
						Fix:      ladder(nil, &c)})
				}
			}
		}
	}
	return out
}

func example(p *analyzer.Pass) findings.Cause {
	p.Index.ByKind["ValidatingWebhookConfiguration"] = append(p.Index.ByKind["ValidatingWebhookConfiguration"], &objects.Object{
		APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration", Name: "WEBHOOK-CONFIGURATION",
		Webhooks: []objects.Webhook{{Name: "WEBHOOK.example.com", FailurePolicy: "Fail"}}})
	return findings.Cause{Webhooks: []string{"WEBHOOK.example.com"},
		Objects: []findings.ObjectRef{{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration", Name: "WEBHOOK-CONFIGURATION"}}}
}
