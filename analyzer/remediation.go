package analyzer

import (
	"fmt"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// remediation builds the ladder for a namespace: for each cause the rungs its rule
// gives (safe first, then caution), without duplicates, and the /finalize call last
// (destructive).
func remediation(p *Pass, nr NamespaceReport, rules []*Rule) []RemediationStep {
	var safe, caution []RemediationStep
	seen := map[string]bool{}
	names := append(namesOf(nr), p.Index.invalidNames...)
	if p.example {
		names = nil
	}
	for i := range nr.Causes {
		c := &nr.Causes[i]
		c.ladder = nil
		r := RuleByName(rules, c.Type)
		if c.Type == CauseUndetermined {
			r = Undetermined
		}
		if r == nil || r.Ladder == nil {
			continue
		}
		p.Rule = r
		steps := r.Ladder(p, c)
		if l := RootLink(c); l != nil && l.Fix != nil {
			steps = append([]RemediationStep{*l.Fix}, steps...) // act on the root first
		}
		for _, s := range steps {
			s.Command = guardNames(s.Command, names)
			c.ladder = append(c.ladder, s)
			if seen[s.Command] {
				continue
			}
			seen[s.Command] = true
			if s.Risk == RiskSafe {
				safe = append(safe, s)
			} else {
				caution = append(caution, s)
			}
		}
	}
	p.Rule = nil
	steps := append(safe, caution...)
	// a name Kubernetes would refuse never reaches a command: its rung is a comment

	last := "Last resort"
	if len(steps) > 0 {
		last += ", only after the steps above"
	} else {
		last += ", only once the cause is understood (see what to collect)"
	}
	finalize := NotRun(NamespaceName, nr.Name)
	if ValidName(NamespaceName, nr.Name) || p.example {
		finalize = Cmd("kubectl", "get", "namespace", nr.Name, "-o", "json") + " | jq '.spec.finalizers = []' | " + Cmd("kubectl", "replace", "--raw", "/api/v1/namespaces/"+nr.Name+"/finalize", "-f", "-")
	}
	steps = append(steps, RemediationStep{Risk: RiskDestructive,
		Command: finalize,
		Why: last + ": it removes the namespace without deleting what is left in it. Any object still stored for that namespace stays in etcd, invisible to kubectl get, and reappears if a namespace of the same name is created again; resources guarded by finalizers (cloud load balancers, volumes) are leaked. It does not fix the cause: the next namespace deletion hangs the same way. " +
			"`kubectl delete --force --grace-period=0` does not help (the namespace already has a deletionTimestamp; force only skips pod grace periods), and `kubectl edit`/`patch` of spec.finalizers is silently discarded: spec.finalizers can only be changed through the /finalize subresource."})
	return steps
}

// BackendWorkload finds the Deployment/StatefulSet/DaemonSet whose pods a Service selects.
func (ix *Index) BackendWorkload(svc *objects.ServiceReference) *objects.Object {
	s := ix.Find("Service", svc.Namespace, svc.Name)
	if s == nil || s.Service == nil || len(s.Service.Selector) == 0 {
		return nil
	}
	for _, kind := range []string{"Deployment", "StatefulSet", "DaemonSet"} {
		for _, w := range ix.ByKind[kind] {
			if w.Namespace != svc.Namespace || w.Workload == nil || len(w.Workload.Selector) == 0 {
				continue
			}
			ok := true
			for k, v := range w.Workload.Selector {
				if s.Service.Selector[k] != v {
					ok = false
				}
			}
			if ok {
				return w
			}
		}
	}
	return nil
}

// Reported returns the keys of what the report's causes already name
// ("APIService/NAME", "webhook/NAME", "CustomResourceDefinition/NAME"), so latent
// risks do not repeat them.
func Reported(r *Report) map[string]bool {
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
				reported[o.Kind+"/"+o.Name] = true
			}
		}
	}
	return reported
}

// latentRisks asks every rule for broken pieces of the cluster that will hang the next
// namespace deletion, except those already reported as a cause.
func latentRisks(ix *Index, r *Report, rules []*Rule) []Risk {
	reported := Reported(r)
	risks := []Risk{}
	for _, rule := range rules {
		if rule.Risks == nil {
			continue
		}
		for _, rk := range rule.Risks(ix, reported) {
			names := ix.invalidNames
			if _, name, ok := strings.Cut(rk.Object, "/"); ok {
				names = append(names, checkedName{ObjectName, name})
			}
			for i := range rk.Fix {
				rk.Fix[i].Command = guardNames(rk.Fix[i].Command, names)
			}
			risks = append(risks, rk)
		}
	}
	return risks
}

// InterceptsDelete reports whether a webhook's rules match DELETE operations.
func InterceptsDelete(wh objects.Webhook) bool {
	for _, r := range wh.Rules {
		for _, op := range r.Operations {
			if op == "DELETE" || op == "*" {
				return true
			}
		}
	}
	return false
}

// BackendBroken reports whether the bundle shows a Service with no ready endpoints
// (only when the Service and its endpoints were dumped).
func (ix *Index) BackendBroken(ref *objects.ServiceReference) (bool, string) {
	svc := ix.Find("Service", ref.Namespace, ref.Name)
	if svc == nil {
		if ix.ServicesDumped(ref.Namespace) {
			return true, "does not exist"
		}
		return false, ""
	}
	if svc.Service != nil && svc.Service.Type == "ExternalName" {
		return false, ""
	}
	ready, seen := 0, false
	for _, o := range ix.InNamespace(ref.Namespace, "EndpointSlice") {
		if o.Endpoints != nil && o.Endpoints.ServiceName == ref.Name {
			seen = true
			ready += o.Endpoints.Ready
		}
	}
	if !seen {
		if e := ix.Find("Endpoints", ref.Namespace, ref.Name); e != nil {
			seen = true
			ready = e.Endpoints.Ready
		}
	}
	if seen && ready == 0 {
		return true, "has no ready endpoints"
	}
	return false, ""
}

// coverage lists what the bundle lacked for a complete diagnosis.
func coverage(ix *Index, r *Report) []Gap {
	gaps := []Gap{}
	add := func(missing, collect string) { gaps = append(gaps, Gap{Missing: missing, Collect: collect}) }
	if len(ix.Namespaces) == 0 {
		add("no Namespace objects", "kubectl get namespaces -o json")
	}
	if !ix.Has("APIService") && !ix.Dumped("apiservice") {
		add("no APIService objects", "kubectl get apiservices -o json")
	}
	if !ix.HasLogsOf("kube-controller-manager") {
		add("no kube-controller-manager log", "kubectl -n kube-system logs -l component=kube-controller-manager --tail=-1   # or the node's /var/log/pods/kube-system_kube-controller-manager-*")
	}
	if !ix.HasLogsOf("kube-apiserver") {
		add("no kube-apiserver log", "kubectl -n kube-system logs -l component=kube-apiserver --tail=-1")
	}
	if !ix.Has("ValidatingWebhookConfiguration") && !ix.Has("MutatingWebhookConfiguration") && !ix.Dumped("webhookconfiguration") {
		add("no webhook configurations", "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json")
	}
	guard := func(g Gap) Gap { g.Collect = guardNames(g.Collect, ix.invalidNames); return g }
	defer func() {
		for i := range gaps {
			gaps[i] = guard(gaps[i])
		}
	}()
	for _, pod := range backendPods(ix) {
		if pod.Pod != nil && pod.Pod.Ready {
			continue
		}
		cmd, ok := SafeCmd("kubectl", "-n", NS(pod.Namespace), "logs", Obj(pod.Name), "--all-containers", "--previous")
		if ok {
			d, _ := SafeCmd("kubectl", "-n", NS(pod.Namespace), "describe", "pod", Obj(pod.Name))
			cmd += "; " + d
		}
		add(fmt.Sprintf("logs of pod %s/%s, a backend of an APIService or webhook, which is not running normally (%s)", pod.Namespace, pod.Name, PodState(pod)), cmd)
	}
	for _, ce := range ix.Records.CollectorErrors {
		if len(kubemsg.ParseDiscoveryFailure(ce.Text)) > 0 {
			continue // used as discovery evidence
		}
		add(fmt.Sprintf("the bundle collector could not collect everything (%s:%d: %s)", ce.File, ce.Line, ce.Text),
			Comment("re-run the collector with a service account allowed to get/list every resource (e.g. cluster-admin for the collection), or collect the missing resource with kubectl"))
	}
	var encrypted []string
	for _, w := range ix.Records.Warnings {
		if w.Message == bundle.EncryptedMember {
			encrypted = append(encrypted, w.File)
		}
	}
	if len(encrypted) > 0 {
		add(fmt.Sprintf("%d encrypted archive member%s, not read (%s)", len(encrypted), Plural(len(encrypted), "s", ""), strings.Join(firstN(encrypted, 8), ", ")),
			Comment("extract the archive with its password (unzip -P ... or 7z x) and run nsanalyze on the extracted files"))
	}
	var undumped []string
	for _, ns := range r.Namespaces {
		if !ix.NamespaceDumped(ns.Name) && ValidName(NamespaceName, ns.Name) {
			undumped = append(undumped, ns.Name)
		}
	}
	switch {
	case len(undumped) == 1:
		add("no object of the stuck namespace "+undumped[0]+" was dumped",
			"kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 "+Cmd("kubectl", "get", "--show-kind", "--ignore-not-found", "-n", undumped[0], "-o", "json"))
	case len(undumped) > 1:
		add(fmt.Sprintf("no object of the %d stuck namespaces %s was dumped", len(undumped), strings.Join(firstN(undumped, 8), ", ")),
			"for ns in "+Cmd(undumped...)+"; do kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -o json -n \"$ns\"; done")
	}
	return gaps
}

// backendPods returns the pods behind the Services that APIServices, webhooks and CRD
// conversion webhooks point at.
func backendPods(ix *Index) []*objects.Object {
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

// checkedName is a name from the bundle that a command may carry, with its kind.
type checkedName struct {
	kind  NameKind
	value string
}

// namesOf lists the names from the bundle that a namespace's commands may carry: the
// namespace, and every object, APIService, webhook and finalizer its causes name.
func namesOf(nr NamespaceReport) []checkedName {
	out := []checkedName{{NamespaceName, nr.Name}}
	for _, c := range nr.Causes {
		for _, o := range c.Objects {
			out = append(out, checkedName{ObjectName, o.Name})
			if o.Namespace != "" {
				out = append(out, checkedName{NamespaceName, o.Namespace})
			}
			for _, f := range o.Finalizers {
				out = append(out, checkedName{FinalizerName, f})
			}
		}
		for _, a := range c.APIServices {
			out = append(out, checkedName{APIServiceName, a})
		}
		for _, w := range c.Webhooks {
			out = append(out, checkedName{ObjectName, w})
		}
		for _, f := range c.Finalizers {
			out = append(out, checkedName{FinalizerName, f})
		}
	}
	return out
}

// guardNames replaces a command that carries a name Kubernetes would refuse (raw or
// shell-quoted) by a comment saying so: such names only come from damaged or hostile
// bundles, and no command is built on them.
func guardNames(cmd string, names []checkedName) string {
	if i := strings.Index(cmd, "# no command:"); i > 0 {
		// a word of a compound command was refused (Cmd): the whole rung is that comment
		rest := cmd[i:]
		for _, sep := range []string{" && ", " | ", "; "} {
			if j := strings.Index(rest, sep); j > 0 {
				rest = rest[:j]
			}
		}
		return rest
	}
	for _, n := range names {
		if n.value == "" || ValidName(n.kind, n.value) {
			continue
		}
		if strings.Contains(cmd, n.value) || strings.Contains(cmd, ShellQuote(n.value)) || strings.Contains(cmd, strings.ReplaceAll(n.value, "'", `'\''`)) {
			return NotRun(n.kind, n.value)
		}
	}
	return cmd
}
