package analyzer

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
)

func TestFocusQuote(t *testing.T) {
	var parts []string
	for i := 0; i < 300; i++ {
		parts = append(parts, fmt.Sprintf("g%03d.example.com/v1: stale GroupVersion discovery", i))
	}
	long := "message=" + strings.Join(parts, ", ")
	for _, tc := range []struct {
		name  string
		text  string
		names []string
		want  []string // substrings the quote keeps
		not   []string
	}{
		{"short text kept whole", "message=a: b", []string{"a"}, []string{"message=a: b"}, []string{"quoted in part"}},
		{"around the names", long, []string{"g150.example.com/v1", "g299.example.com/v1"},
			[]string{"message=g000.example.com/v1", "g150.example.com/v1: stale", "g299.example.com/v1: stale", "quoted in part"},
			[]string{"g200.example.com/v1"}},
		{"a name not in it", long, []string{"nowhere.io/v1"}, []string{"message=g000", "quoted in part: "}, []string{"g150.example.com"}},
	} {
		got := findings.FocusQuote(tc.text, tc.names)
		if len(got) > findings.MaxQuote+200 {
			t.Errorf("%s: %d bytes", tc.name, len(got))
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q not in %q", tc.name, w, got)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q in %q", tc.name, w, got)
			}
		}
	}
}

func TestPodDeleteLoop(t *testing.T) {
	when := time.Date(2026, 11, 29, 19, 30, 0, 0, time.UTC)
	g := findings.ObjectGroup{Kind: "Pod", Namespace: "batch", Node: "node-07", Count: 2000, OldestDeletion: &when, Examples: []string{"job-0"}}
	want := `kubectl -n batch get pods --field-selector spec.nodeName=node-07 -o 'go-template={{range .items}}{{if .metadata.deletionTimestamp}}{{.metadata.name}}{{"\n"}}{{end}}{{end}}' | while read -r o; do kubectl -n batch delete pod "$o" --grace-period=0 --force; done`
	if got := mechanism.PodDeleteLoop(g); got != want {
		t.Errorf("PodDeleteLoop:\n got %s\nwant %s", got, want)
	}
	g.Node = ""
	if got := mechanism.PodDeleteLoop(g); strings.Contains(got, "field-selector") || !strings.Contains(got, "kubectl -n batch get pods -o") {
		t.Errorf("without a node, every terminating pod of the namespace: %s", got)
	}
	if got := (findings.ObjectGroup{Verdict: "not running"}).VerdictPhrase(); got != "controller not running" {
		t.Errorf("verdict phrase of a finalizer group: %q", got)
	}
	if got := g.VerdictPhrase(); got != "" {
		t.Errorf("no verdict: %q", got)
	}
	if got := (findings.ObjectGroup{Verdict: "on node n1, not Ready", Node: "n1"}).VerdictPhrase(); got != "on node n1, not Ready" {
		t.Errorf("verdict phrase of a pod group: %q", got)
	}
}
