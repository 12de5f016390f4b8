package finalizers

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
metadata.finalizers, with whether anything in the bundle looks like their controller.

A generic rule: it reports the objects and finalizers no specific cause claims (a
finalizer a specific rule explains, on an object it names, is not reported twice).

When the objects are custom resources of a CRD being deleted, kube-apiserver's CRD
finalizer lines ("%s.%s waiting for %d items to be removed", 1.36+ "Waiting for items to
be removed" resource=... group=... count=..., at -v=2) and refusals of new ones ("create
not allowed while custom resource definition is terminating") are noted with them.

A NamespaceFinalizersRemaining or NamespaceContentRemaining message the bundle gives no
namespace (pasted alone, in inline code, as describe rows without their header) is
reported as a deletion the bundle names no namespace for (Risk.Unnamed), with the
read-only commands that find the namespace and the objects holding the finalizers.`,
	Lines: []index.Match{{Phrases: []string{"items to be removed", kubemsg.CRDTerminatingRefusal}, // apiextensions-apiserver: CRD finalizer (V(2)) and forbidCreateAdmission
		Keys: crdKeys}},
	Kinds:   []string{"Deployment", "StatefulSet", "DaemonSet", "Pod", "CustomResourceDefinition", "Node"},
	Run:     runFinalizers,
	Claims:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsResources},
	Yields:  []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsResources, findings.ClaimsGroups, findings.ClaimsContent},
	Ladder:  ladder,
	Risks:   risks,
	Example: example,
}

func runFinalizers(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	cause := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Objects: []findings.ObjectRef{}}
	finalizers := map[string]bool{}
	var claimedBy []string // causes found earlier that claim a finalizer or object
	condFin := p.ConditionTrue(kubemsg.CondFinalizersRemaining)
	condContent := p.ConditionTrue(kubemsg.CondContentRemaining)
	if condFin != nil {
		cause.Evidence = append(cause.Evidence, findings.ConditionEvidence(p.Object, condFin))
		for _, f := range kubemsg.ParseFinalizersRemaining(condFin.Message) {
			if t := p.ClaimedFinalizer(f.Finalizer); t != "" {
				claimedBy = append(claimedBy, t)
				continue
			}
			finalizers[f.Finalizer] = true
		}
	}
	if condContent != nil && condFin != nil {
		cause.Evidence = append(cause.Evidence, findings.ConditionEvidence(p.Object, condContent))
	}
	if condContent != nil && condFin != nil {
		if files := p.Index.StaleContent(p.Namespace, condContent); files != nil && !ix.HasFinalizedObjects(p.Namespace) {
			return nil, fmt.Sprintf("%s names %s, but the bundle's dumps of those resources in the namespace are empty (%s): the condition is stale, written before the objects went and not rewritten since (is the namespace controller running?)",
				condFin.Type, strings.Join(findings.SortedKeys(finalizers), ", "), strings.Join(files, ", "))
		}
	}
	var objs []*objects.Object
	for _, o := range ix.InNamespace(p.Namespace, "") {
		if len(o.Finalizers) == 0 || o.Kind == "Namespace" {
			continue
		}
		if t := p.ClaimedBy(o); t != "" {
			claimedBy = append(claimedBy, t)
			continue
		}
		objs = append(objs, o)
		for _, f := range o.Finalizers {
			finalizers[f] = true
		}
	}
	if len(finalizers) == 0 {
		if why := p.ExplainedBy(claimedBy...); why != "" {
			return nil, why
		}
		if c, ok := finalizersNotShown(p, condContent); ok {
			return []findings.Cause{c}, ""
		}
		if c := p.Condition(kubemsg.CondFinalizersRemaining); c != nil {
			return nil, findings.CondState(c) + " and no object of the namespace in the bundle has finalizers"
		}
		return nil, "no object of the namespace in the bundle has finalizers"
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Ref() < objs[j].Ref() })
	byFinalizer := map[string][]*objects.Object{}
	cause.Objects = make([]findings.ObjectRef, 0, len(objs))
	for _, o := range objs {
		ref := findings.ObjectRefOf(o)
		ref.Resource = ix.ResourceName(o)
		cause.Objects = append(cause.Objects, ref)
		for _, f := range o.Finalizers {
			byFinalizer[f] = append(byFinalizer[f], o)
		}
	}
	cause.Finalizers = findings.SortedKeys(finalizers)
	if condFin != nil && len(objs) > 0 {
		cause.Confidence = "high"
	}
	// who removes each finalizer (asked with the objects that carry it only)
	links := map[string]findings.Link{}
	verdicts := map[string]string{}
	for _, f := range cause.Finalizers {
		links[f], verdicts[f] = mechanism.FinalizerOwner(ix, f, byFinalizer[f])
	}
	// objects sharing kind, finalizers and verdict are one group: one line, one command
	cause.Groups = findings.GroupObjects(cause.Objects, func(o findings.ObjectRef) string {
		var vs []string
		for _, f := range o.Finalizers {
			if v := verdicts[f]; v != "" && !findings.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		return strings.Join(vs, ", ")
	})
	for _, g := range cause.Groups {
		o := objs[g.First]
		var text string
		if g.Count == 1 {
			text = fmt.Sprintf("%s metadata.finalizers: %s", o.Ref(), strings.Join(o.Finalizers, ", "))
			if !o.DeletionTimestamp.IsZero() {
				text += " (deletionTimestamp " + findings.FmtTime(o.DeletionTimestamp) + ": deletion requested, waiting for the finalizers)"
			}
		} else {
			text = fmt.Sprintf("%s in %s carry metadata.finalizers: %s", g.Describe(), p.Namespace, strings.Join(g.Finalizers, ", "))
			if d := g.Deletions(); d != "" {
				text += " (" + d + ": deletion requested, waiting for the finalizers)"
			}
			text += "; e.g. " + strings.Join(g.Examples, ", ") + " (this is the first; every object is in the JSON report)"
		}
		cause.Evidence = append(cause.Evidence, findings.FieldEvidence(o, "metadata.finalizers", text))
	}
	var owners []string
	for _, f := range cause.Finalizers {
		link := links[f]
		var carriers []findings.ObjectGroup
		n := 0
		for _, g := range cause.Groups {
			if findings.Contains(g.Finalizers, f) {
				carriers = append(carriers, g)
				n += g.Count
			}
		}
		if n > findings.GroupExamples {
			// the link names the objects it holds: "2,500 PipelineRuns (tekton.dev) keep F"
			link.Component = fmt.Sprintf("%s keep %s", findings.DescribeGroups(carriers), f)
		}
		cause.Chain = append(cause.Chain, p.FinalizerChain(&cause, f, link, objs)...) // who removes it, and what holds it
		owners = append(owners, link.Finding)
	}
	// a few objects are named one by one; more are named by their groups
	var what []string
	if len(objs) <= findings.GroupExamples*findings.GroupExamples {
		for _, o := range objs {
			what = append(what, o.Kind+" "+o.Name)
		}
	} else {
		what = []string{findings.DescribeGroups(cause.Groups)}
	}
	n := len(objs)
	if n == 0 {
		n = len(what)
	}
	subject := strings.Join(what, ", ") + " in the namespace still carr" + findings.Plural(n, "y", "ies")
	if len(what) == 0 {
		subject = "Objects of the namespace that the bundle does not include still carry"
		collect := fmt.Sprintf("kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n %s -o json", p.Namespace)
		cause.Notes = append(cause.Notes, "the objects holding the finalizers are not in the bundle; collect: "+collect)
		cause.Inline = append(cause.Inline, collect)
	}
	cause.Summary = fmt.Sprintf("%s finalizer%s %s. %s",
		subject, findings.Plural(len(cause.Finalizers), "s", ""),
		strings.Join(cause.Finalizers, ", "), strings.Join(owners, " "))
	cause.Chain = append(cause.Chain, crdLinks(p, objs)...)
	cause.Correlation = "finalizers leave no log line at default verbosity; see the objects' deletionTimestamp"
	return []findings.Cause{cause}, ""
}

// crdKeys keeps the CRD finalizer's lines by "<plural>.<group>", and the refusals to
// create a custom resource of a terminating CRD under crdRefusalKey.
const crdRefusalKey = "\x00crd-terminating"

func crdKeys(e *logs.Entry, d string) []string {
	if w, ok := crdWaiting(e); ok {
		return []string{w.Resource + "." + w.Group}
	}
	if _, ok := kubemsg.IsCRDTerminatingRefusal(d); ok {
		return []string{crdRefusalKey}
	}
	return nil
}

// crdWaiting reads the CRD finalizer's line: printf text (1.8-1.35) or the 1.36+
// structured message with its resource, group and count keys.
func crdWaiting(e *logs.Entry) (kubemsg.CRDWaiting, bool) {
	if w, ok := kubemsg.ParseCRDWaiting(e.Detail()); ok {
		return w, true
	}
	if len(e.Fields) == 0 {
		return kubemsg.CRDWaiting{}, false
	}
	var b strings.Builder
	b.WriteString(e.Message)
	for _, k := range []string{"resource", "group", "count"} {
		fmt.Fprintf(&b, " %s=%q", k, e.Field(k))
	}
	return kubemsg.ParseCRDWaiting(b.String())
}

// crdLinks say what kube-apiserver logged about the CRDs of the objects left: its CRD
// finalizer waits for them (the CRD is being deleted), and creates are refused.
func crdLinks(p *analyzer.Pass, objs []*objects.Object) []findings.Link {
	var out []findings.Link
	seen := map[string]bool{}
	for _, o := range objs {
		res := p.Index.ResourceName(o)
		if seen[res] || !strings.Contains(res, ".") {
			continue
		}
		seen[res] = true
		lines := append([]*logs.Entry{}, p.Lines(res)...)
		if len(lines) == 0 {
			continue
		}
		findings.SortEntries(lines)
		last := lines[len(lines)-1]
		w, _ := crdWaiting(last)
		out = append(out, findings.Link{Component: "kube-apiserver (CRD finalizer)", Evidence: findings.SampleLines(lines, 2),
			Finding: fmt.Sprintf("the CRD of %s is being deleted: its finalizer was still waiting for %d of them to be removed at %s; the CRD goes once they do", res, w.Count, findings.FmtTime(last.Time))})
	}
	if refusals := p.Lines(crdRefusalKey); len(refusals) > 0 && len(out) > 0 {
		out = append(out, findings.Link{Component: "a client of the CRD (operator?)", Evidence: findings.SampleLines(refusals, 2),
			Finding: fmt.Sprintf("something still tries to create custom resources of a CRD being deleted (%q, %d time(s)): an operator recreating its objects; stop it before removing finalizers, or they come back", kubemsg.CRDTerminatingRefusal, len(refusals))})
	}
	return out
}

func ladder(p *analyzer.Pass, c *findings.Cause) []findings.RemediationStep {
	steps := mechanism.ChainSteps(c) // what holds each finalizer, found or to be found
	for _, f := range c.Finalizers {
		if mechanism.FollowsFinalizer(f) {
			continue // its mechanism says what holds it (above), not "restart its controller"
		}
		steps = append(steps, mechanism.OwnerStep(p.Index, f, p.Namespace, nil))
	}
	// a group of a few objects gets a command per object; a larger one, one loop
	key := func(kind, ns string, fins []string) string {
		return kind + "\x00" + ns + "\x00" + strings.Join(fins, ",")
	}
	big := map[string]bool{}
	for _, g := range c.Groups {
		if g.Count <= findings.GroupExamples || len(g.Finalizers) == 0 {
			continue
		}
		big[key(g.Kind, g.Namespace, g.Finalizers)] = true
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: mechanism.FinalizerLoop(g),
			Why: fmt.Sprintf("Removes the finalizers of the %s that carry %s (listed by the first command, patched one by one), without the cleanup their controller would do: whatever they guard outside Kubernetes (volumes, cloud resources, registrations) may be left behind.",
				g.Describe(), g.Finalizers[0])})
	}
	for _, o := range c.Objects {
		if len(o.Finalizers) == 0 || len(big) > 0 && big[key(o.Kind, o.Namespace, o.Finalizers)] {
			continue
		}
		res := o.Resource
		if res == "" {
			res = strings.ToLower(o.Kind)
		}
		steps = append(steps, findings.RemediationStep{Risk: findings.RiskCaution,
			Command: shellsafe.Cmd("kubectl", "-n", o.Namespace, "patch", res, o.Name, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`),
			Why:     fmt.Sprintf("Removes %s from %s/%s without the cleanup its controller would do: whatever it guards outside Kubernetes (volumes, cloud resources, registrations) may be left behind.", strings.Join(o.Finalizers, ", "), o.Kind, o.Name)})
	}
	return steps
}

func example(p *analyzer.Pass) findings.Cause {
	f := []string{"example.com/FINALIZER"}
	return findings.Cause{Finalizers: f, Objects: []findings.ObjectRef{{APIVersion: "example.com/v1", Kind: "KIND", Namespace: p.Namespace, Name: "NAME",
		Resource: "RESOURCES.example.com", Finalizers: f}}}
}

// finalizersNotShown reports the objects NamespaceContentRemaining counts after every
// delete succeeded (NamespaceDeletionContentFailure False) when the bundle has no
// NamespaceFinalizersRemaining condition (a paste cut before it; the namespace
// controller writes both in the same pass, k8s.io/kubernetes
// pkg/controller/namespace/deletion namespaced_resources_deleter.go). An object other
// than a pod that is still listed after a successful DELETE is held by a finalizer:
// only pods wait out a grace period. Absent is not False: which finalizers hold them
// the bundle does not show, and the cause says so.
func finalizersNotShown(p *analyzer.Pass, content *objects.Condition) (findings.Cause, bool) {
	if content == nil || p.Condition(kubemsg.CondFinalizersRemaining) != nil {
		return findings.Cause{}, false
	}
	failure := p.Condition(kubemsg.CondContentFailure)
	if failure == nil || failure.Status != "False" {
		return findings.Cause{}, false // the deletes may have failed: that is what holds them
	}
	var res, parts []string
	for _, it := range kubemsg.ParseContentRemaining(content.Message) {
		gr := it.GroupResource()
		if gr == "pods" || p.ClaimedResource(gr) != "" {
			continue
		}
		res = append(res, gr)
		parts = append(parts, fmt.Sprintf("%d %s", it.Count, gr))
	}
	if len(res) == 0 {
		return findings.Cause{}, false
	}
	c := findings.Cause{Confidence: "medium", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{}, Objects: []findings.ObjectRef{},
		Evidence: []findings.Evidence{findings.ConditionEvidence(p.Object, content), findings.ConditionEvidence(p.Object, failure)}}
	for _, r := range res {
		c.ClaimResource(r)
	}
	c.Summary = fmt.Sprintf("%s remain in the namespace although every delete succeeded (%s): objects that stay after a successful delete are held by finalizers (only pods wait out a grace period). "+
		"Which finalizers, the bundle does not show: it has no %s condition (cut from the paste?) and dumps no object of %s with finalizers.",
		strings.Join(parts, ", "), findings.CondState(failure), kubemsg.CondFinalizersRemaining, strings.Join(res, ", "))
	c.Chain = []findings.Link{{Component: "objects of " + strings.Join(res, ", "), Fault: true,
		Finding:  "still listed after the namespace controller deleted them: their finalizers are not removed",
		Evidence: c.Evidence[:1],
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: mechanism.FindHoldersCmd(p.Namespace),
			Why: "Lists the objects of the namespace that carry finalizers, with them (read-only): then restore the controller that owns each, or patch it off as the last step before /finalize."}}}
	collect := shellsafe.Cmd("kubectl", "get", "namespace", p.Namespace, "-o", "json")
	c.Notes = append(c.Notes, "collect: "+collect+" (its NamespaceFinalizersRemaining condition names the finalizers)")
	c.Inline = append(c.Inline, collect)
	c.Correlation = "finalizers leave no log line at default verbosity; see the objects' deletionTimestamp"
	return c, true
}
