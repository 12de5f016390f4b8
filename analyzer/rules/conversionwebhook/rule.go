package conversionwebhook

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

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
const Name = "conversion-webhook"

// Rule finds CRD conversion webhooks that fail.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `A CustomResourceDefinition's conversion webhook fails.

When a CRD serves several versions with spec.conversion.strategy Webhook, listing or
deleting its objects at another version than the stored one calls the webhook. With the
webhook's Service gone, every list fails ("conversion webhook for <group/version>,
Kind=<Kind> failed: ..."), so the namespace controller cannot delete the objects and
the garbage collector and quota controllers cannot list them.`,
	Lines: []index.Match{{Phrases: []string{"conversion webhook"}, // apiextensions-apiserver: "conversion webhook for %v failed: %v"
		Keys: collect}},
	Kinds:   []string{"CustomResourceDefinition", "Service", "Endpoints", "EndpointSlice", "Pod", "Node"},
	Run:     runConversionWebhook,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsResources, findings.ClaimsGroups},
	Ladder:  ladder,
	Risks:   risks,
	Example: example,
}

// collect keeps every conversion webhook failure (key "").
func collect(_ *logs.Entry, detail string) []string {
	if _, ok := kubemsg.ParseConversionFailure(detail); ok {
		return []string{""}
	}
	return nil
}

func runConversionWebhook(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	var ev []findings.Evidence
	var found []kubemsg.ConversionFailure
	if c := p.ConditionTrue(kubemsg.CondContentFailure); c != nil {
		if f, ok := kubemsg.ParseConversionFailure(c.Message); ok {
			found = append(found, f)
			ev = append(ev, findings.ConditionEvidence(p.Object, c))
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
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{f.GroupVersion}, APIServices: []string{},
		Finalizers: []string{}, Objects: []findings.ObjectRef{}}
	for _, e := range p.Lines("") {
		if !slices.Contains(lines, e) && strings.Contains(e.Detail(), f.Kind) {
			lines = append(lines, e)
		}
	}
	chain := []findings.Link{{Component: "namespace controller (kube-controller-manager)", Fault: true, Code: findings.ErrorCode(f.Detail), Finding: fmt.Sprintf("listing/deleting %s %s fails: conversion webhook error: %s", f.GroupVersion, f.Kind, f.Detail), Evidence: ev}}
	s := fmt.Sprintf("The conversion webhook of %s (%s) fails (%s)", f.Kind, f.GroupVersion, kubemsg.ClassifyError(f.Detail).Code)
	for _, crd := range ix.ByKind["CustomResourceDefinition"] {
		if crd.CRD == nil || crd.CRD.Kind != f.Kind || (f.GroupVersion != "" && crd.CRD.Group != kubemsg.GroupOf(f.GroupVersion)) {
			continue
		}
		cause.Objects = append(cause.Objects, findings.ObjectRefOf(crd))
		cause.ClaimResource(crd.CRD.Plural + "." + crd.CRD.Group) // its objects can be neither listed nor deleted
		fd := fmt.Sprintf("CRD %s: conversion strategy %s, versions %v (storage %s)", crd.Name, crd.CRD.ConversionStrategy, crd.CRD.Versions, crd.CRD.StorageVersion)
		chain = append(chain, findings.Link{Component: "CRD " + crd.Name, Finding: fd, Evidence: []findings.Evidence{{File: crd.Source.File, Line: crd.Source.Line, Object: crd.Ref(), Text: fd}}, Fault: true,
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "crd", crd.Name, "-o", "jsonpath={.spec.conversion}"),
				Why: "Restore the conversion webhook's Service and pods (reinstall the operator that serves it), or, if every object is stored at one version, set spec.conversion.strategy to None."}})
		s = fmt.Sprintf("The conversion webhook of CRD %s fails (%s)", crd.Name, kubemsg.ClassifyError(f.Detail).Code)
		if svc := crd.CRD.ConversionService; svc != nil {
			chain = append(chain, mechanism.BackendChain(ix, svc)...)
			s += fmt.Sprintf(": its Service %s/%s cannot be called", svc.Namespace, svc.Name)
			if p.Stuck[svc.Namespace] {
				chain = append(chain, mechanism.DeadlockLink("the conversion webhook's backend", svc.Namespace, fmt.Sprintf("Service %s/%s", svc.Namespace, svc.Name),
					&findings.RemediationStep{Risk: findings.RiskCaution, Command: shellsafe.Cmd("kubectl", "patch", "crd", crd.Name, "--type=merge", "-p", noConversion),
						Why: noConversionWhy(svc.Namespace)}, nil))
				s += fmt.Sprintf(", in namespace %s, itself being deleted (self-inflicted deadlock)", svc.Namespace)
			}
		}
		break
	}
	if len(cause.Objects) == 0 {
		chain = append(chain, findings.Link{Component: "CRD of " + f.Kind + " (" + kubemsg.GroupOf(f.GroupVersion) + ")",
			Finding: "not in the bundle (collect: kubectl get crd -o json)", Inline: []string{"kubectl get crd -o json"}, Facts: []findings.Fact{findings.F("CRD of "+f.Kind, findings.FactNotInBundle)}})
		if svc, ok := kubemsg.ParseCalledService(f.Detail); ok {
			ref := &objects.ServiceReference{Namespace: svc.Namespace, Name: svc.Name}
			chain = append(chain, mechanism.CalledServiceChain(ix, ref, svc.NotFound, fmt.Sprintf("the conversion call's error says service %q not found", ref.Name), ev)...)
			s += fmt.Sprintf(": its Service %s/%s (from the call's URL) cannot be called", ref.Namespace, ref.Name)
			if p.Stuck[ref.Namespace] {
				chain = append(chain, mechanism.DeadlockLink("the conversion webhook's backend", ref.Namespace, fmt.Sprintf("Service %s/%s, from the call's URL", ref.Namespace, ref.Name),
					&findings.RemediationStep{Risk: findings.RiskSafe, Command: FindCRDCmd(f), Why: fmt.Sprintf("Find the CRD of %s (it is not in the bundle; this prints its name and conversion settings and changes nothing): its conversion webhook's backend is in namespace %s, which is being deleted, so the next step, turning its conversion off, is the fix.", f.Kind, ref.Namespace)}, ev))
				s += fmt.Sprintf(", in namespace %s, itself being deleted (self-inflicted deadlock)", ref.Namespace)
			}
		}
	}
	if len(ev) > 0 && len(lines) > 0 {
		cause.Confidence = "high"
	}
	cause.Chain = chain
	cause.Summary = s + ", so the namespace controller cannot list or delete those objects."
	cause.Evidence = ev
	cause.AttachLines(lines, p.Deletion, "conversion webhook failures", 8)
	if len(cause.Objects) == 0 && f.GroupVersion != "" {
		cause.ClaimGroup(kubemsg.GroupOf(f.GroupVersion)) // the CRD is not in the bundle: its group
	}
	return []findings.Cause{cause}, ""
}

// noConversion turns a CRD's conversion webhook off: objects are then served at the
// requested version without conversion (apiextensions rejects a webhook config with
// strategy None, so it is removed with it).
const noConversion = `{"spec":{"conversion":{"strategy":"None","webhook":null}}}`

func noConversionWhy(ns string) string {
	return fmt.Sprintf("The conversion webhook's backend is in namespace %s, which is being deleted: it can never answer again, so this is the fix that works. Objects are then served without conversion (fine when they are all stored at one version; check the CRD's status.storedVersions); reinstall the operator with its webhook in a namespace that stays, if it is still needed.", ns)
}

// FindCRDCmd prints the name and conversion settings of the CRD of a failing
// conversion (read-only): the first step when the bundle does not have the CRD.
// With nameOnly it prints only the name (for the step that acts on it).
func FindCRDCmd(f kubemsg.ConversionFailure, nameOnly ...bool) string {
	out := `.metadata.name + " " + (.spec.conversion | tojson) + " stored: " + (.status.storedVersions | tojson)`
	if len(nameOnly) > 0 && nameOnly[0] {
		out = `.metadata.name`
	}
	return shellsafe.Cmd("kubectl", "get", "crd", "-o", "json") + " | " +
		shellsafe.Cmd("jq", "-r", "--arg", "g", kubemsg.GroupOf(f.GroupVersion), "--arg", "k", f.Kind,
			`.items[]|select(.spec.group == $g and .spec.names.kind == $k) | `+out)
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var steps []findings.RemediationStep
	if len(c.Objects) == 0 && p != nil {
		if f, ok := failureOf(c); ok {
			deleting := findings.Fact{}
			for _, l := range c.Chain {
				if l.Component == "deadlock" && len(l.Facts) > 0 {
					deleting = l.Facts[0]
				}
			}
			steps = append(steps, findings.RemediationStep{Risk: findings.RiskSafe, Command: FindCRDCmd(f),
				Why: fmt.Sprintf("Find the CRD of %s (it is not in the bundle; this prints its name, conversion settings and stored versions, and changes nothing), then restore the conversion webhook's Service and pods (reinstall the operator that serves it).", f.Kind)})
			patch := FindCRDCmd(f, true) + " | xargs -r -I{} kubectl patch crd {} --type=merge -p " + shellsafe.Quote(noConversion)
			why := "Turns the CRD's conversion webhook off (found above): objects are then served at the requested version without conversion, which is only right when they are all stored at one version (status.storedVersions); the operator's webhook is bypassed until it is reinstalled."
			step := findings.RemediationStep{Risk: findings.RiskCaution, Command: patch, Why: why}
			if deleting.Is != "" {
				step.Why = noConversionWhy(strings.TrimPrefix(deleting.Subject, "namespace "))
				step.Premise = []findings.Fact{deleting}
			}
			steps = append(steps, step)
		}
	}
	for _, o := range c.Objects {
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskSafe,
			Command: shellsafe.Cmd("kubectl", "get", "crd", o.Name, "-o", "jsonpath={.spec.conversion}") + "   # restore the conversion webhook's Service",
			Why:     "Bring the conversion webhook back; listing and deleting the custom resources works again."})
	}
	return steps
}

// failureOf re-reads the conversion failure a cause was built from (its first link).
func failureOf(c *findings.Cause) (kubemsg.ConversionFailure, bool) {
	for _, l := range c.Chain {
		if l.Component != "namespace controller (kube-controller-manager)" {
			continue
		}
		for _, e := range l.Evidence {
			if f, ok := kubemsg.ParseConversionFailure(e.Text); ok {
				return f, true
			}
		}
	}
	for _, e := range c.Evidence {
		if f, ok := kubemsg.ParseConversionFailure(e.Text); ok {
			return f, true
		}
	}
	for _, e := range c.Related {
		if f, ok := kubemsg.ParseConversionFailure(e.Detail()); ok {
			return f, true
		}
	}
	return kubemsg.ConversionFailure{}, false
}

// risks lists CRDs whose conversion webhook's backend is broken.
func risks(ix *index.Index, reported map[string]bool) []findings.Risk {
	var out []findings.Risk
	for _, crd := range ix.ByKind["CustomResourceDefinition"] {
		c := crd.CRD
		if c == nil || c.ConversionStrategy != "Webhook" || c.ConversionService == nil || reported[crd.Ref()] {
			continue
		}
		if broken, why := mechanism.BackendBroken(ix, c.ConversionService); broken {
			cause := findings.Cause{Objects: []findings.ObjectRef{findings.ObjectRefOf(crd)}}
			out = append(out, findings.Risk{Type: Name, Object: crd.Ref(),
				Summary: fmt.Sprintf("CRD %s converts between versions %v through a webhook whose Service %s/%s %s: listing or deleting its objects at a version other than the stored one fails, so deleting a namespace that holds them will hang, and objects can be left orphaned.",
					crd.Name, c.Versions, c.ConversionService.Namespace, c.ConversionService.Name, why),
				Evidence: []findings.Evidence{{File: crd.Source.File, Line: crd.Source.Line, Object: crd.Ref(), Text: fmt.Sprintf("%s: conversion strategy Webhook, service %s/%s", crd.Ref(), c.ConversionService.Namespace, c.ConversionService.Name)}},
				Fix:      ladder(nil, &cause)})
		}
	}
	return append(out, lineRisks(ix, reported, out)...)
}

// lineRisks lists the conversion failures of lines that name no namespace being
// deleted (kubectl's stderr on deleting a custom resource by hand, a controller's
// log) for CRDs the bundle does not dump: the CRD's conversion webhook is broken, and
// a namespace holding its objects would hang. The CRD is named <plural>.<group>, the
// plural guessed from the kind as kubectl's RESTMapper guesses it
// (k8s.io/apimachinery meta.UnsafeGuessKindToResource), and said to be guessed.
func lineRisks(ix *index.Index, reported map[string]bool, found []findings.Risk) []findings.Risk {
	inNamespace := map[*logs.Entry]bool{}
	covered := map[string]bool{} // group/version and kind a namespace's own evidence names: its cause says it
	for _, ls := range ix.NamespaceDeletionFailed {
		for _, e := range ls {
			inNamespace[e] = true
			if f, ok := kubemsg.ParseConversionFailure(e.Detail()); ok {
				covered[f.GroupVersion+" "+f.Kind] = true
			}
		}
	}
	for _, ns := range ix.Namespaces {
		for _, c := range ns.Conditions {
			if f, ok := kubemsg.ParseConversionFailure(c.Message); ok && c.Status == "True" {
				covered[f.GroupVersion+" "+f.Kind] = true
			}
		}
	}
	byCRD := map[string][]*logs.Entry{}
	failure := map[string]kubemsg.ConversionFailure{}
	var names []string
	for _, e := range ix.RuleLines(Name, "") {
		f, ok := kubemsg.ParseConversionFailure(e.Detail())
		if !ok || inNamespace[e] || covered[f.GroupVersion+" "+f.Kind] || f.GroupVersion == "" || f.Kind == "" {
			continue
		}
		gv, err := schema.ParseGroupVersion(f.GroupVersion)
		if err != nil || gv.Group == "" {
			continue
		}
		name := guessPlural(f.Kind) + "." + gv.Group
		if _, seen := byCRD[name]; !seen {
			names = append(names, name)
			failure[name] = f
		}
		byCRD[name] = append(byCRD[name], e)
	}
	var out []findings.Risk
	for _, name := range names {
		f := failure[name]
		known := reported["CustomResourceDefinition/"+name] || slices.ContainsFunc(found, func(r findings.Risk) bool { return r.Object == "CustomResourceDefinition/"+name })
		for _, crd := range ix.ByKind["CustomResourceDefinition"] {
			known = known || crd.CRD != nil && crd.CRD.Kind == f.Kind && crd.CRD.Group == kubemsg.GroupOf(f.GroupVersion)
		}
		if known {
			continue // the CRD object (or a stuck namespace's cause) speaks for it
		}
		lines := byCRD[name]
		findings.SortEntries(lines)
		summary := fmt.Sprintf("The conversion webhook of %s (%s) fails (%s: %s, %s): listing or deleting these objects fails, so deleting a namespace that holds them will hang. "+
			"The bundle has no CRD object for it: %s is the name kubectl would guess from the kind (collect: kubectl get crd -o json).",
			f.Kind, f.GroupVersion, kubemsg.ClassifyError(f.Detail).Code, findings.Clip(f.Detail, 160), findings.LineSpan(lines), name)
		if svc, ok := kubemsg.ParseCalledService(f.Detail); ok {
			summary += fmt.Sprintf(" The call went to Service %s/%s.", svc.Namespace, svc.Name)
		}
		fix := []findings.RemediationStep{{Risk: findings.RiskSafe, Command: FindCRDCmd(f),
			Why: fmt.Sprintf("Find the CRD of %s (this prints its name, conversion settings and stored versions, and changes nothing), then restore the conversion webhook's Service and pods (reinstall the operator that serves it).", f.Kind)}}
		out = append(out, findings.Risk{Type: Name, Object: "CustomResourceDefinition/" + name, Summary: summary,
			Evidence: findings.SampleLines(lines, 3), Fix: fix, Inline: []string{"kubectl get crd -o json"}})
	}
	return out
}

func example(p *analyzer.Pass) findings.Cause {
	return findings.Cause{Objects: []findings.ObjectRef{{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "RESOURCES.example.com"}}}
}

// guessPlural is the resource kubectl's RESTMapper guesses for a kind
// (k8s.io/apimachinery v0.37 pkg/api/meta/restmapper.go UnsafeGuessKindToResource,
// not imported: that package pulls in the whole runtime): lower case, then "es" after
// an "s", "ies" for a final "y", else "s"; "endpoints" stays.
func guessPlural(kind string) string {
	s := strings.ToLower(kind)
	switch {
	case s == "" || strings.HasSuffix(s, "endpoints"):
		return s
	case strings.HasSuffix(s, "s"):
		return s + "es"
	case strings.HasSuffix(s, "y"):
		return strings.TrimSuffix(s, "y") + "ies"
	}
	return s + "s"
}
