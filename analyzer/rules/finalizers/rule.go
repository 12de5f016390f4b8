package finalizers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Name is the cause type this rule reports.
const Name = "finalizers-remaining"

// Rule finds objects in the namespace whose finalizers nobody removes.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `Objects in the namespace still carry finalizers.

The namespace controller deletes every object, but an object with metadata.finalizers
only disappears once the controller that owns each finalizer has done its cleanup and
removed it. When that controller is gone (the classic case: an operator deleted in the
same "kubectl delete -f" as its custom resources and the namespace), the finalizer is
never removed and the namespace waits forever.

Evidence: the NamespaceContentRemaining and NamespaceFinalizersRemaining conditions
(counts and finalizer names), and the objects of the namespace in the dump that have
metadata.finalizers, with whether anything in the bundle looks like their controller.`,
	Kinds:    []string{"Deployment", "StatefulSet", "DaemonSet", "Pod", "CustomResourceDefinition"},
	Run:      runFinalizers,
	Explains: []string{"content-remaining"},
	Ladder:   ladder,
	Example:  example,
}

func runFinalizers(p *analyzer.Pass) ([]analyzer.Cause, string) {
	ix := p.Index
	cause := analyzer.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Objects: []analyzer.ObjectRef{}}
	finalizers := map[string]bool{}
	condFin := p.ConditionTrue(kubemsg.CondFinalizersRemaining)
	condContent := p.ConditionTrue(kubemsg.CondContentRemaining)
	if condFin != nil {
		cause.Evidence = append(cause.Evidence, analyzer.ConditionEvidence(p.Object, condFin))
		for _, f := range kubemsg.ParseFinalizersRemaining(condFin.Message) {
			finalizers[f.Finalizer] = true
		}
	}
	if condContent != nil && condFin != nil {
		cause.Evidence = append(cause.Evidence, analyzer.ConditionEvidence(p.Object, condContent))
	}
	if condContent != nil && condFin != nil {
		if files := analyzer.StaleContent(p, condContent); files != nil && !ix.HasFinalizedObjects(p.Namespace) {
			return nil, fmt.Sprintf("%s names %s, but the bundle's dumps of those resources in the namespace are empty (%s): the condition is stale, written before the objects went and not rewritten since (is the namespace controller running?)",
				condFin.Type, strings.Join(analyzer.SortedKeys(finalizers), ", "), strings.Join(files, ", "))
		}
	}
	var objs []*objects.Object
	for _, o := range ix.InNamespace(p.Namespace, "") {
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
			return nil, analyzer.CondState(c) + " and no object of the namespace in the bundle has finalizers"
		}
		return nil, "no object of the namespace in the bundle has finalizers"
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Ref() < objs[j].Ref() })
	for _, o := range objs {
		ref := analyzer.ObjectRefOf(o)
		ref.Resource = ix.ResourceName(o)
		cause.Objects = append(cause.Objects, ref)
		text := fmt.Sprintf("metadata.finalizers: %s", strings.Join(o.Finalizers, ", "))
		if !o.DeletionTimestamp.IsZero() {
			text += " (deletionTimestamp " + analyzer.FmtTime(o.DeletionTimestamp) + ": deletion requested, waiting for the finalizers)"
		}
		cause.Evidence = append(cause.Evidence, analyzer.FieldEvidence(o, "metadata.finalizers", o.Ref()+" "+text))
	}
	cause.Finalizers = analyzer.SortedKeys(finalizers)
	if condFin != nil && len(objs) > 0 {
		cause.Confidence = "high"
	}
	// who removes each finalizer
	var owners []string
	for _, f := range cause.Finalizers {
		link := ix.FinalizerOwnerLink(f, objs)
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
		strings.Join(what, ", "), analyzer.Plural(len(what), "y", "ies"), analyzer.Plural(len(cause.Finalizers), "s", ""),
		strings.Join(cause.Finalizers, ", "), strings.Join(owners, " "))
	cause.Correlation = "finalizers leave no log line at default verbosity; see the objects' deletionTimestamp"
	return []analyzer.Cause{cause}, ""
}

func ladder(p *analyzer.Pass, c *analyzer.Cause) []analyzer.RemediationStep {
	var steps []analyzer.RemediationStep
	for _, f := range c.Finalizers {
		steps = append(steps, analyzer.RemediationStep{Risk: analyzer.RiskSafe,
			Command: analyzer.Comment(fmt.Sprintf("reinstall or restart the controller that owns %s, then watch: ", f)) + analyzer.Cmd("kubectl", "get", "ns", p.Namespace, "-w"),
			Why:     fmt.Sprintf("Only the owner of %s knows what it guards (cloud resources, data, other objects); letting it finish is the only clean way.", f)})
	}
	for _, o := range c.Objects {
		if len(o.Finalizers) == 0 {
			continue
		}
		res := o.Resource
		if res == "" {
			res = strings.ToLower(o.Kind)
		}
		steps = append(steps, analyzer.RemediationStep{Risk: analyzer.RiskCaution,
			Command: analyzer.Cmd("kubectl", "-n", o.Namespace, "patch", res, o.Name, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`),
			Why:     fmt.Sprintf("Removes %s from %s/%s without the cleanup its controller would do: whatever it guards outside Kubernetes (volumes, cloud resources, registrations) may be left behind.", strings.Join(o.Finalizers, ", "), o.Kind, o.Name)})
	}
	return steps
}

func example(p *analyzer.Pass) analyzer.Cause {
	f := []string{"example.com/FINALIZER"}
	return analyzer.Cause{Finalizers: f, Objects: []analyzer.ObjectRef{{APIVersion: "example.com/v1", Kind: "KIND", Namespace: p.Namespace, Name: "NAME",
		Resource: "RESOURCES.example.com", Finalizers: f}}}
}
