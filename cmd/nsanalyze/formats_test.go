package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/admissionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
)

func realBundle(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "fixtures", "realdata", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("committed fixture %s missing", p)
	}
	return p
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestFailOn(t *testing.T) {
	b := realBundle(t, "a-discovery-failure")
	for _, tc := range []struct {
		flag string
		want int
	}{{"none", 0}, {"stuck", 1}, {"risk", 1}, {"bogus", 2}} {
		if code, _, errOut := runCmd("--fail-on", tc.flag, "-o", "json", b); code != tc.want {
			t.Errorf("--fail-on %s: exit %d, want %d (%s)", tc.flag, code, tc.want, errOut)
		}
	}
	if code, _, _ := runCmd("--fail-on", "none", filepath.Join(t.TempDir(), "missing")); code != exitUsage {
		t.Errorf("unreadable input with --fail-on none: exit %d, want 2", code)
	}
	r := &findings.Report{Risks: []findings.Risk{{Type: apidiscovery.Name}}}
	if c, _ := exitCodeFor(r, "risk"); c != 1 {
		t.Errorf("a latent risk with --fail-on risk: exit %d, want 1", c)
	}
	if c, _ := exitCodeFor(r, "stuck"); c != 0 {
		t.Errorf("a latent risk with --fail-on stuck: exit %d, want 0", c)
	}
}

func TestColor(t *testing.T) {
	b := realBundle(t, "a-discovery-failure")
	_, plain, _ := runCmd(b) // stdout is a buffer: auto means no colour
	if strings.Contains(plain, "\x1b[") {
		t.Error("--color auto wrote ANSI escapes to a non-terminal")
	}
	_, col, _ := runCmd("--color", "always", b)
	if !strings.Contains(col, "\x1b[") {
		t.Error("--color always wrote no ANSI escape")
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if c, _ := useColor("auto", os.Stdout, env(map[string]string{"NO_COLOR": "1"})); c {
		t.Error("NO_COLOR is not honoured")
	}
	if c, _ := useColor("always", os.Stdout, env(map[string]string{"NO_COLOR": "1"})); !c {
		t.Error("--color always should win over NO_COLOR")
	}
	if code, _, _ := runCmd("--color", "sometimes", b); code != exitUsage {
		t.Error("invalid --color accepted")
	}
}

func TestQuietAndProgressOffWhenNotTerminal(t *testing.T) {
	b := realBundle(t, "a-discovery-failure")
	_, _, errOut := runCmd(b)
	if strings.Contains(errOut, "read ") || strings.Contains(errOut, "\r") {
		t.Errorf("progress written to a non-terminal stderr: %q", errOut)
	}
}

func TestEveryFormat(t *testing.T) {
	b := realBundle(t, "c-webhook-content-failure")
	for _, f := range []string{"text", "markdown", "json", "html"} {
		code, out, errOut := runCmd("-o", f, b)
		if code != exitStuck || out == "" {
			t.Errorf("-o %s: exit %d, %d bytes (%s)", f, code, len(out), errOut)
		}
	}
}

func TestRedactFlag(t *testing.T) {
	b := realBundle(t, "c-webhook-content-failure")
	_, out, _ := runCmd("--redact", "-o", "json", b)
	for _, name := range []string{"appteam", "configmap-guard", "webhook-system", "realdata"} {
		if strings.Contains(out, name) {
			t.Errorf("--redact left %q in the JSON report", name)
		}
	}
	var r findings.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Namespaces) != 1 || r.Namespaces[0].Causes[0].Type != admissionwebhook.Name {
		t.Errorf("redacted report lost its finding: %v", err)
	}
}

func TestExplain(t *testing.T) {
	code, out, _ := runCmd("explain")
	if code != 0 {
		t.Fatalf("explain: exit %d", code)
	}
	for _, r := range rules.All {
		if !strings.Contains(out, r.Name) {
			t.Errorf("explain does not list %s", r.Name)
		}
		code, out, errOut := runCmd("explain", r.Name)
		if code != 0 || !strings.Contains(out, strings.TrimSpace(strings.SplitN(r.Doc, "\n", 2)[0])) ||
			!strings.Contains(out, "Remediation ladder") || !strings.Contains(out, "[destructive]") {
			t.Errorf("explain %s: exit %d, output:\n%s%s", r.Name, code, out, errOut)
		}
	}
	if code, _, _ := runCmd("explain", "undetermined"); code != 0 {
		t.Error("explain undetermined failed")
	}
	if code, _, _ := runCmd("explain", "no-such-cause"); code != exitUsage {
		t.Error("explain of an unknown cause should exit 2")
	}
}

func TestDiff(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	c := sameClusterAs(t, realBundle(t, "c-webhook-content-failure"), a) // diff compares one cluster
	code, out, errOut := runCmd("diff", "-o", "json", a, c)
	if code != exitStuck {
		t.Fatalf("diff: exit %d (%s)", code, errOut)
	}
	var d Diff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Resolved) != 1 || d.Resolved[0].Name != "tobedeleted" || len(d.NewlyStuck) != 1 || d.NewlyStuck[0].Name != "appteam" || len(d.StillStuck) != 0 {
		t.Errorf("diff a -> c: %+v", d)
	}
	_, out, _ = runCmd("diff", a, a)
	if !strings.Contains(out, "still stuck") || !strings.Contains(out, "same causes") {
		t.Errorf("diff a -> a:\n%s", out)
	}
	if code, _, _ := runCmd("diff", "--fail-on", "none", a, a); code != 0 {
		t.Error("diff --fail-on none should exit 0")
	}
	_, out, _ = runCmd("diff", "--redact", a, c)
	if strings.Contains(out, "tobedeleted") || strings.Contains(out, "appteam") {
		t.Errorf("diff --redact left names:\n%s", out)
	}
	if code, _, _ := runCmd("diff", a); code != exitUsage {
		t.Error("diff with one bundle should exit 2")
	}
}

func TestDiffReportsCauses(t *testing.T) {
	ns := func(name string, causes ...findings.Cause) findings.NamespaceReport {
		return findings.NamespaceReport{Name: name, Causes: causes}
	}
	disc := findings.Cause{Type: apidiscovery.Name, APIServices: []string{"v1beta1.metrics.k8s.io"}}
	fin := findings.Cause{Type: finalizers.Name, Finalizers: []string{"example.com/x"}}
	old := &findings.Report{Namespaces: []findings.NamespaceReport{ns("a", disc), ns("b", disc)},
		Risks: []findings.Risk{{Type: apidiscovery.Name, Object: "APIService/v1beta1.metrics.k8s.io"}}}
	nw := &findings.Report{Namespaces: []findings.NamespaceReport{ns("b", fin), ns("c", fin)}}
	d := diffReports(old, nw)
	if len(d.Resolved) != 1 || d.Resolved[0].Name != "a" {
		t.Errorf("resolved: %+v", d.Resolved)
	}
	if len(d.StillStuck) != 1 || len(d.StillStuck[0].FixedCauses) != 1 || len(d.StillStuck[0].AddedCauses) != 1 ||
		!strings.HasPrefix(d.StillStuck[0].AddedCauses[0], finalizers.Name) {
		t.Errorf("still stuck: %+v", d.StillStuck)
	}
	if len(d.NewlyStuck) != 1 || d.NewlyStuck[0].Name != "c" || len(d.RisksGone) != 1 || len(d.RisksNew) != 0 {
		t.Errorf("newly stuck %+v, risks gone %+v, new %+v", d.NewlyStuck, d.RisksGone, d.RisksNew)
	}
	var buf bytes.Buffer
	writeDiffText(&buf, d)
	for _, s := range []string{"Resolved", "Still stuck", "causes changed", "fixed:", "new:", "Newly stuck", "Latent risks gone"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("diff text lacks %q:\n%s", s, buf.String())
		}
	}
}

// TestProfile: --profile cpu|heap writes a pprof file (gzip-compressed protobuf) to
// --profile-output; an unknown kind or an unwritable path is a usage error.
func TestProfile(t *testing.T) {
	b := realBundle(t, "a-discovery-failure")
	for _, kind := range []string{"cpu", "heap"} {
		out := filepath.Join(t.TempDir(), kind+".pprof")
		if f := flag.Lookup("test.cpuprofile"); kind == "cpu" && f != nil && f.Value.String() != "" {
			// go test -cpuprofile holds the process's one CPU profile: --profile cpu must
			// say so as a usage error (and the rest of the package can still be profiled)
			if code, _, errOut := runCmd("--profile", kind, "--profile-output", out, "-o", "json", b); code != exitUsage || !strings.Contains(errOut, "already in use") {
				t.Errorf("--profile cpu under go test -cpuprofile: exit %d (%s)", code, errOut)
			}
			continue
		}
		if code, _, errOut := runCmd("--profile", kind, "--profile-output", out, "-o", "json", b); code != 1 {
			t.Fatalf("--profile %s: exit %d (%s)", kind, code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Errorf("--profile %s: %s is not a gzip-compressed profile (%v)", kind, out, err)
		}
	}
	if code, _, _ := runCmd("--profile", "mutex", b); code != exitUsage {
		t.Errorf("--profile mutex: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := runCmd("--profile", "cpu", "--profile-output", filepath.Join(t.TempDir(), "no", "such", "dir", "p"), b); code != exitUsage {
		t.Errorf("unwritable --profile-output: exit %d, want %d", code, exitUsage)
	}
}

// TestFlagErrorsAndHelp: both commands end with 2 on an unknown flag (pflag prints it
// with the usage) and with 0 on --help.
func TestFlagErrorsAndHelp(t *testing.T) {
	for _, cmd := range [][]string{{}, {"diff"}} {
		code, _, errOut := runCmd(append(cmd, "--bogus")...)
		if code != exitUsage || !strings.Contains(errOut, "unknown flag: --bogus") || !strings.Contains(errOut, "Usage:") {
			t.Errorf("%v --bogus: exit %d, stderr %q", cmd, code, errOut)
		}
		code, out, errOut := runCmd(append(cmd, "--help")...)
		if code != exitNotStuck || !strings.Contains(out+errOut, "Usage:") {
			t.Errorf("%v --help: exit %d", cmd, code)
		}
	}
}
