package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// TestBundleFSNames: one file is read as itself, files of one folder as that folder,
// anything else as "." of them all; names that climb out or are absolute become clean
// paths inside the bundle; a repeated or empty name, a file that is also a folder and
// what goes beyond MaxInputBytes are left out with a note.
func TestBundleFSNames(t *testing.T) {
	d := []byte("x")
	for _, tc := range []struct {
		names []string
		want  string
		files []string
		notes int
	}{
		{[]string{"bundle.tar.gz"}, "bundle.tar.gz", []string{"bundle.tar.gz"}, 0},
		{[]string{"b/cluster/ns.json", "b/logs/kcm.log"}, "b", []string{"b/cluster/ns.json", "b/logs/kcm.log"}, 0},
		{[]string{"b/only.json"}, "b", []string{"b/only.json"}, 0},
		{[]string{"a.json", "b/c.log"}, ".", []string{"a.json", "b/c.log"}, 0},
		{[]string{"../../etc/passwd", "/abs/x", `win\path\y`}, ".", []string{"abs/x", "etc/passwd", "win/path/y"}, 0},
		{[]string{"a", "a"}, "a", []string{"a"}, 1},
		{[]string{"", "/", "."}, "", nil, 3},
		{[]string{"a/b", "a/b/c"}, "a", []string{"a/b/c"}, 1},
	} {
		var in []File
		for _, n := range tc.names {
			in = append(in, File{Name: n, Data: d})
		}
		fsys, name, notes := bundleFS(in)
		var got []string
		for n := range fsys.files {
			got = append(got, n)
			if !fs.ValidPath(n) {
				t.Errorf("%q: %q is not a valid path", tc.names, n)
			}
		}
		sort.Strings(got)
		if name != tc.want || strings.Join(got, ",") != strings.Join(tc.files, ",") || len(notes) != tc.notes {
			t.Errorf("%q: read %q of %q with notes %q; want %q of %q with %d notes", tc.names, name, got, notes, tc.want, tc.files, tc.notes)
		}
	}
	big := make([]byte, MaxInputBytes/2+1)
	_, _, notes := bundleFS([]File{{Name: "a", Data: big}, {Name: "b", Data: big}})
	if len(notes) != 1 || !strings.Contains(notes[0], "at most") {
		t.Errorf("beyond MaxInputBytes: notes %q", notes)
	}
}

// TestAnalyzeRealworld: a pasted real ticket gets the exit code its case expects, and
// every report is written; a dropped folder and the same files as a .tar.gz give the
// same diagnosis.
func TestAnalyzeRealworld(t *testing.T) {
	for _, c := range []struct {
		file string
		code int
	}{
		{"gke-autopilot-129-numeric-namespace-names-table/cloudshell.txt", 1},
		{"agones-133-apiservice-row-only-inconclusive/leftover.txt", 3},
		{"k3s-journald-helm-ns-413-metrics-log-only/susetest-paste.txt", 1},
	} {
		text, err := os.ReadFile(filepath.Join("..", "..", "..", "fixtures", "realworld", filepath.FromSlash(c.file)))
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze([]File{{Name: PasteName, Data: text}}, Options{})
		if r.Error != "" || r.ExitCode != c.code {
			t.Errorf("%s: exit code %d (error %q), want %d", c.file, r.ExitCode, r.Error, c.code)
		}
		reports := map[string][]byte{}
		for _, f := range Formats {
			b, err := r.Render(f)
			if err != nil || len(b) == 0 {
				t.Errorf("%s: no %s report (%v)", c.file, f, err)
			}
			reports[f] = b
		}
		if !bytes.Equal(reports["html"], r.HTML) {
			t.Errorf("%s: the HTML report shown is not the one rendered", c.file)
		}
		if !json.Valid(reports["json"]) {
			t.Errorf("%s: the JSON report is not JSON", c.file)
		}
		red := Analyze([]File{{Name: PasteName, Data: text}}, Options{Redact: true})
		redJSON, _ := red.Render("json")
		if red.ExitCode != r.ExitCode || bytes.Equal(redJSON, reports["json"]) {
			t.Errorf("%s: --redact changed the exit code (%d, %d) or nothing", c.file, red.ExitCode, r.ExitCode)
		}
	}
	var folder []File
	root := filepath.Join("..", "..", "..", "fixtures", "realdata", "a-discovery-failure")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(filepath.Dir(root), p)
			folder = append(folder, File{Name: filepath.ToSlash(rel), Data: data})
		}
		return err
	})
	a := Analyze(folder, Options{})
	if a.ExitCode != 1 || a.Name != "a-discovery-failure" {
		t.Errorf("a dropped folder: exit code %d, read as %q", a.ExitCode, a.Name)
	}
}

// TestAnalyzeNothing: no input, and input that is not a bundle, are an error, not a report.
func TestAnalyzeNothing(t *testing.T) {
	for _, in := range [][]File{nil, {{Name: "x.bin", Data: []byte{0, 1, 2, 3}}}, {{Name: PasteName, Data: []byte("hello\n")}}} {
		r := Analyze(in, Options{})
		if r.Error == "" || r.ExitCode != 2 || r.HTML != nil {
			t.Errorf("%v: exit %d, error %q", in, r.ExitCode, r.Error)
		}
	}
}

// TestAnalyzeBomb: a gzip bomb is cut where the command cuts it, and the page says it
// refused the rest and why.
func TestAnalyzeBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP -short: inflates a GiB")
	}
	r := Analyze([]File{{Name: "kube-controller-manager.log.gz", Data: hostile.NestedGzipBomb(10 << 30)}}, Options{})
	if !strings.Contains(strings.Join(r.Notes, "\n"), "refused") {
		t.Errorf("no refusal in the notes %q (error %q)", r.Notes, r.Error)
	}
}

var scriptRE = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// TestPageCSP: the page's policy lets nothing be loaded or connected to, and the hash
// it gives is the hash of its one inline script.
func TestPageCSP(t *testing.T) {
	p, err := Page([]byte("\x00asm\x01\x00\x00\x00"), []byte("// wasm_exec.js\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`http-equiv="Content-Security-Policy" content="([^"]*)"`).FindSubmatch(p)
	if m == nil {
		t.Fatal("no Content-Security-Policy")
	}
	csp := string(m[1])
	for _, want := range []string{"default-src 'none'", "connect-src 'none'", "form-action 'none'", "base-uri 'none'", "'wasm-unsafe-eval'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the policy lacks %s: %s", want, csp)
		}
	}
	for _, bad := range []string{"'unsafe-inline'", "'unsafe-eval'", "http:", "https:", "data:", "*"} {
		if strings.Contains(csp, bad) {
			t.Errorf("the policy allows %s: %s", bad, csp)
		}
	}
	scripts := scriptRE.FindAllSubmatch(p, -1)
	if len(scripts) != 1 || !strings.Contains(csp, hash(string(scripts[0][1]))) {
		t.Errorf("%d executable scripts; the policy must hold the hash of the one: %s", len(scripts), csp)
	}
	if _, err := Page([]byte("not wasm"), nil); err == nil {
		t.Error("Page accepted a module that is not WebAssembly")
	}
	if _, err := Page([]byte("\x00asm"), []byte("x = '</script>'")); err == nil {
		t.Error("Page inlined a script holding </script>")
	}
}

// FuzzBundleFS: whatever names the browser gives, the files are held under valid
// paths, and reading them never fails but with an error.
func FuzzBundleFS(f *testing.F) {
	f.Add("a/b", "a/b/c", "../x")
	f.Add("/", ".", "")
	f.Add(`c:\x`, "a//b", "./a")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		fsys, name, _ := bundleFS([]File{{Name: a, Data: []byte("{}")}, {Name: b, Data: []byte("x")}, {Name: c}})
		for n := range fsys.files {
			if !fs.ValidPath(n) {
				t.Fatalf("invalid path %q", n)
			}
		}
		if name != "" && !fs.ValidPath(name) {
			t.Fatalf("invalid bundle name %q", name)
		}
		_ = Analyze([]File{{Name: a, Data: []byte("{}")}, {Name: b, Data: []byte("x")}, {Name: c}}, Options{})
	})
}

// TestMemFS: the dropped files' file system behaves as io/fs requires (fstest.TestFS:
// open, stat, read, seek, read at, folder listings in turns), files and the folders
// their paths imply.
func TestMemFS(t *testing.T) {
	fsys, _, _ := bundleFS([]File{
		{Name: "bundle/cluster-info/namespaces.json", Data: []byte(`{"kind":"NamespaceList","items":[]}`)},
		{Name: "bundle/cluster-info/kube-system/pods.json", Data: []byte("{}")},
		{Name: "bundle/ticket.md", Data: []byte("# stuck\n")},
		{Name: "bundle/empty.txt"},
	})
	if err := fstest.TestFS(fsys, "bundle/cluster-info/namespaces.json", "bundle/cluster-info/kube-system/pods.json", "bundle/ticket.md", "bundle/empty.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Open("bundle/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestMemFSLinear: walking the dropped files lists each folder once, whatever the
// number of folders: the work at 2n files in 2k folders is about twice that at n in k.
func TestMemFSLinear(t *testing.T) {
	walk := func(n int) int64 {
		var files []File
		for i := range n {
			files = append(files, File{Name: fmt.Sprintf("bundle/ns-%d/pods-%d.json", i/4, i), Data: []byte("{}")})
		}
		fsys, _, _ := bundleFS(files)
		seen := 0
		ops := work.Measure(func() {
			_ = fs.WalkDir(fsys, ".", func(string, fs.DirEntry, error) error { seen++; return nil })
		})
		if want := n + n/4 + 2; seen != want {
			t.Fatalf("%d files: the walk saw %d entries, want %d", n, seen, want)
		}
		return ops["memFS folder entries listed"]
	}
	a, b := walk(2000), walk(4000)
	if a == 0 || float64(b) > 2.2*float64(a) {
		t.Errorf("folder entries listed: %d at n, %d at 2n (want about twice)", a, b)
	}
}
