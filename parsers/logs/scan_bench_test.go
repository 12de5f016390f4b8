package logs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// BenchmarkScan measures ScanFile over generated kube-apiserver and
// kube-controller-manager klog text (busy-cluster noise with the real error lines of a
// few stuck namespaces), read from memory. MB/s is the figure to compare with grep -F.
func BenchmarkScan(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.Generate(gen.Config{Out: dir, Size: 64 << 20, Seed: 1, Mix: "logs"}); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"kube-apiserver.log", "kube-controller-manager.log"} {
		data, err := os.ReadFile(filepath.Join(dir, "logs", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			matched := 0
			for b.Loop() {
				f, err := logs.ScanFile(bytes.NewReader(data), "logs/"+name,
					logs.Options{Keywords: rules.Phrases, SizeHint: int64(len(data))}, &diag.Sink{})
				if err != nil {
					b.Fatal(err)
				}
				matched = f.Info.Matched
			}
			if matched == 0 {
				b.Fatal("no line matched")
			}
			b.ReportMetric(float64(matched), "matched/op")
		})
	}
}
