package web

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/fixtures"
	"github.com/nsanalyze/nsanalyze/fixtures/browser"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// page is a browser with the page open, for tests: every error fails the test.
type page struct {
	*browser.Browser
	t testing.TB
}

func (p page) eval(expr string) {
	p.t.Helper()
	if err := p.Eval(expr, nil); err != nil {
		p.t.Fatal(err)
	}
}

func (p page) evalString(expr string) string {
	p.t.Helper()
	var s string
	if err := p.Eval(expr, &s); err != nil {
		p.t.Fatal(err)
	}
	return s
}

func (p page) waitFor(t testing.TB, what, cond string, d time.Duration) time.Duration {
	t.Helper()
	took, err := p.WaitFor(cond, d)
	if err != nil {
		t.Fatalf("%s: %v after %s (status: %q)", what, err, took.Round(time.Millisecond), p.String(`document.getElementById("status").textContent`))
	}
	return took
}

func (p page) drop(t testing.TB, path string) {
	t.Helper()
	if err := p.Drop("#drop", path); err != nil {
		t.Fatal(err)
	}
}

// openPage starts Chromium and opens the page at path (fragment: "#watchdog=30" or "").
func openPage(t testing.TB, bin, path, fragment, downloads string) (page, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostile.HangCap(10*time.Minute))
	t.Cleanup(cancel)
	b, err := browser.Start(ctx, bin, t.TempDir(), downloads)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	url := "file://" + filepath.ToSlash(path)
	if err := b.Navigate(url + fragment); err != nil {
		t.Fatal(err)
	}
	return page{b, t}, url
}

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if p, err := exec.LookPath(filepath.Join(os.Getenv("GOROOT"), "bin", "go")); err == nil && os.Getenv("GOROOT") != "" {
		return p
	}
	return "go"
}

// buildPage builds the WebAssembly module of cmd/nsanalyze-web and the page, as
// `make web` does, into dir; it returns the page's path and the module's size.
func buildPage(t testing.TB, dir string) (string, int) {
	t.Helper()
	wasm := filepath.Join(dir, "nsanalyze-web.wasm")
	cmd := exec.Command(goTool(), "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "../../../cmd/nsanalyze-web")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the WebAssembly module: %v\n%s", err, out)
	}
	root, err := exec.Command(goTool(), "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := Page(mod, execJS)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "nsanalyze.html")
	if err := os.WriteFile(p, page, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, len(mod)
}

// cliJSON runs the nsanalyze command on path and returns its JSON report.
func cliJSON(t *testing.T, cli, path string) []byte {
	t.Helper()
	out, code, stderr := cliRun(cli, path)
	if code == 2 || code < 0 {
		t.Fatalf("nsanalyze %s: exit code %d\n%s", path, code, stderr)
	}
	return out
}

// cliRun runs the nsanalyze command on path, in path's directory so that the report
// names it as the page does (by its name), and returns its JSON report, its exit code
// (-1: it did not run) and its stderr.
func cliRun(cli, path string) ([]byte, int, string) {
	cmd := exec.Command(cli, "-o", "json", "-q", filepath.Base(path))
	cmd.Dir = filepath.Dir(path)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
		errb.WriteString(err.Error())
	}
	return out.Bytes(), code, errb.String()
}

// sameDiagnosis compares two JSON reports but for who wrote them.
func sameDiagnosis(t *testing.T, what string, page, cli []byte) {
	t.Helper()
	var a, b map[string]any
	if err := json.Unmarshal(page, &a); err != nil {
		t.Fatalf("%s: the page's JSON: %v\n%.300s", what, err, page)
	}
	if err := json.Unmarshal(cli, &b); err != nil {
		t.Fatalf("%s: the command's JSON: %v", what, err)
	}
	delete(a, "generator")
	delete(b, "generator")
	if !reflect.DeepEqual(a, b) {
		ja, _ := json.MarshalIndent(a, "", " ")
		jb, _ := json.MarshalIndent(b, "", " ")
		la, lb := strings.Split(string(ja), "\n"), strings.Split(string(jb), "\n")
		var diff []string
		for i := 0; i < len(la) || i < len(lb); i++ {
			var x, y string
			if i < len(la) {
				x = la[i]
			}
			if i < len(lb) {
				y = lb[i]
			}
			if x != y && len(diff) < 20 {
				diff = append(diff, fmt.Sprintf("line %d:\n  page: %.300s\n  cli:  %.300s", i+1, x, y))
			}
		}
		t.Errorf("%s: the page's report differs from the command's:\n%s", what, strings.Join(diff, "\n"))
	}
}

// tarGz packs the directory dir into a .tar.gz under its base name.
func tarGz(t testing.TB, dir, out string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	base := filepath.Base(dir)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if err := tw.WriteHeader(&tar.Header{Name: base + "/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)),
			ModTime: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = os.WriteFile(out, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestPageInBrowser opens the page from file:// in headless Chromium, driven over the
// DevTools protocol on a pipe, with every host name resolving to nothing, and checks:
// a real ticket pasted gives the report the command gives on the same text; a real
// bundle dropped as a .tar.gz (built here from a fixture directory) likewise; a gzip
// bomb is refused with a message and the page still answers afterwards; the JSON is
// downloaded; and the page asked for nothing but itself (and the worker it makes from
// its own text) with no Content-Security-Policy violation.
func TestPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP -short: builds the WebAssembly page and runs Chromium")
	}
	bin := browser.Find()
	if bin == "" {
		t.Skip("SKIP browser test: no chromium found (install Debian's \"chromium\" package or set NSANALYZE_CHROMIUM)")
	}
	dir := t.TempDir()
	pagePath, size := buildPage(t, dir)
	t.Logf("WebAssembly module: %d bytes", size)
	cli := filepath.Join(dir, "nsanalyze")
	if out, err := exec.Command(goTool(), "build", "-o", cli, "../../../cmd/nsanalyze").CombinedOutput(); err != nil {
		t.Fatalf("building nsanalyze: %v\n%s", err, out)
	}
	downloads := t.TempDir()
	const watchdog = 30 // seconds, for the bomb
	b, url := openPage(t, bin, pagePath, "#watchdog="+strconv.Itoa(watchdog), downloads)
	took := b.waitFor(t, "the analyser is ready", `document.body.dataset.ready === "true"`, hostile.HangCap(time.Minute))
	t.Logf("ready %s after navigation", took.Round(time.Millisecond))

	analysed := func(t testing.TB, what string) {
		t.Helper()
		b.waitFor(t, what+" analysed", `document.body.dataset.busy === "false" && document.body.dataset.exitCode !== undefined`, hostile.HangCap(2*time.Minute))
	}
	reset := func() {
		b.eval(`delete document.body.dataset.exitCode`)
	}
	downloadJSON := func(t testing.TB) []byte {
		t.Helper()
		p := filepath.Join(downloads, "nsanalyze-report.json")
		_ = os.Remove(p)
		b.eval(`document.querySelector('#downloads button[data-format="json"]').click()`)
		deadline := time.Now().Add(hostile.HangCap(30 * time.Second))
		for time.Now().Before(deadline) {
			if data, err := os.ReadFile(p); err == nil && json.Valid(data) {
				return data
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no JSON report downloaded into %s", downloads)
		return nil
	}

	t.Run("paste", func(t *testing.T) {
		src := filepath.Join("..", "..", "..", "fixtures", "realworld", "gke-autopilot-129-numeric-namespace-names-table", "cloudshell.txt")
		text, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		saved := filepath.Join(t.TempDir(), PasteName)
		if err := os.WriteFile(saved, text, 0o644); err != nil {
			t.Fatal(err)
		}
		reset()
		js, _ := json.Marshal(string(text))
		b.eval(`document.getElementById("paste").value = ` + string(js) + `; document.getElementById("analyse-paste").click()`)
		analysed(t, "the pasted ticket")
		if code := b.evalString(`document.body.dataset.exitCode`); code != "1" {
			t.Errorf("exit code %s, want 1 (stuck); status %q", code, b.evalString(`document.getElementById("status").textContent`))
		}
		if s := b.evalString(`document.getElementById("report").srcdoc`); !strings.Contains(s, `<section id="summary">`) {
			t.Errorf("the HTML report is not shown (srcdoc: %.200s)", s)
		}
		sameDiagnosis(t, "pasted "+src, downloadJSON(t), cliJSON(t, cli, saved))
		// docs/web.png: NSANALYZE_SCREENSHOT_DIR=docs go test ./internal/web -run TestPageInBrowser
		if shots := os.Getenv("NSANALYZE_SCREENSHOT_DIR"); shots != "" {
			b.eval(`window.scrollTo(0, 0)`)
			png, err := b.Screenshot(1280, 1000)
			if err == nil {
				err = os.WriteFile(filepath.Join(shots, "web.png"), png, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	})

	// every real-world case whose input is one text, pasted one after another into the
	// same page: the page's report is the command's on the same text
	t.Run("paste-realworld", func(t *testing.T) {
		cases := textCases(t)
		start := time.Now()
		for _, c := range cases {
			text, err := os.ReadFile(filepath.Join(realworld, filepath.FromSlash(c)))
			if err != nil {
				t.Fatal(err)
			}
			reset()
			js, _ := json.Marshal(string(text))
			b.eval(`document.getElementById("paste").value = ` + string(js) + `; document.getElementById("analyse-paste").click()`)
			analysed(t, c)
			// the command reads the text as the page had it (the text box keeps line
			// breaks as \n and text as Unicode)
			saved := filepath.Join(t.TempDir(), PasteName)
			if err := os.WriteFile(saved, []byte(b.evalString(`document.getElementById("paste").value`)), 0o644); err != nil {
				t.Fatal(err)
			}
			samePage(t, "pasted "+c, b, downloadJSON, cli, saved)
		}
		t.Logf("%d real-world texts pasted in %s", len(cases), time.Since(start).Round(time.Millisecond))
	})

	// a sample of real bundles (made by real control planes), each dropped as a .tar.gz
	t.Run("drop-real-archives", func(t *testing.T) {
		start := time.Now()
		for _, d := range realArchives {
			archive := filepath.Join(t.TempDir(), filepath.Base(d)+".tar.gz")
			tarGz(t, filepath.Join("..", "..", "..", "fixtures", filepath.FromSlash(d)), archive)
			reset()
			b.drop(t, archive)
			analysed(t, d)
			samePage(t, "dropped "+d+".tar.gz", b, downloadJSON, cli, archive)
		}
		t.Logf("%d real bundles dropped in %s", len(realArchives), time.Since(start).Round(time.Millisecond))
	})

	t.Run("drop-archive", func(t *testing.T) {
		archive := filepath.Join(t.TempDir(), "a-discovery-failure.tar.gz")
		tarGz(t, filepath.Join("..", "..", "..", "fixtures", "realdata", "a-discovery-failure"), archive)
		reset()
		b.drop(t, archive)
		analysed(t, "the dropped archive")
		if code := b.evalString(`document.body.dataset.exitCode`); code != "1" {
			t.Errorf("exit code %s, want 1 (stuck); status %q", code, b.evalString(`document.getElementById("status").textContent`))
		}
		sameDiagnosis(t, "dropped "+archive, downloadJSON(t), cliJSON(t, cli, archive))
	})

	t.Run("pick-folder", func(t *testing.T) {
		folder, err := filepath.Abs(filepath.Join("..", "..", "..", "fixtures", "realdata", "b-finalizer-remaining"))
		if err != nil {
			t.Fatal(err)
		}
		reset()
		// (a folder dropped through the DevTools protocol cannot be read by the page: its
		// entries are not backed by files; the folder input takes the same path)
		if err := b.SetFiles("#pick-folder", folder); err != nil {
			t.Fatal(err)
		}
		analysed(t, "the picked folder")
		if code := b.evalString(`document.body.dataset.exitCode`); code != "1" {
			t.Errorf("exit code %s, want 1 (stuck); status %q %q", code, b.evalString(`document.getElementById("status").textContent`), b.evalString(`document.getElementById("error").textContent`))
		}
		sameDiagnosis(t, "picked "+folder, downloadJSON(t), cliJSON(t, cli, folder))
	})

	t.Run("gzip-bomb", func(t *testing.T) {
		bomb := filepath.Join(t.TempDir(), "kube-controller-manager.log.gz")
		if err := os.WriteFile(bomb, hostile.NestedGzipBomb(10<<30), 0o644); err != nil {
			t.Fatal(err)
		}
		reset()
		start := time.Now()
		b.drop(t, bomb)
		analysed(t, "the gzip bomb")
		t.Logf("gzip bomb refused after %s", time.Since(start).Round(time.Millisecond))
		// either nothing is readable (an error) or what was read before the limit is
		// reported: either way the page says it refused the rest, and why
		msg := b.evalString(`document.getElementById("error").textContent + " " + document.getElementById("notes").textContent`)
		if !strings.Contains(msg, "refused") || !strings.Contains(msg, "decompression bomb") {
			t.Errorf("the bomb was not refused with a message: status %q, message %q", b.evalString(`document.getElementById("status").textContent`), msg)
		}
		// the tab still answers: a ticket pasted now is analysed
		reset()
		b.eval(`document.getElementById("paste").value = "$ kubectl get ns\nNAME STATUS AGE\nshop Terminating 3d\n"; document.getElementById("analyse-paste").click()`)
		analysed(t, "a ticket after the bomb")
		if code := b.evalString(`document.body.dataset.exitCode`); code != "1" {
			t.Errorf("after the bomb, a pasted ticket gives exit code %s, want 1", code)
		}
	})

	for _, u := range b.Requests() {
		if strings.SplitN(u, "#", 2)[0] != url && !strings.HasPrefix(u, "blob:") {
			t.Errorf("the page asked for %s", u)
		}
	}
	for _, l := range b.Logs() {
		if strings.Contains(l, "Content Security Policy") || strings.Contains(l, "Content-Security-Policy") {
			t.Errorf("CSP violation: %s", l)
		}
	}
	if len(b.Requests()) == 0 {
		t.Errorf("no request seen at all: the network log does not work")
	}
}

// realworld is fixtures/realworld, seen from this package.
var realworld = filepath.Join("..", "..", "..", "fixtures", "realworld")

// realArchives are the real bundles the browser test drops as .tar.gz: captures of
// fixtures/realcluster's scenarios on three Kubernetes releases and of fixtures/realdata,
// in the bundle layouts they come in (YAML, JSON, cluster-info dump), one of each cause.
var realArchives = []string{
	"realdata/b-finalizer-remaining-json",
	"realdata/c-webhook-content-failure-clusterinfo",
	"real/v1.26.13/a2-discovery-failure-refused",
	"real/v1.35.8/d-conversion-webhook",
	"real/v1.35.8/e-namespace-finalizer-json",
	"real/v1.35.8/f-controller-not-running",
	"real/v1.34.4/g-ordered-deletion",
	"real/v1.36.3/h-apiservice-cabundle",
}

// textCases are the cases of fixtures/realworld whose input is one text file (what a
// user would paste): the one file of the case but for its README.md, expected.json and
// raw/, valid UTF-8 without NUL bytes. Paths are relative to fixtures/realworld.
func textCases(t *testing.T) []string {
	t.Helper()
	dirs, err := fixtures.Bundles(realworld)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		var inputs []string
		root := filepath.Join(realworld, filepath.FromSlash(d))
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if e.IsDir() && rel == "raw" {
				return filepath.SkipDir
			}
			if !e.IsDir() && rel != fixtures.Expected && rel != "README.md" {
				inputs = append(inputs, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(inputs) != 1 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(inputs[0])))
		if err != nil {
			t.Fatal(err)
		}
		if utf8.Valid(data) && !bytes.ContainsRune(data, 0) {
			out = append(out, d+"/"+inputs[0])
		}
	}
	if len(out) < len(dirs)/2 {
		t.Fatalf("only %d of the %d real-world cases are one text: the walk is wrong", len(out), len(dirs))
	}
	return out
}

// samePage checks the report the page shows for its last input: the command, run on
// path, exits with the page's exit code and writes the same JSON report (the page's
// downloaded); and the page's status says the report's state.
func samePage(t *testing.T, what string, b page, downloadJSON func(testing.TB) []byte, cli, path string) {
	t.Helper()
	want, code, stderr := cliRun(cli, path)
	if code < 0 {
		t.Fatalf("%s: nsanalyze: %s", what, stderr)
	}
	if got := b.evalString(`document.body.dataset.exitCode`); got != strconv.Itoa(code) {
		t.Errorf("%s: the page's exit code is %s, the command's %d (page: %q %q; command: %.300s)", what, got, code,
			b.evalString(`document.getElementById("status").textContent`), b.evalString(`document.getElementById("error").textContent`), stderr)
		return
	}
	if code == 2 {
		return // no report on either side
	}
	page := downloadJSON(t)
	sameDiagnosis(t, what, page, want)
	var r struct {
		State      string `json:"state"`
		Namespaces []struct {
			Name   string `json:"name"`
			Causes []struct {
				Type string `json:"type"`
			} `json:"causes"`
		} `json:"namespaces"`
	}
	if err := json.Unmarshal(page, &r); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var ns []string
	for _, n := range r.Namespaces {
		var kinds []string
		for _, c := range n.Causes {
			kinds = append(kinds, c.Type)
		}
		ns = append(ns, n.Name+"("+strings.Join(kinds, ",")+")")
	}
	shows := map[string]string{"stuck": "stuck", "none-stuck": "fine"}[r.State]
	if shows == "" {
		shows = "unknown"
	}
	if status := b.evalString(`document.getElementById("status").className`); status != shows {
		t.Errorf("%s: the page shows %q for state %q", what, status, r.State)
	}
	t.Logf("%s: exit %d, %s %s", what, code, r.State, strings.Join(ns, " "))
}
