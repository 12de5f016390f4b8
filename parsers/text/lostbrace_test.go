package text

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// finalizeResponse is the API server's answer to a /finalize call as a ticket pasted it
// (fixtures/realworld/finalize-response-*): one line of Namespace JSON in inline code,
// its opening brace lost, here whole so that it can be cut anywhere.
const finalizeResponse = "`" + `"kind":"Namespace","apiVersion":"v1","metadata":{"name":"monitoring","selfLink":"/api/v1/namespaces/monitoring/finalize","uid":"a3ca2714-acf5-4f00-b6f6-d9b77ea087aa","resourceVersion":"481025","creationTimestamp":"2020-08-06T15:37:36Z","deletionTimestamp":"2020-08-06T17:42:45Z"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"False","lastTransitionTime":"2020-08-06T17:42:51Z","reason":"ResourcesDiscovered","message":"All resources successfully discovered"}]}}` + "`"

// TestLostBrace: an object's JSON without its opening brace, cut at any byte after the
// comma after its phase (the retrieval's cut of the real ticket, and every other), with or without the
// inline code's backtick before it, text before it on its line (a gutter's number, a chat
// stamp) or on the lines before, reads as Namespace monitoring
// Terminating with its deletionTimestamp; a cut reads with a warning on its line.
func TestLostBrace(t *testing.T) {
	from := strings.Index(finalizeResponse, `"Terminating",`) + len(`"Terminating",`)
	for at := from; at <= len(finalizeResponse); at++ {
		for _, pre := range []string{"", "The answer:\n", "$ kubectl replace --raw /api/v1/namespaces/monitoring/finalize -f ns.json\n", "2767  ", "[10:42 AM] Dana: it says "} {
			in := pre + finalizeResponse[:at] + "\n"
			for _, body := range []string{in, strings.TrimPrefix(in, "`")} {
				w := &diag.Sink{}
				r := Parse(strings.NewReader(body), "r.txt", Options{}, w)
				var got []string
				for _, o := range r.Objects {
					if o.Kind == "Namespace" && o.Name == "monitoring" && o.Phase == "Terminating" && !o.DeletionTimestamp.IsZero() && len(o.SpecFinalizers) == 1 {
						got = append(got, o.Name)
					}
				}
				if len(got) != 1 {
					t.Fatalf("cut at %d: %d namespaces read %v, warnings %v\n%s", at, len(got), r.Objects, w.List, body)
				}
			}
		}
	}
	// prose that merely starts with a quoted word is no object
	for _, in := range []string{`"kind" is a field`, `"kind":"Namespace" alone`, `"name":"x","kind":"y"`} {
		if r := Parse(strings.NewReader(in+"\n"), "r.txt", Options{}, &diag.Sink{}); len(r.Objects) != 0 {
			t.Errorf("%q: read %v", in, r.Objects)
		}
	}
}
