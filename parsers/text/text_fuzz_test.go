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
	// damaged pastes: flattened YAML and describe, a k9s frame, a wrap, a blockquote
	f.Add("status:\nconditions:\n- lastTransitionTime: \"2024-06-11T17:20:17Z\"\nmessage: 'a\nb'\ntype: X\nphase: Terminating\n", "kubectl get ns x -o yaml")
	f.Add("Name: x\nSpec:\nService:\nName: y\nStatus:\nConditions:\nType: Available\nType: B\n", "")
	f.Add("┌──┐\n│ Name: x │\n│ Status: Terminating │\n└──┘\n", "")
	f.Add("> $ kubectl get ns\n> NAME STATUS AGE\n> x Terminating 1d\n", "")
	f.Add("`\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"", "") // an object's JSON without its brace, cut
	f.Add(strings.Repeat("e", 80)+"\n"+strings.Repeat("f", 80)+"\nrror: x\n", "")
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
