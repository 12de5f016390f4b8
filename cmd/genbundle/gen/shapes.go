package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Shapes are the scale shapes of issue 22: small bundles in which one dimension of the
// analysis grows (objects with finalizers in one namespace, CRDs, failing APIServices,
// webhooks, stuck namespaces, group/versions in log lines, pods behind one Service,
// events, log lines of one cause, terminating pods on a dead node, pods that hold back
// a pods-first deletion, Active namespaces that hold nothing a rule reads (issue 32)). `genbundle -shape NAME -n N` writes one; the bench and the
// work-counting tests of the analyzer generate them at several N.
var Shapes = []string{"finalizers", "crds", "apiservices", "webhooks", "namespaces", "loggvs", "backendpods", "events", "loglines",
	"deadnodepods", "orderedpods", "activenamespaces"}

// shapeEnd is the capture time of every shape bundle.
var shapeEnd = time.Date(2026, 11, 29, 22, 30, 0, 0, time.UTC)

// ShapeFiles returns the files (bundle-relative path → content) of shape at size n and
// the ground truth, without touching the disk.
func ShapeFiles(shape string, n int) (map[string][]byte, Expected, error) {
	if n < 1 {
		return nil, Expected{}, fmt.Errorf("-n must be at least 1")
	}
	s := &shapeBundle{files: map[string]*shapeList{}}
	exp := Expected{RootCause: "finalizers-remaining", FailingGroupVersions: []string{}, FailingAPIServices: []string{}, BlockingFinalizers: []string{}}
	deleted := shapeEnd.Add(-3 * time.Hour)
	switch shape {
	case "finalizers":
		// CI left thousands of Tekton PipelineRuns behind; the Tekton controller is gone.
		const fin = "tekton.dev/pipelineRun"
		s.namespace("ci-runs", deleted, finConditions(fmt.Sprintf("pipelineruns.tekton.dev has %d resource instances", n), fmt.Sprintf("%s in %d resource instances", fin, n)))
		s.crd("tekton.dev", "PipelineRun", "pipelineruns", "v1")
		for i := 0; i < n; i++ {
			s.object("namespaces/ci-runs/pipelineruns.tekton.dev.json", "tekton.dev/v1", "PipelineRun", "ci-runs",
				fmt.Sprintf("build-%06d", i), deleted.Add(time.Duration(i%3600)*time.Second), fin)
		}
		exp.StuckNamespaces, exp.BlockingFinalizers = []string{"ci-runs"}, []string{fin}
	case "crds":
		// Crossplane-like: n CRDs of one provider, one managed resource each, all
		// guarded by the provider's finalizer; the provider is gone.
		const fin = "finalizer.managedresource.crossplane.io"
		s.namespace("infra", deleted, finConditions("kind0000.aws.upbound.io has 1 resource instances", fmt.Sprintf("%s in %d resource instances", fin, n)))
		for i := 0; i < n; i++ {
			kind := fmt.Sprintf("Kind%04d", i)
			group := fmt.Sprintf("svc%04d.aws.upbound.io", i)
			s.crd(group, kind, strings.ToLower(kind)+"s", "v1beta1")
			s.object("namespaces/infra/managed.json", group+"/v1beta1", kind, "infra", fmt.Sprintf("res-%04d", i), deleted.Add(time.Second), fin)
		}
		exp.StuckNamespaces, exp.BlockingFinalizers = []string{"infra"}, []string{fin}
	case "apiservices":
		// n aggregated APIs whose Services are gone: every namespace deletion hangs.
		var gvs []string
		for i := 0; i < n; i++ {
			group := fmt.Sprintf("g%04d.metrics.example.com", i)
			gvs = append(gvs, group+"/v1beta1")
			s.apiService("v1beta1."+group, group, "metrics", "adapter-"+fmt.Sprint(i))
			exp.FailingAPIServices = append(exp.FailingAPIServices, "v1beta1."+group)
		}
		sort.Strings(gvs)
		s.namespace("team-a", deleted, discoveryConditions(gvs))
		s.namespaceActive("metrics")
		s.services("metrics")
		exp.StuckNamespaces, exp.FailingGroupVersions, exp.RootCause = []string{"team-a"}, gvs, "api-discovery-failure"
	case "webhooks":
		// n fail-closed DELETE webhooks whose backends have no endpoints: latent risks.
		for i := 0; i < n; i++ {
			s.webhook(fmt.Sprintf("policy-%05d", i), "policy", "policy-webhook")
		}
		s.namespaceActive("policy")
		s.service("policy", "policy-webhook", map[string]string{"app": "policy-webhook"})
		s.endpointSlice("policy", "policy-webhook", 0)
		s.namespace("team-a", deleted, finConditions("widgets.example.com has 1 resource instances", "example.com/cleanup in 1 resource instances"))
		s.crd("example.com", "Widget", "widgets", "v1")
		s.object("namespaces/team-a/widgets.example.com.json", "example.com/v1", "Widget", "team-a", "w-1", deleted, "example.com/cleanup")
		exp.StuckNamespaces, exp.BlockingFinalizers = []string{"team-a"}, []string{"example.com/cleanup"}
	case "deadnodepods":
		// n pods in graceful termination on a node that stopped reporting: content
		// remains without finalizers (no Kubernetes version: all-at-once deletion)
		s.namespace("batch", deleted, finConditions(fmt.Sprintf("pods. has %d resource instances", n), ""))
		s.node("node-07", false)
		for i := 0; i < n; i++ {
			s.terminatingPod("batch", fmt.Sprintf("job-%06d", i), "node-07", deleted.Add(time.Duration(i%600)*time.Second))
		}
		exp.StuckNamespaces, exp.RootCause = []string{"batch"}, "content-remaining"
	case "orderedpods":
		// Kubernetes 1.34 deletes pods first: n pods keep a finalizer whose controller is
		// gone, and hold back every other object of the namespace
		const fin = "batch.example.com/drain"
		s.raw("cluster/version.json", `{"serverVersion": {"major": "1", "minor": "34", "gitVersion": "v1.34.4"}}`+"\n")
		s.namespace("batch", deleted, finConditions(fmt.Sprintf("pods. has %d resource instances", n), fmt.Sprintf("%s in %d resource instances", fin, n)))
		s.node("node-01", true)
		for i := 0; i < n; i++ {
			s.terminatingPod("batch", fmt.Sprintf("job-%06d", i), "node-01", deleted.Add(time.Duration(i%600)*time.Second), fin)
		}
		s.add("namespaces/batch/configmaps.json", m{"apiVersion": "v1", "kind": "ConfigMap", "metadata": m{"name": "settings", "namespace": "batch"}})
		exp.StuckNamespaces, exp.BlockingFinalizers, exp.RootCause = []string{"batch"}, []string{fin}, "ordered-deletion"
	case "namespaces":
		// n stuck namespaces across 20 problems: each holds an object of one of 20
		// operators that are gone.
		for i := 0; i < n; i++ {
			ns := fmt.Sprintf("tenant-%05d", i)
			p := i % 20
			group := fmt.Sprintf("op%02d.example.com", p)
			fin := group + "/cleanup"
			s.namespace(ns, deleted.Add(time.Duration(i)*time.Second), finConditions(fmt.Sprintf("things.%s has 1 resource instances", group), fin+" in 1 resource instances"))
			s.object("namespaces/"+ns+"/things."+group+".json", group+"/v1", "Thing", ns, "thing-1", deleted, fin)
			exp.StuckNamespaces = append(exp.StuckNamespaces, ns)
			if i < 20 {
				s.crd(group, "Thing", "things", "v1")
				exp.BlockingFinalizers = append(exp.BlockingFinalizers, fin)
			}
		}
	case "loggvs":
		// one failing backend (a metrics adapter) serving n group/versions, known only
		// from the namespace controller's log lines
		var gvs []string
		for i := 0; i < n; i++ {
			gvs = append(gvs, fmt.Sprintf("g%04d.adapter.example.com/v1beta1", i))
		}
		sort.Strings(gvs)
		var parts []string
		for _, gv := range gvs {
			parts = append(parts, gv+": stale GroupVersion discovery: "+gv)
		}
		msg := "unable to retrieve the complete list of server APIs: " + strings.Join(parts, ", ")
		var b strings.Builder
		for i := 0; i < 3; i++ {
			t := deleted.Add(time.Duration(10+i*60) * time.Second)
			fmt.Fprintf(&b, "E%s %7d namespace_controller.go:164] \"Unhandled Error\" err=\"deletion of namespace team-a failed: %s\" logger=\"UnhandledError\"\n",
				t.Format("0102 15:04:05.000000"), 1, msg)
		}
		s.raw("logs/kube-controller-manager.log", b.String())
		exp.StuckNamespaces, exp.FailingGroupVersions, exp.RootCause = []string{"team-a"}, gvs, "api-discovery-failure"
	case "backendpods":
		// one failing APIService whose Service selects n pods, none Ready
		gv := "metrics.k8s.io/v1beta1"
		s.apiService("v1beta1.metrics.k8s.io", "metrics.k8s.io", "kube-system", "metrics-server")
		s.namespace("team-a", deleted, discoveryConditions([]string{gv}))
		s.namespaceActive("kube-system")
		s.service("kube-system", "metrics-server", map[string]string{"k8s-app": "metrics-server"})
		s.endpointSlice("kube-system", "metrics-server", 0)
		for i := 0; i < n; i++ {
			s.pod("kube-system", fmt.Sprintf("metrics-server-%06d", i), map[string]string{"k8s-app": "metrics-server"})
		}
		exp.StuckNamespaces, exp.FailingGroupVersions, exp.FailingAPIServices, exp.RootCause = []string{"team-a"}, []string{gv}, []string{"v1beta1.metrics.k8s.io"}, "api-discovery-failure"
	case "events":
		// n warning events in the stuck namespace
		s.namespace("team-a", deleted, finConditions("widgets.example.com has 1 resource instances", "example.com/cleanup in 1 resource instances"))
		s.crd("example.com", "Widget", "widgets", "v1")
		s.object("namespaces/team-a/widgets.example.com.json", "example.com/v1", "Widget", "team-a", "w-1", deleted, "example.com/cleanup")
		for i := 0; i < n; i++ {
			s.event("team-a", fmt.Sprintf("w-1.%08x", i), "Widget", "w-1", deleted.Add(time.Duration(i)*time.Second))
		}
		exp.StuckNamespaces, exp.BlockingFinalizers = []string{"team-a"}, []string{"example.com/cleanup"}
	case "activenamespaces":
		// a cluster of n Active namespaces (kubectl's indented List, with uid,
		// resourceVersion, the metadata.name label and spec.finalizers), one stuck
		s.namespace("team-a", deleted, finConditions("widgets.example.com has 1 resource instances", "example.com/cleanup in 1 resource instances"))
		s.crd("example.com", "Widget", "widgets", "v1")
		s.object("namespaces/team-a/widgets.example.com.json", "example.com/v1", "Widget", "team-a", "w-1", deleted, "example.com/cleanup")
		s.raw("cluster/active-namespaces.json", activeNamespaces(n))
		exp.StuckNamespaces, exp.BlockingFinalizers = []string{"team-a"}, []string{"example.com/cleanup"}
	case "loglines":
		// n namespace controller lines of one discovery failure
		gv := "metrics.k8s.io/v1beta1"
		var b strings.Builder
		for i := 0; i < n; i++ {
			t := deleted.Add(time.Duration(10+i) * time.Second)
			fmt.Fprintf(&b, "E%s %7d namespace_controller.go:164] \"Unhandled Error\" err=\"deletion of namespace team-a failed: unable to retrieve the complete list of server APIs: %s: stale GroupVersion discovery: %s\" logger=\"UnhandledError\"\n",
				t.Format("0102 15:04:05.000000"), 1, gv, gv)
		}
		s.raw("logs/kube-controller-manager.log", b.String())
		exp.StuckNamespaces, exp.FailingGroupVersions, exp.RootCause = []string{"team-a"}, []string{gv}, "api-discovery-failure"
	default:
		return nil, Expected{}, fmt.Errorf("unknown shape %q (want one of %s)", shape, strings.Join(Shapes, ", "))
	}
	sort.Strings(exp.StuckNamespaces)
	exp.Notes = fmt.Sprintf("Generated by cmd/genbundle -shape %s -n %d (issue 22 scale shapes).", shape, n)
	out := map[string][]byte{}
	for p, l := range s.files {
		out[p] = l.bytes()
	}
	return out, exp, nil
}

// GenerateShape writes shape at size n into dir (which must not exist or be empty),
// with expected.json.
func GenerateShape(dir, shape string, n int) (Expected, error) {
	files, exp, err := ShapeFiles(shape, n)
	if err != nil {
		return exp, err
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return exp, fmt.Errorf("%s exists and is not empty", dir)
	}
	raw, _ := json.MarshalIndent(exp, "", "  ")
	files["expected.json"] = append(raw, '\n')
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return exp, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return exp, err
		}
	}
	return exp, nil
}

// shapeBundle collects the items of each file as `kubectl get -o json` Lists.
type shapeBundle struct {
	files map[string]*shapeList
}

type shapeList struct {
	items [][]byte
	raw   string
}

func (l *shapeList) bytes() []byte {
	if l.raw != "" {
		return []byte(l.raw)
	}
	var b []byte
	b = append(b, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"...)
	for i, it := range l.items {
		b = append(b, "        "...)
		b = append(b, it...)
		if i < len(l.items)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, "    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"...)
	return b
}

type m = map[string]any

func (s *shapeBundle) add(file string, obj m) {
	l := s.files[file]
	if l == nil {
		l = &shapeList{}
		s.files[file] = l
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	l.items = append(l.items, raw)
}

func (s *shapeBundle) raw(file, text string) { s.files[file] = &shapeList{raw: text} }

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func cond(typ, status, reason, msg string, t time.Time) m {
	return m{"type": typ, "status": status, "reason": reason, "message": msg, "lastTransitionTime": ts(t)}
}

type condsFn func(t time.Time) []any

func finConditions(content, finalizers string) condsFn {
	return func(t time.Time) []any {
		if finalizers == "" {
			return []any{
				cond("NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered", t),
				cond("NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed", t),
				cond("NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization", t),
				cond("NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: "+content, t),
				cond("NamespaceFinalizersRemaining", "False", "ContentHasNoFinalizers", "All content-preserving finalizers finished", t),
			}
		}
		return []any{
			cond("NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered", t),
			cond("NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed", t),
			cond("NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization", t),
			cond("NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: "+content, t),
			cond("NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: "+finalizers, t),
		}
	}
}

func discoveryConditions(gvs []string) condsFn {
	return func(t time.Time) []any {
		var parts []string
		for _, gv := range gvs {
			parts = append(parts, gv+": stale GroupVersion discovery: "+gv)
		}
		return []any{
			cond("NamespaceDeletionDiscoveryFailure", "True", "DiscoveryFailed",
				fmt.Sprintf("Discovery failed for some groups, %d failing: unable to retrieve the complete list of server APIs: %s", len(gvs), strings.Join(parts, ", ")), t),
			cond("NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed", t),
			cond("NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization", t),
			cond("NamespaceContentRemaining", "False", "ContentRemoved", "All content successfully removed", t),
			cond("NamespaceFinalizersRemaining", "False", "ContentHasNoFinalizers", "All content-preserving finalizers finished", t),
		}
	}
}

func (s *shapeBundle) namespace(name string, deleted time.Time, conds condsFn) {
	s.add("cluster/namespaces.json", m{"apiVersion": "v1", "kind": "Namespace",
		"metadata": m{"name": name, "creationTimestamp": ts(deleted.Add(-24 * time.Hour)), "deletionTimestamp": ts(deleted),
			"labels": m{"kubernetes.io/metadata.name": name}},
		"spec":   m{"finalizers": []string{"kubernetes"}},
		"status": m{"phase": "Terminating", "conditions": conds(deleted.Add(5 * time.Second))}})
}

// node dumps a node, Ready or not (NodeStatusUnknown: its kubelet stopped posting).
func (s *shapeBundle) node(name string, ready bool) {
	c := cond("Ready", "True", "KubeletReady", "kubelet is posting ready status", shapeEnd.Add(-30*24*time.Hour))
	if !ready {
		c = cond("Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.", shapeEnd.Add(-4*time.Hour))
	}
	s.add("cluster/nodes.json", m{"apiVersion": "v1", "kind": "Node", "metadata": m{"name": name, "creationTimestamp": ts(shapeEnd.Add(-40 * 24 * time.Hour))},
		"status": m{"conditions": []any{c}}})
}

// terminatingPod dumps a pod being deleted on a node, with finalizers.
func (s *shapeBundle) terminatingPod(ns, name, node string, deleted time.Time, finalizers ...string) {
	meta := m{"name": name, "namespace": ns, "creationTimestamp": ts(deleted.Add(-time.Hour)), "deletionTimestamp": ts(deleted),
		"deletionGracePeriodSeconds": 30, "labels": m{"app": "job"}}
	if len(finalizers) > 0 {
		meta["finalizers"] = finalizers
	}
	s.add("namespaces/"+ns+"/pods.json", m{"apiVersion": "v1", "kind": "Pod", "metadata": meta,
		"spec":   m{"nodeName": node, "containers": []any{m{"name": "job", "image": "registry.example.com/job:1"}}},
		"status": m{"phase": "Running", "conditions": []any{cond("Ready", "False", "", "", deleted)}}})
}

// activeNamespaces is a `kubectl get namespaces -o json` List of default, kube-system
// and n Active namespaces, as kubectl indents it.
func activeNamespaces(n int) string {
	var b strings.Builder
	b.Grow(330 * (n + 2))
	b.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
	created := ts(shapeEnd.Add(-40 * 24 * time.Hour))
	for i := -2; i < n; i++ {
		name := fmt.Sprintf("tenant-%07d", i)
		switch i {
		case -2:
			name = "default"
		case -1:
			name = "kube-system"
		}
		if i > -2 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {
                "creationTimestamp": %q,
                "labels": {
                    "kubernetes.io/metadata.name": %q
                },
                "name": %q,
                "resourceVersion": "%d",
                "uid": "%08x-0000-4000-8000-%012x"
            },
            "spec": {
                "finalizers": [
                    "kubernetes"
                ]
            },
            "status": {
                "phase": "Active"
            }
        }`, created, name, name, 1000+i+2, i+2, i+2)
	}
	b.WriteString("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	return b.String()
}

func (s *shapeBundle) namespaceActive(name string) {
	s.add("cluster/namespaces.json", m{"apiVersion": "v1", "kind": "Namespace",
		"metadata": m{"name": name, "creationTimestamp": ts(shapeEnd.Add(-40 * 24 * time.Hour)), "labels": m{"kubernetes.io/metadata.name": name}},
		"spec":     m{"finalizers": []string{"kubernetes"}}, "status": m{"phase": "Active"}})
}

func (s *shapeBundle) crd(group, kind, plural, version string) {
	s.add("cluster/crds.json", m{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": m{"name": plural + "." + group, "creationTimestamp": ts(shapeEnd.Add(-30 * 24 * time.Hour))},
		"spec": m{"group": group, "scope": "Namespaced", "conversion": m{"strategy": "None"},
			"names":    m{"kind": kind, "listKind": kind + "List", "plural": plural, "singular": strings.ToLower(kind)},
			"versions": []any{m{"name": version, "served": true, "storage": true}}},
		"status": m{"conditions": []any{cond("Established", "True", "InitialNamesAccepted", "the initial names have been accepted", shapeEnd.Add(-30*24*time.Hour))}}})
}

func (s *shapeBundle) object(file, apiVersion, kind, ns, name string, deleted time.Time, finalizers ...string) {
	s.add(file, m{"apiVersion": apiVersion, "kind": kind,
		"metadata": m{"name": name, "namespace": ns, "creationTimestamp": ts(deleted.Add(-time.Hour)), "deletionTimestamp": ts(deleted),
			"deletionGracePeriodSeconds": 0, "finalizers": finalizers, "generation": 2},
		"spec": m{}, "status": m{}})
}

func (s *shapeBundle) apiService(name, group, svcNS, svcName string) {
	s.add("cluster/apiservices.json", m{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": m{"name": name, "creationTimestamp": ts(shapeEnd.Add(-30 * 24 * time.Hour))},
		"spec": m{"group": group, "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100, "insecureSkipTLSVerify": true,
			"service": m{"namespace": svcNS, "name": svcName, "port": 443}},
		"status": m{"conditions": []any{cond("Available", "False", "ServiceNotFound",
			fmt.Sprintf("service/%s in %q is not present", svcName, svcNS), shapeEnd.Add(-5*time.Hour))}}})
}

// services dumps the Services of a namespace (none): the APIServices' Services are gone.
func (s *shapeBundle) services(ns string) {
	if s.files["namespaces/"+ns+"/services.json"] == nil {
		s.files["namespaces/"+ns+"/services.json"] = &shapeList{}
	}
}

func (s *shapeBundle) service(ns, name string, selector map[string]string) {
	s.add("namespaces/"+ns+"/services.json", m{"apiVersion": "v1", "kind": "Service",
		"metadata": m{"name": name, "namespace": ns},
		"spec":     m{"selector": selector, "ports": []any{m{"name": "https", "port": 443, "protocol": "TCP", "targetPort": "https"}}, "type": "ClusterIP"}})
}

func (s *shapeBundle) endpointSlice(ns, svc string, ready int) {
	var eps []any
	for i := 0; i < ready; i++ {
		eps = append(eps, m{"addresses": []string{fmt.Sprintf("10.244.0.%d", i+2)}, "conditions": m{"ready": true}})
	}
	s.add("namespaces/"+ns+"/endpointslices.json", m{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
		"metadata":  m{"name": svc + "-abcde", "namespace": ns, "labels": m{"kubernetes.io/service-name": svc}},
		"endpoints": eps, "ports": []any{m{"name": "https", "port": 10250, "protocol": "TCP"}}})
}

func (s *shapeBundle) pod(ns, name string, labels map[string]string) {
	s.add("namespaces/"+ns+"/pods.json", m{"apiVersion": "v1", "kind": "Pod",
		"metadata": m{"name": name, "namespace": ns, "labels": labels, "creationTimestamp": ts(shapeEnd.Add(-6 * time.Hour))},
		"spec":     m{"nodeName": "node-01", "containers": []any{m{"name": "metrics-server", "image": "registry.k8s.io/metrics-server/metrics-server:v0.7.2"}}},
		"status": m{"phase": "Running", "conditions": []any{cond("Ready", "False", "ContainersNotReady", "containers with unready status: [metrics-server]", shapeEnd.Add(-5*time.Hour))},
			"containerStatuses": []any{m{"name": "metrics-server", "ready": false, "restartCount": 40,
				"state": m{"waiting": m{"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container"}}}}}})
}

func (s *shapeBundle) webhook(name, svcNS, svcName string) {
	s.add("cluster/validatingwebhookconfigurations.json", m{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
		"metadata": m{"name": name, "creationTimestamp": ts(shapeEnd.Add(-30 * 24 * time.Hour))},
		"webhooks": []any{m{"name": name + ".policy.example.com", "failurePolicy": "Fail", "sideEffects": "None", "admissionReviewVersions": []string{"v1"},
			"clientConfig": m{"service": m{"namespace": svcNS, "name": svcName, "path": "/validate", "port": 443}},
			"rules":        []any{m{"apiGroups": []string{"*"}, "apiVersions": []string{"*"}, "operations": []string{"DELETE"}, "resources": []string{"*"}, "scope": "*"}}}}})
}

func (s *shapeBundle) event(ns, name, kind, obj string, t time.Time) {
	s.add("namespaces/"+ns+"/events.json", m{"apiVersion": "v1", "kind": "Event",
		"metadata":       m{"name": name, "namespace": ns},
		"involvedObject": m{"apiVersion": "example.com/v1", "kind": kind, "namespace": ns, "name": obj},
		"type":           "Warning", "reason": "FinalizerFailed", "message": "cleanup of " + obj + " failed: backend unreachable",
		"source": m{"component": "widget-controller"}, "count": 1, "firstTimestamp": ts(t), "lastTimestamp": ts(t)})
}
