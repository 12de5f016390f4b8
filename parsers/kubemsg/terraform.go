package kubemsg

import (
	"regexp"
	"strings"
	"time"
)

// TerraformStillDestroying is Terraform's progress line while a resource's delete
// runs (hashicorp/terraform internal/command/views/hook_ui.go, stillApplying:
// "%s: Still destroying... [%s%s elapsed]" every 10 s, the id as "id=VALUE, ").
const TerraformStillDestroying = "Still destroying..."

// reTerraformNamespaceWait is that line for a kubernetes_namespace (or _v1) resource:
// the provider's id of a namespace is its name (terraform-provider-kubernetes
// kubernetes/resource_kubernetes_namespace.go: d.SetId(out.Name)). The underscores may
// be lost to Markdown emphasis where the line was pasted.
var reTerraformNamespaceWait = regexp.MustCompile(`(?:^|[\s.:])kubernetes_?namespace(?:_?v1)?\.[A-Za-z0-9_-]+(?:\["[^"\]]{0,80}"\]|\[\d{1,6}\])?: Still destroying\.\.\. \[id=([a-z0-9][-a-z0-9]{0,62}), ([0-9hms.]{2,24}) elapsed\]`)

// MinTerraformNamespaceWait is how long the delete of a kubernetes_namespace must have
// run for its "Still destroying..." line to prove the namespace is Terminating. The
// provider's delete is one DELETE call, then a wait while the namespace's phase is
// Terminating (resourceKubernetesNamespaceDelete: StateChangeConf{Pending:
// "Terminating"}, which fails with "timeout while waiting for resource to be gone (last
// state: 'Terminating', ...)"). The DELETE itself returns within the API server's
// request timeout (60 s by default; an admission webhook may hold it 30 s at most), so
// after a minute the provider is waiting for a namespace that is being deleted.
const MinTerraformNamespaceWait = time.Minute

// ParseTerraformNamespaceWait parses Terraform's "Still destroying..." line of a
// kubernetes_namespace and returns the namespace (the resource's id) and how long the
// delete had run; ok only when the line is that and the time reads.
func ParseTerraformNamespaceWait(text string) (namespace string, elapsed time.Duration, ok bool) {
	if !strings.Contains(text, TerraformStillDestroying) || !strings.Contains(text, "namespace") {
		return "", 0, false
	}
	m := reTerraformNamespaceWait.FindStringSubmatch(text)
	if m == nil || !IsNamespaceName(m[1]) {
		return "", 0, false
	}
	d, err := time.ParseDuration(m[2])
	if err != nil || d < 0 {
		return "", 0, false
	}
	return m[1], d, true
}
