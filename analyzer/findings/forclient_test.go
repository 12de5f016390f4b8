package findings

import "testing"

// TestForClient: on OpenShift every kubectl that runs as a program becomes oc; a
// kubectl inside quotes, a comment, a jq program or a longer word is left alone, and
// on every other platform the command is unchanged.
func TestForClient(t *testing.T) {
	for in, want := range map[string]string{
		"kubectl get ns foo -o json": "oc get ns foo -o json",
		`kubectl get namespace foo -o json | jq '.spec.finalizers = []' | kubectl replace --raw /api/v1/namespaces/foo/finalize -f -`: `oc get namespace foo -o json | jq '.spec.finalizers = []' | oc replace --raw /api/v1/namespaces/foo/finalize -f -`,
		"kubectl get pods -A -o name | xargs -r -n1 kubectl describe":                                                                 "oc get pods -A -o name | xargs -r -n1 oc describe",
		"kubectl api-resources -o name | xargs -n 1 kubectl get -n x":                                                                 "oc api-resources -o name | xargs -n 1 oc get -n x",
		"xargs -I {} kubectl get {}":                                                   "xargs -I {} oc get {}",
		"kubectl get ns -o name | xargs echo kubectl":                                  "oc get ns -o name | xargs echo kubectl",
		`for ns in a b; do kubectl get ns "$ns"; done`:                                 `for ns in a b; do oc get ns "$ns"; done`,
		"kubectl get ns && kubectl get apiservices":                                    "oc get ns && oc get apiservices",
		"echo $(kubectl get ns -o name)":                                               "echo $(oc get ns -o name)",
		`kubectl get cm -o jsonpath='{.metadata.annotations.kubectl\.kubernetes\.io}'`: `oc get cm -o jsonpath='{.metadata.annotations.kubectl\.kubernetes\.io}'`,
		`grep "kubectl get" notes.txt`:                                                 `grep "kubectl get" notes.txt`,
		"kubectl-nsanalyze collect":                                                    "kubectl-nsanalyze collect",
		"journalctl -u k3s   # not kubectl":                                            "journalctl -u k3s   # not kubectl",
		"kubectl get ns   # kubectl reads it":                                          "oc get ns   # kubectl reads it",
		"grep -v kubectl log.txt":                                                      "grep -v kubectl log.txt",
		"watch kubectl get ns":                                                         "watch oc get ns",
		"# the namespaces\nkubectl get ns":                                             "# the namespaces\noc get ns",
		"KUBECONFIG=/tmp/kc kubectl get ns":                                            "KUBECONFIG=/tmp/kc oc get ns",
		"if kubectl get ns x; then kubectl get ns x -o yaml; fi":                       "if oc get ns x; then oc get ns x -o yaml; fi",
		"'kubectl' get ns":                                                             "'kubectl' get ns",
		"echo kubectl":                                                                 "echo kubectl",
		"":                                                                             "",
	} {
		if got := ForClient(PlatformOpenShift, in); got != want {
			t.Errorf("ForClient(openshift, %q) = %q, want %q", in, got, want)
		}
		for _, p := range []string{PlatformGeneric, PlatformAKS, PlatformEKS, PlatformGKE, PlatformK3s} {
			if got := ForClient(p, in); got != in {
				t.Errorf("ForClient(%q, %q) = %q, want it unchanged", p, in, got)
			}
		}
		if CommandChanges(ForClient(PlatformOpenShift, in)) != CommandChanges(in) {
			t.Errorf("%q: oc changes %s, kubectl %s", in, CommandChanges(ForClient(PlatformOpenShift, in)), CommandChanges(in))
		}
	}
}
