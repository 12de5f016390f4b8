package mechanism

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// load indexes a bundle given as files.
func load(t *testing.T, files map[string]string) *index.Index {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	rec, err := bundle.LoadFS(fsys, ".", bundle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return index.New(rec, nil)
}

const metricsService = `apiVersion: v1
kind: Service
metadata:
  name: metrics-server
  namespace: kube-system
spec:
  type: ClusterIP
  clusterIP: 10.96.0.10
  selector:
    k8s-app: metrics-server
  ports:
  - name: https
    port: 443
    targetPort: https
`

const otherService = `apiVersion: v1
kind: Service
metadata:
  name: kube-dns
  namespace: kube-system
spec:
  selector:
    k8s-app: kube-dns
  ports:
  - port: 53
`

// TestBackendChain walks an APIService's Service towards its pods and stops where the
// bundle stops, saying what to collect; a Service the bundle's dump of its namespace
// lacks is missing, not unknown.
func TestBackendChain(t *testing.T) {
	ref := &objects.ServiceReference{Namespace: "kube-system", Name: "metrics-server"}
	for _, tc := range []struct {
		name  string
		files map[string]string
		// the components of the chain, and a word each link's finding holds
		components, findings []string
		fault                bool // the last link is a fault
	}{
		{"no Service dump", map[string]string{"namespaces.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: kube-system\n"},
			[]string{"Service kube-system/metrics-server"}, []string{"not in the bundle (collect: kubectl -n kube-system get service metrics-server -o json)"}, false},
		{"the namespace's Services dumped without it", map[string]string{"kube-system/services.yaml": otherService},
			[]string{"Service kube-system/metrics-server"}, []string{"does not have it"}, true},
		{"the Service without endpoints", map[string]string{"kube-system/services.yaml": metricsService},
			[]string{"Service kube-system/metrics-server", "Endpoints kube-system/metrics-server", "Pods kube-system k8s-app=metrics-server"},
			[]string{"selector k8s-app=metrics-server", "no Endpoints/EndpointSlice for the Service in the bundle", "pods of namespace kube-system are not in the bundle (collect: kubectl -n kube-system get pods -o json)"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chain := BackendChain(load(t, tc.files), ref)
			if len(chain) != len(tc.components) {
				t.Fatalf("%d links, want %d: %+v", len(chain), len(tc.components), chain)
			}
			for i, l := range chain {
				if !strings.HasPrefix(l.Component, tc.components[i]) || !strings.Contains(l.Finding, tc.findings[i]) {
					t.Errorf("link %d: %q %q, want %q holding %q", i, l.Component, l.Finding, tc.components[i], tc.findings[i])
				}
				for _, c := range l.Inline {
					if !strings.Contains(l.Finding, c) {
						t.Errorf("link %d declares %q inline, which its finding does not hold", i, c)
					}
				}
			}
			if last := chain[len(chain)-1]; last.Fault != tc.fault {
				t.Errorf("the last link's fault is %v, want %v: %+v", last.Fault, tc.fault, last)
			}
		})
	}
}

// TestInterceptsDelete: a webhook rule matches DELETE when it names it or "*".
func TestInterceptsDelete(t *testing.T) {
	for _, tc := range []struct {
		ops  []string
		want bool
	}{
		{[]string{"CREATE", "UPDATE"}, false},
		{[]string{"DELETE"}, true},
		{[]string{"*"}, true},
		{nil, false},
	} {
		wh := objects.Webhook{Rules: []objects.WebhookRule{{Operations: tc.ops}}}
		if got := InterceptsDelete(wh); got != tc.want {
			t.Errorf("operations %v: %v, want %v", tc.ops, got, tc.want)
		}
	}
}

// TestFollowsFinalizer: Kubernetes' own finalizers are followed to what holds them; a
// finalizer of the catalog's other controllers and an unknown one are not.
func TestFollowsFinalizer(t *testing.T) {
	for f, want := range map[string]bool{
		"kubernetes.io/pvc-protection":                true,
		"kubernetes.io/pv-protection":                 true,
		"foregroundDeletion":                          true,
		"orphan":                                      true,
		"customresourcecleanup.apiextensions.k8s.io":  true,
		"external-attacher/ebs-csi-aws-com":           true,
		"kubernetes":                                  true,
		"example.com/cleanup":                         false,
		"kubernetes.io/pvc-protection-but-not-really": false,
	} {
		if got := FollowsFinalizer(f); got != want {
			t.Errorf("FollowsFinalizer(%q) = %v, want %v", f, got, want)
		}
	}
}
