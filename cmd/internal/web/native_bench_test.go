package web

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
)

// BenchmarkAnalyze50MB is the analysis behind the page's 50 MB budget run natively:
// the generated 50 MB bundle of BenchmarkPage as one dropped .tar.gz, read, analysed and
// rendered by Analyze. Profile it with
//
//	go test ./cmd/internal/web -run '^$' -bench Analyze50MB -benchtime 3x -cpuprofile cpu.out -memprofile mem.out
func BenchmarkAnalyze50MB(b *testing.B) {
	dir := b.TempDir()
	genDir := filepath.Join(dir, "bundle-50MB")
	if _, err := gen.Generate(gen.Config{Out: genDir, Size: 50 << 20, Seed: 1, Mix: "full"}); err != nil {
		b.Fatal(err)
	}
	archive := filepath.Join(dir, "bundle-50MB.tar.gz")
	tarGz(b, genDir, archive)
	data, err := os.ReadFile(archive)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := Analyze([]File{{Name: "bundle-50MB.tar.gz", Data: data}}, Options{})
		if r.ExitCode == 2 {
			b.Fatalf("not analysed: %s", r.Error)
		}
	}
}
