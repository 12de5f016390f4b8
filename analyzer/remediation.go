package analyzer

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// remediation builds the ladder for a namespace: for each cause the rungs its rule
// gives (safe first, then caution), without duplicates, and the /finalize call last
// (destructive).
func remediation(p *Pass, nr findings.NamespaceReport, rules []*Rule) []findings.RemediationStep {
	var byRisk [3][]findings.RemediationStep
	rank := map[string]int{findings.RiskSafe: 0, findings.RiskCaution: 1, findings.RiskDestructive: 2}
	seen := map[string]bool{}
	if p.guard == nil {
		p.guard = namespaceGuard(nr)
	}
	for i := range nr.Causes {
		c := &nr.Causes[i]
		c.Ladder = nil
		r := RuleByName(rules, c.Type)
		if c.Type == findings.CauseUndetermined {
			r = Undetermined
		}
		if r == nil || r.Ladder == nil {
			continue
		}
		p.Rule = r
		steps := r.Ladder(p, c)
		if l := RootLink(c); l != nil && l.Fix != nil {
			steps = append([]findings.RemediationStep{*l.Fix}, steps...) // act on the root first
		}
		steps = checkPremises(p.warn, nr.Name, c, steps)
		for j := range steps {
			steps[j].Command = p.checkCmd(steps[j].Command)
			steps[j] = findings.Label(steps[j])
		}
		if !slices.ContainsFunc(steps, func(s findings.RemediationStep) bool { return s.Risk == findings.RiskSafe }) {
			steps = append([]findings.RemediationStep{findings.Label(findFirst(p, c))}, steps...) // never a change first
		}
		mine := map[string]bool{}
		for _, s := range steps {
			if mine[s.Command] {
				continue // the same command twice in one cause's ladder (root fix and rung)
			}
			mine[s.Command] = true
			c.Ladder = append(c.Ladder, s)
			if seen[s.Command] {
				continue
			}
			seen[s.Command] = true
			byRisk[rank[s.Risk]] = append(byRisk[rank[s.Risk]], s)
		}
	}
	p.Rule = nil
	steps := append(append(byRisk[0], byRisk[1]...), byRisk[2]...)
	if f, ok := finalizeStep(p, nr, len(steps) > 0); ok {
		steps = append(steps, f)
	}
	return steps
}

// FinalizersShown reports whether the bundle shows the Namespace's finalizers: it holds
// the object as JSON or YAML (a kubectl get table or describe never shows them).
func FinalizersShown(o *objects.Object) bool {
	return o != nil && o.Kind == "Namespace" && o.Source.Rendering == ""
}

// finalizeStep is the last rung: the PUT to /finalize, offered only where
// spec.finalizers holds the namespace (or the bundle cannot show whether it does), and
// saying exactly what it does: /finalize writes spec.finalizers and nothing else. A
// namespace held only by its own metadata.finalizers (spec.finalizers already empty)
// gets no /finalize rung: it would change nothing; the metadata.finalizers patch is its
// rung (namespace-finalizer).
func finalizeStep(p *Pass, nr findings.NamespaceReport, after bool) (findings.RemediationStep, bool) {
	ns := p.Object
	if ns != nil && (ns.Kind != "Namespace" || ns.Name != nr.Name) {
		ns = nil
	}
	shown := FinalizersShown(ns)
	if shown && len(ns.SpecFinalizers) == 0 {
		if len(ns.Finalizers) > 0 {
			return findings.RemediationStep{}, false // its own metadata.finalizers hold it: /finalize changes nothing
		}
		shown = false // neither is set, yet it is Terminating: the dump is abridged, say what /finalize does
	}
	last, gate := "Last resort", findings.GateAfterSteps
	if after {
		last += ", only after the steps above"
	} else {
		last += ", only once the cause is understood (see what to collect)"
		gate = findings.GateCauseUnderstood
	}
	finalize := shellsafe.NotRun(shellsafe.NamespaceName, nr.Name)
	if shellsafe.ValidName(shellsafe.NamespaceName, nr.Name) || p.example {
		finalize = shellsafe.Cmd("kubectl", "get", "namespace", nr.Name, "-o", "json") + " | jq '.spec.finalizers = []' | " + shellsafe.Cmd("kubectl", "replace", "--raw", "/api/v1/namespaces/"+nr.Name+"/finalize", "-f", "-")
	}
	what := "it empties the Namespace's spec.finalizers"
	if shown {
		what += " (" + strings.Join(ns.SpecFinalizers, ", ") + ")"
	}
	what += ", which is all /finalize can change; "
	patch := shellsafe.Cmd("kubectl", "patch", "namespace", nr.Name, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	switch {
	case shown && len(ns.Finalizers) > 0:
		what += "the API server removes the namespace only once metadata.finalizers (" + strings.Join(ns.Finalizers, ", ") + ") is empty too (the metadata.finalizers rung above). "
	case shown:
		what += "metadata.finalizers is empty, so the API server then removes the namespace without deleting what is left in it. "
	default:
		what += "the API server then removes the namespace without deleting what is left in it, unless metadata.finalizers holds entries, which the bundle does not show (" + patch + " removes those; /finalize never does). "
	}
	does := what + "Any object still stored for that namespace stays in etcd, out of sight (no namespace shows it), and reappears if a namespace of the same name is created again; resources guarded by finalizers (cloud load balancers, volumes) are leaked. It does not fix the cause: the next namespace deletion hangs the same way. " +
		"kubectl delete --force --grace-period=0 does not help (the namespace already has a deletionTimestamp; force only skips pod grace periods), and kubectl edit or patch of spec.finalizers is silently discarded: spec.finalizers can only be changed through the /finalize subresource. " +
		FinalizeFollowUp(p.Index.KubernetesVersion, nr.Name)
	return findings.Label(findings.RemediationStep{Changes: findings.ChangesData, Command: finalize, Why: last + ": " + does, Gate: gate, Does: does}), true
}

// FinalizeFollowUp says what can be done, after a forced /finalize, about the objects it
// left stored for the namespace, which depends on the version: k8s.io/apiserver v0.37
// (Kubernetes 1.37) NamespaceLifecycle admission allows every update to an object
// whatever its namespace ("always allow updates to other resources",
// plugin/namespace/lifecycle/admission.go), so the orphans' finalizers can be removed in
// place; through 1.36 an update in a namespace that no longer exists is refused
// (namespaces "<ns>" not found), so the namespace has to be recreated first. Reads and
// deletes were always admitted.
func FinalizeFollowUp(version, ns string) string {
	on137 := "on 1.37 and later the API server admits updates to objects whose namespace no longer exists, so the orphans can be cleaned in place: list them by resource (kubectl get -n " + ns + " <resource> still answers for a namespace that is gone), set their metadata.finalizers to null and delete them"
	before := "through 1.36 such updates are refused (namespaces \"" + ns + "\" not found): orphans without finalizers can still be deleted, but to remove finalizers recreate a namespace of the same name (the orphans reappear in it), remove them, then delete the namespace again"
	switch {
	case version == "":
		return "Afterwards, for what it left behind: " + on137 + "; " + before + " (the bundle does not say which version the cluster runs)."
	case index.MinorAtLeast(version, 37):
		return "Afterwards, for what it left behind: the cluster runs " + version + ": " + on137 + "."
	default:
		return "Afterwards, for what it left behind: the cluster runs " + version + ": " + before + "; from 1.37 they could be cleaned in place."
	}
}

// findFirst is the safe first rung of a cause whose rule knows none for what the bundle
// shows: a read-only command that lists what is left in the namespace and what the
// namespace's conditions say, so the next step acts on named objects (never /finalize).
func findFirst(p *Pass, c *findings.Cause) findings.RemediationStep {
	ns := p.Namespace
	return findings.RemediationStep{Risk: findings.RiskSafe,
		Command: shellsafe.Cmd("kubectl", "get", "namespace", ns, "-o", "jsonpath={range .status.conditions[*]}{.type}={.status} {.message}{\"\\n\"}{end}") + " && " +
			"kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--show-kind", "--ignore-not-found", "-n", ns),
		Why: "Find what still holds the namespace: its conditions name the failing calls and the finalizers left, and the listing names the objects that remain; act on those (their owner, their backend) before anything destructive."}
}

// Reported returns the keys of what the report's causes already name
// ("APIService/NAME", "webhook/NAME", "CustomResourceDefinition/NAME"), so latent
// risks do not repeat them.
func Reported(r *findings.Report) map[string]bool {
	reported := map[string]bool{}
	for _, ns := range r.Namespaces {
		for _, c := range ns.Causes {
			for _, a := range c.APIServices {
				reported["APIService/"+a] = true
			}
			for _, w := range c.Webhooks {
				reported["webhook/"+w] = true
			}
			for _, o := range c.Objects {
				if o.Namespace == "" { // the keys name cluster-scoped objects only
					reported[o.Kind+"/"+o.Name] = true
				}
			}
		}
	}
	return reported
}

// latentRisks asks every rule for broken pieces of the cluster that will hang the next
// namespace deletion, except those already reported as a cause.
func latentRisks(ix *index.Index, r *findings.Report, rules []*Rule) []findings.Risk {
	reported := Reported(r)
	risks := []findings.Risk{}
	for _, rule := range rules {
		if rule.Risks == nil {
			continue
		}
		for _, rk := range rule.Risks(ix, reported) {
			var own shellsafe.Guard
			if _, name, ok := strings.Cut(rk.Object, "/"); ok {
				own.Add(shellsafe.ObjectName, name)
			}
			for i := range rk.Fix {
				rk.Fix[i].Command = ix.CheckCmd(own.Check(rk.Fix[i].Command))
			}
			findings.LabelAll(rk.Fix)
			risks = append(risks, rk)
		}
	}
	return risks
}

// coverage lists what the bundle lacked for a complete diagnosis.
func coverage(ix *index.Index, r *findings.Report) []findings.Gap {
	gaps := []findings.Gap{}
	add := func(kind, missing, collect string) {
		gaps = append(gaps, findings.Gap{Kind: kind, Missing: missing, Collect: collect})
	}
	if ix.NamespaceCount() == 0 {
		add(findings.GapNamespaces, "no Namespace objects", "kubectl get namespaces -o json")
	}
	if !ix.Has("APIService") && !ix.Dumped("apiservice") {
		add(findings.GapAPIServices, "no APIService objects", "kubectl get apiservices -o json")
	}
	if !ix.HasLogsOf("kube-controller-manager") {
		add(findings.GapControllerManagerLog, "no kube-controller-manager log", mechanism.ComponentLogs(ix.Platform(), "kube-controller-manager", -1, ""))
	}
	if !ix.HasLogsOf("kube-apiserver") {
		add(findings.GapAPIServerLog, "no kube-apiserver log", mechanism.ComponentLogs(ix.Platform(), "kube-apiserver", -1, ""))
	}
	if !ix.Has("ValidatingWebhookConfiguration") && !ix.Has("MutatingWebhookConfiguration") && !ix.Dumped("webhookconfiguration") {
		add(findings.GapWebhookConfigurations, "no webhook configurations", "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json")
	}
	guard := func(g findings.Gap) findings.Gap { g.Collect = ix.CheckCmd(g.Collect); return g }
	defer func() {
		for i := range gaps {
			gaps[i] = guard(gaps[i])
		}
	}()
	for _, pod := range backendPods(ix) {
		if pod.Pod != nil && pod.Pod.Ready {
			continue
		}
		cmd, ok := shellsafe.SafeCmd("kubectl", "-n", shellsafe.NS(pod.Namespace), "logs", shellsafe.Obj(pod.Name), "--all-containers", "--previous")
		if ok {
			d, _ := shellsafe.SafeCmd("kubectl", "-n", shellsafe.NS(pod.Namespace), "describe", "pod", shellsafe.Obj(pod.Name))
			cmd += "; " + d
		}
		state := mechanism.PodState(pod)
		gaps = append(gaps, findings.Gap{Kind: findings.GapBackendPodLogs, Object: pod.Namespace + "/" + pod.Name, Detail: state, Collect: cmd,
			Missing: fmt.Sprintf("logs of pod %s/%s, a backend of an APIService or webhook, which is not running normally (%s)", pod.Namespace, pod.Name, state)})
	}
	for _, ce := range collectorGaps(ix.Records.CollectorErrors) {
		if permissionError(ce) {
			add(findings.GapCollectorForbidden, ce, shellsafe.Comment("re-run the collector with a service account allowed to get/list every resource (e.g. cluster-admin for the collection), or collect the missing resource with kubectl"))
		} else {
			add(findings.GapCollectorFailed, ce, shellsafe.Comment("the collector's call failed for a reason other than permissions (see the error): re-run the collection once the API server answers, or collect the missing resource with kubectl"))
		}
	}
	var encrypted []string
	for _, w := range ix.Records.Warnings {
		if w.Message == bundle.EncryptedMember {
			encrypted = append(encrypted, w.File)
		}
	}
	if len(encrypted) > 0 {
		add(findings.GapEncrypted, fmt.Sprintf("%d encrypted archive member%s, not read (%s)", len(encrypted), findings.Plural(len(encrypted), "s", ""), strings.Join(findings.FirstN(encrypted, 8), ", ")),
			shellsafe.Comment("extract the archive with its password (unzip -P ... or 7z x) and run nsanalyze on the extracted files"))
	}
	var undumped []string
	for _, ns := range r.Namespaces {
		if !ix.NamespaceDumped(ns.Name) && shellsafe.ValidName(shellsafe.NamespaceName, ns.Name) {
			undumped = append(undumped, ns.Name)
		}
	}
	switch {
	case len(undumped) == 1:
		gaps = append(gaps, findings.Gap{Kind: findings.GapNamespaceObjects, Object: undumped[0], Missing: "no object of the stuck namespace " + undumped[0] + " was dumped",
			Collect: "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--show-kind", "--ignore-not-found", "-n", undumped[0], "-o", "json")})
	case len(undumped) > 1:
		add(findings.GapNamespaceObjects, fmt.Sprintf("no object of the %d stuck namespaces %s was dumped", len(undumped), strings.Join(findings.FirstN(undumped, 8), ", ")),
			"for ns in "+shellsafe.Cmd(undumped...)+"; do kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -o json -n \"$ns\"; done")
	}
	return gaps
}

// permissionError reports whether a collector error is a refusal (403, forbidden,
// unauthorized), the only kind a service account with more rights would fix.
func permissionError(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "forbidden") || strings.Contains(l, "unauthorized") || strings.Contains(l, "cannot list") ||
		strings.Contains(l, "cannot get") || strings.Contains(l, "403")
}

// collectorGaps says what the bundle collector could not collect: one sentence per file
// and error text, naming the namespaces it was about (troubleshoot's per-namespace error
// maps repeat one error for every namespace). Discovery errors are evidence, not gaps.
func collectorGaps(errs []bundle.CollectorError) []string {
	type key struct{ file, text string }
	var order []key
	byKey := map[key][]bundle.CollectorError{}
	for _, ce := range errs {
		if len(kubemsg.ParseDiscoveryFailure(ce.Text)) > 0 {
			continue // used as discovery evidence
		}
		k := key{ce.File, ce.Text}
		if _, ok := byKey[k]; !ok {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], ce)
	}
	var out []string
	for _, k := range order {
		ces := byKey[k]
		var nss []string
		for _, ce := range ces {
			if ce.Namespace != "" && !slices.Contains(nss, ce.Namespace) {
				nss = append(nss, ce.Namespace)
			}
		}
		what := "everything"
		if len(nss) > 0 {
			what = fmt.Sprintf("%s in %s %s", strings.TrimSuffix(path.Base(k.file), "-errors.json"), findings.Plural(len(nss), "namespaces", "namespace"), strings.Join(findings.FirstN(nss, 8), ", "))
		}
		out = append(out, fmt.Sprintf("the bundle collector could not collect %s (%s:%d: %s)", what, ces[0].File, ces[0].Line, k.text))
	}
	return out
}

// backendPods returns the pods behind the Services that APIServices, webhooks and CRD
// conversion webhooks point at.
func backendPods(ix *index.Index) []*objects.Object {
	var refs []*objects.ServiceReference
	for _, a := range ix.APIServices {
		if a.APIService != nil && a.APIService.Service != nil {
			refs = append(refs, a.APIService.Service)
		}
	}
	for _, kind := range []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"} {
		for _, cfg := range ix.ByKind[kind] {
			for _, wh := range cfg.Webhooks {
				if wh.Service != nil {
					refs = append(refs, wh.Service)
				}
			}
		}
	}
	for _, crd := range ix.ByKind["CustomResourceDefinition"] {
		if crd.CRD != nil && crd.CRD.ConversionService != nil {
			refs = append(refs, crd.CRD.ConversionService)
		}
	}
	seen := map[*objects.Object]bool{}
	var out []*objects.Object
	for _, ref := range refs {
		svc := ix.Find("Service", ref.Namespace, ref.Name)
		if svc == nil || svc.Service == nil {
			continue
		}
		for _, p := range ix.PodsSelectedBy(ref.Namespace, svc.Service.Selector) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref() < out[j].Ref() })
	return out
}

// namespaceGuard validates, once each, the names from the bundle that a namespace's
// commands may carry (the namespace, and every object, APIService, webhook and
// finalizer its causes name) and keeps those Kubernetes would refuse. Names of the
// bundle's objects are in the index's guard already; this one adds those known only
// from log lines and conditions.
func namespaceGuard(nr findings.NamespaceReport) *shellsafe.Guard {
	g := &shellsafe.Guard{}
	g.Add(shellsafe.NamespaceName, nr.Name)
	for _, c := range nr.Causes {
		for _, o := range c.Objects {
			g.Add(shellsafe.ObjectName, o.Name)
			g.Add(shellsafe.NamespaceName, o.Namespace)
			for _, f := range o.Finalizers {
				g.Add(shellsafe.FinalizerName, f)
			}
		}
		for _, a := range c.APIServices {
			g.Add(shellsafe.APIServiceName, a)
		}
		for _, w := range c.Webhooks {
			g.Add(shellsafe.ObjectName, w)
		}
		for _, f := range c.Finalizers {
			g.Add(shellsafe.FinalizerName, f)
		}
	}
	g.Prepare()
	return g
}

// checkCmd replaces a command that carries a name Kubernetes would refuse (raw or
// shell-quoted) by a comment saying so: such names only come from damaged or hostile
// bundles, and no command is built on them. Each command is read once per guard,
// whatever the number of names (shellsafe.Guard).
func (p *Pass) checkCmd(cmd string) string {
	if p.example {
		return cmd
	}
	if p.guard != nil {
		cmd = p.guard.Check(cmd)
	}
	return p.Index.CheckCmd(cmd)
}

// checkPremises keeps the rungs whose premise holds on the cause's chain. A rung that
// fails its premise is a bug of its rule: it is left out, and said as an internal-error
// warning (tests fail on those).
func checkPremises(w *warnings, ns string, c *findings.Cause, steps []findings.RemediationStep) []findings.RemediationStep {
	out := steps[:0:0]
	for _, s := range steps {
		if why := findings.PremiseProblem(c.Chain, s); why != "" {
			w.premise = append(w.premise, diag.Warning{File: "namespace " + ns,
				Message: fmt.Sprintf("%s: rung %q of %s left out: %s", diag.InternalError, findings.Clip(s.Command, 120), c.Type, why)})
			continue
		}
		out = append(out, s)
	}
	return out
}
