package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// copyTree copies the directory src to dst, passing every file through edit.
func copyTree(t *testing.T, src, dst string, edit func([]byte) []byte) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, edit(b), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// uidsOf returns the kube-system (or default) UIDs the bundle shows.
func uidsOf(t *testing.T, dir string) []string {
	t.Helper()
	rec, err := bundle.Load(dir, bundle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range clusterOf(rec).uids {
		_, uid, _ := strings.Cut(k, " ")
		out = append(out, uid)
	}
	return out
}

// sameClusterAs is a copy of the bundle src made to look like a later bundle of the
// cluster of like: its kube-system UID is like's.
func sameClusterAs(t *testing.T, src, like string) string {
	t.Helper()
	from, to := uidsOf(t, src), uidsOf(t, like)
	if len(from) != 1 || len(to) != 1 {
		t.Fatalf("kube-system UIDs %v in %s, %v in %s", from, src, to, like)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	copyTree(t, src, dst, func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(from[0]), []byte(to[0])) })
	return dst
}

// unrelatedDir is a folder of files that are no Kubernetes support bundle.
func unrelatedDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "holiday-photos")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"notes.txt": "shopping list\neggs\nmilk\n", "settings.json": `{"theme": "dark", "size": 3}`, "app.log": "started\nstopped\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestUnreadableSameExitEverywhere: a folder of unrelated files is an error of the one
// pipeline, with the same exit code, whichever command reads it: the analysis, either
// side of diff, scan (its line says why). diff never says "0 resolved" of it.
func TestUnreadableSameExitEverywhere(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	u := unrelatedDir(t)
	for _, args := range [][]string{{u}, {"-o", "json", u}, {"diff", u, u}, {"diff", a, u}, {"diff", u, a}, {"diff", "-o", "json", a, u}, {"diff", "--redact", a, u}} {
		code, out, errOut := runCmd(args...)
		if code != exitUsage || !strings.Contains(errOut, "error: nothing in ") || !strings.Contains(errOut, "could be read as a Kubernetes support bundle") || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"scan", "-q", "-o", "jsonl", u}, {"scan", "-q", u}} {
		code, out, errOut := runCmd(args...)
		if code != exitUsage || !strings.Contains(out, "could be read as a Kubernetes support bundle") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestDiffOtherCluster: diff of bundles of two clusters (another kube-system UID) is
// refused, never "1 resolved"; a NEW that cannot show namespace state (a cluster-info
// dump) makes OLD's stuck namespaces "not shown", never "resolved", and exits 3; the
// same cluster later is compared.
func TestDiffOtherCluster(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	c := realBundle(t, "c-webhook-content-failure")
	for _, args := range [][]string{{"diff", a, c}, {"diff", "-o", "json", c, a}, {"diff", "--redact", a, c}} {
		code, out, errOut := runCmd(args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "are bundles of different clusters: namespace kube-system has UID ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		if args[1] == "--redact" && strings.Contains(errOut, uidsOf(t, a)[0]) {
			t.Errorf("--redact printed a UID: %s", errOut)
		}
	}
	code, out, errOut := runCmd("diff", "-o", "json", a, realBundle(t, "a-discovery-failure-clusterinfo"))
	var d Diff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v: %s %s", err, out, errOut)
	}
	if code != exitInconclusive || len(d.Resolved) != 0 || len(d.NotShown) != 1 || d.NotShown[0].Name != "tobedeleted" || d.NewStateReason == "" {
		t.Errorf("diff to a cluster-info dump: exit %d, %+v", code, d)
	}
	_, out, _ = runCmd("diff", a, realBundle(t, "a-discovery-failure-clusterinfo"))
	if !strings.Contains(out, "0 resolved, 0 still stuck, 0 newly stuck, 1 not shown in NEW;") || !strings.Contains(out, "  ? tobedeleted (was: ") {
		t.Errorf("diff text to a cluster-info dump:\n%s", out)
	}
	if code, out, errOut := runCmd("diff", a, sameClusterAs(t, c, a)); code != exitStuck || !strings.Contains(out, "1 resolved, 0 still stuck, 1 newly stuck") {
		t.Errorf("same cluster later: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSameCluster: without UIDs, two listings that share no namespace but the built-in
// ones are two clusters; one namespace in common, or one side without a listing, is not
// evidence of two.
func TestSameCluster(t *testing.T) {
	ns := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	uid := func(u string) map[string]string { return map[string]string{"kube-system " + u: "f"} }
	for _, tc := range []struct {
		a, b identity
		same bool
	}{
		{identity{uids: uid("1")}, identity{uids: uid("1")}, true},
		{identity{uids: uid("1")}, identity{uids: uid("2")}, false},
		{identity{uids: uid("1"), namespaces: ns("shop")}, identity{uids: uid("1"), namespaces: ns("billing")}, true}, // the UID decides
		{identity{namespaces: ns("default", "kube-system", "shop")}, identity{namespaces: ns("default", "kube-system", "billing")}, false},
		{identity{namespaces: ns("default", "shop", "web")}, identity{namespaces: ns("default", "web")}, true},
		{identity{namespaces: ns("default", "shop")}, identity{namespaces: ns("default", "kube-system")}, true},
		{identity{namespaces: ns("shop")}, identity{}, true},
		{identity{}, identity{}, true},
	} {
		if same, why := sameCluster(tc.a, tc.b); same != tc.same || same != (why == "") {
			t.Errorf("%+v vs %+v: same %v (%s), want %v", tc.a, tc.b, same, why, tc.same)
		}
	}
}

// TestSeveralClustersRefused: the analysis of bundles of several clusters, given as
// several arguments or as one folder holding them, is refused with a pointer to scan;
// several bundles of one cluster are still one view.
func TestSeveralClustersRefused(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	c := realBundle(t, "c-webhook-content-failure")
	folder := t.TempDir()
	copyTree(t, a, filepath.Join(folder, "ticket-1"), func(b []byte) []byte { return b })
	copyTree(t, c, filepath.Join(folder, "ticket-2"), func(b []byte) []byte { return b })
	for _, args := range [][]string{{a, c}, {"-o", "json", c, a}, {folder}, {"--redact", folder}} {
		code, out, errOut := runCmd(args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "of 2 different clusters (namespace kube-system has UID ") || !strings.Contains(errOut, "nsanalyze scan ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, out, errOut := runCmd(a, sameClusterAs(t, c, a)); code != exitStuck || !strings.Contains(out, "tobedeleted") || !strings.Contains(out, "appteam") {
		t.Errorf("two bundles of one cluster: exit %d\n%s%s", code, out, errOut)
	}
	// archives that show no kube-system UID (cluster-info dumps): read as one, with a
	// warning pointing to scan
	archives := t.TempDir()
	for i, b := range []string{"a-discovery-failure-clusterinfo", "b-finalizer-remaining-clusterinfo"} {
		if err := os.WriteFile(filepath.Join(archives, fmt.Sprintf("ticket-%d.tar.gz", i)), tarGz(t, realBundle(t, b)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runCmd("-q", archives); code != exitInconclusive || !strings.Contains(errOut, "warning: "+archives+" holds 2 archives, read as one bundle of one cluster; ") || !strings.Contains(errOut, "nsanalyze scan "+archives) {
		t.Errorf("a folder of archives: exit %d, stderr %q", code, errOut)
	}
	if _, out, _ := runCmd("--help"); !strings.Contains(out, "bundles of different clusters") || !strings.Contains(out, "nsanalyze scan DIR|BUNDLE...") {
		t.Errorf("--help does not say what several bundles do")
	}
}

// TestMissingNamespacesNamed: every -n name the bundle does not hold is named on
// stderr, in the analysis and in diff, whether or not another one is stuck.
func TestMissingNamespacesNamed(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	for _, tc := range []struct {
		args    []string
		code    int
		missing []string
	}{
		{[]string{"-n", "tobedeleted,nosuch", a}, exitStuck, []string{"nosuch"}},
		{[]string{"-n", "tobedeleted", "-n", "nosuch", "-n", "other", "-o", "json", a}, exitStuck, []string{"nosuch", "other"}},
		{[]string{"-n", "nosuch", a}, exitInconclusive, []string{"nosuch"}},
		{[]string{"-n", "tobedeleted", a}, exitStuck, nil},
		{[]string{"diff", "-n", "tobedeleted,nosuch", a, a}, exitStuck, []string{"nosuch"}},
	} {
		code, _, errOut := runCmd(tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d", tc.args, code, tc.code)
		}
		got := regexp.MustCompile(`warning: -n (\S+): namespace "\S+" is not in `).FindAllStringSubmatch(errOut, -1)
		var names []string
		for _, g := range got {
			names = append(names, g[1])
		}
		want := tc.missing
		if tc.args[0] == "diff" {
			want = append(append([]string{}, want...), want...) // named for OLD and for NEW
		}
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("%q: named %q, want %q; stderr %s", tc.args, names, want, errOut)
		}
	}
}

// TestDiagnosticsOneStyle: every line on stderr is kubectl's "error: ", "warning: ",
// "info: " or "debug: ", logrus' included (no "time=... level=...").
func TestDiagnosticsOneStyle(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	style := regexp.MustCompile(`^(error|warning|info|debug): \S`)
	for _, args := range [][]string{{"-v", "debug", "-o", "json", a}, {"diff", "-v", "info", a, a}, {unrelatedDir(t)},
		{"-n", "nosuch", "--redact", a}, {"-v", "debug", filepath.Join("..", "..", "fixtures", "damage")}, {"--log-timezone", "Mars/Olympus", a}} {
		_, _, errOut := runCmd(args...)
		if errOut == "" {
			t.Errorf("%q: nothing on stderr", args)
		}
		for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
			if !style.MatchString(l) {
				t.Errorf("%q: stderr line %q", args, l)
				break
			}
		}
	}
}

// TestDidYouMean: a mistyped command is named with the command meant, as cobra does;
// a bundle that does not exist is not taken for a command.
func TestDidYouMean(t *testing.T) {
	for typo, want := range map[string]string{"expain": "explain", "scna": "scan", "dif": "diff", "verison": "version", "colect": "collect"} {
		code, out, errOut := runCmd(typo)
		if code != exitUsage || out != "" || !strings.Contains(errOut, `error: unknown command "`+typo+`" for "nsanalyze"`) || !strings.Contains(errOut, "Did you mean this?\n\t"+want+"\n") {
			t.Errorf("%s: exit %d, stderr %q", typo, code, errOut)
		}
	}
	if _, _, errOut := runCmd(filepath.Join(t.TempDir(), "nosuch")); strings.Contains(errOut, "Did you mean") {
		t.Errorf("a missing bundle taken for a command: %s", errOut)
	}
}

// shortWriter writes at most n bytes in all, then short writes without an error.
type shortWriter struct{ n int }

func (w *shortWriter) Write(p []byte) (int, error) {
	k := min(len(p), w.n)
	w.n -= k
	return k, nil
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk on fire") }

// TestEveryCommandChecksItsWrites: a write to stdout that fails or is short ends every
// command with exitWrite and the error on stderr, whatever the command found.
func TestEveryCommandChecksItsWrites(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	for _, args := range writeCases(a) {
		for _, w := range []io.Writer{failWriter{}, &shortWriter{n: 10}} {
			var errb bytes.Buffer
			code := run(args, w, &errb)
			if code != exitWrite || !strings.Contains(errb.String(), "error: cannot write ") {
				t.Errorf("%q to %T: exit %d, stderr %q", args, w, code, errb.String())
			}
		}
	}
}

// writeCases are command lines of every command that write to stdout.
func writeCases(bundle string) [][]string {
	return [][]string{
		{"-q", bundle}, {"-q", "-o", "json", "--fail-on", "none", bundle}, {"-q", "-o", "html", bundle}, {"-q", "-o", "markdown", "--fail-on", "risk", bundle},
		{"diff", "--fail-on", "none", bundle, bundle}, {"diff", "-o", "json", bundle, bundle}, {"diff", "-o", "markdown", bundle, bundle},
		{"scan", "-q", "-o", "jsonl", bundle}, {"scan", "-q", bundle},
		{"explain"}, {"explain", "discovery"}, {"explain", "-o", "json"},
		{"version"}, {"--version"}, {"help"}, {"help", "diff"}, {"--help"}, {"diff", "--help"},
		{"collect"}, {"collect", "-o", "troubleshoot"}, {"completion", "bash"},
	}
}
