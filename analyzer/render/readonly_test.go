package render

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// TestRenderLeavesReportAlone: rendering in every format changes nothing of the
// caller's report (printable copies only what it changes, and copies nothing when no
// string needs escaping), for the golden bundles with a name Kubernetes would refuse
// (marked in the renderer's copy) and then a string that needs escaping.
func TestRenderLeavesReportAlone(t *testing.T) {
	for _, b := range formatBundles {
		var r findings.Report // a copy: fixtureReport's report is shared with other tests
		raw, err := json.Marshal(fixtureReport(t, b))
		if err == nil {
			err = json.Unmarshal(raw, &r)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Namespaces) == 0 {
			t.Fatalf("%s: no namespace", b)
		}
		r.Namespaces[0].Name += "_X" // printable, not a valid name
		before, _ := json.Marshal(&r)
		for _, f := range Formats {
			if err := Render(io.Discard, &r, f); err != nil {
				t.Fatal(err)
			}
			if after, _ := json.Marshal(&r); !bytes.Equal(before, after) {
				t.Errorf("%s: rendering %s changed the report", b, f)
			}
		}
		r.Namespaces[0].Name += "\x1b[2J" // the copying path
		before, _ = json.Marshal(&r)
		for _, f := range Formats {
			if err := Render(io.Discard, &r, f); err != nil {
				t.Fatal(err)
			}
			if after, _ := json.Marshal(&r); !bytes.Equal(before, after) {
				t.Errorf("%s: rendering %s changed the report with an escape", b, f)
			}
		}
	}
}
