package main

import (
	"io"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
)

// BenchmarkAnalyze measures the whole analysis (bundle walk, object decoding, log
// scanning, rules, text report) of a generated bundle on disk, as cmd/nsanalyze runs it.
func BenchmarkAnalyze(b *testing.B) {
	for _, tc := range []struct {
		name string
		cfg  gen.Config
	}{
		{"full-64M", gen.Config{Size: 64 << 20, Seed: 1, Mix: "full"}},
		{"logs-gz-64M", gen.Config{Size: 64 << 20, Seed: 1, Mix: "logs", Gzip: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := tc.cfg
			cfg.Out = b.TempDir()
			if _, err := gen.Generate(cfg); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(cfg.Size)
			b.ReportAllocs()
			for b.Loop() {
				rep := analyze(b, cfg.Out)
				if len(rep.Namespaces) == 0 {
					b.Fatal("no stuck namespace found")
				}
				if err := render.Render(io.Discard, rep, "text"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
