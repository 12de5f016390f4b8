package bundle

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// loadGuarded loads a bundle with a deadline and returns its records and the heap growth.
func loadGuarded(t *testing.T, p string, opts Options, deadline time.Duration) (*Records, int64, error) {
	t.Helper()
	if opts.Keywords == nil {
		opts.Keywords = samplePhrases
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	type res struct {
		rec *Records
		err error
	}
	done := make(chan res, 1)
	go func() {
		rec, err := Load(p, opts)
		done <- res{rec, err}
	}()
	select {
	case r := <-done:
		runtime.ReadMemStats(&m1)
		return r.rec, int64(m1.HeapSys) - int64(m0.HeapSys), r.err
	case <-time.After(hostile.HangCap(deadline)):
		t.Fatalf("Load(%s) did not finish within %s", p, hostile.HangCap(deadline))
	}
	return nil, 0, nil
}

func warningsFor(rec *Records, file string) []diag.Warning {
	var out []diag.Warning
	if rec == nil {
		return nil
	}
	for _, w := range rec.Warnings {
		if w.File == file || strings.HasPrefix(w.File, file+"/") {
			out = append(out, w)
		}
	}
	return out
}

// TestDecompressionBomb: a .gz that inflates to 10 GB of log text is stopped at the
// documented, configurable limit with a warning, in bounded time and memory.
func TestDecompressionBomb(t *testing.T) {
	opts := Options{MaxDecompressedBytes: 64 << 20}
	name := "MaxDecompressedBytes"
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "bomb.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if err := hostile.GzipBomb(f, 10<<30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "kcm.log"), []byte("I0101 00:00:00.000000 1 x.go:1] hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, grew, _ := loadGuarded(t, dir, opts, time.Minute)
	ws := warningsFor(rec, "bomb.log.gz")
	if len(ws) != 1 || !strings.Contains(strings.ToLower(ws[0].Message), "limit") {
		t.Errorf("warnings for the bomb %v, want one naming the %s limit", ws, name)
	}
	if grew > 256<<20 {
		t.Errorf("heap grew by %d MB", grew>>20)
	}
}

// TestNestedGzipBomb: 10 KB that inflate to 10 GB through two gzip layers are not
// inflated twice (a gzip inside a gzip is data, not a log).
func TestNestedGzipBomb(t *testing.T) {
	dir := t.TempDir()
	b := hostile.NestedGzipBomb(10 << 30)
	if len(b) > 128<<10 {
		t.Fatalf("nested bomb of %d bytes", len(b))
	}
	if err := os.WriteFile(filepath.Join(dir, "bomb.log.gz"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "kcm.log"), []byte("I0101 00:00:00.000000 1 x.go:1] hello\n"), 0o644)
	rec, grew, err := loadGuarded(t, dir, Options{}, 20*time.Second) // inflating 10 GB would take minutes: a hang
	if err != nil {
		t.Fatal(err)
	}
	if ws := warningsFor(rec, "bomb.log.gz"); len(ws) != 1 {
		t.Errorf("warnings for the bomb %v, want one", ws)
	}
	if grew > 256<<20 {
		t.Errorf("heap grew by %d MB", grew>>20)
	}
}

// TestNestedArchives: archives nested deeper than the limit are skipped with a warning;
// the limit is configurable.
func TestNestedArchives(t *testing.T) {
	dir := t.TempDir()
	nested := hostile.NestedTarGz("kcm.log", []byte("E0101 00:00:00.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n"), 6)
	if err := os.WriteFile(filepath.Join(dir, "nodes.tar.gz"), nested, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "other.log"), []byte("I0101 00:00:00.000000 1 x.go:1] hello\n"), 0o644)
	rec, _, err := loadGuarded(t, dir, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ws := warningsFor(rec, "nodes.tar.gz")
	if len(ws) != 1 || !strings.Contains(ws[0].Message, "nested") {
		t.Errorf("warnings %v, want one about nesting", ws)
	}
	t.Run("configurable", func(t *testing.T) {
		opts := Options{MaxArchiveNesting: 10}
		rec, _, err := loadGuarded(t, dir, opts, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(warningsFor(rec, "nodes.tar.gz")) != 0 || len(rec.Entries) != 1 {
			t.Errorf("with a limit of 10: warnings %v, %d entries", warningsFor(rec, "nodes.tar.gz"), len(rec.Entries))
		}
	})
}

// TestUnreadableFile: a file the user may not read gets a warning naming it, and the
// rest of the bundle is read. Root reads everything, so as root the test re-runs itself
// as user nobody.
func TestUnreadableFile(t *testing.T) {
	if os.Getenv("NSANALYZE_UNREADABLE_BUNDLE") != "" {
		// child: run as nobody
		rec, err := Load(os.Getenv("NSANALYZE_UNREADABLE_BUNDLE"), Options{Keywords: samplePhrases})
		if err != nil {
			t.Fatal(err)
		}
		ws := warningsFor(rec, "secret.json")
		if len(ws) != 1 || !strings.Contains(ws[0].Message, "permission denied") {
			t.Fatalf("warnings %v, want one permission error naming secret.json", rec.Warnings)
		}
		if len(allObjects(rec)) != 1 {
			t.Fatalf("%d objects, want the readable one", len(allObjects(rec)))
		}
		t.Logf("as uid %d: %v", os.Geteuid(), ws)
		return
	}
	dir, err := os.MkdirTemp("", "nsanalyze-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "ns.json"), []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.json"), []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}`), 0o000)
	if os.Geteuid() != 0 {
		t.Setenv("NSANALYZE_UNREADABLE_BUNDLE", dir)
		TestUnreadableFile(t)
		return
	}
	// as root: copy the test binary where nobody can run it, and run this test as nobody
	self, err := os.Executable()
	if err != nil {
		t.Skip("running as root and cannot find the test binary to re-run as nobody:", err)
	}
	bin := filepath.Join(dir, "bundle.test")
	b, err := os.ReadFile(self)
	if err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Skip("running as root and cannot copy the test binary to re-run as nobody")
	}
	// the bundle itself must not contain the binary: use a sub-directory
	sub := filepath.Join(dir, "bundle")
	os.Mkdir(sub, 0o755)
	os.Rename(filepath.Join(dir, "ns.json"), filepath.Join(sub, "ns.json"))
	os.Rename(filepath.Join(dir, "secret.json"), filepath.Join(sub, "secret.json"))
	cmd := exec.Command(bin, "-test.run=^TestUnreadableFile$", "-test.v")
	cmd.Env = append(os.Environ(), "NSANALYZE_UNREADABLE_BUNDLE="+sub, "HOME=/", "GOCOVERDIR=")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil && strings.Contains(string(out), "--- FAIL") {
		t.Fatalf("as nobody:\n%s", out)
	}
	if err != nil {
		t.Skipf("running as root and cannot re-run as nobody (%v): %s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestUnreadableFile") || !strings.Contains(string(out), "as uid 65534") {
		t.Fatalf("as nobody, the test did not run:\n%s", out)
	}
	t.Logf("re-run as nobody:\n%s", out)
}
