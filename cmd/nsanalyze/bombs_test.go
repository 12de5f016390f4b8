package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// TestBombsThroughTheCommand runs every bomb of the hostile corpus (one per class of
// issue #15, each planted in a copy of a real bundle) through the whole command with
// -o json: it must end (hostile.HangCap of 20 s, 90 s for the heavy ones that read the
// default 1 GiB decompression budget: a safety cap against hangs) and within 500 MB
// of heap, print a valid JSON report,
// exit with the documented code of the real diagnosis (1: the namespace is stuck) and
// keep that diagnosis (the same stuck namespaces, its cause among the causes).
func TestBombsThroughTheCommand(t *testing.T) {
	if testing.Short() {
		// each bomb costs seconds of CPU through the whole command; parsers/bundle's
		// TestBombs runs the light ones against the loader in the quick set
		t.Skip("-short: the bombs through the command run in make test-long")
	}
	root := filepath.Join("..", "..", hostile.BaseBundle)
	report := func(t *testing.T, dir string, limit time.Duration) (findings.Report, int) {
		t.Helper()
		var out, errb bytes.Buffer
		var peak uint64
		runtime.GC() // what building the bomb left behind is not the command's
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		start := time.Now()
		code := run([]string{"-o", "json", "-q", dir}, &out, &errb)
		took := time.Since(start)
		close(stop)
		<-sampled
		if took > hostile.HangCap(limit) {
			t.Errorf("took %s, more than %s", took.Round(time.Millisecond), hostile.HangCap(limit))
		}
		if peak > 500<<20 {
			t.Errorf("heap in use peaked at %d MB", peak>>20)
		}
		var r findings.Report
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("exit %d, the report is not JSON: %v\nstderr: %.2000s", code, err, errb.String())
		}
		return r, code
	}
	base, baseCode := report(t, root, time.Minute)
	names := func(r findings.Report) []string {
		var out []string
		for _, ns := range r.Namespaces {
			out = append(out, ns.Name)
		}
		sort.Strings(out)
		return out
	}
	for _, b := range hostile.Bombs() {
		t.Run(b.Name, func(t *testing.T) {
			if b.Heavy && testing.Short() {
				t.Skip("heavy bomb skipped with -short")
			}
			dir := filepath.Join(t.TempDir(), "bundle")
			if err := hostile.CopyTree(root, dir); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Build(dir); err != nil {
				t.Fatal(err)
			}
			limit := 20 * time.Second
			if b.Heavy {
				limit = 90 * time.Second
			}
			r, code := report(t, dir, limit)
			if code != baseCode {
				t.Errorf("exit %d, want %d (the real diagnosis)", code, baseCode)
			}
			if got, want := names(r), names(base); !slices.Equal(got, want) {
				t.Errorf("stuck namespaces %v, want %v", got, want)
			}
			for i, ns := range base.Namespaces {
				if i >= len(r.Namespaces) {
					break
				}
				for _, c := range ns.Causes {
					if !slices.ContainsFunc(r.Namespaces[i].Causes, func(x findings.Cause) bool { return x.Type == c.Type }) {
						t.Errorf("%s: cause %s lost", ns.Name, c.Type)
					}
				}
			}
		})
	}
}
