package contentremaining

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Name is the cause type this rule reports.
const Name = "content-remaining"

// Rule reports objects that remain without finalizers.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `Objects remain in the namespace although none of them has a finalizer.

NamespaceContentRemaining is True while NamespaceFinalizersRemaining is not: the
objects were asked to go but are still there, typically pods in graceful termination
on a node that no longer reports (the kubelet must confirm the pod's end), or objects
whose deletion failed for another reason recorded in NamespaceDeletionContentFailure.

A generic rule: it reports the resources and objects no specific cause claims (those
an admission or conversion webhook, a failing API group, the controller not running
or pods-first deletion already explain are not reported again).`,
	Kinds:    []string{"Pod", "Node"},
	Run:      runContentRemaining,
	Claims:   []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers},
	Yields:   []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsResources, findings.ClaimsGroups, findings.ClaimsContent},
	Requires: []*analyzer.Rule{finalizers.Rule}, // the pods and resources finalizers-remaining claims (it yields objects too)
	Ladder:   ladder,
	Example:  example,
}

func runContentRemaining(p *analyzer.Pass) ([]findings.Cause, string) {
	c := p.ConditionTrue(kubemsg.CondContentRemaining)
	if c == nil && p.Condition(kubemsg.CondContentRemaining) == nil {
		if lines := p.Index.ContentStillRemains[p.Namespace]; len(lines) > 0 {
			if by := p.ClaimedContent(); len(by) > 0 {
				return nil, p.ExplainedBy(by...)
			}
			return fromLog(p, lines), ""
		}
		// no condition (before 1.16, or not collected): pods shown Terminating
		if cause, ok := fromPods(p); ok {
			if by := p.ClaimedContent(); len(by) > 0 {
				return nil, p.ExplainedBy(by...)
			}
			return []findings.Cause{cause}, ""
		}
	}
	if c == nil {
		if cc := p.Condition(kubemsg.CondContentRemaining); cc != nil {
			return nil, findings.CondState(cc)
		}
		return nil, "no NamespaceContentRemaining condition on the namespace"
	}
	if f := p.ConditionTrue(kubemsg.CondFinalizersRemaining); f != nil {
		return nil, fmt.Sprintf("%s is True: the objects that remain carry finalizers", f.Type)
	}
	if by := p.ClaimedContent(); len(by) > 0 {
		return nil, p.ExplainedBy(by...)
	}
	items := kubemsg.ParseContentRemaining(c.Message)
	var parts, claimedBy []string
	for _, it := range items {
		if t := p.ClaimedResource(it.GroupResource()); t != "" {
			claimedBy = append(claimedBy, t)
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", it.Count, it.GroupResource()))
	}
	if len(items) > 0 && len(parts) == 0 {
		return nil, p.ExplainedBy(claimedBy...)
	}
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{},
		Objects: []findings.ObjectRef{}, Evidence: []findings.Evidence{findings.ConditionEvidence(p.Object, c)}}
	if f := p.ConditionTrue(kubemsg.CondContentFailure); f != nil {
		cause.Evidence = append(cause.Evidence, findings.ConditionEvidence(p.Object, f))
		parts = append(parts, "deletes fail: "+f.Message)
	}
	cause.Summary = fmt.Sprintf("Objects remain without finalizers: %s.", strings.Join(parts, ", "))
	if p.Condition(kubemsg.CondFinalizersRemaining) == nil {
		// absent is not False: the bundle cannot say they carry none
		cause.Summary = fmt.Sprintf("Objects remain: %s; whether they carry finalizers the bundle does not show (no %s condition).", strings.Join(parts, ", "), kubemsg.CondFinalizersRemaining)
	}
	terminatingPods(p, &cause, false)
	return []findings.Cause{cause}, ""
}

// fromPods reports content remaining from the pods the bundle shows Terminating (a
// deletionTimestamp, or a table's or describe's "Terminating") without finalizers,
// for namespaces without the NamespaceContentRemaining condition.
func fromPods(p *analyzer.Pass) (findings.Cause, bool) {
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{},
		Objects: []findings.ObjectRef{}}
	if n := terminatingPods(p, &cause, true); n == 0 {
		return cause, false
	}
	cause.Chain = append([]findings.Link{{Component: "namespace controller (kube-controller-manager)", Fault: true,
		Finding:  "pods of the namespace were asked to go and are still there: the namespace cannot be removed before them",
		Evidence: cause.Evidence[:min(len(cause.Evidence), 4)]}}, cause.Chain...)
	cause.Notes = append(cause.Notes, "collect: kubectl get namespace "+p.Namespace+" -o json (its NamespaceContentRemaining condition counts what remains)")
	cause.Inline = append(cause.Inline, "kubectl get namespace "+p.Namespace+" -o json")
	return cause, true
}

// terminatingPods adds the namespace's pods being deleted, and the state of their nodes,
// to a content-remaining cause; alone says the pods are all the cause shows. It
// returns how many pods it found.
func terminatingPods(p *analyzer.Pass, cause *findings.Cause, alone bool) int {
	var pods, deadNodes, nodeNames []string
	nodeCode := ""
	var terminating []*objects.Object
	for _, o := range p.Objects("Pod") {
		if o.Deleting() && !(alone && len(o.Finalizers) > 0) {
			terminating = append(terminating, o)
		}
	}
	nodeOf := map[*objects.Object]index.PodNode{} // the first pod on each node -> the node
	for _, pn := range p.Index.PodNodes(terminating) {
		nodeOf[pn.Pod] = pn
	}
	for _, o := range terminating {
		cause.Objects = append(cause.Objects, findings.ObjectRefOf(o))
		pods = append(pods, o.Name+" ("+mechanism.PodState(o)+")")
		if o.DeletionTimestamp.IsZero() {
			cause.Evidence = append(cause.Evidence, findings.FieldEvidence(o, "status", fmt.Sprintf("Pod %s: shown Terminating (deletion requested; the %s carries no deletion time), %s", o.Name, orDefault(o.Source.Rendering, "rendering"), mechanism.PodState(o))))
		} else {
			cause.Evidence = append(cause.Evidence, findings.FieldEvidence(o, "metadata.deletionTimestamp", fmt.Sprintf("Pod %s: deletionTimestamp %s, %s", o.Name, findings.FmtTime(o.DeletionTimestamp), mechanism.PodState(o))))
		}
		pn, first := nodeOf[o]
		if !first {
			continue
		}
		switch n := pn.Node; {
		case n != nil:
			if c := pn.NotReady(); c != nil {
				nodeNames = append(nodeNames, n.Name)
				d := fmt.Sprintf("node %s is Ready=%s", n.Name, c.Status)
				if c.Reason != "" || c.Message != "" {
					d += fmt.Sprintf(" (%s: %s)", c.Reason, c.Message)
				}
				if !c.LastTransitionTime.IsZero() {
					d += " since " + findings.FmtTime(c.LastTransitionTime)
				}
				deadNodes = append(deadNodes, d)
				nodeCode = findings.CodeNotReady
				cause.Evidence = append(cause.Evidence, findings.ConditionEvidence(n, c))
			}
		case pn.Gone:
			nodeNames = append(nodeNames, pn.Name)
			deadNodes = append(deadNodes, fmt.Sprintf("node %s is not among the nodes the bundle lists (deleted, or not collected)", pn.Name))
		}
	}
	if len(pods) == 0 {
		return 0
	}
	podText := strings.Join(pods, "; ")
	if len(terminating) > findings.GroupExamples {
		// many pods: one phrase and one command per node (and finalizers)
		cause.Groups = mechanism.PodGroups(p.Index, terminating)
		var gs []string
		for _, g := range cause.Groups[:min(len(cause.Groups), findings.GroupExamples)] {
			gs = append(gs, mechanism.PodGroupLine(g))
		}
		if rest := len(cause.Groups) - findings.GroupExamples; rest > 0 {
			gs = append(gs, fmt.Sprintf("and %d more groups", rest))
		}
		podText = strings.Join(gs, "; ")
	}
	if alone {
		cause.Summary = "Pods remain Terminating in the namespace: " + podText + "."
	} else {
		cause.Summary += " Terminating pods: " + podText + "."
	}
	if len(deadNodes) > 0 {
		cause.Confidence = "high"
		cause.Summary += " " + strings.Join(deadNodes, "; ") + ": its kubelet never confirms the pods are gone, so they stay until the node returns or is deleted (kubectl delete node), or the pods are force-deleted."
		cause.Chain = append(cause.Chain, findings.Link{Component: "kubelet", Finding: strings.Join(deadNodes, "; "), Fault: true, Code: nodeCode,
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd(append([]string{"kubectl", "describe", "node"}, nodeNames...)...),
				Why: "Bring the node's kubelet back (it then confirms the pods are gone), or, if the node is gone for good, delete the Node object: the pods on it are then removed."}})
	} else if alone {
		cause.Summary += " Their nodes' state is not in the bundle (collect: kubectl get nodes -o wide)."
		cause.Inline = append(cause.Inline, "kubectl get nodes -o wide")
	}
	return len(pods)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var steps []findings.RemediationStep
	if len(c.Groups) > 0 {
		for _, g := range c.Groups {
			steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution, Command: mechanism.PodDeleteLoop(g),
				Why: "Only when the node is gone for good: force-deletes the " + mechanism.PodGroupLine(g) + " (every pod of the namespace being deleted" + onNode(g) + "), without the kubelet's confirmation; if the node comes back, their containers may still run until the kubelet notices."})
		}
		return steps
	}
	for _, o := range c.Objects {
		if o.Kind != "Pod" {
			continue
		}
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: shellsafe.Cmd("kubectl", "-n", o.Namespace, "delete", "pod", o.Name, "--grace-period=0", "--force"),
			Why:     "Only when the pod's node is gone for good: removes the pod object without the kubelet's confirmation; if the node comes back, its containers may still run until the kubelet notices."})
	}
	return steps
}

func onNode(g findings.ObjectGroup) string {
	if g.Node == "" {
		return ""
	}
	return " on node " + g.Node
}

func example(p *analyzer.Pass) findings.Cause {
	return findings.Cause{Objects: []findings.ObjectRef{{APIVersion: "v1", Kind: "Pod", Namespace: p.Namespace, Name: "NAME", Resource: "pods"}}}
}

// fromLog reports content remaining from the namespace controller's "unexpected items
// still remain in namespace: X for gvr: G" lines, for bundles without conditions (the
// line is the only trace before 1.16, where the controller logged the bare error).
func fromLog(p *analyzer.Pass, lines []index.ContentLine) []findings.Cause {
	var entries []*logs.Entry
	seen := map[string]bool{}
	var res []string
	for _, l := range lines {
		entries = append(entries, l.Entry)
		r := l.GVR.Resource
		if l.GVR.Group != "" {
			r += "." + l.GVR.Group
		}
		if !seen[r] {
			seen[r] = true
			res = append(res, r)
		}
	}
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{}, Objects: []findings.ObjectRef{}}
	cause.AttachLines(entries, p.Deletion, "remaining items", 6)
	cause.Summary = fmt.Sprintf("The namespace controller finds %s still in the namespace after deleting them (\"unexpected items still remain\"): objects that do not go although they carry no finalizer the controller waits for, typically pods on a node that stopped reporting, or objects whose deletion keeps failing.", strings.Join(res, ", "))
	cause.Chain = []findings.Link{{Component: "namespace controller (kube-controller-manager)", Fault: true, Evidence: findings.SampleLines(entries, 3),
		Finding: "items of " + strings.Join(res, ", ") + " remain after every deletion pass",
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd(append([]string{"kubectl", "-n", p.Namespace, "get"}, strings.Join(res, ","), "-o", "wide")...),
			Why: "See which objects remain and why they do not go (a pod's node, a stuck volume detach, a failing controller)."}}}
	return []findings.Cause{cause}
}
