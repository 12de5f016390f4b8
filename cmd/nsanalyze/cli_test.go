package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// TestVersion: `nsanalyze version` and `--version` print the module version and the VCS
// revision of the build ("(devel)" and "unknown" when the build info has none).
func TestVersion(t *testing.T) {
	saved := readBuildInfo
	defer func() { readBuildInfo = saved }()
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "5b092b4abcdef"}, {Key: "vcs.modified", Value: "true"}}}, true
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := runCmd(args...)
		if code != exitNotStuck || !strings.HasPrefix(out, "nsanalyze v1.4.0\n") || !strings.Contains(out, "revision: 5b092b4abcdef (modified work tree)") {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errOut)
		}
	}
	if g := generator(); g.Version != "v1.4.0" || g.Revision != "5b092b4abcdef-dirty" {
		t.Errorf("generator %+v", g)
	}
	readBuildInfo = func() (*debug.BuildInfo, bool) { return nil, false }
	if _, out, _ := runCmd("version"); !strings.HasPrefix(out, "nsanalyze (devel)\n") || !strings.Contains(out, "revision: unknown") {
		t.Errorf("without build info: %q", out)
	}
	if code, _, errOut := runCmd("version", "extra"); code != exitUsage || !strings.Contains(errOut, "error:") {
		t.Errorf("version extra: exit %d, stderr %q", code, errOut)
	}
}

// TestGeneratorInReports: the reports and diffs name the nsanalyze that wrote them.
func TestGeneratorInReports(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	_, out, _ := runCmd("-o", "json", a)
	var r findings.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Generator == nil || r.Generator.Name != "nsanalyze" || r.Generator.Version == "" {
		t.Errorf("report generator %+v", r.Generator)
	}
	for _, f := range []string{"text", "markdown", "html"} {
		if _, out, _ := runCmd("-o", f, a); !strings.Contains(out, "nsanalyze "+r.Generator.Version) {
			t.Errorf("%s report does not name its generator", f)
		}
	}
	_, out, _ = runCmd("diff", "-o", "json", a, a)
	var d Diff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Generator == nil || d.Generator.Name != "nsanalyze" {
		t.Errorf("diff generator %+v", d.Generator)
	}
}

func tarGz(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func spools(t *testing.T) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(os.TempDir(), "nsanalyze-stdin-*"))
	return m
}

// TestStdinBundle: "-" reads an archive or a single file from standard input, spooled
// to a temporary directory that is removed afterwards; the report names the bundle "-".
func TestStdinBundle(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	saved := stdin
	defer func() { stdin = saved }()
	before := len(spools(t))

	stdin = bytes.NewReader(tarGz(t, a))
	code, out, errOut := runCmd("-o", "json", "-")
	var r findings.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s", code, err, errOut)
	}
	if code != exitStuck || len(r.Namespaces) != 1 || r.Namespaces[0].Name != "tobedeleted" || r.Bundle.Path != "-" {
		t.Errorf("archive on stdin: exit %d, namespaces %d, path %q", code, len(r.Namespaces), r.Bundle.Path)
	}

	single, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "handmade", "metrics-server-unreachable-route", "cluster", "namespaces.json"))
	if err != nil {
		t.Fatal(err)
	}
	stdin = bytes.NewReader(single)
	code, out, _ = runCmd("-o", "json", "-")
	r = findings.Report{}
	_ = json.Unmarshal([]byte(out), &r)
	if code != exitStuck || len(r.Namespaces) != 1 || r.Namespaces[0].Name != "team-a" {
		t.Errorf("single file on stdin: exit %d, namespaces %+v", code, r.Namespaces)
	}

	stdin = bytes.NewReader(nil)
	if code, _, errOut := runCmd("-"); code != exitUsage || !strings.Contains(errOut, "standard input is empty") {
		t.Errorf("empty stdin: exit %d, stderr %q", code, errOut)
	}
	stdin = bytes.NewReader(single)
	if code, _, errOut := runCmd("-", "-"); code != exitUsage || !strings.Contains(errOut, "only once") {
		t.Errorf("- twice: exit %d, stderr %q", code, errOut)
	}
	stdin = bytes.NewReader(tarGz(t, a))
	code, out, _ = runCmd("diff", "-o", "json", "-", a)
	var d Diff
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.Old != "-" || len(d.StillStuck) != 1 {
		t.Errorf("diff - A: exit %d, %+v (%v)", code, d, err)
	}
	if after := len(spools(t)); after > before {
		t.Errorf("%d spool directories left in %s", after-before, os.TempDir())
	}
}

// TestDiffFormatsAndNamespaces: diff writes text, Markdown and JSON; -n limits it.
func TestDiffFormatsAndNamespaces(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	c := sameClusterAs(t, realBundle(t, "c-webhook-content-failure"), a) // diff compares one cluster
	_, out, _ := runCmd("diff", "-o", "markdown", a, c)
	for _, want := range []string{"# nsanalyze diff", "## Resolved", "| `tobedeleted` |", "## Newly stuck", "| `appteam` |"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff -o markdown lacks %q:\n%s", want, out)
		}
	}
	code, out, _ := runCmd("diff", "-o", "json", "-n", "tobedeleted", a, c)
	var d Diff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Resolved) != 1 || len(d.NewlyStuck) != 0 || strings.Join(d.Namespaces, ",") != "tobedeleted" {
		t.Errorf("diff -n tobedeleted: exit %d, %+v", code, d)
	}
	_, out, _ = runCmd("diff", "--namespace", "appteam", a, c)
	if strings.Contains(out, "tobedeleted") || !strings.Contains(out, "appteam") || !strings.Contains(out, "namespaces appteam only") {
		t.Errorf("diff --namespace appteam:\n%s", out)
	}
}

// TestExplainJSON: explain -o json lists the causes or explains one with its ladder.
func TestExplainJSON(t *testing.T) {
	code, out, _ := runCmd("explain", "-o", "json")
	var list []explainJSON
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || len(list) < 5 {
		t.Fatalf("explain -o json: exit %d, %v\n%s", code, err, out)
	}
	code, out, _ = runCmd("explain", "-o", "json", "discovery")
	var one explainJSON
	if err := json.Unmarshal([]byte(out), &one); err != nil || code != 0 || one.Name != "api-discovery-failure" || len(one.Ladder) == 0 || one.Doc == "" {
		t.Errorf("explain -o json discovery: exit %d, %+v (%v)", code, one, err)
	}
	_, out, _ = runCmd("explain", "discovery")
	if !strings.Contains(out, "     $ kubectl") {
		t.Errorf("explain text: commands not on their own line:\n%s", out)
	}
}

// TestUsageMistakes: every usage mistake exits 2 with an "error:" line saying what is wrong.
func TestUsageMistakes(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "expected at least one BUNDLE"},
		{[]string{"-o", "yaml", a}, `invalid --output "yaml"`},
		{[]string{"--bogus", a}, "unknown flag: --bogus"},
		{[]string{"--color", "sometimes", a}, "error:"},
		{[]string{"--fail-on", "maybe", a}, "error:"},
		{[]string{"-v", "loud", a}, "invalid --verbosity"},
		{[]string{"--log-timezone", "Mars/Olympus", a}, "invalid --log-timezone"},
		{[]string{"version", "now"}, "version takes no argument"},
		{[]string{"explain", "-o", "json", "X"}, `unknown cause "X"`},
		{[]string{"explain", "-o", "yaml"}, `invalid --output "yaml" for explain`},
		{[]string{"explain", "webhook"}, "ambiguous"},
		{[]string{"explain", "a", "b"}, "at most one CAUSE"},
		{[]string{"explain", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"diff", a}, "expected OLD and NEW"},
		{[]string{"diff", "-o", "html", a, a}, `invalid --output "html" for diff`},
		{[]string{"diff", "--fail-on", "maybe", a, a}, "error:"},
		{[]string{"diff", "--bogus", a, a}, "unknown flag: --bogus"},
	} {
		code, _, errOut := runCmd(tc.args...)
		if code != exitUsage || !strings.Contains(errOut, "error:") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestColumns: the text report follows $COLUMNS within sane limits.
func TestColumns(t *testing.T) {
	for env, want := range map[string]int{"": 100, "abc": 100, "0": 100, "-5": 100, "80": 80, "20": 60, "400": 200, " 120 ": 120} {
		if got := textWidth(func(string) string { return env }); got != want {
			t.Errorf("COLUMNS=%q: width %d, want %d", env, got, want)
		}
	}
	_ = io.Discard
}
