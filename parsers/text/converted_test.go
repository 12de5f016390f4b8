package text

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestConvertedLines: text converted from a document (Options.Lines) cites the
// original file's lines; a YAML value cut at the end of its block (Options.Blocks)
// is closed there instead of taking the prose that follows.
func TestConvertedLines(t *testing.T) {
	in := "$ kubectl get ns foo -o yaml\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: foo\nstatus:\n  conditions:\n  - message: 'Some resources are remaining: pods. has 2\n\nThanks, Ann\n"
	lines := []int{40, 41, 42, 43, 44, 45, 46, 47, 48, 60, 61}
	for _, tc := range []struct {
		name   string
		blocks []int
		want   string
	}{
		{"one block", nil, "Some resources are remaining: pods. has 2 Thanks, Ann"},
		{"prose after the block", []int{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2}, "Some resources are remaining: pods. has 2"},
	} {
		w := &diag.Sink{}
		res := Parse(strings.NewReader(in), "page.html", Options{Lines: lines, Blocks: tc.blocks}, w)
		if len(res.Objects) != 1 {
			t.Fatalf("%s: %d objects, warnings %v", tc.name, len(res.Objects), w.List)
		}
		o := res.Objects[0]
		if o.Source.Line != 41 {
			t.Errorf("%s: object at line %d, want 41 (the page's)", tc.name, o.Source.Line)
		}
		if len(o.Conditions) != 1 || strings.Join(strings.Fields(o.Conditions[0].Message), " ") != tc.want {
			t.Errorf("%s: conditions %+v, want message %q", tc.name, o.Conditions, tc.want)
		}
	}
}
