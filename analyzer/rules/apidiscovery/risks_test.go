package apidiscovery

import (
	"testing"
	"testing/fstest"

	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// TestRiskSummaryStatesWhatTheRowShows: an unavailable APIService's latent risk says
// its reason and its message as the bundle has them, and no empty message: a
// `kubectl get apiservices` row shows the reason only, a dump both.
func TestRiskSummaryStatesWhatTheRowShows(t *testing.T) {
	for _, c := range []struct{ name, file, want string }{
		{"a row: the reason only", "v1.allocation.agones.dev   agones-system/agones-controller-service   False (ServiceNotFound)   42m\n",
			"APIService v1.allocation.agones.dev is Available=False (ServiceNotFound). Discovery of allocation.agones.dev/v1 fails, so any namespace deleted now will hang in Terminating."},
		{"a dump: reason and message", `{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1beta1.metrics.k8s.io"},
"spec":{"group":"metrics.k8s.io","version":"v1beta1","service":{"namespace":"kube-system","name":"metrics-server"}},
"status":{"conditions":[{"type":"Available","status":"False","reason":"MissingEndpoints","message":"endpoints for service/metrics-server in \"kube-system\" have no addresses with port name \"https\""}]}}`,
			`APIService v1beta1.metrics.k8s.io is Available=False (MissingEndpoints: endpoints for service/metrics-server in "kube-system" have no addresses with port name "https"). Discovery of metrics.k8s.io/v1beta1 fails, so any namespace deleted now will hang in Terminating.`},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := "apiservices.txt"
			if c.file[0] == '{' {
				name = "apiservices.json"
			}
			rec, err := bundle.LoadFS(fstest.MapFS{name: {Data: []byte(c.file)}}, ".", bundle.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rs := risks(index.New(rec, nil), map[string]bool{})
			if len(rs) != 1 || rs[0].Summary != c.want {
				var got []string
				for _, r := range rs {
					got = append(got, r.Summary)
				}
				t.Fatalf("risks: %q\nwant %q", got, c.want)
			}
		})
	}
}
