package mechanism

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// A finalizer is held by what its controller waits for, not by the controller itself:
// kube-controller-manager's pvc-protection controller removes kubernetes.io/pvc-protection
// as soon as no pod mounts the claim, so the step is to find that pod (and its node),
// not to "restart the controller". FinalizerChain follows each built-in finalizer to
// what holds it (a mechanism per finalizer, finalizerMechanisms); for the others it
// tells whether their controller runs, and whether it lives in a namespace being
// deleted (a deadlock: it cannot come back there to remove the finalizer).

// mechanism follows a built-in finalizer on the objects that carry it to what holds it.
type mechanism func(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link

// finalizerMechanisms are the built-in finalizers' mechanisms, matched like the catalog.
var finalizerMechanisms = []struct {
	match func(string) bool
	run   mechanism
}{
	{findings.FinalizerIs("kubernetes.io/pvc-protection"), pvcProtection},
	{findings.FinalizerIs("kubernetes.io/pv-protection"), pvProtection},
	{findings.FinalizerIs("foregroundDeletion"), foregroundDeletion},
	{findings.FinalizerIs("orphan"), orphanFinalizer},
	{findings.FinalizerIs("customresourcecleanup.apiextensions.k8s.io"), crdCleanup},
	{findings.FinalizerOfDomain("external-attacher"), externalAttacher},
	{findings.FinalizerIs("kubernetes"), namespaceContent},
}

// FinalizerChain is the chain of one finalizer on the objects of the namespace that carry
// it (objs: every object of the cause; those without it are skipped): who removes it
// (owner: FinalizerOwner's link), and what holds it. Objects it finds holding the
// finalizer (a pod mounting a claim) are claimed by c.
func (p *Scope) FinalizerChain(c *findings.Cause, finalizer string, owner findings.Link, objs []*objects.Object) []findings.Link {
	var holding []*objects.Object
	for _, o := range objs {
		if findings.Contains(o.Finalizers, finalizer) {
			holding = append(holding, o)
		}
	}
	if owner.Fix != nil && findings.HasFact(owner.Facts, "finalizer "+finalizer, findings.FactOwnerAbsent) {
		fix := *owner.Fix
		fix.Why += fmt.Sprintf(" If it ran in namespace %s, reinstall it elsewhere: nothing new can be created in a namespace that is being deleted.", p.Namespace)
		owner.Fix = &fix
	}
	chain := []findings.Link{owner}
	if len(holding) == 0 {
		chain = append(chain, findings.Link{Component: "objects holding " + finalizer,
			Facts:   []findings.Fact{findings.F("objects holding "+finalizer, findings.FactNotInBundle)},
			Finding: "the objects that carry it are not in the bundle: the next step lists them",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: FindHoldersCmd(p.Namespace),
				Why: fmt.Sprintf("List the objects of namespace %s that still carry %s (the bundle does not have them; this prints kind/name and deletion time and changes nothing), then act on each: its controller, or what it waits for.", p.Namespace, finalizer)}})
	}
	for _, m := range finalizerMechanisms {
		if m.match(finalizer) {
			return append(chain, m.run(p, c, finalizer, holding)...)
		}
	}
	if l, ok := p.ownerDeadlock(finalizer, owner, holding); ok {
		chain = append(chain, l)
	}
	return chain
}

// HasMechanism reports whether a finalizer is followed to what holds it (a built-in one).
func HasMechanism(finalizer string) bool {
	for _, m := range finalizerMechanisms {
		if m.match(finalizer) {
			return true
		}
	}
	return false
}

// FindHoldersCmd lists the objects of a namespace that carry finalizers, with them
// (read-only). It names no finalizer: one parsed from a condition message may be cut
// from a damaged one, and one list serves every finalizer of the namespace.
func FindHoldersCmd(ns string) string {
	return "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--ignore-not-found", "-o", "json", "-n", ns) + " | " +
		shellsafe.Cmd("jq", "-r", `.items[]? | select((.metadata.finalizers // []) | length > 0) | .kind + "/" + .metadata.name + " finalizers=" + (.metadata.finalizers | join(",")) + " deletionTimestamp=" + (.metadata.deletionTimestamp // "none")`)
}

// FindAllHoldersCmd lists the objects of every namespace that carry finalizers, with
// them (read-only): for a deletion whose namespace the bundle does not name.
func FindAllHoldersCmd() string {
	return "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--ignore-not-found", "-o", "json", "-A") + " | " +
		shellsafe.Cmd("jq", "-r", `.items[]? | select((.metadata.finalizers // []) | length > 0) | .metadata.namespace + " " + .kind + "/" + .metadata.name + " finalizers=" + (.metadata.finalizers | join(",")) + " deletionTimestamp=" + (.metadata.deletionTimestamp // "none")`)
}

// MechanismSteps are the rungs a finalizer's chain holds: the fix of each of its links
// (what holds the finalizer, found or to be found), in chain order.
func MechanismSteps(c *findings.Cause) []findings.RemediationStep {
	var out []findings.RemediationStep
	for _, l := range c.Chain {
		if l.Fix != nil {
			out = append(out, *l.Fix)
		}
	}
	return out
}

// ownerDeadlock: the controller of a finalizer found in the bundle lives only in
// namespaces being deleted, so it cannot come back there to remove the finalizer.
func (p *Scope) ownerDeadlock(finalizer string, owner findings.Link, holding []*objects.Object) (findings.Link, bool) {
	if len(owner.Evidence) == 0 || !findings.HasFact(owner.Facts, "finalizer "+finalizer, findings.FactOwnerFailing) {
		return findings.Link{}, false // not found, or running: it may still remove the finalizer
	}
	var in []string
	seen := map[string]bool{}
	for _, e := range owner.Evidence {
		parts := strings.Split(e.Object, "/")
		if len(parts) != 3 {
			return findings.Link{}, false
		}
		if !p.Stuck[parts[1]] {
			return findings.Link{}, false // some instance of it lives in a namespace that stays
		}
		if !seen[parts[1]] {
			seen[parts[1]] = true
			in = append(in, parts[1])
		}
	}
	ns := in[0]
	var names []string
	for _, o := range holding {
		names = append(names, o.Kind+"/"+o.Name)
	}
	l := DeadlockLink("the controller that removes "+finalizer, ns, "its workloads: "+strings.Join(findings.FirstN(evidenceObjects(owner.Evidence), 3), ", "),
		&findings.RemediationStep{Risk: findings.RiskSafe, Command: FindHoldersCmd(p.Namespace),
			Why: fmt.Sprintf("The controller that removes %s is being deleted with namespace %s and cannot come back there: list what still carries the finalizer (read-only), then remove it from each object by hand (the next rungs), or reinstall the controller in a namespace that stays, watching %s.", finalizer, ns, p.Namespace)}, owner.Evidence)
	if len(names) > 0 {
		l.Finding += "; it holds " + strings.Join(findings.FirstN(names, 5), ", ")
	}
	return l, true
}

func evidenceObjects(evs []findings.Evidence) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Object)
	}
	return out
}

// pvcProtection: the pvc-protection controller removes the finalizer as soon as no pod
// uses the claim; the pods of the namespace that mount it hold it (and their nodes, when
// the pod cannot finish terminating there).
func pvcProtection(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	ix := p.Index
	var out []findings.Link
	for _, pvc := range objs {
		if pvc.Kind != "PersistentVolumeClaim" {
			continue
		}
		subj := "PersistentVolumeClaim " + pvc.Namespace + "/" + pvc.Name
		var mounting []*objects.Object
		for _, pod := range ix.InNamespace(pvc.Namespace, "Pod") {
			if pod.Pod != nil && findings.Contains(pod.Pod.Claims, pvc.Name) {
				mounting = append(mounting, pod)
			}
		}
		if len(mounting) == 0 {
			if ix.PodsDumped(pvc.Namespace) {
				out = append(out, findings.Link{Component: subj, Fault: true,
					Facts:   []findings.Fact{findings.F(subj, findings.FactOwnerAbsent)},
					Finding: "no pod of the bundle mounts the claim, yet it keeps " + finalizer + ": kube-controller-manager's pvc-protection controller removes it once no pod uses the claim; is kube-controller-manager running (or did the pods go after the capture)?",
					Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: findClaimPodsCmd(pvc.Namespace, pvc.Name) + " ; " + shellsafe.Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component=kube-controller-manager", "--tail=2000") + " | grep -i 'pvc-protection\\|pvc_protection'",
						Why: fmt.Sprintf("Check that no pod still uses claim %s (this lists the pods that mount it, with their node and deletion time), then that kube-controller-manager's pvc-protection controller runs: it removes the finalizer within seconds once no pod uses the claim.", pvc.Name)}})
				continue
			}
			out = append(out, findings.Link{Component: subj, Facts: []findings.Fact{findings.F(subj, findings.FactPodsUnknown)}, Inline: []string{fmt.Sprintf("kubectl -n %s get pods -o json", pvc.Namespace)},
				Finding: fmt.Sprintf("the bundle has no pods of namespace %s, so it cannot show which pod still mounts the claim (collect: kubectl -n %s get pods -o json)", pvc.Namespace, pvc.Namespace),
				Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: findClaimPodsCmd(pvc.Namespace, pvc.Name),
					Why: fmt.Sprintf("Find the pods that still mount claim %s (read-only: name, node, deletion time): kube-controller-manager's pvc-protection controller removes %s as soon as none does. A pod stuck terminating on a node that is gone is the usual holder.", pvc.Name, finalizer)}})
			continue
		}
		var states []string
		var evs []findings.Evidence
		for _, pod := range mounting {
			c.ClaimObject(pod)
			st := PodState(pod)
			if !pod.DeletionTimestamp.IsZero() {
				st = "Terminating since " + findings.FmtTime(pod.DeletionTimestamp) + ", " + st
			}
			states = append(states, "Pod "+pod.Name+" ("+st+")")
			evs = append(evs, findings.Evidence{File: pod.Source.File, Line: pod.Source.LineOf("spec.volumes"), Object: pod.Ref(), Field: "spec.volumes[].persistentVolumeClaim.claimName",
				Text: fmt.Sprintf("Pod %s mounts claim %s: %s", pod.Name, pvc.Name, st)})
		}
		out = append(out, findings.Link{Component: "Pods mounting " + pvc.Name, Fault: true, Evidence: evs,
			Facts:   []findings.Fact{findings.F(subj, findings.FactHeldBy)},
			Finding: fmt.Sprintf("%s mount%s the claim, so the pvc-protection controller keeps %s until %s gone: %s", findings.Plural(len(mounting), "pods", "a pod"), findings.Plural(len(mounting), "", "s"), finalizer, findings.Plural(len(mounting), "they are", "it is"), strings.Join(states, "; ")),
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd(append([]string{"kubectl", "-n", pvc.Namespace, "get", "pods", "-o", "wide"}, podNames(mounting)...)...),
				Premise: []findings.Fact{findings.F(subj, findings.FactHeldBy)},
				Why:     fmt.Sprintf("The claim is released when %s gone: see why %s not (still running, or terminating on a node that does not report).", findings.Plural(len(mounting), "these pods are", "this pod is"), findings.Plural(len(mounting), "they are", "it is"))}})
		out = append(out, p.podNodeLinks(mounting)...)
	}
	return out
}

func podNames(pods []*objects.Object) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// findClaimPodsCmd lists the pods of a namespace that mount a claim (read-only).
func findClaimPodsCmd(ns, claim string) string {
	return shellsafe.Cmd("kubectl", "-n", ns, "get", "pods", "-o", "json") + " | " +
		shellsafe.Cmd("jq", "-r", "--arg", "c", claim, `.items[]|select(any(.spec.volumes[]?; .persistentVolumeClaim.claimName == $c)) | .metadata.name + " node=" + (.spec.nodeName // "none") + " deletionTimestamp=" + (.metadata.deletionTimestamp // "none")`)
}

// podNodeLinks says which nodes of terminating pods do not report (Ready not True, or
// gone from a bundle that lists nodes): such a pod never finishes terminating.
func (p *Scope) podNodeLinks(pods []*objects.Object) []findings.Link {
	var out []findings.Link
	for _, pn := range p.Index.PodNodes(pods) {
		pod, name, n := pn.Pod, pn.Name, pn.Node
		subj := "Node " + name
		force := &findings.RemediationStep{Risk: findings.RiskCaution, Command: shellsafe.Cmd("kubectl", "-n", pod.Namespace, "delete", "pod", pod.Name, "--grace-period=0", "--force"),
			Why: fmt.Sprintf("Only when node %s is gone for good: removes pod %s without the kubelet's confirmation, which releases what it holds; if the node comes back, its containers may still run until the kubelet notices.", name, pod.Name)}
		switch {
		case pn.Gone:
			out = append(out, findings.Link{Component: subj, Fault: true, Facts: []findings.Fact{findings.F(subj, findings.FactNotInBundle)},
				Evidence: []findings.Evidence{{File: pod.Source.File, Line: pod.Source.Line, Object: pod.Ref(), Field: "spec.nodeName", Text: "Pod " + pod.Name + " spec.nodeName: " + name}},
				Finding:  fmt.Sprintf("node %s is not among the bundle's nodes: it is gone, so no kubelet confirms pod %s has stopped", name, pod.Name),
				Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "node", name, "-o", "wide") + " ; " + shellsafe.Cmd("kubectl", "-n", pod.Namespace, "get", "pod", pod.Name, "-o", "wide"),
					Why: fmt.Sprintf("Confirm node %s is gone (NotFound) while pod %s still names it; then the pod can only be removed by force (next rung).", name, pod.Name)}})
			out = append(out, findings.Link{Component: "Pod " + pod.Name, Finding: "force-deleting it is the remaining step once its node is confirmed gone", Fix: force})
		case pn.NotReady() != nil:
			cond := pn.NotReady()
			out = append(out, findings.Link{Component: subj, Fault: true, Facts: []findings.Fact{findings.F(subj, "not-ready")},
				Evidence: []findings.Evidence{findings.ConditionEvidence(n, cond)},
				Finding:  fmt.Sprintf("Ready=%s (%s) since %s: its kubelet does not report, so pod %s never finishes terminating", cond.Status, cond.Reason, findings.FmtTime(cond.LastTransitionTime), pod.Name),
				Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "describe", "node", name),
					Why: fmt.Sprintf("Bring node %s's kubelet back (it then confirms the pod is gone), or, if the node is gone for good, delete the Node object: the pods on it are then removed.", name)}})
			out = append(out, findings.Link{Component: "Pod " + pod.Name, Finding: "force-deleting it is the remaining step if the node is gone for good", Fix: force})
		}
	}
	return out
}

// pvProtection: the pv-protection controller removes it once the volume is no longer
// bound to a claim.
func pvProtection(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	if len(objs) == 0 {
		return []findings.Link{{Component: "PersistentVolumes",
			Finding: "kube-controller-manager's pv-protection controller removes " + finalizer + " once a volume is no longer bound to a claim: the claims (and the pods mounting them) hold it",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "pv", "-o", "json") + " | " + shellsafe.Cmd("jq", "-r", "--arg", "f", finalizer, `.items[]|select(.metadata.deletionTimestamp and ((.metadata.finalizers // []) | index($f))) | .metadata.name + " claim=" + (.spec.claimRef.namespace // "") + "/" + (.spec.claimRef.name // "") + " " + .status.phase`),
				Why: "Find the volumes being deleted that keep the finalizer and the claims they are bound to (read-only): release the claims (and the pods that mount them) first."}}}
	}
	var out []findings.Link
	for _, o := range objs {
		out = append(out, findings.Link{Component: o.Kind + " " + o.Name,
			Finding: "kube-controller-manager's pv-protection controller removes " + finalizer + " once the volume is no longer bound to a claim: the claim (spec.claimRef) and the pods mounting it hold it",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "pv", o.Name, "-o", "jsonpath={.spec.claimRef.namespace}/{.spec.claimRef.name} {.status.phase}{\"\\n\"}"),
				Why: fmt.Sprintf("Find the claim volume %s is bound to (read-only); the claim and the pods that mount it hold the finalizer: release them first.", o.Name)}})
	}
	return out
}

// dependentsOf are the objects of the namespace whose ownerReferences name o.
func dependentsOf(ix *index.Index, o *objects.Object) []*objects.Object {
	var out []*objects.Object
	for _, d := range ix.InNamespace(o.Namespace, "") {
		for _, r := range d.OwnerReferences {
			if r.Kind == o.Kind && r.Name == o.Name {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// garbageCollectorLink says whether the garbage collector can work: it stops syncing
// while API discovery fails.
func garbageCollectorLink(p *Scope, finalizer string, objs []*objects.Object) findings.Link {
	find := shellsafe.Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component=kube-controller-manager", "--tail=2000") + " | grep -iE 'garbage ?collector|failed to discover'"
	var failing []string
	var evs []findings.Evidence
	for _, name := range findings.SortedKeys(p.Index.Namespaces) {
		ns := p.Index.Namespaces[name]
		if c := ns.Condition("NamespaceDeletionDiscoveryFailure"); c != nil && c.Status == "True" {
			failing = append(failing, name)
			evs = append(evs, findings.ConditionEvidence(ns, c))
		}
	}
	if len(failing) > 0 {
		return findings.Link{Component: "garbage collector (kube-controller-manager)", Fault: true, Evidence: evs[:min(3, len(evs))],
			Facts:   []findings.Fact{findings.F("garbage collector", "blocked")},
			Finding: fmt.Sprintf("API discovery fails (NamespaceDeletionDiscoveryFailure on %s); the garbage collector cannot sync its graph while discovery fails, so it does not process %s (fix the failing APIService: see that cause)", strings.Join(findings.FirstN(failing, 3), ", "), finalizer),
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: find,
				Why: "The garbage collector waits for discovery of every API group: fix the failing APIService first (the api-discovery-failure cause); the garbage collector then removes " + finalizer + "."}}
	}
	return findings.Link{Component: "garbage collector (kube-controller-manager)",
		Finding: fmt.Sprintf("the garbage collector removes %s; the bundle shows no reason it cannot (check its log)", finalizer),
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: find,
			Why: "See what the garbage collector says about these objects (read-only): it removes " + finalizer + " once the dependents are handled."}}
}

// foregroundDeletion: the garbage collector removes it once every dependent with
// blockOwnerDeletion is gone; the dependents still present hold it.
func foregroundDeletion(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	var out []findings.Link
	for _, o := range objs {
		deps := dependentsOf(p.Index, o)
		subj := o.Kind + " " + o.Name
		if len(deps) == 0 {
			out = append(out, findings.Link{Component: subj,
				Finding: "its dependents (objects whose ownerReferences name it with blockOwnerDeletion) are not in the bundle: the next step lists them",
				Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: findDependentsCmd(o),
					Why: fmt.Sprintf("List the dependents of %s/%s (read-only): the garbage collector removes foregroundDeletion once every dependent with blockOwnerDeletion is gone; act on the ones that do not go (their own finalizers, pods on dead nodes).", o.Kind, o.Name)}})
			continue
		}
		var names []string
		var evs []findings.Evidence
		for _, d := range deps {
			desc := d.Kind + "/" + d.Name
			if !d.DeletionTimestamp.IsZero() {
				desc += " (being deleted"
				if len(d.Finalizers) > 0 {
					desc += ", finalizers " + strings.Join(d.Finalizers, ", ")
				}
				desc += ")"
			}
			names = append(names, desc)
			evs = append(evs, findings.Evidence{File: d.Source.File, Line: d.Source.LineOf("metadata.ownerReferences"), Object: d.Ref(), Field: "metadata.ownerReferences", Text: d.Ref() + " is owned by " + o.Kind + "/" + o.Name})
		}
		out = append(out, findings.Link{Component: "dependents of " + o.Kind + " " + o.Name, Fault: true, Evidence: evs,
			Facts:   []findings.Fact{findings.F(subj, findings.FactHeldBy)},
			Finding: fmt.Sprintf("%d dependent%s still present, so the garbage collector keeps %s: %s", len(deps), findings.Plural(len(deps), "s are", " is"), finalizer, strings.Join(findings.FirstN(names, 6), ", ")),
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: findDependentsCmd(o), Premise: []findings.Fact{findings.F(subj, findings.FactHeldBy)},
				Why: "See why the dependents do not go (their own finalizers, pods on nodes that do not report): the finalizer goes once they are gone."}})
	}
	return append(out, garbageCollectorLink(p, finalizer, objs))
}

func findDependentsCmd(o *objects.Object) string {
	return "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--ignore-not-found", "-o", "json", "-n", o.Namespace) + " | " +
		shellsafe.Cmd("jq", "-r", "--arg", "k", o.Kind, "--arg", "n", o.Name, `.items[]? | select(any(.metadata.ownerReferences[]?; .kind == $k and .name == $n)) | .kind + "/" + .metadata.name + " finalizers=" + ((.metadata.finalizers // []) | join(","))`)
}

// orphanFinalizer: the garbage collector removes it after it orphans the dependents.
func orphanFinalizer(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	return []findings.Link{garbageCollectorLink(p, finalizer, objs)}
}

// crdCleanup: kube-apiserver removes it from a CRD being deleted once every custom
// resource of the CRD is gone; those resources (and their own finalizers) hold it.
func crdCleanup(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	if len(objs) == 0 {
		return []findings.Link{{Component: "CustomResourceDefinitions being deleted",
			Finding: "kube-apiserver removes " + finalizer + " from a CRD being deleted once every custom resource of it is gone: the resources left (and their own finalizers) hold it",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "crd", "-o", "json") + " | " + shellsafe.Cmd("jq", "-r", `.items[]|select(.metadata.deletionTimestamp) | .spec.names.plural + "." + .spec.group`),
				Why: "Find the CRDs being deleted (read-only), then list each one's resources (kubectl get RESOURCE -A): their own finalizers and controllers hold the CRD."}}}
	}
	var out []findings.Link
	for _, o := range objs {
		res := o.Name
		if o.CRD != nil && o.CRD.Plural != "" {
			res = o.CRD.Plural + "." + o.CRD.Group
		}
		out = append(out, findings.Link{Component: o.Kind + " " + o.Name,
			Finding: "kube-apiserver removes " + finalizer + " once every custom resource of the CRD is deleted: the resources left (and their own finalizers) hold it",
			Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", res, "-A", "-o", "custom-columns=NAMESPACE:.metadata.namespace,NAME:.metadata.name,FINALIZERS:.metadata.finalizers,DELETING:.metadata.deletionTimestamp"),
				Why: "List the custom resources still stored (read-only): each one's finalizer (and the controller that owns it) holds the CRD's deletion."}})
	}
	return out
}

// externalAttacher: the CSI external-attacher removes it once the volume is detached
// from its node (the VolumeAttachment is gone).
func externalAttacher(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	return []findings.Link{{Component: "VolumeAttachments",
		Finding: "the CSI driver's external-attacher removes " + finalizer + " once the volume is detached: a VolumeAttachment on a node that is gone, or a CSI driver that no longer runs, holds it",
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "volumeattachments", "-o", "custom-columns=NAME:.metadata.name,PV:.spec.source.persistentVolumeName,NODE:.spec.nodeName,ATTACHED:.status.attached,DELETING:.metadata.deletionTimestamp") + " && " + shellsafe.Cmd("kubectl", "get", "csidrivers,nodes"),
			Why: "Find the VolumeAttachments of the volume and their nodes (read-only): the attacher of its CSI driver detaches it and removes the finalizer; a node that is gone or a driver that is not running keeps it."}}}
}

// namespaceContent: "kubernetes" is the namespace controller's own finalizer, removed
// once the namespace is empty: what still holds the namespace holds it.
func namespaceContent(p *Scope, c *findings.Cause, finalizer string, objs []*objects.Object) []findings.Link {
	return []findings.Link{{Component: "namespace controller (kube-controller-manager)",
		Finding: "it removes " + finalizer + " once the namespace is empty: the other objects and causes of this namespace hold it",
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--show-kind", "--ignore-not-found", "-n", p.Namespace),
			Why: "List what is left in the namespace (read-only): each remaining object, and what holds it, is the next step."}}}
}
