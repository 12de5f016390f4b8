package analyzer

import (
	"strings"
	"testing"
)

// TestFinalizeFollowUp: the /finalize rung says what the cluster's version allows for
// the objects it leaves behind (1.37+ admits updates to objects of a namespace that no
// longer exists: k8s.io/apiserver v0.37 NamespaceLifecycle), and both when the version
// is unknown.
func TestFinalizeFollowUp(t *testing.T) {
	for _, tc := range []struct {
		version        string
		want, unwanted []string
	}{
		{"v1.37.2", []string{"the cluster runs v1.37.2", "cleaned in place", "kubectl get -n shop <resource>"}, []string{"recreate a namespace"}},
		{"v1.38.0", []string{"cleaned in place"}, []string{"recreate a namespace"}},
		{"v1.36.3", []string{"the cluster runs v1.36.3", "recreate a namespace of the same name", "without finalizers can still be deleted", `namespaces "shop" not found`, "from 1.37"}, []string{"admits updates"}},
		{"v1.26.13", []string{"recreate a namespace"}, []string{"admits updates"}},
		{"", []string{"cleaned in place", "recreate a namespace", "does not say which version"}, nil},
	} {
		got := FinalizeFollowUp(tc.version, "shop")
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q: %q lacks %q", tc.version, got, w)
			}
		}
		for _, n := range tc.unwanted {
			if strings.Contains(got, n) {
				t.Errorf("%q: %q says %q", tc.version, got, n)
			}
		}
	}
}
