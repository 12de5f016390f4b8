package namespacefinalizer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// Name is the cause type this rule reports.
const Name = "namespace-finalizer"

// Rule reports finalizers on the Namespace object itself that the namespace controller
// does not own.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `The Namespace object itself carries a finalizer that another controller must remove.

spec.finalizers normally holds only "kubernetes" (removed by the namespace controller).
Other entries in spec.finalizers, or any metadata.finalizers on the Namespace (e.g.
Rancher's controller.cattle.io/namespace-auth, or foregroundDeletion), need their own
controller; the namespace is not removed while any remains.`,
	Kinds:   []string{"Deployment", "StatefulSet", "DaemonSet", "Pod", "CustomResourceDefinition"},
	Run:     runNamespaceFinalizer,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers},
	Ladder:  ladder,
	Example: example,
}

func runNamespaceFinalizer(p *analyzer.Pass) ([]findings.Cause, string) {
	o := p.Object
	if o == nil {
		return nil, ""
	}
	var extra []string
	for _, f := range o.SpecFinalizers {
		if f != "kubernetes" {
			extra = append(extra, f)
		}
	}
	extra = append(extra, o.Finalizers...)
	if len(extra) == 0 {
		if !analyzer.FinalizersShown(o) {
			return nil, "the Namespace's finalizers are not shown: the bundle has it only as a kubectl get table or describe output, which never shows them"
		}
		if len(o.SpecFinalizers) == 0 {
			return nil, "the Namespace carries no finalizer (spec.finalizers and metadata.finalizers are empty)"
		}
		return nil, fmt.Sprintf("the Namespace carries only the namespace controller's finalizer (spec.finalizers %s, no metadata.finalizers)", strings.Join(o.SpecFinalizers, ", "))
	}
	cause := findings.Cause{Confidence: "high", GroupVersions: []string{}, APIServices: []string{},
		Finalizers: extra, Objects: []findings.ObjectRef{findings.ObjectRefOf(o)}}
	if len(o.Finalizers) > 0 {
		cause.Evidence = append(cause.Evidence, findings.FieldEvidence(o, "metadata.finalizers", "metadata.finalizers: "+strings.Join(o.Finalizers, ", ")))
	}
	if len(o.SpecFinalizers) > 0 {
		cause.Evidence = append(cause.Evidence, findings.FieldEvidence(o, "spec.finalizers", "spec.finalizers: "+strings.Join(o.SpecFinalizers, ", ")))
	}
	var owners []string
	for _, f := range extra {
		link := mechanism.FinalizerOwnerLink(p.Index, f, nil)
		cause.Chain = append(cause.Chain, link)
		owners = append(owners, link.Finding)
	}
	cause.Summary = fmt.Sprintf("The Namespace itself carries finalizer%s %s that the namespace controller does not remove. %s",
		findings.Plural(len(extra), "s", ""), strings.Join(extra, ", "), strings.Join(owners, " "))
	return []findings.Cause{cause}, ""
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var steps []findings.RemediationStep
	for _, f := range c.Finalizers {
		steps = append(steps, mechanism.OwnerStep(p.Index, f, p.Namespace, nil))
	}
	var meta []string
	for _, f := range c.Finalizers {
		if p.Object != nil && slices.Contains(p.Object.Finalizers, f) {
			meta = append(meta, f)
		}
	}
	if len(meta) > 0 {
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: shellsafe.Cmd("kubectl", "patch", "namespace", p.Namespace, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`),
			Why:     "Removes metadata.finalizers " + strings.Join(meta, ", ") + " (this field, unlike spec.finalizers, can be edited directly); the owning controller's cleanup is skipped."})
	}
	return steps
}

func example(p *analyzer.Pass) findings.Cause {
	p.Object.Finalizers = []string{"example.com/FINALIZER"}
	return findings.Cause{Finalizers: []string{"example.com/FINALIZER"}}
}
