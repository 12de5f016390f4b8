package pipeline

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/nsanalyze/nsanalyze/analyzer/knownissues"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

const ticket = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"globex-shop","creationTimestamp":"2026-01-01T00:00:00Z","deletionTimestamp":"2026-01-02T00:00:00Z"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"True","reason":"DiscoveryFailed","message":"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request"}]}}`

// TestAnalyze: the pipeline finds the stuck namespace, and --redact keeps its name out
// of the report; records with nothing readable are not Readable.
func TestAnalyze(t *testing.T) {
	rec, err := bundle.LoadFS(fstest.MapFS{"ns.json": {Data: []byte(ticket)}}, "ns.json", BundleOptions())
	if err != nil || !Readable(rec) {
		t.Fatalf("not readable: %v", err)
	}
	cat, err := knownissues.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, redact := range []bool{false, true} {
		o := Options{Catalog: cat}
		if redact {
			o.Redactor = NewRedactor([]string{"ns.json"}, nil)
		}
		r := Analyze(rec, o)
		var b bytes.Buffer
		if err := render.JSON(&b, r); err != nil {
			t.Fatal(err)
		}
		if len(r.Namespaces) != 1 || bytes.Contains(b.Bytes(), []byte("globex")) != !redact {
			t.Errorf("redact %v: %d stuck namespaces; name in the report: %v", redact, len(r.Namespaces), bytes.Contains(b.Bytes(), []byte("globex")))
		}
	}
	if Readable(&bundle.Records{}) {
		t.Error("empty records are readable")
	}
}
