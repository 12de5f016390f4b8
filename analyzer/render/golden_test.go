package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// update rewrites the golden files: go test ./analyzer/render -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenBundles are the fixtures whose reports are pinned.
var goldenBundles = []string{
	"realdata/a-discovery-failure",
	"realdata/b-finalizer-remaining",
	"realdata/c-webhook-content-failure",
	"handmade/metrics-server-unreachable-route",
	"handmade/operator-deleted-before-cr",
	"realworld/calico-apiserver-projectcalico-v3-discovery",
}

// loadReport analyses a fixture bundle the way the command does.
func loadReport(t *testing.T, rel string) *analyzer.Report {
	t.Helper()
	dir := filepath.Join("..", "..", "fixtures", filepath.FromSlash(rel))
	rec, err := bundle.Load(dir, bundle.Options{Keywords: kubemsg.LogKeywords, KeepObject: analyzer.KeepObject,
		Exclude: []string{"raw", "expected.json", "README.md"}})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	rec.Path = rel // keep golden files independent of where the test runs
	return analyzer.Analyze(rec, analyzer.Options{})
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./analyzer/render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; if the change is intended run: go test ./analyzer/render -update\n--- got ---\n%s", name, got)
	}
}

func TestGoldenTextAndJSON(t *testing.T) {
	for _, b := range goldenBundles {
		t.Run(b, func(t *testing.T) {
			r := loadReport(t, b)
			base := filepath.Base(b)
			for _, format := range []string{"text", "json"} {
				var buf bytes.Buffer
				if err := Render(&buf, r, format); err != nil {
					t.Fatal(err)
				}
				checkGolden(t, base+"."+format+".golden", buf.Bytes())
			}
		})
	}
}
