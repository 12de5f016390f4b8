package kubemsg

import (
	"testing"
	"time"
)

// TestParseTerraformNamespaceWait: Terraform's progress line of a kubernetes_namespace
// delete, on the real lines (pangeo-data/pangeo-cloud-federation's EKS teardown with
// Terraform 0.12's durations; a 2026 EKS teardown with zero-padded minutes and a module
// address), and lines that are not it.
func TestParseTerraformNamespaceWait(t *testing.T) {
	for _, c := range []struct {
		line string
		ns   string
		d    time.Duration
	}{
		{"kubernetes_namespace.support: Still destroying... [id=support, 5m0s elapsed]", "support", 5 * time.Minute},
		{"module.cluster.kubernetes_namespace.gibson: Still destroying... [id=gibson, 04m50s elapsed]", "gibson", 4*time.Minute + 50*time.Second},
		{`kubernetes_namespace_v1.ns["a"]: Still destroying... [id=team-a, 1m10s elapsed]`, "team-a", 70 * time.Second},
		{"module.cluster.kubernetesnamespace.gibson: Still destroying... [id=gibson, 04m50s elapsed]", "gibson", 4*time.Minute + 50*time.Second}, // `_` eaten by Markdown emphasis
		{"module.cluster.kubernetes_namespace.gibson: Destroying... [id=gibson]", "", 0},
		{"kubernetes_deployment.web: Still destroying... [id=default/web, 5m0s elapsed]", "", 0},
		{"kubernetes_namespace.x: Still destroying... [id=Bad_Name, 5m0s elapsed]", "", 0},
		{"kubernetes_namespace.x: Still destroying... [id=x, soon elapsed]", "", 0},
	} {
		ns, d, ok := ParseTerraformNamespaceWait(c.line)
		if ns != c.ns || d != c.d || ok != (c.ns != "") {
			t.Errorf("ParseTerraformNamespaceWait(%q) = %q, %v, %v; want %q, %v", c.line, ns, d, ok, c.ns, c.d)
		}
	}
}
