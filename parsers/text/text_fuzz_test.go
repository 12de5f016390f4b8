package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// FuzzParseText: any text, any command hint: no panic, no internal error, every record
// inside the file.
func FuzzParseText(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(string(data), "")
	}
	f.Add("NAME   STATUS   AGE\nfoo   Active\tx\n", "kubectl get ns")
	f.Add("Name: x\nConditions:\n  Type  Status\n  ----\nZ\n", "kubectl describe pod x")
	f.Add("$ kubectl get ns -o yaml\n{[\"\n---\nkind: x\n", "")
	f.Fuzz(func(t *testing.T, s, cmd string) {
		w := &diag.Sink{}
		r := Parse(strings.NewReader(s), "f.txt", Options{Command: cmd}, w)
		Sniff([]byte(s))
		for _, x := range w.List {
			if diag.IsInternal(x) {
				t.Fatalf("internal error: %s", x)
			}
		}
		lines := strings.Count(s, "\n") + 1
		for _, o := range r.Objects {
			if o.Source.File != "f.txt" || o.Source.Line < 1 || o.Source.Line > lines {
				t.Fatalf("object %s at %s:%d, file has %d lines", o.Ref(), o.Source.File, o.Source.Line, lines)
			}
		}
		if r.Log != nil {
			for _, e := range r.Log.Entries {
				if e.Line < 1 || e.Line > lines {
					t.Fatalf("entry at line %d, file has %d lines", e.Line, lines)
				}
			}
		}
	})
}
