package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// platformNodes are a Node of each platform as its provider labels and names it.
var platformNodes = map[string]string{
	findings.PlatformAKS:       `{"apiVersion":"v1","kind":"Node","metadata":{"name":"aks-nodepool1-12345678-vmss000000","labels":{"kubernetes.azure.com/cluster":"MC_rg_aks_westeurope"}},"status":{"nodeInfo":{"kubeletVersion":"v1.30.4"}}}`,
	findings.PlatformEKS:       `{"apiVersion":"v1","kind":"Node","metadata":{"name":"ip-10-0-1-23.eu-west-1.compute.internal","labels":{"eks.amazonaws.com/nodegroup":"ng-1"}},"status":{"nodeInfo":{"kubeletVersion":"v1.30.4-eks-a737599"}}}`,
	findings.PlatformGKE:       `{"apiVersion":"v1","kind":"Node","metadata":{"name":"gke-prod-default-pool-1a2b3c4d-xyz1","labels":{"cloud.google.com/gke-nodepool":"default-pool"}},"status":{"nodeInfo":{"kubeletVersion":"v1.30.4-gke.1348000"}}}`,
	findings.PlatformOpenShift: `{"apiVersion":"v1","kind":"Node","metadata":{"name":"master-0","labels":{"node.openshift.io/os_id":"rhcos"}},"status":{"nodeInfo":{"kubeletVersion":"v1.30.4"}}}`,
	findings.PlatformK3s:       `{"apiVersion":"v1","kind":"Node","metadata":{"name":"server-1","labels":{"node.kubernetes.io/instance-type":"k3s"}},"status":{"nodeInfo":{"kubeletVersion":"v1.30.4+k3s1"}}}`,
	findings.PlatformTalos:     `{"apiVersion":"v1","kind":"Node","metadata":{"name":"talos-abc-def","labels":{}},"status":{"nodeInfo":{"kubeletVersion":"v1.30.4"}}}`,
}

// platformBundle is a namespace stuck on a failing aggregated API, without the
// controller manager's log: its report asks for that log and acts on the API.
const platformBundle = `{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop","deletionTimestamp":"2026-03-12T09:20:00Z"},"spec":{"finalizers":["kubernetes"]},
 "status":{"phase":"Terminating","conditions":[
  {"type":"NamespaceDeletionDiscoveryFailure","status":"True","reason":"DiscoveryFailed","lastTransitionTime":"2026-03-12T09:20:05Z","message":"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1"}]}},
{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1beta1.metrics.k8s.io"},
 "spec":{"group":"metrics.k8s.io","version":"v1beta1","service":{"name":"metrics-server","namespace":"kube-system","port":443}},
 "status":{"conditions":[{"type":"Available","status":"False","reason":"MissingEndpoints","lastTransitionTime":"2026-03-12T08:58:40Z","message":"endpoints for service/metrics-server in \"kube-system\" have no addresses with port name \"https\""}]}}
]}`

// TestPlatformCommands: the same stuck namespace on each platform, told by a Node as
// its provider labels it, is given that platform's own commands: its control-plane log
// from the provider's facility (az, aws, gcloud), oc on OpenShift, the k3s journal,
// talosctl, never kube-system's pods (TestPlatformLogs checks the real bundles).
func TestPlatformCommands(t *testing.T) {
	for platform, node := range platformNodes {
		t.Run(platform, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "objects.json"), []byte(platformBundle), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "nodes.json"), []byte(`{"apiVersion":"v1","kind":"List","items":[`+node+`]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			_, r := loadBundle(t, "platform:"+platform, dir)
			if r.Bundle.Platform != platform {
				t.Fatalf("platform %q, want %q", r.Bundle.Platform, platform)
			}
			logs := checkPlatformCommands(t, r)
			if logs == 0 {
				t.Errorf("no command reads the controller manager's log, which the bundle lacks: %+v", r.Coverage)
			}
		})
	}
}
