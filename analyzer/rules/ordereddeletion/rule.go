// Package ordereddeletion is the rule for Kubernetes' ordered namespace deletion
// (KEP-5080): since 1.33 the namespace controller deletes a namespace's pods first and
// holds back every other object until no pod remains.
package ordereddeletion

import (
	"fmt"
	"sort"
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
const Name = "ordered-deletion"

// Rule finds pods that hold back the rest of a namespace's deletion.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `Pods that cannot go hold back the deletion of everything else in the namespace.

With ordered namespace deletion (KEP-5080; feature gate OrderedNamespaceDeletion, on by
default from 1.33, GA and locked on from 1.34, backported off by default to some 1.30-1.32
patches) the namespace controller deletes the namespace's pods first and deletes no other
object until every pod is gone. A pod that cannot go (a finalizer nobody removes, a node
that stopped reporting so its kubelet never confirms the end) therefore blocks the whole
namespace: the other objects are not even asked to go yet (no deletionTimestamp), so their
own finalizers are not the problem (yet). Fix the pods first.

Evidence: pods of the namespace with a deletionTimestamp and finalizers or on a node that
is not Ready, other objects of the namespace without a deletionTimestamp, the cluster's
version, and the controller's "failed to delete pods for namespace" and V(5) "pods still
remain, delaying deletion of other resources" lines.`,
	Lines: []index.Match{{Phrases: []string{"failed to delete pods for namespace", "pods still remain, delaying deletion"}, // KEP-5080 namespace deleter
		Keys: collect}},
	Kinds:   []string{"Pod", "Node", "Deployment", "StatefulSet", "DaemonSet", "CustomResourceDefinition"},
	Run:     run,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsContent},
	Ladder:  ladder,
	Example: example,
}

// collect keeps the ordered-deletion lines of the namespace controller, by namespace.
func collect(_ *logs.Entry, d string) []string {
	if ns, _, ok := kubemsg.ParseOrderedDeletionFailure(d); ok {
		return []string{ns}
	}
	if ns, ok := kubemsg.ParsePodsStillRemain(d); ok && ns != "" {
		return []string{ns}
	}
	return nil
}

func run(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	lines := p.Lines(p.Namespace)
	var pods, heldBack []*objects.Object
	for _, o := range ix.InNamespace(p.Namespace, "") {
		switch {
		case o.Kind == "Pod" && !o.DeletionTimestamp.IsZero():
			pods = append(pods, o)
		case o.Kind != "Pod" && o.Kind != "Event" && o.DeletionTimestamp.IsZero():
			heldBack = append(heldBack, o)
		}
	}
	version := ix.KubernetesVersion
	on := index.MinorAtLeast(version, 33) || len(lines) > 0
	switch {
	case len(pods) == 0 && len(lines) == 0:
		return nil, "no pod of the namespace is being deleted in the bundle and no ordered-deletion line in the logs"
	case !on:
		if version == "" {
			return nil, "the cluster's version is not in the bundle and no ordered-deletion line was logged, so pods-first deletion (1.33+) cannot be shown"
		}
		return nil, fmt.Sprintf("the cluster runs %s: the namespace controller deletes every object at once (pods-first deletion is on by default from 1.33)", version)
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	sort.Slice(heldBack, func(i, j int) bool { return heldBack[i].Ref() < heldBack[j].Ref() })
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{}, Objects: []findings.ObjectRef{}}
	why := "pods-first deletion (KEP-5080) is on"
	if index.MinorAtLeast(version, 33) {
		why += " in " + version
	}
	ctrl := findings.Link{Component: "namespace controller (kube-controller-manager)", Fault: true,
		Finding: fmt.Sprintf("%s: it deletes the namespace's pods first and no other object until they are gone; %d pod(s) remain", why, len(pods))}
	if len(lines) > 0 {
		findings.SortEntries(lines)
		ctrl.Evidence = findings.SampleLines(lines, 3)
	}
	cause.Chain = append(cause.Chain, ctrl)
	fins := map[string][]*objects.Object{}
	var podDescs []string
	deadNodes := map[string]*objects.Object{}
	for _, pod := range pods {
		ref := findings.ObjectRefOf(pod)
		ref.Resource = "pods"
		cause.Objects = append(cause.Objects, ref)
		desc := pod.Name + " (" + mechanism.PodState(pod)
		if len(pod.Finalizers) > 0 {
			desc += ", finalizers " + strings.Join(pod.Finalizers, ", ")
		}
		desc += ")"
		podDescs = append(podDescs, desc)
		text := fmt.Sprintf("Pod %s: deletionTimestamp %s", pod.Name, findings.FmtTime(pod.DeletionTimestamp))
		if len(pod.Finalizers) > 0 {
			text += ", metadata.finalizers: " + strings.Join(pod.Finalizers, ", ")
		}
		cause.Evidence = append(cause.Evidence, findings.FieldEvidence(pod, "metadata.deletionTimestamp", text))
		for _, f := range pod.Finalizers {
			fins[f] = append(fins[f], pod)
		}
		if pod.Pod != nil && pod.Pod.NodeName != "" {
			if n := ix.Find("Node", "", pod.Pod.NodeName); n != nil {
				if c := n.Condition("Ready"); c != nil && c.Status != "True" {
					deadNodes[n.Name] = n
				}
			}
		}
	}
	if len(pods) > findings.GroupExamples {
		// many pods: one phrase and one command per group (finalizers, node)
		cause.Groups = mechanism.PodGroups(ix, pods)
		podDescs = podDescs[:0]
		for _, g := range cause.Groups[:min(len(cause.Groups), findings.GroupExamples)] {
			podDescs = append(podDescs, mechanism.PodGroupLine(g))
		}
		if rest := len(cause.Groups) - findings.GroupExamples; rest > 0 {
			podDescs = append(podDescs, fmt.Sprintf("and %d more groups", rest))
		}
	}
	podLink := findings.Link{Component: "Pods " + p.Namespace, Fault: len(pods) > 0,
		Finding: "being deleted but still present: " + strings.Join(podDescs, "; ")}
	if len(pods) == 0 {
		collect := shellsafe.Cmd("kubectl", "-n", p.Namespace, "get", "pods", "-o", "json")
		podLink.Finding, podLink.Inline = "the pods are not in the bundle (collect: "+collect+")", []string{collect}
	}
	cause.Chain = append(cause.Chain, podLink)
	for _, f := range findings.SortedKeys(fins) {
		cause.Finalizers = append(cause.Finalizers, f)
		cause.Chain = append(cause.Chain, mechanism.FinalizerOwnerLink(ix, f, fins[f]))
	}
	for _, name := range findings.SortedKeys(deadNodes) {
		n := deadNodes[name]
		c := n.Condition("Ready")
		cause.Chain = append(cause.Chain, findings.Link{Component: "Node " + name, Fault: true, Evidence: []findings.Evidence{findings.ConditionEvidence(n, c)},
			Finding: fmt.Sprintf("Ready=%s (%s) since %s: its kubelet never confirms that the pods are gone", c.Status, c.Reason, findings.FmtTime(c.LastTransitionTime)),
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "describe", "node", name),
				Why: "Bring the node's kubelet back, or, if the node is gone for good, delete the Node object so its pods are removed."}})
	}
	dropped := 0
	var droppedKinds []string
	for _, kind := range findings.SortedKeys(ix.Records.Dropped[p.Namespace]) {
		dropped += ix.Records.Dropped[p.Namespace][kind]
		droppedKinds = append(droppedKinds, fmt.Sprintf("%d %s", ix.Records.Dropped[p.Namespace][kind], kind))
	}
	if len(heldBack)+dropped > 0 {
		var names []string
		for _, o := range heldBack[:min(6, len(heldBack))] {
			s := o.Kind + " " + o.Name
			if len(o.Finalizers) > 0 {
				s += " (finalizers " + strings.Join(o.Finalizers, ", ") + ", not the problem yet: it has not been asked to go)"
			}
			names = append(names, s)
		}
		if len(heldBack) > 6 {
			names = append(names, fmt.Sprintf("and %d more", len(heldBack)-6))
		}
		if dropped > 0 {
			names = append(names, strings.Join(droppedKinds, ", ")+" without finalizers")
		}
		ev := []findings.Evidence{}
		for _, o := range heldBack[:min(3, len(heldBack))] {
			ev = append(ev, findings.Evidence{File: o.Source.File, Line: o.Source.Line, Object: o.Ref(), Text: o.Ref() + ": no deletionTimestamp"})
		}
		cause.Chain = append(cause.Chain, findings.Link{Component: "other objects of " + p.Namespace, Evidence: ev,
			Finding: fmt.Sprintf("%d object(s) held back, not yet deleted (no deletionTimestamp): %s", len(heldBack)+dropped, strings.Join(names, "; "))})
		if len(pods) > 0 {
			cause.Confidence = "high"
		}
	}
	// a side observation, last: never the object that holds the namespace
	if l, ok := conditionsCheck(p, pods); ok {
		cause.Chain = append(cause.Chain, l)
	}
	cause.Evidence = append(cause.Evidence, ctrl.Evidence...)
	// the pods are its Objects; everything else waits, not yet deleted
	for _, o := range heldBack {
		cause.ClaimObject(o)
	}
	cause.ClaimContent()
	cause.Related = lines
	sum := fmt.Sprintf("Pods first: %d pod(s) of the namespace cannot go (%s), and with ordered namespace deletion nothing else is deleted until they do", len(pods), strings.Join(podDescs, "; "))
	if len(heldBack)+dropped > 0 {
		sum += fmt.Sprintf("; %d other object(s) wait, not yet deleted", len(heldBack)+dropped)
	}
	cause.Summary = sum + "."
	findings.Correlate(lines, p.Deletion).Apply(&cause, p.Deletion, "ordered-deletion lines")
	return []findings.Cause{cause}, ""
}

// conditionsCheck checks the namespace's conditions against its pods. When pods remain,
// the pods-first deleter returns before it counts what remains (k8s.io/kubernetes
// pkg/controller/namespace/deletion/namespaced_resources_deleter.go deleteAllContent,
// 1.33-1.38: conditionUpdater.Update without ProcessContentTotals), so the conditions it
// writes keep their defaults: NamespaceContentRemaining=False "All content successfully
// removed" and NamespaceFinalizersRemaining=False "All content-preserving finalizers
// finished", although pods with finalizers remain (kubernetes/kubernetes#138208, open).
func conditionsCheck(p *analyzer.Pass, pods []*objects.Object) (findings.Link, bool) {
	if len(pods) == 0 {
		return findings.Link{}, false
	}
	var ev []findings.Evidence
	var says []string
	for _, t := range []string{kubemsg.CondContentRemaining, kubemsg.CondFinalizersRemaining} {
		if c := p.Condition(t); c != nil && c.Status == "False" {
			ev = append(ev, findings.ConditionEvidence(p.Object, c))
			says = append(says, fmt.Sprintf("%s=False %q", t, c.Message))
		}
	}
	if len(ev) == 0 {
		return findings.Link{}, false
	}
	withFin := 0
	for _, pod := range pods {
		if len(pod.Finalizers) > 0 {
			withFin++
		}
	}
	what := fmt.Sprintf("%d pod(s) remain", len(pods))
	if withFin > 0 {
		what += fmt.Sprintf(", %d of them with finalizers", withFin)
	}
	return findings.Link{Component: "namespace conditions", Evidence: ev,
		Finding: fmt.Sprintf("%s, but %s: with pods-first deletion the controller stops at the pods and writes its default conditions without counting what is left (kubernetes/kubernetes#138208), so these conditions are checked against the pods here, not trusted",
			strings.Join(says, " and "), what)}, true
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	var steps []findings.RemediationStep
	for _, f := range c.Finalizers {
		st := mechanism.OwnerStep(p.Index, f, p.Namespace, nil)
		st.Why += " Once the pods are gone the namespace controller deletes the rest of the namespace on its next pass."
		steps = append(steps, st)
	}
	for _, g := range c.Groups {
		if len(g.Finalizers) > 0 {
			steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution, Command: mechanism.FinalizerLoop(g),
				Why: fmt.Sprintf("Removes %s from the %s (every pod of the namespace that carries it) without the cleanup its controller would do; the rest of the namespace is then deleted (and its own finalizers may hold it next).", g.Finalizers[0], mechanism.PodGroupLine(g))})
			continue
		}
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution, Command: mechanism.PodDeleteLoop(g),
			Why: "Only when the node is gone for good: force-deletes the " + mechanism.PodGroupLine(g) + " without the kubelet's confirmation; their containers may still run if the node comes back."})
	}
	for _, o := range c.Objects {
		if o.Kind != "Pod" || len(c.Groups) > 0 {
			continue
		}
		if len(o.Finalizers) > 0 {
			steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
				Command: shellsafe.Cmd("kubectl", "-n", o.Namespace, "patch", "pod", o.Name, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`),
				Why:     fmt.Sprintf("Removes %s from pod %s without the cleanup its controller would do; the rest of the namespace is then deleted (and its own finalizers may hold it next).", strings.Join(o.Finalizers, ", "), o.Name)})
			continue
		}
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: shellsafe.Cmd("kubectl", "-n", o.Namespace, "delete", "pod", o.Name, "--grace-period=0", "--force"),
			Why:     "Only when the pod's node is gone for good: removes the pod without the kubelet's confirmation; its containers may still run if the node comes back."})
	}
	// groups on several nodes may share a command: each once
	seen := map[string]bool{}
	out := steps[:0]
	for _, st := range steps {
		if !seen[st.Command] {
			seen[st.Command] = true
			out = append(out, st)
		}
	}
	return out
}

func example(p *analyzer.Pass) findings.Cause {
	f := []string{"example.com/FINALIZER"}
	return findings.Cause{Finalizers: f, Objects: []findings.ObjectRef{{APIVersion: "v1", Kind: "Pod", Namespace: p.Namespace, Name: "POD", Resource: "pods", Finalizers: f}}}
}
