package analyzer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// FinalizersRule finds objects in the namespace whose finalizers nobody removes.
var FinalizersRule = &Rule{
	Name: CauseFinalizers,
	Doc: `Objects in the namespace still carry finalizers.

The namespace controller deletes every object, but an object with metadata.finalizers
only disappears once the controller that owns each finalizer has done its cleanup and
removed it. When that controller is gone (the classic case: an operator deleted in the
same "kubectl delete -f" as its custom resources and the namespace), the finalizer is
never removed and the namespace waits forever.

Evidence: the NamespaceContentRemaining and NamespaceFinalizersRemaining conditions
(counts and finalizer names), and the objects of the namespace in the dump that have
metadata.finalizers, with whether anything in the bundle looks like their controller.`,
	Run: runFinalizers,
}

func runFinalizers(p *Pass) ([]Cause, string) {
	ix := p.Index
	cause := Cause{Type: CauseFinalizers, Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Objects: []ObjectRef{}}
	finalizers := map[string]bool{}
	condFin := p.ConditionTrue(kubemsg.CondFinalizersRemaining)
	condContent := p.ConditionTrue(kubemsg.CondContentRemaining)
	if condFin != nil {
		cause.Evidence = append(cause.Evidence, conditionEvidence(p.Object, condFin))
		for _, f := range kubemsg.ParseFinalizersRemaining(condFin.Message) {
			finalizers[f.Finalizer] = true
		}
	}
	if condContent != nil && condFin != nil {
		cause.Evidence = append(cause.Evidence, conditionEvidence(p.Object, condContent))
	}
	var objs []*objects.Object
	for _, o := range ix.ByNamespace[p.Namespace] {
		if len(o.Finalizers) == 0 || o.Kind == "Namespace" {
			continue
		}
		objs = append(objs, o)
		for _, f := range o.Finalizers {
			finalizers[f] = true
		}
	}
	if len(finalizers) == 0 {
		if c := p.Condition(kubemsg.CondFinalizersRemaining); c != nil {
			return nil, fmt.Sprintf("%s is %s (%s) and no object of the namespace in the bundle has finalizers", c.Type, c.Status, c.Reason)
		}
		return nil, "no object of the namespace in the bundle has finalizers"
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Ref() < objs[j].Ref() })
	for _, o := range objs {
		ref := objectRef(o)
		ref.Resource = resourceName(ix, o)
		cause.Objects = append(cause.Objects, ref)
		text := fmt.Sprintf("metadata.finalizers: %s", strings.Join(o.Finalizers, ", "))
		if !o.DeletionTimestamp.IsZero() {
			text += " (deletionTimestamp " + fmtTime(o.DeletionTimestamp) + ": deletion requested, waiting for the finalizers)"
		}
		cause.Evidence = append(cause.Evidence, fieldEvidence(o, "metadata.finalizers", o.Ref()+" "+text))
	}
	cause.Finalizers = sortedKeys(finalizers)
	if condFin != nil && len(objs) > 0 {
		cause.Confidence = "high"
	}
	// who removes each finalizer
	var owners []string
	for _, f := range cause.Finalizers {
		link := finalizerOwnerLink(ix, f, objs)
		cause.Chain = append(cause.Chain, link)
		owners = append(owners, link.Finding)
	}
	var what []string
	for _, o := range objs {
		what = append(what, o.Kind+" "+o.Name)
	}
	if len(what) == 0 {
		what = append(what, "objects not included in the bundle")
		cause.Notes = append(cause.Notes, fmt.Sprintf("the objects holding the finalizers are not in the bundle; collect: kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n %s -o json", p.Namespace))
	}
	cause.Summary = fmt.Sprintf("%s in the namespace still carr%s finalizer%s %s. %s",
		strings.Join(what, ", "), plural(len(what), "y", "ies"), plural(len(cause.Finalizers), "s", ""),
		strings.Join(cause.Finalizers, ", "), strings.Join(owners, " "))
	cause.Correlation = "finalizers leave no log line at default verbosity; see the objects' deletionTimestamp"
	return []Cause{cause}, ""
}

func plural(n int, many, one string) string {
	if n == 1 {
		return one
	}
	return many
}

// resourceName returns the name kubectl accepts for an object's type: "plural.group"
// from its CRD when the bundle has it, else the lower-case kind (qualified with the group).
func resourceName(ix *Index, o *objects.Object) string {
	g := o.Group()
	for _, crd := range ix.CRDs {
		if crd.CRD != nil && crd.CRD.Group == g && crd.CRD.Kind == o.Kind {
			return crd.CRD.Plural + "." + g
		}
	}
	if g == "" {
		return strings.ToLower(o.Kind)
	}
	return strings.ToLower(o.Kind) + "." + g
}

// finalizerOwnerLink tells who is expected to remove a finalizer and whether the bundle
// shows it running.
func finalizerOwnerLink(ix *Index, finalizer string, objs []*objects.Object) Link {
	link := Link{Component: "finalizer " + finalizer}
	if known, ok := knownFinalizer(finalizer); ok {
		link.Finding = fmt.Sprintf("%s is removed by %s.", finalizer, known)
		return link
	}
	tokens := finalizerTokens(finalizer, objs)
	var candidates []*objects.Object
	for _, kind := range []string{"Deployment", "StatefulSet", "DaemonSet", "Pod"} {
		for _, w := range ix.ByKind[kind] {
			if matchesTokens(w, tokens) {
				candidates = append(candidates, w)
			}
		}
	}
	if len(candidates) > 0 {
		var parts []string
		for _, c := range candidates {
			state := ""
			switch {
			case c.Workload != nil && c.Workload.Replicas != nil:
				state = fmt.Sprintf(" (%d/%d ready)", c.Workload.ReadyReplicas, *c.Workload.Replicas)
			case c.Pod != nil:
				state = " (" + podState(c) + ")"
			}
			parts = append(parts, c.Ref()+state)
			link.Evidence = append(link.Evidence, Evidence{File: c.Source.File, Line: c.Source.Line, Object: c.Ref(), Text: c.Ref() + state})
			if len(parts) == 5 {
				break
			}
		}
		link.Finding = fmt.Sprintf("Possible controller for %s in the bundle (name or image matches %q): %s. Check that it runs and reconciles; its logs should say why it does not remove the finalizer.",
			finalizer, strings.Join(tokens, "\", \""), strings.Join(parts, ", "))
		return link
	}
	if !ix.Has("Deployment") && !ix.Has("Pod") && !ix.Has("StatefulSet") && !ix.Has("DaemonSet") &&
		!ix.Dumped("deployments") && !ix.Dumped("pods") {
		link.Finding = fmt.Sprintf("The bundle has no Deployments, StatefulSets, DaemonSets or Pods, so it cannot show whether the controller for %s runs (collect: kubectl get deploy,sts,ds,pods -A -o json).", finalizer)
		return link
	}
	link.Finding = fmt.Sprintf("Nothing in the bundle looks like the controller that removes %s (no Deployment, StatefulSet, DaemonSet or Pod whose name or image matches %q): unless it runs outside this cluster, the finalizer will never be removed.",
		finalizer, strings.Join(tokens, "\", \""))
	return link
}

// finalizerTokens are the words that name a finalizer's controller: the labels of its
// domain (e.g. "kubevirt" of "kubevirt.io/virtOperatorFinalize") and of the groups of
// the objects that carry it, minus generic words.
func finalizerTokens(finalizer string, objs []*objects.Object) []string {
	generic := map[string]bool{"io": true, "com": true, "org": true, "net": true, "dev": true, "sh": true, "k8s": true,
		"kubernetes": true, "x-k8s": true, "www": true, "example": true, "finalizer": true, "finalizers": true, "cloud": true, "v1": true}
	seen := map[string]bool{}
	var out []string
	addDomain := func(d string) {
		for _, label := range strings.Split(d, ".") {
			label = strings.ToLower(label)
			if len(label) < 3 || generic[label] || seen[label] {
				continue
			}
			seen[label] = true
			out = append(out, label)
		}
	}
	if i := strings.IndexByte(finalizer, '/'); i >= 0 {
		addDomain(finalizer[:i])
	} else {
		addDomain(finalizer)
	}
	for _, o := range objs {
		if contains(o.Finalizers, finalizer) {
			addDomain(o.Group())
		}
	}
	return out
}

func matchesTokens(o *objects.Object, tokens []string) bool {
	hay := strings.ToLower(o.Name)
	if o.Workload != nil {
		hay += " " + strings.ToLower(strings.Join(o.Workload.Images, " "))
	}
	if o.Pod != nil {
		hay += " " + strings.ToLower(strings.Join(o.Pod.Images, " "))
	}
	for _, t := range tokens {
		if strings.Contains(hay, t) {
			return true
		}
	}
	return false
}

// knownFinalizer names the controller of finalizers Kubernetes itself manages.
func knownFinalizer(f string) (string, bool) {
	switch f {
	case "kubernetes.io/pvc-protection":
		return "kube-controller-manager's pvc-protection controller once no pod uses the PersistentVolumeClaim (a pod still mounting it blocks)", true
	case "kubernetes.io/pv-protection":
		return "kube-controller-manager's pv-protection controller once the PersistentVolume is no longer bound", true
	case "foregroundDeletion":
		return "the garbage collector once every dependent with blockOwnerDeletion is gone", true
	case "orphan":
		return "the garbage collector after it orphans the dependents", true
	case "customresourcecleanup.apiextensions.k8s.io":
		return "kube-apiserver's CRD finalizer once every custom resource of the CRD is deleted", true
	case "kubernetes":
		return "the namespace controller", true
	case "batch.kubernetes.io/job-tracking":
		return "the Job controller", true
	case "service.kubernetes.io/load-balancer-cleanup":
		return "the cloud-controller-manager's service controller after the cloud load balancer is deleted", true
	case "kubernetes.io/legacy-token-invalidation":
		return "kube-controller-manager", true
	}
	return "", false
}
