package kubemsg

import "strings"

// ErrorClass names what an error text says about the path between kube-apiserver and
// a backend (aggregated API server or webhook).
type ErrorClass struct {
	Code    string // stable identifier, e.g. "connection-refused"
	Meaning string // plain words for the report
}

// errorClasses are tried in order; the first whose needle occurs in the text wins.
var errorClasses = []struct {
	needles []string
	class   ErrorClass
}{
	{[]string{"no route to host"}, ErrorClass{"no-route", "no network route from the control plane to the backend's address (routing, CNI or cloud route table problem)"}},
	{[]string{"i/o timeout", "context deadline exceeded", "Client.Timeout exceeded", "Client.Timeout exceed", "timed out waiting for", "TLS handshake timeout", "request canceled while waiting for connection"}, ErrorClass{"timeout", "the backend did not answer in time: usually the network path between the control plane and the pod network (firewall, missing route, CNI) or an overloaded backend"}},
	{[]string{"connection refused"}, ErrorClass{"connection-refused", "the address was reached but nothing is listening on that port (backend not running, wrong port or targetPort)"}},
	{[]string{"x509:", "certificate signed by unknown authority", "tls: failed to verify certificate", "certificate has expired"}, ErrorClass{"x509", "TLS certificate problem between kube-apiserver and the backend (caBundle, expired or mismatched certificate)"}},
	{[]string{"no such host"}, ErrorClass{"dns", "the backend's service name does not resolve"}},
	{[]string{"no endpoints available for service", "have no addresses", "MissingEndpoints"}, ErrorClass{"no-endpoints", "the backend Service has no ready endpoints (no running, ready pod behind it)"}},
	{[]string{"is not present", "ServiceNotFound", "services \"", "service \""}, ErrorClass{"service-not-found", "the Service the APIService or webhook points at does not exist"}},
	{[]string{"cannot find endpoints", "cannot find endpointslices", "EndpointsNotFound"}, ErrorClass{"endpoints-not-found", "the Service has no Endpoints/EndpointSlices object at all"}},
	{[]string{"stale GroupVersion discovery"}, ErrorClass{"stale-discovery", "kube-apiserver could not refresh the group/version's discovery document from its backend (aggregated discovery marks it stale)"}},
	{[]string{"the server could not find the requested resource", "bad status from", "404"}, ErrorClass{"bad-status", "the backend answered, but not with a valid API discovery document (wrong backend, group no longer served, or an error status)"}},
	{[]string{"Got empty response", "received empty response"}, ErrorClass{"empty-response", "the backend returned an empty discovery document"}},
	{[]string{"the server is currently unable to handle the request", "service unavailable", "ServiceUnavailable", "503"}, ErrorClass{"service-unavailable", "kube-apiserver answered 503 for the group/version: its backend is unavailable"}},
	// APIService Available=False reasons without an inner error (kube-aggregator
	// available_controller.go / remote_available_controller.go, catalog.json)
	{[]string{"is not listening on port", "ServicePortError"}, ErrorClass{"service-port", "the Service the APIService points at does not expose the port the APIService names"}},
	{[]string{"cannot be checked due to", "ServiceAccessError", "EndpointsAccessError"}, ErrorClass{"access-error", "kube-apiserver could not read the backend's Service or endpoints from its cache"}},
}

// ClassifyError returns the class of an error text, or ("unknown", "") when no known
// phrase is present.
func ClassifyError(text string) ErrorClass {
	for _, c := range errorClasses {
		for _, n := range c.needles {
			if strings.Contains(text, n) {
				return c.class
			}
		}
	}
	return ErrorClass{Code: "unknown"}
}

// WellKnownGroupOwners names the software that usually serves an aggregated API group.
var wellKnownGroupOwners = map[string]string{
	"metrics.k8s.io":                     "metrics-server (or prometheus-adapter)",
	"custom.metrics.k8s.io":              "a custom metrics adapter (prometheus-adapter, KEDA, Datadog cluster agent, ...)",
	"external.metrics.k8s.io":            "KEDA or an external metrics adapter (prometheus-adapter, Datadog cluster agent, ...)",
	"packages.operators.coreos.com":      "OLM packageserver",
	"projectcalico.org":                  "the Calico API server (calico-apiserver)",
	"subresources.kubevirt.io":           "KubeVirt virt-api",
	"servicecatalog.k8s.io":              "the Kubernetes service catalog",
	"webhook.cert-manager.io":            "cert-manager webhook",
	"admission.certmanager.k8s.io":       "cert-manager webhook (old versions)",
	"clusterhealth.aks.io":               "AKS cluster health API",
	"apps.openshift.io":                  "openshift-apiserver",
	"oauth.openshift.io":                 "oauth-apiserver",
	"velero.io":                          "Velero",
	"api.kubevirt.io":                    "KubeVirt",
	"snapshot.storage.k8s.io":            "the CSI snapshot controller",
	"metrics.pkg.crossplane.io":          "Crossplane",
	"cluster.open-cluster-management.io": "Open Cluster Management",
	"search.open-cluster-management.io":  "Open Cluster Management search API",
	"proxy.open-cluster-management.io":   "Open Cluster Management cluster-proxy",
	"aggregation.kueue.x-k8s.io":         "Kueue visibility server",
	"visibility.kueue.x-k8s.io":          "Kueue visibility server",
}

// WellKnownGroupOwner returns who usually serves an aggregated API group, or "".
func WellKnownGroupOwner(group string) string {
	return wellKnownGroupOwners[group]
}

// GroupOf returns the group of a "group/version" string ("" for the core "v1", and for
// a string that is not a group/version).
func GroupOf(groupVersion string) string {
	gv, _ := parseGroupVersion(groupVersion)
	return gv.Group
}
