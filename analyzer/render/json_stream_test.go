package render

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// TestJSONStreamSameBytes: the streamed JSON report is byte for byte what encoding the
// whole report gives, on every golden fixture and on the edge shapes (no problems, nil
// and empty lists, hostile strings).
func TestJSONStreamSameBytes(t *testing.T) {
	reports := map[string]*findings.Report{
		"empty":               {},
		"nil and empty lists": {Problems: []findings.Problem{}, Namespaces: nil, Risks: []findings.Risk{}},
		"hostile strings": {Summary: "a\x1b[2J\u202e", Namespaces: []findings.NamespaceReport{{Name: "t\u043ebedeleted", Verdict: "\"  \"problems\": null,\n"}},
			Problems: []findings.Problem{{ID: "P1", Root: "\U000e0041 tag"}}},
	}
	for _, b := range formatBundles {
		reports[b] = fixtureReport(t, b)
	}
	for name, r := range reports {
		var whole, streamed bytes.Buffer
		if err := WriteJSON(&whole, r); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&streamed, r); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
			t.Errorf("%s: streamed JSON differs from the whole:\n%s\n----\n%s", name, streamed.String(), whole.String())
		}
	}
}

// maxWrite records the largest single write.
type maxWrite struct{ max, total int }

func (m *maxWrite) Write(p []byte) (int, error) {
	m.max = max(m.max, len(p))
	m.total += len(p)
	return len(p), nil
}

// TestJSONStreamBounded: what the JSON writer holds at once does not grow with the
// stuck namespaces: the largest write for 2n namespaces is that for n (one namespace
// or the skeleton), while the output doubles.
func TestJSONStreamBounded(t *testing.T) {
	report := func(n int) *findings.Report {
		r := &findings.Report{SchemaVersion: findings.SchemaVersion}
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("ns-%06d", i)
			r.Namespaces = append(r.Namespaces, findings.NamespaceReport{Name: name, Verdict: "stuck on a finalizer of " + name,
				Causes: []findings.Cause{{Type: "finalizers-remaining", Summary: "x", Evidence: []findings.Evidence{{File: "f.json", Line: i, Text: name}}}}})
			r.Problems = append(r.Problems, findings.Problem{ID: fmt.Sprintf("P%d", i+1), Namespaces: []findings.ProblemNamespace{{Name: name}}})
		}
		return r
	}
	var a, b maxWrite
	if err := JSON(&a, report(500)); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&b, report(1000)); err != nil {
		t.Fatal(err)
	}
	if b.max > a.max+64 || b.total < 19*a.total/10 {
		t.Errorf("largest write %d bytes for n, %d for 2n (output %d, %d)", a.max, b.max, a.total, b.total)
	}
}
