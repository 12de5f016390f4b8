package bundle

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// Layouts recognised (Records.Layouts, JSON bundle.layouts).
const (
	LayoutKubectl           = "kubectl-get"                // loose `kubectl get -o json|yaml` files
	LayoutClusterInfo       = "cluster-info-dump"          // kubectl cluster-info dump --output-directory
	LayoutClusterInfoStdout = "cluster-info-dump-stdout"   // kubectl cluster-info dump > file
	LayoutTroubleshoot      = "troubleshoot"               // Replicated troubleshoot support-bundle
	LayoutMustGather        = "must-gather"                // OpenShift must-gather
	LayoutInspect           = "oc-adm-inspect"             // oc adm inspect
	LayoutSonobuoy          = "sonobuoy"                   // sonobuoy retrieve
	LayoutCrashd            = "crashd"                     // crash-diagnostics kubecapture
	LayoutSupportBundleKit  = "rancher-support-bundle-kit" // rancher support-bundle-kit
	LayoutSingleFile        = "single-file"                // one object dump or one log
)

var clusterInfoFiles = map[string]bool{"events": true, "replication-controllers": true, "services": true,
	"daemonsets": true, "deployments": true, "replicasets": true, "pods": true}

// layoutOf says which layout claims a file of the bundle (its full path, wrapping
// directory included), given the layouts seen so far; "" when none does.
func layoutOf(rel string) string {
	segs := strings.Split(rel, "/")
	has := func(s string) int {
		for i, x := range segs {
			if x == s {
				return i
			}
		}
		return -1
	}
	base := segs[len(segs)-1]
	switch {
	case has("cluster-resources") >= 0 || strings.HasSuffix(rel, "cluster-info/cluster_version.json") ||
		has("host-collectors") >= 0 || base == "version.yaml" && len(segs) <= 2:
		return LayoutTroubleshoot
	case has("cluster-scoped-resources") >= 0 || has("host_service_logs") >= 0:
		return LayoutMustGather
	case has("kubecapture") >= 0:
		return LayoutCrashd
	case has("yamls") >= 0 && (has("cluster") == has("yamls")+1 || has("namespaced") == has("yamls")+1),
		base == "bundleGenerationErrorLog":
		return LayoutSupportBundleKit
	case has("podlogs") >= 0 || base == "servergroups.json" || base == "serverversion.json" ||
		has("resources") >= 0 && (has("ns") == has("resources")+1 || has("cluster") == has("resources")+1):
		return LayoutSonobuoy
	}
	if i := has("namespaces"); i >= 0 && i+2 < len(segs) {
		// must-gather / inspect: namespaces/<ns>/<ns>.yaml, namespaces/<ns>/<group>/<res>.yaml,
		// namespaces/<ns>/pods/<pod>/...
		ns := segs[i+1]
		if segs[i+2] == ns+".yaml" || segs[i+2] == "pods" && i+4 < len(segs) ||
			strings.HasSuffix(base, ".yaml") && i+3 < len(segs) && len(segs) == i+4 {
			return LayoutInspect
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if base == "logs.txt" && len(segs) >= 3 || stem == "replication-controllers" {
		return LayoutClusterInfo
	}
	return ""
}

// detectLayouts names the layouts of a bundle from its file list.
func detectLayouts(rels []string, objectFiles map[string]bool, format string, stdoutDump bool) []string {
	seen := map[string]bool{}
	unclaimed := false
	dirsWithNodes := map[string]bool{}
	for _, r := range rels {
		if b := path.Base(r); b == "nodes.json" || b == "nodes.yaml" {
			dirsWithNodes[path.Dir(r)] = true
		}
	}
	mustGather := false
	for _, r := range rels {
		if strings.Contains(r, "must-gather") || strings.Contains(r, "-sha256-") || path.Base(r) == "must-gather.logs" {
			mustGather = true
		}
	}
	for _, r := range rels {
		l := layoutOf(r)
		if l == "" && objectFiles[r] {
			// cluster-info dump directory: nodes.json and <ns>/<kind>.json next to it
			stem := strings.TrimSuffix(path.Base(r), path.Ext(r))
			if dirsWithNodes[path.Dir(r)] && stem == "nodes" || clusterInfoFiles[stem] && dirsWithNodes[path.Dir(path.Dir(r))] {
				l = LayoutClusterInfo
			}
		}
		if l == LayoutInspect && mustGather {
			l = LayoutMustGather
		}
		if l != "" {
			seen[l] = true
		} else if objectFiles[r] {
			unclaimed = true
		}
	}
	if seen[LayoutInspect] && seen[LayoutMustGather] {
		delete(seen, LayoutInspect)
	}
	if stdoutDump {
		seen[LayoutClusterInfoStdout] = true
	}
	if unclaimed && format != FormatFile {
		seen[LayoutKubectl] = true
	}
	if format == FormatFile && len(seen) == 0 {
		seen[LayoutSingleFile] = true
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// knownRoots are directory names that belong to a layout: a bundle whose only top
// directory has one of these names is not wrapped.
var knownRoots = map[string]bool{"cluster-resources": true, "cluster-scoped-resources": true, "namespaces": true,
	"logs": true, "pods": true, "resources": true, "podlogs": true, "yamls": true, "kubecapture": true,
	"cluster": true, "host-collectors": true, "cluster-info": true}

// wrapperRoot returns the single directory that wraps every path ("support-bundle-.../",
// "must-gather.local.123/"), or "".
func wrapperRoot(rels []string) string {
	root := ""
	for _, r := range rels {
		i := strings.IndexByte(r, '/')
		if i <= 0 {
			return ""
		}
		if root == "" {
			root = r[:i]
		} else if r[:i] != root {
			return ""
		}
	}
	if root == "" || knownRoots[root] {
		return ""
	}
	return root + "/"
}

// resourceKinds maps resource names, as file and directory names say them, to their
// group/version and kind.
var resourceKinds = map[string][2]string{}

func init() {
	add := func(gv, kind string, names ...string) {
		for _, n := range names {
			resourceKinds[n] = [2]string{gv, kind}
		}
	}
	add("v1", "Namespace", "namespaces", "namespace")
	add("v1", "Pod", "pods")
	add("v1", "Service", "services")
	add("v1", "Endpoints", "endpoints")
	add("v1", "Event", "events")
	add("v1", "Node", "nodes")
	add("v1", "ConfigMap", "configmaps")
	add("v1", "Secret", "secrets")
	add("v1", "ServiceAccount", "serviceaccounts")
	add("v1", "PersistentVolumeClaim", "persistentvolumeclaims", "pvcs")
	add("v1", "PersistentVolume", "persistentvolumes", "pvs")
	add("v1", "ReplicationController", "replicationcontrollers", "replication-controllers")
	add("v1", "ResourceQuota", "resourcequotas", "resource-quota")
	add("v1", "LimitRange", "limitranges")
	add("apps/v1", "Deployment", "deployments")
	add("apps/v1", "StatefulSet", "statefulsets")
	add("apps/v1", "DaemonSet", "daemonsets")
	add("apps/v1", "ReplicaSet", "replicasets")
	add("apiregistration.k8s.io/v1", "APIService", "apiservices")
	add("apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions", "custom-resource-definitions", "crds")
	add("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", "validating-webhook-configurations")
	add("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", "mutating-webhook-configurations")
	add("discovery.k8s.io/v1", "EndpointSlice", "endpointslices")
	add("coordination.k8s.io/v1", "Lease", "leases")
	add("batch/v1", "Job", "jobs")
	add("batch/v1", "CronJob", "cronjobs")
	add("networking.k8s.io/v1", "Ingress", "ingresses", "ingress")
	add("networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", "network-policy")
	add("policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", "pod-disruption-budgets")
}

var crashdStamp = regexp.MustCompile(`-\d{6,}$`)

// pathHint names the group/version and kind of the objects of a file whose objects may
// lack them, from its path: `pods.json`, `core_v1_pods.json` (sonobuoy),
// `pods-20260101.json` (crashd), `.../apps/v1/deployments.yaml` (support-bundle-kit),
// `namespaces/<ns>/<ns>.yaml` and `.../<resource>/<name>.yaml` (must-gather),
// `custom-resources/<plural.group>/<ns>.json` (troubleshoot; the kind comes from the CRD).
// crd is set for troubleshoot custom resources.
func pathHint(rel string) (gv, kind, crd string) {
	segs := strings.Split(rel, "/")
	n := len(segs)
	stem := strings.TrimSuffix(segs[n-1], path.Ext(segs[n-1]))
	stem = strings.TrimSuffix(stem, ".stderr")
	if n >= 3 && segs[n-3] == "custom-resources" {
		return groupOfCRD(segs[n-2]), "", segs[n-2]
	}
	if n >= 2 && segs[n-2] == "custom-resources" && stem != "custom-resources-errors" {
		return groupOfCRD(stem), "", stem
	}
	if n >= 3 && stem == segs[n-2] {
		switch segs[n-3] {
		case "namespaces", "projects":
			return "v1", "Namespace", ""
		case "pods":
			return "v1", "Pod", ""
		}
	}
	try := func(name string, gvIn string) (string, string, bool) {
		if k, ok := resourceKinds[name]; ok {
			if gvIn != "" {
				return gvIn, k[1], true
			}
			return k[0], k[1], true
		}
		return "", "", false
	}
	// sonobuoy <group>_<version>_<resource>
	if p := strings.Split(stem, "_"); len(p) == 3 {
		g := p[0]
		if g == "core" {
			g = ""
		}
		if gv, k, ok := try(p[2], joinGV(g, p[1])); ok {
			return gv, k, ""
		}
	}
	if gv, k, ok := try(crashdStamp.ReplaceAllString(stem, ""), ""); ok {
		return gv, k, ""
	}
	// <resource>/<name>.yaml, <resource>/<ns>.json, <group>/<version>/<resource>.yaml, <resource>.<group>.json
	if first, _, ok := strings.Cut(stem, "."); ok {
		if gv, k, ok := try(first, ""); ok {
			return gv, k, ""
		}
	}
	if n >= 2 {
		if gv, k, ok := try(segs[n-2], ""); ok {
			return gv, k, ""
		}
	}
	return "", "", ""
}

func joinGV(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

func groupOfCRD(name string) string {
	if _, g, ok := strings.Cut(name, "."); ok {
		return g
	}
	return ""
}
