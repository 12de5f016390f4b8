package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// The hostile-bundle corpus: every case is generated at test time by fixtures/hostile
// (nothing large or dangerous is committed) and run end to end through run().

// hostileReport is the part of the JSON report these tests compare.
type hostileReport struct {
	Namespaces []struct {
		Name   string `json:"name"`
		Causes []struct {
			Type          string   `json:"type"`
			GroupVersions []string `json:"groupVersions"`
			APIServices   []string `json:"apiServices"`
			Finalizers    []string `json:"finalizers"`
			Occurrences   int      `json:"occurrences"`
			Evidence      []struct {
				File string `json:"file"`
				Line int    `json:"line"`
			} `json:"evidence"`
			FirstSeen *time.Time `json:"firstSeen"`
		} `json:"causes"`
	} `json:"namespaces"`
	Warnings []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"warnings"`
}

// findings renders what the report concludes, without paths or counts that a new file
// may legitimately change.
func (r hostileReport) findings() string {
	var b strings.Builder
	for _, n := range r.Namespaces {
		fmt.Fprintf(&b, "%s:", n.Name)
		for _, c := range n.Causes {
			// the evidence, by file (a log compressed as .gz is the same log) and line
			var ev []string
			for _, e := range c.Evidence {
				ev = append(ev, fmt.Sprintf("%s:%d", strings.TrimSuffix(e.File, ".gz"), e.Line))
			}
			sort.Strings(ev)
			first := ""
			if c.FirstSeen != nil {
				first = c.FirstSeen.UTC().String()
			}
			fmt.Fprintf(&b, " %s%v%v%v x%d first=%s evidence=%v", c.Type, c.GroupVersions, c.APIServices, c.Finalizers, c.Occurrences, first, ev)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// runGuarded runs nsanalyze with a deadline and checks that it left the bundle (and
// the directory around it) exactly as it found it.
func runGuarded(t *testing.T, deadline time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	bundle := args[len(args)-1]
	watch := filepath.Dir(bundle) // the bundle and its siblings: nothing may appear next to it either
	before, err := hostile.Snapshot(watch)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, &out, &errb) }()
	select {
	case code = <-done:
	case <-time.After(hostile.HangCap(deadline)):
		t.Fatalf("nsanalyze %v did not finish within %s", args, hostile.HangCap(deadline))
	}
	after, err := hostile.Snapshot(watch)
	if err != nil {
		t.Fatal(err)
	}
	if d := hostile.Diff(before, after); d != "" {
		t.Errorf("the run modified the bundle or its directory:\n%s", d)
	}
	return code, out.String(), errb.String()
}

func analyzeJSON(t *testing.T, dir string) (int, hostileReport, string) {
	t.Helper()
	code, out, errs := runGuarded(t, 2*time.Minute, "-o", "json", dir)
	var r hostileReport
	if code != exitUsage {
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("exit %d, report is not JSON: %v\nstderr:\n%s", code, err, errs)
		}
	}
	return code, r, errs
}

func baseCopy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := hostile.CopyTree(filepath.Join("..", "..", hostile.BaseBundle), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestHostileGarbageChangesNothing: adding one broken or hostile file to a real
// bundle leaves the findings and the exit code unchanged and adds exactly one warning,
// which names that file; the bundle is never modified.
func TestHostileGarbageChangesNothing(t *testing.T) {
	baseCode, base, _ := analyzeJSON(t, baseCopy(t))
	if baseCode != exitStuck || len(base.Namespaces) == 0 {
		t.Fatalf("base bundle: exit %d, %d namespaces", baseCode, len(base.Namespaces))
	}
	for _, c := range hostile.GarbageCases() {
		t.Run(c.Name, func(t *testing.T) {
			if c.Heavy && testing.Short() {
				t.Skip("heavy case skipped with -short")
			}
			dir := baseCopy(t)
			rel, err := c.Build(dir)
			if err != nil {
				t.Fatal(err)
			}
			var m0 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			code, r, errs := analyzeJSON(t, dir)
			var m1 runtime.MemStats
			runtime.ReadMemStats(&m1)
			if grew := int64(m1.HeapSys) - int64(m0.HeapSys); grew > 512<<20 {
				t.Errorf("heap grew by %d MB", grew>>20)
			}
			if code != baseCode {
				t.Errorf("exit code %d, want %d (stderr:\n%s)", code, baseCode, errs)
			}
			if got, want := r.findings(), base.findings(); got != want {
				t.Errorf("findings changed:\n got %s\nwant %s", got, want)
			}
			// Exactly one new warning names the file. A damaged archive may add one more,
			// naming the member that was being read when the archive broke off.
			extra := len(r.Warnings) - len(base.Warnings)
			var mine, inside []string
			for _, w := range r.Warnings {
				s := fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Message)
				switch {
				case w.File == rel:
					mine = append(mine, s)
				case strings.HasPrefix(w.File, rel+"/"):
					inside = append(inside, s)
				}
			}
			if len(mine) != 1 || len(inside) > 1 || extra != len(mine)+len(inside) {
				t.Errorf("want exactly one new warning, naming %s; got %d new, %q naming it, %q inside it\nall: %q", rel, extra, mine, inside, sortedWarnings(r))
			}
		})
	}
}

// TestHostileExitCodes: 2 only when nothing at all could be read; a damaged bundle
// that still shows something gives the normal code plus warnings. Paths that would
// block a reader (a FIFO, /dev/zero) do not hang.
func TestHostileExitCodes(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, build func(p string) error) string {
		p := filepath.Join(tmp, name)
		if err := build(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	only := func(files map[string][]byte) func(string) error {
		return func(p string) error {
			for n, b := range files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(p, n)), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(p, n), b, 0o644); err != nil {
					return err
				}
			}
			return os.MkdirAll(p, 0o755)
		}
	}
	tgz, err := hostile.TarGz(filepath.Join("..", "..", hostile.BaseBundle), "bundle/")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		path string
		want []int
	}{
		{"missing path", filepath.Join(tmp, "does-not-exist"), []int{exitUsage}},
		{"empty directory", mk("empty-dir", only(nil)), []int{exitUsage}},
		{"only empty files", mk("empties", only(map[string][]byte{"a.json": nil, "b.log": nil})), []int{exitUsage}},
		{"only binary files", mk("binaries", only(map[string][]byte{"a.bin": {0x7f, 0, 1, 2, 3, 0, 0, 9}})), []int{exitUsage}},
		{"zero-byte tar.gz bundle", mk("zero.tar.gz", func(p string) error { return os.WriteFile(p, nil, 0o644) }), []int{exitUsage}},
		{"zero-byte zip bundle", mk("zero.zip", func(p string) error { return os.WriteFile(p, nil, 0o644) }), []int{exitUsage}},
		{"FIFO as the bundle", mk("fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }), []int{exitUsage}},
		{"/dev/zero as the bundle", "/dev/zero", []int{exitUsage}},
		{"whole tar.gz bundle", mk("whole.tar.gz", func(p string) error { return os.WriteFile(p, tgz, 0o644) }), []int{exitStuck}},
		// a truncated upload still holds the namespace dump (stored first) or at least
		// some files: what it shows is reported (stuck), or the state is said unknown
		// (3), or nothing was readable (2); never "no namespace is stuck" (0)
		{"tar.gz bundle truncated at 60%", mk("cut60.tar.gz", func(p string) error { return os.WriteFile(p, tgz[:len(tgz)*6/10], 0o644) }), []int{exitStuck, exitInconclusive}},
		{"tar.gz bundle truncated at 5%", mk("cut5.tar.gz", func(p string) error { return os.WriteFile(p, tgz[:len(tgz)/20], 0o644) }), []int{exitStuck, exitInconclusive, exitUsage}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"-o", "json", c.path}
			var code int
			var errs string
			if strings.HasPrefix(c.path, "/dev/") {
				var out, eb bytes.Buffer
				done := make(chan int, 1)
				go func() { done <- run(args, &out, &eb) }()
				select {
				case code = <-done:
				case <-time.After(hostile.HangCap(30 * time.Second)):
					t.Fatal("hangs")
				}
				errs = eb.String()
			} else {
				code, _, errs = runGuarded(t, 30*time.Second, args...)
			}
			ok := false
			for _, w := range c.want {
				ok = ok || code == w
			}
			if !ok {
				t.Errorf("exit %d, want one of %v; stderr:\n%s", code, c.want, errs)
			}
			if code != exitUsage && c.name != "whole tar.gz bundle" && !strings.Contains(errs, "warn") {
				t.Errorf("partial damage without a warning on stderr:\n%s", errs)
			}
		})
	}
}

// TestHostileManyEmptyFiles: a directory of a million empty files is read in bounded
// time and memory, and does not flood the report with a million warnings.
func TestHostileManyEmptyFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy case skipped with -short")
	}
	n := 1000000
	parent := t.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		// tmpfs: creating and removing a million entries is several times faster
		if d, err := os.MkdirTemp("/dev/shm", "nsanalyze-hostile-"); err == nil {
			parent = d
			t.Cleanup(func() { os.RemoveAll(d) })
		}
	}
	dir := filepath.Join(parent, "bundle")
	if err := hostile.CopyTree(filepath.Join("..", "..", hostile.BaseBundle), dir); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := hostile.ManyEmptyFiles(filepath.Join(dir, "empties"), n); err != nil {
		t.Fatal(err)
	}
	t.Logf("created %d empty files in %s", n, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"-o", "json", dir}, &out, &errb) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(hostile.HangCap(5 * time.Minute)):
		t.Fatalf("did not finish within %s", hostile.HangCap(5*time.Minute))
	}
	runtime.ReadMemStats(&m1)
	t.Logf("analysed in %s, heap grew by %d MB", time.Since(start).Round(time.Millisecond), (int64(m1.HeapSys)-int64(m0.HeapSys))>>20)
	if code != exitStuck {
		t.Errorf("exit %d, want %d", code, exitStuck)
	}
	var r hostileReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) > 100 {
		t.Errorf("%d warnings for empty files; want them summarised", len(r.Warnings))
	}
	if grew := int64(m1.HeapSys) - int64(m0.HeapSys); grew > 1<<30 {
		t.Errorf("heap grew by %d MB", grew>>20)
	}
}

// sortedWarnings is a helper for failure messages.
func sortedWarnings(r hostileReport) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Message))
	}
	sort.Strings(out)
	return out
}

// TestHostileRewritesChangeNothing: the same evidence in another encoding (CRLF, ANSI
// colours, bytes that are not UTF-8, NUL padding, gzip, no final newline) gives the same
// findings; only NUL padding deserves a warning.
func TestHostileRewritesChangeNothing(t *testing.T) {
	_, base, _ := analyzeJSON(t, baseCopy(t))
	for _, rw := range hostile.Rewrites() {
		t.Run(rw.Name, func(t *testing.T) {
			dir := baseCopy(t)
			p := filepath.Join(dir, rw.File)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel := rw.File
			if rw.Rename != "" {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				rel, p = rw.Rename, filepath.Join(dir, rw.Rename)
			}
			if err := os.WriteFile(p, rw.Apply(b), 0o644); err != nil {
				t.Fatal(err)
			}
			code, r, errs := analyzeJSON(t, dir)
			if code != exitStuck {
				t.Errorf("exit %d; stderr:\n%s", code, errs)
			}
			if got, want := r.findings(), base.findings(); got != want {
				t.Errorf("findings changed:\n got %s\nwant %s", got, want)
			}
			want := 0
			if rw.Warns {
				want = 1
			}
			n := 0
			for _, w := range r.Warnings {
				if w.File == rel {
					n++
				}
			}
			if len(r.Warnings)-len(base.Warnings) != want || n != want {
				t.Errorf("want %d new warning(s) naming %s, got %q", want, rel, sortedWarnings(r))
			}
		})
	}
}

// TestHostileNoTerminalEscapes: names and messages from a bundle cannot send escape
// sequences (clear screen, set title, hyperlinks, 8-bit CSI) or invisible characters
// (bidi overrides, zero-width) to the terminal of whoever reads the report, the diff or
// the warnings: no output holds one raw (shellsafe.Unsafe), nor a byte that is not UTF-8.
func TestHostileNoTerminalEscapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	ns := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"evil\u001b[2Jns\u202e\u200b\u009b","deletionTimestamp":"2026-01-01T00:00:00Z"},"spec":{"finalizers":["kubernetes","x\u001b[8m"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"True\u2066","reason":"Discovery\u0007Failed","message":"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: \u001b]0;pwned\u0007stale\r\u001b[1A\ufeff","lastTransitionTime":"2026-01-01T00:00:05Z"}]}}]}`
	os.WriteFile(filepath.Join(dir, "namespaces.json"), []byte(ns), 0o644)
	os.WriteFile(filepath.Join(dir, "logs", "kube-controller-manager.log"),
		[]byte("E0101 00:00:10.000000       1 namespace_controller.go:164] deletion of namespace evil\x1b[2Jns failed: \x1b]0;pwned\x07\x9b2J unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x\n"), 0o644)
	// a broken file whose name carries escapes: its warning names it on stderr
	os.WriteFile(filepath.Join(dir, "bad\x1b]0;title\x07\u202e\x9b.json"), []byte(`{"apiVersion":"v1","kind":"List","items":[{`), 0o644)
	check := func(what, s string) {
		for i, r := range s {
			if shellsafe.Unsafe(r) || r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd") {
				t.Errorf("%s holds %q at byte %d: %q", what, r, i, s[max(0, i-40):min(len(s), i+40)])
				return
			}
		}
	}
	for _, format := range []string{"text", "markdown", "json", "html"} {
		code, out, errs := runGuarded(t, time.Minute, "-v", "info", "-o", format, dir)
		if code != exitStuck {
			t.Fatalf("%s: exit %d\n%s", format, code, errs)
		}
		if !strings.Contains(errs, "bad") {
			t.Errorf("no warning for the broken file on stderr: %q", errs)
		}
		check(format+" stdout", out)
		check(format+" stderr", errs)
	}
	for _, format := range []string{"text", "json"} {
		var out, errb bytes.Buffer
		run([]string{"diff", "-o", format, dir, dir}, &out, &errb)
		check("diff "+format+" stdout", out.String())
		check("diff "+format+" stderr", errb.String())
	}
}
