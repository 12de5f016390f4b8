package analyzer

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// ContentRemainingRule reports objects that remain without finalizers.
var ContentRemainingRule = &Rule{
	Name: CauseContentRemaining,
	Doc: `Objects remain in the namespace although none of them has a finalizer.

NamespaceContentRemaining is True while NamespaceFinalizersRemaining is not: the
objects were asked to go but are still there, typically pods in graceful termination
on a node that no longer reports (the kubelet must confirm the pod's end), or objects
whose deletion failed for another reason recorded in NamespaceDeletionContentFailure.`,
	Run: runContentRemaining,
}

func runContentRemaining(p *Pass) ([]Cause, string) {
	c := p.ConditionTrue(kubemsg.CondContentRemaining)
	if c == nil {
		if cc := p.Condition(kubemsg.CondContentRemaining); cc != nil {
			return nil, fmt.Sprintf("%s is %s (%s)", cc.Type, cc.Status, cc.Reason)
		}
		return nil, "no NamespaceContentRemaining condition on the namespace"
	}
	if f := p.ConditionTrue(kubemsg.CondFinalizersRemaining); f != nil {
		return nil, "" // explained by finalizers-remaining
	}
	if f := p.ConditionTrue(kubemsg.CondContentFailure); f != nil {
		if len(kubemsg.ParseWebhookFailures(f.Message)) > 0 {
			return nil, "" // explained by admission-webhook
		}
		if _, ok := kubemsg.ParseConversionFailure(f.Message); ok {
			return nil, "" // explained by conversion-webhook
		}
	}
	items := kubemsg.ParseContentRemaining(c.Message)
	var parts []string
	for _, it := range items {
		parts = append(parts, fmt.Sprintf("%d %s", it.Count, it.GroupResource()))
	}
	cause := Cause{Type: CauseContentRemaining, Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{},
		Objects: []ObjectRef{}, Evidence: []Evidence{conditionEvidence(p.Object, c)}}
	if f := p.ConditionTrue(kubemsg.CondContentFailure); f != nil {
		cause.Evidence = append(cause.Evidence, conditionEvidence(p.Object, f))
		parts = append(parts, "deletes fail: "+f.Message)
	}
	var pods, deadNodes []string
	seenNode := map[string]bool{}
	for _, o := range p.Index.InNamespace(p.Namespace, "Pod") {
		if o.DeletionTimestamp.IsZero() {
			continue
		}
		cause.Objects = append(cause.Objects, objectRef(o))
		pods = append(pods, o.Name+" ("+podState(o)+")")
		cause.Evidence = append(cause.Evidence, fieldEvidence(o, "metadata.deletionTimestamp", fmt.Sprintf("Pod %s: deletionTimestamp %s, %s", o.Name, fmtTime(o.DeletionTimestamp), podState(o))))
		if o.Pod == nil || o.Pod.NodeName == "" || seenNode[o.Pod.NodeName] {
			continue
		}
		seenNode[o.Pod.NodeName] = true
		if n := p.Index.Find("Node", "", o.Pod.NodeName); n != nil {
			if c := n.Condition("Ready"); c != nil && c.Status != "True" {
				deadNodes = append(deadNodes, fmt.Sprintf("node %s is Ready=%s (%s: %s) since %s", n.Name, c.Status, c.Reason, c.Message, fmtTime(c.LastTransitionTime)))
				cause.Evidence = append(cause.Evidence, conditionEvidence(n, c))
			}
		}
	}
	cause.Summary = fmt.Sprintf("Objects remain without finalizers: %s.", strings.Join(parts, ", "))
	if len(pods) > 0 {
		cause.Summary += " Terminating pods: " + strings.Join(pods, "; ") + "."
	}
	if len(deadNodes) > 0 {
		cause.Confidence = "high"
		cause.Summary += " " + strings.Join(deadNodes, "; ") + ": its kubelet never confirms the pods are gone, so they stay until the node returns or is deleted (kubectl delete node), or the pods are force-deleted."
		cause.Chain = append(cause.Chain, Link{Component: "kubelet", Finding: strings.Join(deadNodes, "; ")})
	}
	return []Cause{cause}, ""
}

// NamespaceFinalizerRule reports finalizers on the Namespace object itself that the
// namespace controller does not own.
var NamespaceFinalizerRule = &Rule{
	Name: CauseNamespaceFinalizer,
	Doc: `The Namespace object itself carries a finalizer that another controller must remove.

spec.finalizers normally holds only "kubernetes" (removed by the namespace controller).
Other entries in spec.finalizers, or any metadata.finalizers on the Namespace (e.g.
Rancher's controller.cattle.io/namespace-auth, or foregroundDeletion), need their own
controller; the namespace is not removed while any remains.`,
	Run: runNamespaceFinalizer,
}

func runNamespaceFinalizer(p *Pass) ([]Cause, string) {
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
		return nil, fmt.Sprintf("the Namespace carries only the namespace controller's finalizer (spec.finalizers %v, no metadata.finalizers)", o.SpecFinalizers)
	}
	cause := Cause{Type: CauseNamespaceFinalizer, Confidence: "high", GroupVersions: []string{}, APIServices: []string{},
		Finalizers: extra, Objects: []ObjectRef{objectRef(o)}}
	if len(o.Finalizers) > 0 {
		cause.Evidence = append(cause.Evidence, fieldEvidence(o, "metadata.finalizers", "metadata.finalizers: "+strings.Join(o.Finalizers, ", ")))
	}
	if len(o.SpecFinalizers) > 0 {
		cause.Evidence = append(cause.Evidence, fieldEvidence(o, "spec.finalizers", "spec.finalizers: "+strings.Join(o.SpecFinalizers, ", ")))
	}
	var owners []string
	for _, f := range extra {
		link := finalizerOwnerLink(p.Index, f, nil)
		cause.Chain = append(cause.Chain, link)
		owners = append(owners, link.Finding)
	}
	cause.Summary = fmt.Sprintf("The Namespace itself carries finalizer%s %s that the namespace controller does not remove. %s",
		plural(len(extra), "s", ""), strings.Join(extra, ", "), strings.Join(owners, " "))
	return []Cause{cause}, ""
}

// undetermined is reported when no rule found a cause.
func undetermined(p *Pass, ruled []RuledOut) Cause {
	var checked []string
	for _, r := range ruled {
		checked = append(checked, r.Type+": "+r.Reason)
	}
	c := Cause{Type: CauseUndetermined, Confidence: "low", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{}, Objects: []ObjectRef{}, Evidence: []Evidence{}}
	c.Summary = "The bundle does not show why this namespace is stuck. Checked: " + strings.Join(checked, "; ") + "."
	c.Notes = []string{
		"collect: kubectl get namespace " + p.Namespace + " -o json",
		"collect: kubectl get apiservices -o json",
		"collect: kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n " + p.Namespace + " -o json",
		"collect: kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json",
		"collect: kube-controller-manager logs covering the deletion time (kubectl -n kube-system logs -l component=kube-controller-manager --tail=-1)",
	}
	if p.Object != nil && len(p.Object.Conditions) == 0 {
		c.Notes = append(c.Notes, "the Namespace has no status conditions: either the namespace controller never processed it (is kube-controller-manager running?) or the cluster is older than 1.16")
	}
	return c
}
