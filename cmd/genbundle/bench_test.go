package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
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

// BenchmarkShape runs a scale shape as cmd/nsanalyze does, in pieces: the parse alone
// (cmd/bench/parseonly's work), the analysis, the secret scrub every report goes through,
// and the text and JSON renderings. SHAPE_N (default 20000) sets the shape's n; issue
// 22 wants the pieces after the parse to cost less than the parse.
func BenchmarkShape(b *testing.B) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("SHAPE_N")); err == nil && v > 0 {
		n = v
	}
	for _, shape := range []string{"finalizers", "crds", "namespaces", "apiservices", "webhooks", "loggvs"} {
		b.Run(shape, func(b *testing.B) {
			m := n
			if shape == "namespaces" || shape == "apiservices" || shape == "loggvs" {
				m = n / 10 // their n is the expensive one (a namespace, an APIService, a group/version each)
			}
			dir := filepath.Join(b.TempDir(), shape)
			if _, err := gen.GenerateShape(dir, shape, m); err != nil {
				b.Fatal(err)
			}
			load := func() *bundle.Records {
				rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, LogLocation: time.UTC,
					Exclude: []string{"expected.json"}, KeepObject: rules.KeepObject})
				if err != nil {
					b.Fatal(err)
				}
				return rec
			}
			b.Run("parse", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					load()
				}
			})
			rec := load()
			b.Run("analyze", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
				}
			})
			rep := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
			b.Run("scrub", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					redact.Scrub(rep)
				}
			})
			for _, f := range []string{"text", "json"} {
				b.Run(f, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if err := render.Render(io.Discard, rep, f); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
