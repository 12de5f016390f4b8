package bundle

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

func checkLinear(t *testing.T, what string, run func(n int) int64, n int) {
	t.Helper()
	hostile.CheckLinear(t, what, run, n)
}

// TestCollectorErrorsLinear: a troubleshoot *-errors.json of n texts (2.4 MB took 54 s:
// each text was looked for from the start of the file).
func TestCollectorErrorsLinear(t *testing.T) {
	dir := t.TempDir()
	checkLinear(t, "collector errors", func(n int) int64 {
		texts := make([]string, n)
		for i := range texts {
			texts[i] = fmt.Sprintf("failed to list /apis/x%d/v1: forbidden: user cannot list", i)
		}
		b, _ := json.MarshalIndent(texts, "", "  ")
		p := filepath.Join(dir, fmt.Sprint(n))
		os.MkdirAll(filepath.Join(p, "cluster-resources"), 0o755)
		os.WriteFile(filepath.Join(p, "cluster-resources", "groups-resources-errors.json"), b, 0o644)
		c0 := collectorScanned.Load()
		rec, err := Load(p, Options{})
		if err != nil || len(rec.CollectorErrors) != n || rec.CollectorErrors[n-1].Line != n+1 {
			t.Fatalf("%v, %d errors", err, len(rec.CollectorErrors))
		}
		return collectorScanned.Load() - c0
	}, 20000)
}

// TestDeepPathsLinear: tar members under a/a/a/... (63 KB of .tar.gz took over an
// hour: every parent directory of every member was listed, each costing its length).
func TestDeepPathsLinear(t *testing.T) {
	dir := t.TempDir()
	checkLinear(t, "deep paths", func(depth int) int64 {
		var hs []*tar.Header
		var content [][]byte
		for i := 0; i < 100; i++ {
			hs = append(hs, &tar.Header{Name: fmt.Sprintf("d%d/", i) + strings.Repeat("a/", depth) + "f.log", Typeflag: tar.TypeReg, Size: 2, Mode: 0o644, Format: tar.FormatPAX})
			content = append(content, []byte("x\n"))
		}
		p := filepath.Join(dir, fmt.Sprintf("%d.tar", depth))
		os.WriteFile(p, hostile.TarWith(hs, content), 0o644)
		rec, err := Load(p, Options{})
		if err != nil || len(rec.Files) != 100 {
			t.Fatalf("%v", err)
		}
		return 0 // allocations (path strings, directory sets) are what CheckLinear counts
	}, 3000)
}

var _ = bytes.MinRead

// TestEmptyFilesLinear: a bundle of n empty files (a million took 22.5 s) costs work
// linear in n: each is one warning of a grouped kind, never a walk over the others.
func TestEmptyFilesLinear(t *testing.T) {
	dir := t.TempDir()
	checkLinear(t, "empty files", func(n int) int64 {
		hs := make([]*tar.Header, n)
		content := make([][]byte, n)
		for i := range hs {
			hs[i] = &tar.Header{Name: fmt.Sprintf("logs/d%d/f%d.log", i%50, i), Typeflag: tar.TypeReg, Mode: 0o644, Format: tar.FormatPAX}
			content[i] = nil
		}
		ns := []byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"},"status":{"phase":"Active"}}]}`)
		hs = append(hs, &tar.Header{Name: "cluster/namespaces.json", Typeflag: tar.TypeReg, Size: int64(len(ns)), Mode: 0o644, Format: tar.FormatPAX})
		content = append(content, ns)
		p := filepath.Join(dir, fmt.Sprintf("%d.tar", n))
		os.WriteFile(p, hostile.TarWith(hs, content), 0o644)
		rec, err := Load(p, Options{})
		if err != nil || len(rec.Files) != n+1 {
			t.Fatalf("%v, %d files", err, len(rec.Files))
		}
		return 0
	}, 5000)
}
