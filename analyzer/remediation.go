package analyzer

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// remediation builds the ladder for a namespace: for each cause the fix of its root
// (safe), then the workarounds (caution), and the /finalize call last (destructive).
func remediation(p *Pass, nr NamespaceReport) []RemediationStep {
	var safe, caution []RemediationStep
	seen := map[string]bool{}
	addTo := func(list *[]RemediationStep, s RemediationStep) {
		if seen[s.Command] {
			return
		}
		seen[s.Command] = true
		*list = append(*list, s)
	}
	for _, c := range nr.Causes {
		switch c.Type {
		case CauseAPIDiscovery:
			for _, name := range c.APIServices {
				a := p.Index.APIServices[name]
				var svc *objects.ServiceReference
				if a != nil && a.APIService != nil {
					svc = a.APIService.Service
				}
				if svc != nil && !p.Stuck[svc.Namespace] {
					addTo(&safe, RemediationStep{Risk: RiskSafe,
						Command: fmt.Sprintf("kubectl get apiservice %s -o yaml && kubectl -n %s get service %s -o wide && kubectl -n %s get endpointslices -l kubernetes.io/service-name=%s && kubectl -n %s get pods -o wide", name, svc.Namespace, svc.Name, svc.Namespace, svc.Name, svc.Namespace),
						Why:     fmt.Sprintf("Fix the backend first: make Service %s/%s have ready pods that kube-apiserver can reach (pod Ready? network path from the control plane to the pod network? certificates?). As soon as %s is Available=True, the namespace controller finishes within seconds.", svc.Namespace, svc.Name, name)})
					if d := backendWorkload(p.Index, svc); d != nil {
						addTo(&safe, RemediationStep{Risk: RiskSafe,
							Command: fmt.Sprintf("kubectl -n %s rollout restart %s/%s && kubectl -n %s rollout status %s/%s", d.Namespace, strings.ToLower(d.Kind), d.Name, d.Namespace, strings.ToLower(d.Kind), d.Name),
							Why:     fmt.Sprintf("Restart the backend %s once its root problem is fixed.", d.Ref())})
					}
				}
				owner := kubemsg.WellKnownGroupOwner(kubemsg.GroupOf(kubemsg.GroupVersionOfAPIService(name)))
				if a == nil {
					addTo(&safe, RemediationStep{Risk: RiskSafe,
						Command: fmt.Sprintf("kubectl get apiservice %s -o jsonpath='{.spec.service}{\"\\n\"}{.status.conditions}{\"\\n\"}'", name),
						Why: fmt.Sprintf("The APIService is not in the bundle: find the Service it points at and make its pods ready and reachable from the control plane%s. As soon as it is Available=True, the namespace controller finishes.",
							map[bool]string{true: " (usually " + owner + ")", false: ""}[owner != ""])})
				}
				why := fmt.Sprintf("If the backend was removed on purpose or cannot be restored soon, delete the stale APIService: discovery succeeds again and every stuck namespace finishes. Whatever uses %s stops working until its server is reinstalled (reinstalling recreates the APIService).", kubemsg.GroupVersionOfAPIService(name))
				if owner != "" {
					why += " Usually served by " + owner + "."
				}
				if svc != nil && p.Stuck[svc.Namespace] {
					why = fmt.Sprintf("The backend lives in namespace %s, which is being deleted: this is the fix. Delete the APIService now; reinstall %s in a namespace that stays, if it is still needed.", svc.Namespace, orDefault(owner, "its server"))
					addTo(&safe, RemediationStep{Risk: RiskSafe, Command: "kubectl delete apiservice " + name, Why: why})
					continue
				}
				addTo(&caution, RemediationStep{Risk: RiskCaution, Command: "kubectl delete apiservice " + name, Why: why})
			}
		case CauseFinalizers:
			for _, f := range c.Finalizers {
				addTo(&safe, RemediationStep{Risk: RiskSafe, Command: fmt.Sprintf("# reinstall or restart the controller that owns %s, then watch: kubectl get ns %s -w", f, nr.Name),
					Why: fmt.Sprintf("Only the owner of %s knows what it guards (cloud resources, data, other objects); letting it finish is the only clean way.", f)})
			}
			for _, o := range c.Objects {
				if len(o.Finalizers) == 0 {
					continue
				}
				res := o.Resource
				if res == "" {
					res = strings.ToLower(o.Kind)
				}
				addTo(&caution, RemediationStep{Risk: RiskCaution,
					Command: fmt.Sprintf(`kubectl -n %s patch %s %s --type=merge -p '{"metadata":{"finalizers":null}}'`, o.Namespace, res, o.Name),
					Why:     fmt.Sprintf("Removes %s from %s/%s without the cleanup its controller would do: whatever it guards outside Kubernetes (volumes, cloud resources, registrations) may be left behind.", strings.Join(o.Finalizers, ", "), o.Kind, o.Name)})
			}
		case CauseAdmissionWebhook:
			for _, o := range c.Objects {
				kind := strings.ToLower(o.Kind)
				addTo(&safe, RemediationStep{Risk: RiskSafe, Command: fmt.Sprintf("kubectl get %s %s -o yaml   # restore the webhook's backend Service/pods", kind, o.Name),
					Why: "Fix the webhook's backend; the namespace controller's next retry then succeeds."})
				addTo(&caution, RemediationStep{Risk: RiskCaution, Command: fmt.Sprintf("kubectl delete %s %s", kind, o.Name),
					Why: "Removes the webhook (or patch its failurePolicy to Ignore, or exclude the namespace with a namespaceSelector): the policy it enforces is off until it is reinstalled."})
			}
		case CauseConversionWebhook:
			for _, o := range c.Objects {
				addTo(&safe, RemediationStep{Risk: RiskSafe, Command: fmt.Sprintf("kubectl get crd %s -o jsonpath='{.spec.conversion}'   # restore the conversion webhook's Service", o.Name),
					Why: "Bring the conversion webhook back; listing and deleting the custom resources works again."})
			}
		case CauseContentRemaining:
			for _, o := range c.Objects {
				if o.Kind != "Pod" {
					continue
				}
				addTo(&caution, RemediationStep{Risk: RiskCaution,
					Command: fmt.Sprintf("kubectl -n %s delete pod %s --grace-period=0 --force", o.Namespace, o.Name),
					Why:     "Only when the pod's node is gone for good: removes the pod object without the kubelet's confirmation; if the node comes back, its containers may still run until the kubelet notices."})
			}
		case CauseControllerNotRunning:
			addTo(&safe, RemediationStep{Risk: RiskSafe,
				Command: "kubectl -n kube-system get pods -l component=kube-controller-manager -o wide && kubectl -n kube-system get lease kube-controller-manager -o yaml",
				Why:     "Bring kube-controller-manager back (static pod manifest on the control-plane nodes, or the provider's control plane); the namespace controller resumes on its own and finishes the deletion."})
		case CauseNamespaceFinalizer:
			addTo(&safe, RemediationStep{Risk: RiskSafe, Command: fmt.Sprintf("# restore the controller that owns %s on namespace %s", strings.Join(c.Finalizers, ", "), nr.Name),
				Why: "The namespace's own extra finalizers belong to another controller; it must remove them."})
			var meta []string
			for _, f := range c.Finalizers {
				if p.Object != nil && contains(p.Object.Finalizers, f) {
					meta = append(meta, f)
				}
			}
			if len(meta) > 0 {
				addTo(&caution, RemediationStep{Risk: RiskCaution, Command: fmt.Sprintf(`kubectl patch namespace %s --type=merge -p '{"metadata":{"finalizers":null}}'`, nr.Name),
					Why: "Removes metadata.finalizers " + strings.Join(meta, ", ") + " (this field, unlike spec.finalizers, can be edited directly); the owning controller's cleanup is skipped."})
			}
		}
	}
	steps := append(safe, caution...)
	steps = append(steps, RemediationStep{Risk: RiskDestructive,
		Command: fmt.Sprintf(`kubectl get namespace %s -o json | jq '.spec.finalizers = []' | kubectl replace --raw /api/v1/namespaces/%s/finalize -f -`, nr.Name, nr.Name),
		Why: "Last resort, only after the steps above: it removes the namespace without deleting what is left in it. Any object still stored for that namespace stays in etcd, invisible to kubectl get, and reappears if a namespace of the same name is created again; resources guarded by finalizers (cloud load balancers, volumes) are leaked. It does not fix the cause: the next namespace deletion hangs the same way. " +
			"`kubectl delete --force --grace-period=0` does not help (the namespace already has a deletionTimestamp; force only skips pod grace periods), and `kubectl edit`/`patch` of spec.finalizers is silently discarded: spec.finalizers can only be changed through the /finalize subresource."})
	return steps
}

// backendWorkload finds the Deployment/StatefulSet/DaemonSet whose pods a Service selects.
func backendWorkload(ix *Index, svc *objects.ServiceReference) *objects.Object {
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

// latentRisks lists broken APIServices and fail-closed webhooks that will hang the next
// namespace deletion, except those already reported as a cause.
func latentRisks(ix *Index, r *Report) []Risk {
	reported := map[string]bool{}
	for _, ns := range r.Namespaces {
		for _, c := range ns.Causes {
			for _, a := range c.APIServices {
				reported[a] = true
			}
			for _, w := range c.Webhooks {
				reported["webhook/"+w] = true
			}
			for _, o := range c.Objects {
				if o.Kind == "CustomResourceDefinition" {
					reported["crd/"+o.Name] = true
				}
			}
		}
	}
	risks := []Risk{}
	for _, name := range sortedKeys(ix.APIServices) {
		a := ix.APIServices[name]
		c := a.Condition("Available")
		if c == nil || c.Status == "True" || reported[name] {
			continue
		}
		risks = append(risks, Risk{Type: CauseAPIDiscovery, Object: "APIService/" + name,
			Summary:  fmt.Sprintf("APIService %s is Available=%s (%s: %s). Discovery of %s fails, so any namespace deleted now will hang in Terminating.", name, c.Status, c.Reason, c.Message, kubemsg.GroupVersionOfAPIService(name)),
			Evidence: []Evidence{conditionEvidence(a, c)}})
	}
	risks = append(risks, eventRisks(ix, reported)...)
	for _, crd := range ix.ByKind["CustomResourceDefinition"] {
		c := crd.CRD
		if c == nil || c.ConversionStrategy != "Webhook" || c.ConversionService == nil || reported["crd/"+crd.Name] {
			continue
		}
		if broken, why := backendBroken(ix, c.ConversionService); broken {
			risks = append(risks, Risk{Type: CauseConversionWebhook, Object: crd.Ref(),
				Summary: fmt.Sprintf("CRD %s converts between versions %v through a webhook whose Service %s/%s %s: listing or deleting its objects at a version other than the stored one fails, so deleting a namespace that holds them will hang, and objects can be left orphaned.",
					crd.Name, c.Versions, c.ConversionService.Namespace, c.ConversionService.Name, why),
				Evidence: []Evidence{{File: crd.Source.File, Line: crd.Source.Line, Object: crd.Ref(), Text: fmt.Sprintf("%s: conversion strategy Webhook, service %s/%s", crd.Ref(), c.ConversionService.Namespace, c.ConversionService.Name)}}})
		}
	}
	for _, kind := range []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"} {
		for _, cfg := range ix.ByKind[kind] {
			for _, wh := range cfg.Webhooks {
				if wh.FailurePolicy != "Fail" || wh.Service == nil || reported["webhook/"+wh.Name] || !interceptsDelete(wh) {
					continue
				}
				if broken, why := backendBroken(ix, wh.Service); broken {
					risks = append(risks, Risk{Type: CauseAdmissionWebhook, Object: cfg.Ref(),
						Summary:  fmt.Sprintf("Webhook %q (%s %s, failurePolicy Fail) intercepts deletes and its backend %s/%s %s: deleting a namespace with matching objects will hang.", wh.Name, cfg.Kind, cfg.Name, wh.Service.Namespace, wh.Service.Name, why),
						Evidence: []Evidence{{File: cfg.Source.File, Line: cfg.Source.Line, Object: cfg.Ref(), Text: cfg.Ref() + " webhook " + wh.Name}}})
				}
			}
		}
	}
	return risks
}

func interceptsDelete(wh objects.Webhook) bool {
	for _, r := range wh.Rules {
		for _, op := range r.Operations {
			if op == "DELETE" || op == "*" {
				return true
			}
		}
	}
	return false
}

// backendBroken reports whether the bundle shows a Service with no ready endpoints
// (only when the Service and its endpoints were dumped).
func backendBroken(ix *Index, ref *objects.ServiceReference) (bool, string) {
	svc := ix.Find("Service", ref.Namespace, ref.Name)
	if svc == nil {
		if ix.servicesDumped(ref.Namespace) {
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
		add("no kube-controller-manager log", "kubectl -n kube-system logs -l component=kube-controller-manager --tail=-1 (or the node's /var/log/pods/kube-system_kube-controller-manager-*)")
	}
	if !ix.HasLogsOf("kube-apiserver") {
		add("no kube-apiserver log", "kubectl -n kube-system logs -l component=kube-apiserver --tail=-1")
	}
	if !ix.Has("ValidatingWebhookConfiguration") && !ix.Has("MutatingWebhookConfiguration") && !ix.Dumped("webhookconfiguration") {
		add("no webhook configurations", "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o json")
	}
	for _, pod := range backendPods(ix) {
		if pod.Pod != nil && pod.Pod.Ready {
			continue
		}
		add(fmt.Sprintf("logs of pod %s/%s, a backend of an APIService or webhook, which is not running normally (%s)", pod.Namespace, pod.Name, podState(pod)),
			fmt.Sprintf("kubectl -n %s logs %s --all-containers --previous; kubectl -n %s describe pod %s", pod.Namespace, pod.Name, pod.Namespace, pod.Name))
	}
	for _, ce := range ix.Records.CollectorErrors {
		if len(kubemsg.ParseDiscoveryFailure(ce.Text)) > 0 {
			continue // used as discovery evidence
		}
		add(fmt.Sprintf("the bundle collector could not collect everything (%s:%d: %s)", ce.File, ce.Line, ce.Text),
			"re-run the collector with a service account allowed to get/list every resource (e.g. cluster-admin for the collection), or collect the missing resource with kubectl")
	}
	for _, ns := range r.Namespaces {
		if !ix.NamespaceDumped(ns.Name) {
			add("no object of the stuck namespace "+ns.Name+" was dumped",
				"kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n "+ns.Name+" -o json")
		}
	}
	return gaps
}

// unavailableGroupRE finds the group of a client-side 503 in an event message:
// "the server is currently unable to handle the request (get pods.metrics.k8s.io)".
var unavailableGroupRE = regexp.MustCompile(`the server is currently unable to handle the request \((?:get|list|watch) [a-z0-9-]+\.([a-z0-9.-]+)\)`)

// eventRisks finds API groups that Warning events show as unavailable, for bundles
// without APIService objects (cluster-info dumps, troubleshoot bundles).
func eventRisks(ix *Index, reported map[string]bool) []Risk {
	var risks []Risk
	byGroup := map[string][]*objects.Object{}
	var groups []string
	for _, ev := range ix.ByKind["Event"] {
		if ev.Event == nil {
			continue
		}
		m := unavailableGroupRE.FindStringSubmatch(ev.Event.Message)
		if m == nil {
			continue
		}
		if _, ok := byGroup[m[1]]; !ok {
			groups = append(groups, m[1])
		}
		byGroup[m[1]] = append(byGroup[m[1]], ev)
	}
	for _, g := range groups {
		known := false
		for name := range ix.APIServices {
			if kubemsg.GroupOf(kubemsg.GroupVersionOfAPIService(name)) == g {
				known = true // the APIService objects speak for themselves
			}
		}
		if known {
			continue
		}
		evs := byGroup[g]
		var evidence []Evidence
		for _, e := range evs[:min(3, len(evs))] {
			evidence = append(evidence, Evidence{File: e.Source.File, Line: e.Source.Line, Time: timePtr(e.Event.Last), Object: e.Ref(),
				Text: fmt.Sprintf("%s %s (%s/%s): %s", e.Event.Type, e.Event.Reason, e.Event.Involved.Kind, e.Event.Involved.Name, e.Event.Message)})
		}
		summary := fmt.Sprintf("Events show the API group %s answering 503 (\"the server is currently unable to handle the request\"): its aggregated API server is down, and while it is, any namespace deleted will hang in Terminating.", g)
		if owner := kubemsg.WellKnownGroupOwner(g); owner != "" {
			summary += " " + g + " is usually served by " + owner + "."
		}
		summary += " The bundle has no APIService objects to confirm it (collect: kubectl get apiservices -o json)."
		risks = append(risks, Risk{Type: CauseAPIDiscovery, Object: "group " + g, Summary: summary, Evidence: evidence})
	}
	return risks
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
