package main

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// analyze runs the parsers and the analyzer the way cmd/nsanalyze does.
func analyze(t testing.TB, dir string) *findings.Report {
	t.Helper()
	rec, err := bundle.Load(dir, bundle.Options{
		Keywords:    rules.Phrases,
		LogLocation: time.UTC,
		Exclude:     []string{"expected.json"},
		KeepObject:  rules.KeepObject,
	})
	if err != nil {
		t.Fatal(err)
	}
	return analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
}

// TestPlantedFindings generates small bundles and checks that nsanalyze finds exactly
// what the generator planted: the stuck namespaces, the failing group/versions and
// APIServices, and the blocking finalizer.
func TestPlantedFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  gen.Config
	}{
		{"full", gen.Config{Size: 2 << 20, Seed: 1, Mix: "full"}},
		{"logs-gz", gen.Config{Size: 1 << 20, Seed: 7, Mix: "logs", Gzip: true}},
		{"objects", gen.Config{Size: 2 << 20, Seed: 42, Mix: "objects"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Out = t.TempDir()
			exp, err := gen.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.cfg.Gzip {
				if _, err := os.Stat(filepath.Join(cfg.Out, "logs", "kube-apiserver.log.gz")); err != nil {
					t.Fatal(err)
				}
				if !bundleReadsGzip(t, cfg.Out) {
					t.Fatal("the bundle loader did not read the generated .gz logs")
				}
			}
			rep := analyze(t, cfg.Out)
			var stuck, gvs, apis, fins []string
			causes := map[string]bool{}
			for _, ns := range rep.Namespaces {
				stuck = append(stuck, ns.Name)
				for _, c := range ns.Causes {
					causes[c.Type] = true
					gvs = append(gvs, c.GroupVersions...)
					apis = append(apis, c.APIServices...)
					if c.Type == finalizers.Name {
						fins = append(fins, c.Finalizers...)
					}
				}
			}
			same(t, "stuck namespaces", stuck, exp.StuckNamespaces)
			same(t, "failing group/versions", gvs, exp.FailingGroupVersions)
			same(t, "failing APIServices", apis, exp.FailingAPIServices)
			same(t, "blocking finalizers", fins, exp.BlockingFinalizers)
			same(t, "cause types", keys(causes), []string{apidiscovery.Name, finalizers.Name})
			if len(rep.Warnings) > 0 {
				t.Errorf("warnings on a generated bundle: %v", rep.Warnings)
			}
		})
	}
}

// bundleReadsGzip reports whether the loader decompresses .gz logs (archive support is
// being added separately): it then counts more lines than the compressed file has.
func bundleReadsGzip(t *testing.T, dir string) bool {
	rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, Exclude: []string{"expected.json"}, KeepObject: rules.KeepObject})
	if err != nil {
		return false
	}
	for _, f := range rec.LogFiles {
		if f.Matched > 0 && f.Component == "kube-controller-manager" {
			return true
		}
	}
	return false
}

// TestDeterministic: the same flags give the same bytes.
func TestDeterministic(t *testing.T) {
	sum := func(seed uint64) map[string][32]byte {
		dir := t.TempDir()
		if _, err := gen.Generate(gen.Config{Out: dir, Size: 1 << 20, Seed: seed, Mix: "full", Gzip: true}); err != nil {
			t.Fatal(err)
		}
		out := map[string][32]byte{}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			h := sha256.New()
			_, _ = io.Copy(h, f)
			rel, _ := filepath.Rel(dir, p)
			var s [32]byte
			copy(s[:], h.Sum(nil))
			out[rel] = s
			return nil
		})
		return out
	}
	a, b, c := sum(3), sum(3), sum(4)
	if len(a) < 10 {
		t.Fatalf("only %d files generated", len(a))
	}
	for k, v := range a {
		if b[k] != v {
			t.Errorf("%s differs between two runs with the same seed", k)
		}
	}
	if a["logs/kube-apiserver.log.gz"] == c["logs/kube-apiserver.log.gz"] {
		t.Error("different seeds gave the same log")
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "64K": 64 << 10, "250M": 250 << 20, "1G": 1 << 30, "1.5G": 3 << 29, "2GiB": 2 << 30} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if _, err := parseSize("big"); err == nil {
		t.Error("parseSize(big): no error")
	}
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := uniq(got), uniq(want)
	if len(g) != len(w) {
		t.Errorf("%s: got %v, want %v", what, g, w)
		return
	}
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("%s: got %v, want %v", what, g, w)
			return
		}
	}
}

func uniq(s []string) []string {
	m := map[string]bool{}
	for _, v := range s {
		m[v] = true
	}
	return keys(m)
}

func keys(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
