// Package resources names the Kubernetes resources the way files, directories and
// kubectl commands say them ("pods", "po", "apiservices.apiregistration.k8s.io",
// "replication-controllers") and maps them to their group/version and kind.
package resources

import "strings"

// Resource is one known resource type.
type Resource struct {
	GroupVersion string // "v1", "apps/v1", ...
	Kind         string // "Pod", "APIService", ...
	Namespaced   bool
}

var byName = map[string]Resource{}

func add(gv, kind string, namespaced bool, names ...string) {
	for _, n := range names {
		byName[n] = Resource{GroupVersion: gv, Kind: kind, Namespaced: namespaced}
	}
}

func init() {
	add("v1", "Namespace", false, "namespaces", "namespace", "ns")
	// OpenShift projects are namespaces (`oc get project` shows the namespace's status)
	add("v1", "Namespace", false, "projects", "project")
	add("v1", "Pod", true, "pods", "pod", "po")
	add("v1", "Service", true, "services", "service", "svc")
	add("v1", "Endpoints", true, "endpoints", "ep")
	add("v1", "Event", true, "events", "event", "ev")
	add("v1", "Node", false, "nodes", "node", "no")
	add("v1", "ConfigMap", true, "configmaps", "configmap", "cm")
	add("v1", "Secret", true, "secrets", "secret")
	add("v1", "ServiceAccount", true, "serviceaccounts", "serviceaccount", "sa")
	add("v1", "PersistentVolumeClaim", true, "persistentvolumeclaims", "persistentvolumeclaim", "pvcs", "pvc")
	add("v1", "PersistentVolume", false, "persistentvolumes", "persistentvolume", "pvs", "pv")
	add("v1", "ReplicationController", true, "replicationcontrollers", "replicationcontroller", "replication-controllers", "rc")
	add("v1", "ResourceQuota", true, "resourcequotas", "resourcequota", "resource-quota", "quota")
	add("v1", "LimitRange", true, "limitranges", "limitrange", "limits")
	add("apps/v1", "Deployment", true, "deployments", "deployment", "deploy")
	add("apps/v1", "StatefulSet", true, "statefulsets", "statefulset", "sts")
	add("apps/v1", "DaemonSet", true, "daemonsets", "daemonset", "ds")
	add("apps/v1", "ReplicaSet", true, "replicasets", "replicaset", "rs")
	add("apiregistration.k8s.io/v1", "APIService", false, "apiservices", "apiservice")
	add("apiextensions.k8s.io/v1", "CustomResourceDefinition", false, "customresourcedefinitions", "customresourcedefinition",
		"custom-resource-definitions", "crds", "crd")
	add("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", false, "validatingwebhookconfigurations",
		"validatingwebhookconfiguration", "validating-webhook-configurations")
	add("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", false, "mutatingwebhookconfigurations",
		"mutatingwebhookconfiguration", "mutating-webhook-configurations")
	add("discovery.k8s.io/v1", "EndpointSlice", true, "endpointslices", "endpointslice")
	add("coordination.k8s.io/v1", "Lease", true, "leases", "lease")
	add("batch/v1", "Job", true, "jobs", "job")
	add("batch/v1", "CronJob", true, "cronjobs", "cronjob", "cj")
	add("networking.k8s.io/v1", "Ingress", true, "ingresses", "ingress", "ing")
	add("networking.k8s.io/v1", "NetworkPolicy", true, "networkpolicies", "networkpolicy", "network-policy", "netpol")
	add("policy/v1", "PodDisruptionBudget", true, "poddisruptionbudgets", "poddisruptionbudget", "pod-disruption-budgets", "pdb")
	add("storage.k8s.io/v1", "StorageClass", false, "storageclasses", "storageclass", "sc")
	add("rbac.authorization.k8s.io/v1", "ClusterRole", false, "clusterroles", "clusterrole")
	add("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", false, "clusterrolebindings", "clusterrolebinding")
	add("rbac.authorization.k8s.io/v1", "Role", true, "roles", "role")
	add("rbac.authorization.k8s.io/v1", "RoleBinding", true, "rolebindings", "rolebinding")
}

// Lookup resolves a resource name (plural, singular, short name, or
// "<resource>.<group>", "<resource>.<version>.<group>"), case-insensitively. ok is
// false for names it does not know (custom resources).
func Lookup(name string) (r Resource, ok bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	if r, ok := byName[name]; ok {
		return r, true
	}
	res, rest, found := strings.Cut(name, ".")
	if !found {
		return Resource{}, false
	}
	r, ok = byName[res]
	if !ok {
		return Resource{}, false
	}
	rest = strings.TrimSuffix(rest, ".")
	if v, g, ok := strings.Cut(rest, "."); ok && isVersion(v) {
		rest = g
	} else if isVersion(rest) {
		rest = ""
	}
	g := ""
	if i := strings.LastIndexByte(r.GroupVersion, '/'); i >= 0 {
		g = r.GroupVersion[:i]
	}
	if rest == g || r.Kind == "Namespace" && rest == "project.openshift.io" {
		return r, true
	}
	return Resource{}, false
}

func isVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '0' || s[1] > '9' {
		return false
	}
	for _, c := range s[1:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}
