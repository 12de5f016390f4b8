package mechanism

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// ownerWorkloads finds the workloads and pods whose name or image matches a
// finalizer's tokens (control-plane pods aside), at most six, healthy and failing apart.
func ownerWorkloads(ix *index.Index, tokens []string) (healthy, failing []*objects.Object) {
	for _, kind := range []string{"Deployment", "StatefulSet", "DaemonSet", "Pod"} {
		ix.EachOfKind(kind, func(w *objects.Object) bool {
			if len(healthy)+len(failing) >= 6 {
				return false
			}
			if !matchesTokens(w, tokens) || isControlPlane(w) {
				return true
			}
			if _, ok := workloadHealth(w); ok {
				healthy = append(healthy, w)
			} else {
				failing = append(failing, w)
			}
			return true
		})
	}
	return healthy, failing
}

// workloadReadCmd reads a workload's or pod's state and the log of its pods (read-only).
func workloadReadCmd(w *objects.Object) string {
	kind := strings.ToLower(w.Kind)
	d, ok := shellsafe.SafeCmd("kubectl", "-n", shellsafe.NS(w.Namespace), "describe", kind, shellsafe.Obj(w.Name))
	if !ok {
		return d
	}
	l, _ := shellsafe.SafeCmd("kubectl", "-n", shellsafe.NS(w.Namespace), "logs", shellsafe.Obj(w.Name).In(kind+"/", ""), "--all-containers", "--tail=200")
	return d + " ; " + l
}

// ownerWords names who removes a finalizer ("its controller" when the catalog does not
// know it) and the words that find its workload: the catalog's, then the finalizer's
// own (finalizerTokens).
func ownerWords(finalizer string, owner findings.CatalogEntry, known bool, objs []*objects.Object) (who string, tokens []string) {
	who, tokens = "its controller", finalizerTokens(finalizer, objs)
	if known {
		who = owner.Controller
		tokens = append(append([]string{}, owner.Workloads...), tokens...)
	}
	return who, tokens
}

// OwnerStep is the rung that gets a finalizer's controller to remove it, as a command:
// the controller's workload the bundle shows (its state and logs), else a search of the
// cluster's workloads for the words of the finalizer's domain, else the
// kube-controller-manager's log for a built-in finalizer. ns is the namespace it holds.
func OwnerStep(ix *index.Index, finalizer, ns string, objs []*objects.Object) findings.RemediationStep {
	owner, known := findings.LookupFinalizer(finalizer)
	if known && owner.BuiltIn {
		return findings.RemediationStep{Command: ControllerManagerLogs(ix, 2000, shellsafe.Cmd("grep", "-F", ns)),
			Why: fmt.Sprintf("%s is removed by %s (in kube-controller-manager): its log says what it still waits for in %s.", finalizer, owner.Controller, ns)}
	}
	who, tokens := ownerWords(finalizer, owner, known, objs)
	hw, fw := ownerWorkloads(ix, tokens)
	switch {
	case len(fw) > 0:
		return findings.RemediationStep{Command: workloadReadCmd(fw[0]),
			Why: fmt.Sprintf("%s is removed by %s; the bundle shows %s not healthy: its events and logs say why. Once it runs, it removes %s.", finalizer, who, fw[0].Ref(), finalizer)}
	case len(hw) > 0:
		return findings.RemediationStep{Command: workloadReadCmd(hw[0]),
			Why: fmt.Sprintf("%s is removed by %s; the bundle shows %s running: its log says why the cleanup does not finish.", finalizer, who, hw[0].Ref())}
	}
	find := shellsafe.Cmd("kubectl", "get", "deployments,statefulsets,daemonsets", "-A", "-o", "wide")
	if known && len(owner.Workloads) > 0 {
		tokens = owner.Workloads // the catalog's words name it best
	}
	var words []string
	for _, t := range tokens {
		if shellsafe.ValidName(shellsafe.ObjectName, t) && !findings.Contains(words, t) {
			words = append(words, t)
		}
	}
	if len(words) > 0 {
		find += " | " + shellsafe.Cmd("grep", "-iE", strings.Join(findings.FirstN(words, 6), "|"))
	}
	return findings.RemediationStep{Command: find,
		Why: fmt.Sprintf("Find %s in the cluster (read-only; the bundle shows none), then reinstall or restart it so it can do its cleanup and remove %s: only it knows what the finalizer guards (cloud resources, data, other objects), so letting it finish is the only clean way.", who, finalizer)}
}

// FinalizerOwnerLink tells who is expected to remove a finalizer and what the bundle
// shows of it: absent (the finalizer will never be removed), present but failing, or
// healthy (it is working on it).
func FinalizerOwnerLink(ix *index.Index, finalizer string, objs []*objects.Object) findings.Link {
	link, _ := FinalizerOwner(ix, finalizer, objs)
	return link
}

// FinalizerOwner is FinalizerOwnerLink with its verdict in a few words (findings.OwnerRunning,
// findings.OwnerFailing, findings.OwnerNotFound, findings.OwnerUnknown, findings.OwnerBuiltIn), for grouping objects.
func FinalizerOwner(ix *index.Index, finalizer string, objs []*objects.Object) (findings.Link, string) {
	link := findings.Link{Component: "finalizer " + finalizer}
	owner, known := findings.LookupFinalizer(finalizer)
	if known && owner.BuiltIn {
		link.Finding = fmt.Sprintf("%s is removed by %s.", finalizer, owner.Controller)
		return link, findings.OwnerBuiltIn
	}
	verdict := ""
	who, tokens := ownerWords(finalizer, owner, known, objs)
	for _, o := range objs {
		if findings.Contains(o.Finalizers, finalizer) {
			for _, m := range o.Managers {
				if !strings.HasPrefix(m, "kubectl") && m != "kube-controller-manager" && m != "kube-apiserver" && !findings.Contains(tokens, strings.ToLower(m)) {
					tokens = append(tokens, strings.ToLower(m))
				}
			}
		}
	}
	var healthy, failing []string
	hw, fw := ownerWorkloads(ix, tokens)
	for _, w := range append(append([]*objects.Object{}, hw...), fw...) {
		state, _ := workloadHealth(w)
		desc := w.Ref() + " (" + state + ")"
		link.Evidence = append(link.Evidence, findings.Evidence{File: w.Source.File, Line: w.Source.Line, Object: w.Ref(), Text: desc})
	}
	for _, w := range hw {
		state, _ := workloadHealth(w)
		healthy = append(healthy, w.Ref()+" ("+state+")")
	}
	for _, w := range fw {
		state, _ := workloadHealth(w)
		failing = append(failing, w.Ref()+" ("+state+")")
	}
	crdNote, crdDeleting := crdState(ix, finalizer, objs)
	subj := "finalizer " + finalizer
	// podsCode: what the pods among the workloads it names show beyond not being Ready
	podsCode := func(ws ...[]*objects.Object) string {
		var pods []*objects.Object
		for _, w := range ws {
			for _, o := range w {
				if o.Pod != nil {
					pods = append(pods, o)
				}
			}
		}
		if c := findings.PodsCode(pods); c != findings.CodeNotReady {
			return c
		}
		return ""
	}
	switch {
	case len(healthy) > 0:
		link.Code = findings.FirstCode(findings.CodeRunning, podsCode(hw, fw))
		link.Facts = []findings.Fact{findings.F(subj, findings.FactOwnerRunning)}
		verdict = findings.OwnerRunning
		link.Finding = fmt.Sprintf("%s is removed by %s. The bundle shows it running: %s. It is working on the object: wait, or read its logs for why the cleanup does not finish.",
			finalizer, who, strings.Join(healthy, ", "))
		if len(failing) > 0 {
			link.Finding += " Not healthy: " + strings.Join(failing, ", ") + "."
		}
	case len(failing) > 0:
		link.Facts = []findings.Fact{findings.F(subj, findings.FactOwnerFailing)}
		verdict = findings.OwnerFailing
		link.Code = findings.FirstCode(findings.CodeFailing, podsCode(fw))
		link.Fault = true
		link.Fix = &findings.RemediationStep{Command: workloadReadCmd(fw[0]),
			Why: fmt.Sprintf("%s is removed by %s, which is present but not healthy (%s): its events and logs say why; once it runs, it finishes its cleanup and removes the finalizer.", finalizer, who, strings.Join(failing, ", "))}
		link.Finding = fmt.Sprintf("%s is removed by %s, which is present but not healthy: %s. Fix it (its events and logs say why) and it will remove the finalizer.",
			finalizer, who, strings.Join(failing, ", "))
	case !ix.Has("Deployment") && !ix.Has("Pod") && !ix.Has("StatefulSet") && !ix.Has("DaemonSet") &&
		!ix.Dumped("deployments") && !ix.Dumped("pods"):
		verdict = findings.OwnerUnknown
		link.Code = findings.CodeUnknown
		link.Inline = []string{"kubectl get deploy,sts,ds,pods -A -o json"}
		link.Finding = fmt.Sprintf("%s is removed by %s. The bundle has no Deployments, StatefulSets, DaemonSets or Pods, so it cannot show whether it runs (collect: kubectl get deploy,sts,ds,pods -A -o json).", finalizer, who)
	default:
		link.Facts = []findings.Fact{findings.F(subj, findings.FactOwnerAbsent)}
		verdict = findings.OwnerNotFound
		link.Code = findings.CodeAbsent
		link.Fault = true
		fix := OwnerStep(ix, finalizer, "", objs)
		link.Fix = &fix
		if len(tokens) == 0 {
			link.Finding = fmt.Sprintf("%s is removed by %s, which the bundle cannot name (the finalizer's domain names no product): check that its controller runs, or the finalizer will never be removed.", finalizer, who)
		} else {
			link.Finding = fmt.Sprintf("%s is removed by %s, and nothing in the bundle looks like it (no Deployment, StatefulSet, DaemonSet or Pod whose name or image matches %s): unless it runs outside this cluster, the finalizer will never be removed.",
				finalizer, who, quoteList(tokens))
		}
	}
	if crdNote != "" {
		link.Finding += " " + crdNote
	}
	if crdDeleting {
		link.Code = findings.FirstCode(link.Code, findings.CodeInTerminatingNamespace)
	}
	return link, verdict
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

// isControlPlane is true for the static control-plane pods, which share names like
// "etcd" with many finalizer domains but never remove custom finalizers.
func isControlPlane(o *objects.Object) bool {
	if o.Namespace != "kube-system" {
		return false
	}
	for _, p := range []string{"etcd-", "kube-apiserver-", "kube-controller-manager-", "kube-scheduler-", "kube-proxy"} {
		if strings.HasPrefix(o.Name, p) {
			return true
		}
	}
	return false
}

// workloadHealth describes a workload or pod and says whether it looks healthy.
func workloadHealth(o *objects.Object) (string, bool) {
	switch {
	case o.Workload != nil:
		want := 1
		if o.Workload.Replicas != nil {
			want = *o.Workload.Replicas
		}
		if o.Kind == "DaemonSet" {
			return fmt.Sprintf("%d ready", o.Workload.ReadyReplicas), o.Workload.ReadyReplicas > 0
		}
		if want == 0 {
			return "scaled to 0 replicas", false
		}
		return fmt.Sprintf("%d/%d ready", o.Workload.ReadyReplicas, want), o.Workload.ReadyReplicas >= want
	case o.Pod != nil:
		return PodState(o), o.Pod.Ready
	}
	return "state unknown", false
}

// crdState tells whether the CRD of the objects holding a finalizer is itself being
// deleted (it then waits for its instances, which wait for their finalizer) or absent.
// deleting is true when the CRD is being deleted.
func crdState(ix *index.Index, finalizer string, objs []*objects.Object) (note string, deleting bool) {
	for _, o := range objs {
		if !findings.Contains(o.Finalizers, finalizer) || o.Group() == "" {
			continue
		}
		if crd := ix.CRDOf(o.Group(), o.Kind); crd != nil {
			if !crd.DeletionTimestamp.IsZero() {
				return fmt.Sprintf("CRD %s is itself being deleted (since %s): it waits for its objects, which wait for this finalizer.", crd.Name, findings.FmtTime(crd.DeletionTimestamp)), true
			}
			return "", false
		}
		if ix.Has("CustomResourceDefinition") || ix.Dumped("crds") || ix.Dumped("customresourcedefinitions") {
			return fmt.Sprintf("The CRD of %s (%s) is not in the bundle's CRD dump: it was deleted, or is being deleted, while its objects remain.", o.Kind, o.Group()), false
		}
	}
	return "", false
}

// finalizerTokens are the words that name a finalizer's controller: the labels of its
// domain (e.g. "kubevirt" of "kubevirt.io/virtOperatorFinalize") and of the groups of
// the objects that carry it, minus generic words.
func finalizerTokens(finalizer string, objs []*objects.Object) []string {
	generic := map[string]bool{"io": true, "com": true, "org": true, "net": true, "dev": true, "sh": true, "k8s": true,
		"kubernetes": true, "x-k8s": true, "www": true, "example": true, "finalizer": true, "finalizers": true, "cloud": true, "v1": true,
		"controller": true, "operator": true, "system": true, "cleanup": true, "protection": true}
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
	// the groups of the objects that carry it, at most maxGroupTokens of them: a
	// thousand CRDs behind one finalizer must not make every workload's name be
	// compared with a thousand words
	own := len(out)
	for _, o := range objs {
		if len(out)-own >= maxGroupTokens {
			break
		}
		if findings.Contains(o.Finalizers, finalizer) {
			addDomain(o.Group())
		}
	}
	return out
}

// maxGroupTokens bounds the words finalizerTokens takes from the objects' API groups.
const maxGroupTokens = 16

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
