package objects_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// BenchmarkDecodeJSON measures DecodeJSON over generated `kubectl get -o json` Lists
// (pods, events, config maps, ...), read from memory, keeping what analyzer.KeepObject
// keeps, as the bundle loader does.
func BenchmarkDecodeJSON(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.Generate(gen.Config{Out: dir, Size: 64 << 20, Seed: 1, Mix: "objects"}); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"pods.json", "events.json", "configmaps.json", "replicasets.json", "endpoints.json"} {
		data, err := os.ReadFile(filepath.Join(dir, "cluster", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var n, kept int
			for b.Loop() {
				kept = 0
				n = objects.DecodeJSON(bytes.NewReader(data), "cluster/"+name, objects.Options{}, &diag.Sink{}, func(o *objects.Object) {
					if rules.KeepObject(o) {
						kept++
					}
				})
			}
			if n == 0 {
				b.Fatal("no object decoded")
			}
			b.ReportMetric(float64(n), "objects/op")
			b.ReportMetric(float64(kept), "kept/op")
		})
	}
}
