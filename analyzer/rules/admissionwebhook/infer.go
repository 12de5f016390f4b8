package admissionwebhook

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// inferBlockingWebhook handles bundles without the namespace's deletion conditions and
// without controller logs: a fail-closed webhook that intercepts DELETE of a resource
// type still present in the namespace, and whose backend the bundle shows broken, is a
// probable cause (low confidence: nothing shows the call failing).
func inferBlockingWebhook(p *analyzer.Pass) *findings.Cause {
	if p.Condition(kubemsg.CondContentFailure) != nil {
		return nil
	}
	present := map[string]bool{}
	for _, o := range p.Index.InNamespace(p.Namespace, "") {
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
				if wh.FailurePolicy != "Fail" || wh.Service == nil || !mechanism.InterceptsDelete(wh) || !rulesCover(wh.Rules, present) {
					continue
				}
				broken, why := mechanism.BackendBroken(p.Index, wh.Service)
				if !broken {
					continue
				}
				f := fmt.Sprintf("%s %s: failurePolicy Fail, rules %s, service %s/%s %s", cfg.Kind, cfg.Name, mechanism.FmtRules(wh.Rules), wh.Service.Namespace, wh.Service.Name, why)
				c := &findings.Cause{Confidence: "low", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{},
					Objects: []findings.ObjectRef{findings.ObjectRefOf(cfg)}, Webhooks: []string{wh.Name},
					Evidence: []findings.Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: f}}}
				c.Chain = append([]findings.Link{{Component: "webhook " + wh.Name, Finding: f, Evidence: c.Evidence}}, mechanism.BackendChain(p.Index, wh.Service)...)
				c.Summary = fmt.Sprintf("Probably %s (webhook %q, failurePolicy Fail): it intercepts DELETE of resources still in the namespace and its backend %s, so the namespace controller's deletes would be rejected. No condition or log line in the bundle confirms it.", cfg.Ref(), wh.Name, why)
				c.Notes = []string{"collect: kubectl get namespace " + p.Namespace + " -o json (its conditions name the failing webhook) and the kube-controller-manager log"}
				c.Inline = []string{"kubectl get namespace " + p.Namespace + " -o json"}
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
