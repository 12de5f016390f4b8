package analyzer

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// AdmissionWebhookRule finds fail-closed admission webhooks that reject the namespace
// controller's deletes.
var AdmissionWebhookRule = &Rule{
	Name: CauseAdmissionWebhook,
	Doc: `An admission webhook rejects the namespace controller's delete calls.

A Validating- or MutatingWebhookConfiguration that intercepts DELETE (or UPDATE, which
controllers use to remove finalizers) with failurePolicy Fail makes every such call
fail while its backend is unreachable. The namespace controller records the error in
NamespaceDeletionContentFailure ("Failed to delete all resource types, N remaining:
Internal error occurred: failed calling webhook ...") and retries forever.

Evidence: the condition, kube-controller-manager's "deletion of namespace ... failed:"
lines, kube-apiserver's "Failed calling webhook, failing closed" lines, and the webhook
configuration with its backend Service, endpoints and pods.`,
	Run: runAdmissionWebhook,
}

func runAdmissionWebhook(p *Pass) ([]Cause, string) {
	ix := p.Index
	names := map[string]string{} // webhook -> detail
	var order []string
	var ev []Evidence
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
			ev = append(ev, conditionEvidence(p.Object, c))
		}
	}
	var nsLines []*logs.Entry
	for _, e := range ix.NamespaceDeletionFailed[p.Namespace] {
		if ws := kubemsg.ParseWebhookFailures(e.Detail()); len(ws) > 0 {
			add(ws)
			nsLines = append(nsLines, e)
		}
	}
	if len(order) == 0 {
		if c := p.Condition(kubemsg.CondContentFailure); c != nil && c.Status != "True" {
			return nil, fmt.Sprintf("%s is %s (%s): every delete call succeeded", c.Type, c.Status, c.Reason)
		}
		if c := inferBlockingWebhook(p); c != nil {
			return []Cause{*c}, ""
		}
		return nil, "no webhook failure in the namespace's conditions or in the controller's log lines for it"
	}
	cause := Cause{Type: CauseAdmissionWebhook, Confidence: "medium", GroupVersions: []string{}, APIServices: []string{},
		Finalizers: []string{}, Objects: []ObjectRef{}, Webhooks: order}
	var lines []*logs.Entry
	lines = append(lines, nsLines...)
	var summaries []string
	for _, name := range order {
		kas := ix.WebhookLines[name]
		var kasOnly []*logs.Entry
		for _, e := range kas {
			if !containsEntry(nsLines, e) {
				kasOnly = append(kasOnly, e)
			}
		}
		lines = append(lines, kasOnly...)
		detail := names[name]
		cl := kubemsg.ClassifyError(detail)
		chain := []Link{{Component: "namespace controller (kube-controller-manager)",
			Finding: fmt.Sprintf("deleting content fails: webhook %q rejects the call: %s", name, detail), Evidence: append(append([]Evidence{}, ev...), sampleLines(nsLines, 4)...)}}
		if len(kasOnly) > 0 {
			sortEntries(kasOnly)
			chain = append(chain, Link{Component: "kube-apiserver (admission)", Finding: fmt.Sprintf("%d lines: calling webhook %q fails (%s: %s)", len(kasOnly), name, cl.Code, cl.Meaning), Evidence: sampleLines(kasOnly, 4)})
		}
		cfg, wh := findWebhook(ix, name)
		s := fmt.Sprintf("admission webhook %q", name)
		if cfg == nil {
			f := "the webhook configuration is not in the bundle"
			if !ix.Has("ValidatingWebhookConfiguration") && !ix.Has("MutatingWebhookConfiguration") {
				f += " (collect: kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json)"
			}
			chain = append(chain, Link{Component: "webhook " + name, Finding: f})
		} else {
			cause.Objects = append(cause.Objects, objectRef(cfg))
			f := fmt.Sprintf("%s %s: failurePolicy %s, rules %s", cfg.Kind, cfg.Name, wh.FailurePolicy, fmtRules(wh.Rules))
			if wh.Service != nil {
				f += fmt.Sprintf(", service %s/%s%s", wh.Service.Namespace, wh.Service.Name, wh.Service.Path)
			} else if wh.URL != "" {
				f += ", url " + wh.URL
			}
			chain = append(chain, Link{Component: "webhook " + name, Finding: f, Evidence: []Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: f}}})
			s = fmt.Sprintf("%s %s (webhook %q, failurePolicy %s)", cfg.Kind, cfg.Name, name, wh.FailurePolicy)
			if wh.Service != nil {
				port := 443
				if wh.Service.Port != nil {
					port = *wh.Service.Port
				}
				if p.Stuck[wh.Service.Namespace] {
					chain = append(chain, Link{Component: "deadlock", Finding: fmt.Sprintf("the webhook's backend lives in namespace %q, which is itself being deleted: the webhook can never answer again; delete or narrow the webhook configuration", wh.Service.Namespace)})
					s += fmt.Sprintf(" whose backend is in namespace %s, itself being deleted (self-inflicted deadlock)", wh.Service.Namespace)
				}
				chain = append(chain, backendChain(ix, wh.Service.Namespace, wh.Service.Name, port)...)
			}
		}
		cause.Chain = append(cause.Chain, chain...)
		summaries = append(summaries, fmt.Sprintf("%s rejects the namespace controller's deletes because its backend cannot be called (%s)", s, cl.Code))
	}
	if len(ev) > 0 && len(lines) > 0 {
		cause.Confidence = "high"
	}
	cause.Summary = strings.Join(summaries, "; ") + ". Objects it guards stay in the namespace."
	sortEntries(lines)
	cause.Evidence = append(ev, sampleLines(lines, 8)...)
	correlate(lines, p.Deletion).apply(&cause, p.Deletion, "webhook call failures")
	return []Cause{cause}, ""
}

func containsEntry(es []*logs.Entry, e *logs.Entry) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

func findWebhook(ix *Index, name string) (*objects.Object, *objects.Webhook) {
	for _, kind := range []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"} {
		for _, cfg := range ix.ByKind[kind] {
			for i := range cfg.Webhooks {
				if cfg.Webhooks[i].Name == name {
					return cfg, &cfg.Webhooks[i]
				}
			}
		}
	}
	return nil, nil
}

func fmtRules(rs []objects.WebhookRule) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%s %s", strings.Join(r.Operations, ","), strings.Join(r.Resources, ",")))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// ConversionWebhookRule finds CRD conversion webhooks that fail.
var ConversionWebhookRule = &Rule{
	Name: CauseConversionWebhook,
	Doc: `A CustomResourceDefinition's conversion webhook fails.

When a CRD serves several versions with spec.conversion.strategy Webhook, listing or
deleting its objects at another version than the stored one calls the webhook. With the
webhook's Service gone, every list fails ("conversion webhook for <group/version>,
Kind=<Kind> failed: ..."), so the namespace controller cannot delete the objects and
the garbage collector and quota controllers cannot list them.`,
	Run: runConversionWebhook,
}

func runConversionWebhook(p *Pass) ([]Cause, string) {
	ix := p.Index
	var ev []Evidence
	var found []kubemsg.ConversionFailure
	if c := p.ConditionTrue(kubemsg.CondContentFailure); c != nil {
		if f, ok := kubemsg.ParseConversionFailure(c.Message); ok {
			found = append(found, f)
			ev = append(ev, conditionEvidence(p.Object, c))
		}
	}
	var lines []*logs.Entry
	for _, e := range ix.NamespaceDeletionFailed[p.Namespace] {
		if f, ok := kubemsg.ParseConversionFailure(e.Detail()); ok {
			found = append(found, f)
			lines = append(lines, e)
		}
	}
	if len(found) == 0 {
		return nil, "no conversion webhook failure in the namespace's conditions or in the controller's log lines for it"
	}
	f := found[0]
	cause := Cause{Type: CauseConversionWebhook, Confidence: "medium", GroupVersions: []string{f.GroupVersion}, APIServices: []string{},
		Finalizers: []string{}, Objects: []ObjectRef{}}
	for _, e := range ix.ConversionLines {
		if !containsEntry(lines, e) && strings.Contains(e.Detail(), f.Kind) {
			lines = append(lines, e)
		}
	}
	chain := []Link{{Component: "namespace controller (kube-controller-manager)", Finding: fmt.Sprintf("listing/deleting %s %s fails: conversion webhook error: %s", f.GroupVersion, f.Kind, f.Detail), Evidence: ev}}
	s := fmt.Sprintf("The conversion webhook of %s (%s) fails (%s)", f.Kind, f.GroupVersion, kubemsg.ClassifyError(f.Detail).Code)
	for _, crd := range ix.ByKind["CustomResourceDefinition"] {
		if crd.CRD == nil || crd.CRD.Kind != f.Kind || (f.GroupVersion != "" && crd.CRD.Group != kubemsg.GroupOf(f.GroupVersion)) {
			continue
		}
		cause.Objects = append(cause.Objects, objectRef(crd))
		fd := fmt.Sprintf("CRD %s: conversion strategy %s, versions %v (storage %s)", crd.Name, crd.CRD.ConversionStrategy, crd.CRD.Versions, crd.CRD.StorageVersion)
		chain = append(chain, Link{Component: "CRD " + crd.Name, Finding: fd, Evidence: []Evidence{{File: crd.Source.File, Line: crd.Source.Line, Object: crd.Ref(), Text: fd}}})
		s = fmt.Sprintf("The conversion webhook of CRD %s fails (%s)", crd.Name, kubemsg.ClassifyError(f.Detail).Code)
		if svc := crd.CRD.ConversionService; svc != nil {
			port := 443
			if svc.Port != nil {
				port = *svc.Port
			}
			chain = append(chain, backendChain(ix, svc.Namespace, svc.Name, port)...)
			s += fmt.Sprintf(": its Service %s/%s cannot be called", svc.Namespace, svc.Name)
		}
		break
	}
	if len(ev) > 0 && len(lines) > 0 {
		cause.Confidence = "high"
	}
	cause.Chain = chain
	cause.Summary = s + ", so the namespace controller cannot list or delete those objects."
	sortEntries(lines)
	cause.Evidence = append(ev, sampleLines(lines, 8)...)
	correlate(lines, p.Deletion).apply(&cause, p.Deletion, "conversion webhook failures")
	return []Cause{cause}, ""
}

// inferBlockingWebhook handles bundles without the namespace's deletion conditions and
// without controller logs: a fail-closed webhook that intercepts DELETE of a resource
// type still present in the namespace, and whose backend the bundle shows broken, is a
// probable cause (low confidence: nothing shows the call failing).
func inferBlockingWebhook(p *Pass) *Cause {
	if p.Condition(kubemsg.CondContentFailure) != nil {
		return nil
	}
	present := map[string]bool{}
	for _, o := range p.Index.ByNamespace[p.Namespace] {
		present[strings.ToLower(o.Kind)] = true
	}
	for kind := range p.Index.Records.Dropped[p.Namespace] {
		present[strings.ToLower(kind)] = true
	}
	if c := p.ConditionTrue(kubemsg.CondContentRemaining); c != nil {
		for _, rc := range kubemsg.ParseContentRemaining(c.Message) {
			present[rc.Resource] = true
		}
	}
	if len(present) == 0 {
		return nil
	}
	for _, kind := range []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"} {
		for _, cfg := range p.Index.ByKind[kind] {
			for _, wh := range cfg.Webhooks {
				if wh.FailurePolicy != "Fail" || wh.Service == nil || !interceptsDelete(wh) || !rulesCover(wh.Rules, present) {
					continue
				}
				broken, why := backendBroken(p.Index, wh.Service)
				if !broken {
					continue
				}
				port := 443
				if wh.Service.Port != nil {
					port = *wh.Service.Port
				}
				f := fmt.Sprintf("%s %s: failurePolicy Fail, rules %s, service %s/%s %s", cfg.Kind, cfg.Name, fmtRules(wh.Rules), wh.Service.Namespace, wh.Service.Name, why)
				c := &Cause{Type: CauseAdmissionWebhook, Confidence: "low", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{},
					Objects: []ObjectRef{objectRef(cfg)}, Webhooks: []string{wh.Name},
					Evidence: []Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: f}}}
				c.Chain = append([]Link{{Component: "webhook " + wh.Name, Finding: f, Evidence: c.Evidence}}, backendChain(p.Index, wh.Service.Namespace, wh.Service.Name, port)...)
				c.Summary = fmt.Sprintf("Probably %s (webhook %q, failurePolicy Fail): it intercepts DELETE of resources still in the namespace and its backend %s, so the namespace controller's deletes would be rejected. No condition or log line in the bundle confirms it.", cfg.Ref(), wh.Name, why)
				c.Notes = []string{"collect: kubectl get namespace " + p.Namespace + " -o json (its conditions name the failing webhook) and the kube-controller-manager log"}
				return c
			}
		}
	}
	return nil
}

func rulesCover(rules []objects.WebhookRule, present map[string]bool) bool {
	for _, r := range rules {
		for _, res := range r.Resources {
			if res == "*" || res == "*/*" || present[res] || present[strings.TrimSuffix(res, "s")] {
				return true
			}
		}
	}
	return false
}
