package collect

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// shells are the shells the script must run under; a missing one is skipped by name.
var shells = []struct {
	name string
	argv []string
}{
	{"bash", []string{"bash"}},
	{"dash", []string{"dash"}},
	{"busybox", []string{"busybox", "sh"}},
}

func haveShell(t *testing.T, argv []string) bool {
	t.Helper()
	if _, err := exec.LookPath(argv[0]); err != nil {
		t.Skipf("%s not installed (apt-get install %s)", argv[0], argv[0])
		return false
	}
	return true
}

// readVerbs are the only kubectl verbs the script may use.
var readVerbs = map[string]bool{"get": true, "logs": true, "api-resources": true, "version": true}

// mutating are kubectl verbs (and raw methods) that write to a cluster or reach into it.
var mutating = []string{"create", "apply", "delete", "patch", "replace", "edit", "label", "annotate", "scale",
	"drain", "cordon", "uncordon", "taint", "exec", "cp", "port-forward", "proxy", "run", "expose", "set",
	"rollout", "autoscale", "attach", "debug", "certificate", "--raw=", "PUT", "POST"}

// callProblem says why a logged call is not a read ("" when it is one).
func callProblem(args []string) string {
	if len(args) == 2 && args[0] == "config" && args[1] == "current-context" {
		return "" // reads the local kubeconfig only
	}
	if len(args) == 0 || !strings.HasPrefix(args[0], "--request-timeout=") {
		return fmt.Sprintf("call without --request-timeout first: %q", args)
	}
	args = args[1:]
	if len(args) == 0 || !readVerbs[args[0]] {
		return fmt.Sprintf("not a read verb: %q", args)
	}
	for _, a := range args {
		for _, m := range mutating {
			if a == m || strings.HasSuffix(m, "=") && strings.HasPrefix(a, m) {
				return fmt.Sprintf("mutating word %q in call %q", a, args)
			}
		}
	}
	for i, a := range args {
		if a == "--raw" || strings.HasPrefix(a, "--raw=") {
			if args[0] != "get" || a != "--raw" || i+1 >= len(args) || (args[i+1] != "/api" && args[i+1] != "/apis") {
				return fmt.Sprintf("--raw only on GET /api and /apis, got %q", args)
			}
		}
	}
	return ""
}

func TestCallProblem(t *testing.T) {
	to := "--request-timeout=30s"
	for _, bad := range [][]string{
		{to, "delete", "ns", "x"}, {to, "patch", "ns", "x"}, {to, "get", "--raw", "/api/v1/namespaces/x/finalize"},
		{to, "replace", "--raw", "/api/v1/namespaces/x/finalize", "-f", "-"}, {to, "exec", "p", "--", "sh"},
		{"get", "pods"}, {to, "label", "ns", "x", "a=b"}, {to, "rollout", "restart", "deploy/x"},
		{to, "get", "pods", "--raw=/api"}, {"config", "set-context", "x"},
	} {
		if callProblem(bad) == "" {
			t.Errorf("%q passed as a read", bad)
		}
	}
	for _, ok := range [][]string{{to, "get", "--raw", "/apis"}, {to, "logs", "-n", "kube-system", "p", "--previous"}, {"config", "current-context"}} {
		if p := callProblem(ok); p != "" {
			t.Errorf("%q: %s", ok, p)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for _, s := range []string{"", "plain", "it's", "'", "''", `a"b`, "$(touch pwned)", "`id`", "a b\tc", "x\\'y"} {
		for _, sh := range shells {
			if _, err := exec.LookPath(sh.argv[0]); err != nil {
				continue
			}
			args := append(append([]string{}, sh.argv[1:]...), "-c", "printf '%s' "+shellsafe.QuoteAlways(s))
			out, err := exec.Command(sh.argv[0], args...).Output()
			if err != nil || string(out) != s {
				t.Errorf("%s: QuoteAlways(%q) came back as %q (%v)", sh.name, s, out, err)
			}
		}
	}
}

func TestOptionsRejected(t *testing.T) {
	for _, o := range []Options{
		{Namespaces: []string{"ok", "Bad;rm"}},
		{Namespaces: []string{"$(x)"}},
		{RequestTimeout: "30s; rm -rf /"},
		{RequestTimeout: "10ms"},
		{RequestTimeout: "0"}, {RequestTimeout: "0s"}, {RequestTimeout: "s"}, {RequestTimeout: "h"}, {RequestTimeout: "ms"}, {RequestTimeout: "00m"},
		{Deadline: "0"}, {Deadline: "forever"}, {Deadline: "1d"},
		{OutDir: "a\nb"},
	} {
		if _, err := Script(o); err == nil {
			t.Errorf("Script(%+v) accepted", o)
		}
	}
}

func TestScriptSyntax(t *testing.T) {
	s, err := Script(Options{Namespaces: []string{"kube-system"}, OutDir: "/tmp/it's here"})
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "collect.sh")
	if err := os.WriteFile(f, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sh := range shells {
		t.Run(sh.name, func(t *testing.T) {
			haveShell(t, sh.argv)
			args := append(append([]string{}, sh.argv[1:]...), "-n", f)
			if out, err := exec.Command(sh.argv[0], args...).CombinedOutput(); err != nil {
				t.Fatalf("%s -n: %v\n%s", sh.name, err, out)
			}
		})
	}
}

// kubectlCall matches every kubectl invocation in the script text: through kq, the
// saving helpers, or "$K" directly.
var kubectlCall = regexp.MustCompile(`(?m)(?:^\s*|[;&|(]\s*|\$\(|if |! )(kq|nsa_save|nsa_save_log|nsa_lines|"\$K")\s+(.*)$`)

// scriptProblems checks the script text itself: every kubectl call uses a read verb, and
// no mutating verb appears as a word in a call.
func scriptProblems(s string) (calls int, problems []string) {
	for _, m := range kubectlCall.FindAllStringSubmatch(s, -1) {
		fields := strings.Fields(m[2])
		if m[1] == "nsa_save" || m[1] == "nsa_save_log" || m[1] == "nsa_lines" {
			fields = fields[1:] // the output file
		}
		if m[1] == `"$K"` {
			if strings.HasPrefix(m[2], `--request-timeout="$nsa_timeout" "$@"`) || strings.HasPrefix(m[2], "config current-context") {
				calls++
				continue
			}
			problems = append(problems, "direct kubectl call: "+m[0])
			continue
		}
		if len(fields) > 0 && fields[0] == `"$@"` {
			continue // the helpers' own bodies
		}
		calls++
		if len(fields) == 0 || !readVerbs[fields[0]] {
			problems = append(problems, fmt.Sprintf("kubectl call with verb %q: %s", fields, m[0]))
		}
		for _, f := range fields {
			for _, w := range mutating {
				if f == w {
					problems = append(problems, fmt.Sprintf("mutating word %q in: %s", f, m[0]))
				}
			}
		}
	}
	return calls, problems
}

func TestScriptTextReadOnly(t *testing.T) {
	s, err := Script(Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls, problems := scriptProblems(s)
	for _, p := range problems {
		t.Error(p)
	}
	if calls < 30 {
		t.Errorf("found only %d kubectl calls in the script; the pattern is broken", calls)
	}
	for _, bad := range []string{"nsa_save x.json delete ns foo", "  kq patch ns x -p '{}'", `x=$(kq exec p -- id)`,
		`"$K" replace --raw /api/v1/namespaces/x/finalize -f f`, "nsa_lines f get pods --raw=/api -o json; kq label ns a b=c"} {
		if _, p := scriptProblems(s + "\n" + bad + "\n"); len(p) == 0 {
			t.Errorf("not caught: %s", bad)
		}
	}
}

// runStub runs the script under a shell with the stub kubectl first on PATH and returns
// the archive path, the stub's call log and stderr.
func runStub(t *testing.T, argv []string, viaStdin bool, o Options) (archive string, calls [][]string, stderr string) {
	t.Helper()
	dir := t.TempDir()
	stubDir, err := filepath.Abs("testdata/stub")
	if err != nil {
		t.Fatal(err)
	}
	script, err := Script(o)
	if err != nil {
		t.Fatal(err)
	}
	sf := filepath.Join(dir, "collect.sh")
	if err := os.WriteFile(sf, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "stub.log")
	var cmd *exec.Cmd
	if viaStdin {
		cmd = exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = strings.NewReader(script)
	} else {
		cmd = exec.Command(argv[0], append(append([]string{}, argv[1:]...), sf)...)
	}
	cmd.Dir = dir
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "KUBECTL=") && !strings.HasPrefix(e, "NSA_") && !strings.HasPrefix(e, "PATH=") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, "PATH="+stubDir+":"+os.Getenv("PATH"), "STUB_LOG="+log,
		"STUB_CONTEXT=prod/eu;`touch pwned-ctx`$(touch pwned-ctx2) 'x'", "TMPDIR="+dir)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("script failed: %v\nstderr:\n%s", err, errb.String())
	}
	if b, err := os.ReadFile(log + ".unexpected"); err == nil {
		t.Errorf("the stub got calls it has no answer for:\n%s", b)
	}
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		calls = append(calls, strings.Split(strings.TrimSuffix(line, "\x1f"), "\x1f"))
	}
	// nothing from the cluster was executed
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "pwned") {
			t.Errorf("a cluster-supplied value was executed: %s exists", p)
		}
		return nil
	})
	matches, _ := filepath.Glob(filepath.Join(dir, o.OutDir, "nsanalyze-*.tar.gz"))
	if len(matches) != 1 {
		t.Fatalf("want one archive in %s, got %v\nstderr:\n%s", o.OutDir, matches, errb.String())
	}
	return matches[0], calls, errb.String()
}

func tarNames(t *testing.T, archive string) (root string, files map[string]string) {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	files = map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := strings.TrimPrefix(h.Name, "./")
		r, rest, _ := strings.Cut(name, "/")
		if root == "" {
			root = r
		} else if root != r {
			t.Errorf("two top directories: %s and %s", root, r)
		}
		b, _ := io.ReadAll(tr)
		files[rest] = string(b)
	}
	return root, files
}

func TestScriptWithStubKubectl(t *testing.T) {
	want := []string{
		"collect-summary.md",
		"cluster/version.json", "cluster/api.json", "cluster/apis.json",
		"cluster/api-resources.txt", "cluster/api-resources.stderr.txt",
		"cluster/namespaces.json", "cluster/apiservices.json", "cluster/crds.json",
		"cluster/validatingwebhookconfigurations.json", "cluster/mutatingwebhookconfigurations.json",
		"cluster/events.json", "cluster/leases.json",
		"namespaces/stuck/namespace.json", "namespaces/stuck/pods.json", "namespaces/stuck/configmaps.json",
		"namespaces/stuck/widgets.example.com.stderr.txt",
		"namespaces/kube-system/namespace.json", "namespaces/kube-system/pods.json",
		"backends/kube-system/service-metrics-server.json", "backends/kube-system/endpoints-metrics-server.json",
		"backends/kube-system/endpointslices-metrics-server.json", "backends/kube-system/pods-metrics-server.json",
		"backends/nodes/node-1.json",
		"backends/widget-system/service-widget-webhook.stderr.txt",
		"backends/widget-system/endpointslices-widget-webhook.json",
		"backends/hooks/service-hook-svc.stderr.txt",
		"logs/kube-apiserver-node-1/kube-apiserver.log",
		"logs/kube-controller-manager-node-1/kube-controller-manager.log",
	}
	notWant := []string{"namespaces/stuck/widgets.example.com.json", "backends/widget-system/service-widget-webhook.json",
		"logs/kube-apiserver-node-1/kube-apiserver-previous.log"}
	for _, sh := range shells {
		for _, stdin := range []bool{false, true} {
			name := sh.name + "/file"
			if stdin {
				name = sh.name + "/stdin"
			}
			t.Run(name, func(t *testing.T) {
				haveShell(t, sh.argv)
				archive, calls, stderr := runStub(t, sh.argv, stdin, Options{Namespaces: []string{"kube-system"}, OutDir: "out dir/it's"})
				if len(calls) < 30 {
					t.Errorf("only %d kubectl calls", len(calls))
				}
				for _, c := range calls {
					if p := callProblem(c); p != "" {
						t.Error(p)
					}
				}
				if !regexp.MustCompile(`^nsanalyze-prod_eu__touch_pwned-ctx___touch_pwned-ctx2___x_-\d{8}T\d{6}Z\.tar\.gz$`).MatchString(filepath.Base(archive)) {
					t.Errorf("archive name %q", filepath.Base(archive))
				}
				root, files := tarNames(t, archive)
				if root+".tar.gz" != filepath.Base(archive) {
					t.Errorf("top directory %q does not match the archive name", root)
				}
				for _, w := range want {
					if _, ok := files[w]; !ok {
						t.Errorf("missing %s", w)
					}
				}
				for _, w := range notWant {
					if _, ok := files[w]; ok {
						t.Errorf("unexpected %s", w)
					}
				}
				for f := range files {
					if strings.Contains(f, "..") || strings.Contains(f, ";") || strings.Contains(f, "$") || strings.Contains(f, "Evil") {
						t.Errorf("file name from an invalid cluster value: %q", f)
					}
				}
				sum := files["collect-summary.md"]
				for _, w := range []string{"COULD NOT SAVE `namespaces/stuck/widgets.example.com.json`",
					"PARTIAL `cluster/api-resources.txt`", "saved `namespaces/stuck/pods.json`",
					"not available: `logs/kube-apiserver-node-1/kube-apiserver-previous.log`",
					"no cloud-controller-manager pod in kube-system", "skipped a namespace with an unexpected name"} {
					if !strings.Contains(sum, w) {
						t.Errorf("summary lacks %q:\n%s", w, sum)
					}
				}
				for _, w := range []string{"could not be saved", "COULD NOT SAVE `namespaces/stuck/widgets.example.com.json`",
					"no cloud-controller-manager pod", "wrote " + "out dir/it's/" + root + ".tar.gz"} {
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr lacks %q:\n%s", w, stderr)
					}
				}
				if !strings.Contains(files["namespaces/stuck/widgets.example.com.stderr.txt"], "conversion webhook") {
					t.Errorf("stderr of a failed get not kept")
				}

				// nsanalyze reads the archive in the plain kubectl layout
				rec, err := bundle.Load(archive, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(rec.Layouts, bundle.LayoutKubectl) { // (its .txt files are kubectl text too)
					t.Errorf("layouts %v", rec.Layouts)
				}
				rep := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
				var stuck []string
				for _, ns := range rep.Namespaces {
					stuck = append(stuck, ns.Name)
				}
				if strings.Join(stuck, ",") != "stuck" {
					t.Errorf("stuck namespaces %v", stuck)
				}
				comps := map[string]bool{}
				for _, lf := range rec.LogFiles {
					comps[lf.Component] = true
				}
				if !comps["kube-apiserver"] || !comps["kube-controller-manager"] {
					t.Errorf("log components %v", comps)
				}
			})
		}
	}
}

// TestKubectlOverride: KUBECTL names the client, and the NSA_* environment overrides the
// baked-in settings.
func TestKubectlOverride(t *testing.T) {
	haveShell(t, []string{"dash"})
	dir := t.TempDir()
	stub, _ := filepath.Abs("testdata/stub/kubectl")
	s, err := Script(Options{RequestTimeout: "30s"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dash", "-s")
	cmd.Stdin = strings.NewReader(s)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "KUBECTL="+stub, "NSA_TIMEOUT=7s", "NSA_OUT_DIR="+dir, "STUB_LOG="+filepath.Join(dir, "log"), "STUB_CONTEXT=c")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "log"))
	if !strings.Contains(string(b), "--request-timeout=7s\x1f") || strings.Contains(string(b), "--request-timeout=30s") {
		t.Errorf("NSA_TIMEOUT not used:\n%s", b)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "nsanalyze-c-*.tar.gz"))
	if len(m) != 1 {
		t.Errorf("archive not in NSA_OUT_DIR: %v", m)
	}
	cmd = exec.Command("dash", "-s")
	cmd.Stdin = strings.NewReader(s)
	cmd.Env = append(os.Environ(), "KUBECTL="+stub, "NSA_TIMEOUT=30s;rm", "STUB_LOG="+filepath.Join(dir, "log2"))
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "bad timeout") {
		t.Errorf("a bad NSA_TIMEOUT was accepted: %v %s", err, out)
	}
	// timeouts and deadlines that mean "none" are refused
	for _, env := range []string{"NSA_TIMEOUT=0", "NSA_TIMEOUT=s", "NSA_TIMEOUT=h", "NSA_TIMEOUT=ms", "NSA_TIMEOUT=0s", "NSA_TIMEOUT=000m",
		"NSA_DEADLINE=0", "NSA_DEADLINE=0s", "NSA_DEADLINE=h", "NSA_DEADLINE=never"} {
		cmd = exec.Command("dash", "-s")
		cmd.Stdin = strings.NewReader(s)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "KUBECTL="+stub, env, "STUB_LOG="+filepath.Join(dir, "log3"), "STUB_CONTEXT=c")
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "bad ") {
			t.Errorf("%s was accepted: %v %s", env, err, out)
		}
	}
}

// TestScriptDeadline: a kubectl that ignores --request-timeout and hangs cannot hang the
// script: at NSA_DEADLINE the call is stopped, no other call is made, and what was saved
// is archived with the deadline said in the summary.
func TestScriptDeadline(t *testing.T) {
	haveShell(t, []string{"dash"})
	dir := t.TempDir()
	stub, _ := filepath.Abs("testdata/stub/kubectl")
	s, err := Script(Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dash", "-s")
	cmd.Stdin = strings.NewReader(s)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "KUBECTL="+stub, "NSA_DEADLINE=2s", "NSA_OUT_DIR="+dir, "STUB_LOG="+filepath.Join(dir, "log"), "STUB_CONTEXT=c", "STUB_HANG=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d := time.Since(start); d > hostile.HangCap(15*time.Second) {
		t.Errorf("the script took %s with a 2s deadline", d)
	}
	if !strings.Contains(string(out), "DEADLINE") {
		t.Errorf("the deadline is not said:\n%s", out)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "nsanalyze-c-*.tar.gz"))
	if len(m) != 1 {
		t.Fatalf("no archive: %v\n%s", m, out)
	}
	_, files := tarNames(t, m[0])
	if !strings.Contains(files["collect-summary.md"], "DEADLINE") || files["cluster/version.json"] == "" {
		t.Errorf("archive: summary %q, version %q", files["collect-summary.md"], files["cluster/version.json"])
	}
	b, _ := os.ReadFile(filepath.Join(dir, "log"))
	if calls := strings.Count(string(b), "\n"); calls > 8 {
		t.Errorf("%d kubectl calls after a 2s deadline: later calls were not skipped", calls)
	}
}

// secretTemplate is the go-template the script uses for Secrets.
func secretTemplate(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^nsa_secret_meta='([^']*)'$`).FindStringSubmatch(scriptBody)
	if m == nil {
		t.Fatal("no nsa_secret_meta in the script")
	}
	return m[1]
}

// TestSecretsMetadataOnly: the script never saves a Secret's data: it asks for Secrets
// with the metadata template only, the template (run by text/template over the
// unstructured object, as kubectl's go-template output does) yields valid JSON that
// nsanalyze reads and holds no value of the data, no annotation and no label, and the
// header and summary say what is left out.
func TestSecretsMetadataOnly(t *testing.T) {
	var secrets map[string]any
	raw := `{"apiVersion":"v1","kind":"SecretList","items":[
	 {"apiVersion":"v1","kind":"Secret","metadata":{"name":"db-creds","namespace":"shop","uid":"0b0f6c55-1111-4222-8333-444455556666",
	   "creationTimestamp":"2026-01-01T00:00:00Z","deletionTimestamp":"2026-01-02T00:00:00Z","finalizers":["example.com/keep"],
	   "ownerReferences":[{"apiVersion":"v1","kind":"ServiceAccount","name":"sa","uid":"u1"}],
	   "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"data\":{\"password\":\"aHVudGVyMg==\"}}"},
	   "labels":{"owner":"jane"}},
	  "type":"kubernetes.io/basic-auth","data":{"password":"aHVudGVyMg==","username":"YWRtaW4="}},
	 {"apiVersion":"v1","kind":"Secret","metadata":{"name":"empty","namespace":"shop"}}]}`
	if err := json.Unmarshal([]byte(raw), &secrets); err != nil {
		t.Fatal(err)
	}
	tmpl, err := template.New("t").Parse(secretTemplate(t))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, secrets); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Items []struct {
			Metadata struct {
				Name            string           `json:"name"`
				Namespace       string           `json:"namespace"`
				UID             string           `json:"uid"`
				Finalizers      []string         `json:"finalizers"`
				DeletionTS      string           `json:"deletionTimestamp"`
				OwnerReferences []map[string]any `json:"ownerReferences"`
			} `json:"metadata"`
			Type     string   `json:"type"`
			DataKeys []string `json:"dataKeys"`
		} `json:"items"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("the template's output is not JSON: %v\n%s", err, out.String())
	}
	for _, leak := range []string{"aHVudGVyMg", "YWRtaW4", "hunter2", "last-applied", "jane"} {
		if strings.Contains(out.String(), leak) {
			t.Errorf("%q reaches the archive: %s", leak, out.String())
		}
	}
	if len(got.Items) != 2 || got.Items[0].Metadata.Name != "db-creds" || got.Items[0].Type != "kubernetes.io/basic-auth" ||
		strings.Join(got.Items[0].DataKeys, ",") != "password,username," || got.Items[0].Metadata.Finalizers[0] != "example.com/keep" ||
		got.Items[0].Metadata.DeletionTS == "" || got.Items[0].Metadata.OwnerReferences[0]["name"] != "sa" || got.Items[1].Metadata.Name != "empty" {
		t.Errorf("metadata lost: %+v", got)
	}
	script, _ := Script(Options{})
	for _, must := range []string{"Left out: the data of Secrets", "SECRETS: metadata only"} {
		if !strings.Contains(script, must) {
			t.Errorf("the script's header does not say %q", must)
		}
	}
	if !strings.Contains(scriptBody, `secrets) nsa_save "namespaces/$nsa_ns/secrets.json" get secrets -n "$nsa_ns" -o "go-template=$nsa_secret_meta"`) {
		t.Error("Secrets are not read with the metadata template")
	}
}

// TestTroubleshootSpec validates the spec against troubleshoot.sh's published JSON schema
// for SupportBundle v1beta2 (testdata: the collectors the spec uses, extracted from
// replicatedhq/troubleshoot schemas/supportbundle-troubleshoot-v1beta2.json). The schema is
// made stricter than troubleshoot's (unknown fields are an error, not pruned), so a
// misspelt field fails here instead of being silently dropped by troubleshoot.
func TestTroubleshootSpec(t *testing.T) {
	for _, o := range []Options{{}, {LogTail: 20000}} {
		spec, err := TroubleshootSpec(o)
		if err != nil {
			t.Fatal(err)
		}
		j, err := yaml.YAMLToJSON([]byte(spec))
		if err != nil {
			t.Fatalf("not YAML: %v\n%s", err, spec)
		}
		raw, err := os.ReadFile("testdata/supportbundle-v1beta2-collectors.schema.json")
		if err != nil {
			t.Fatal(err)
		}
		var schemaDoc any
		if err := json.Unmarshal(raw, &schemaDoc); err != nil {
			t.Fatal(err)
		}
		strict(schemaDoc)
		c := jsonschema.NewCompiler()
		if err := c.AddResource("sb.json", schemaDoc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("sb.json")
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("spec does not validate against troubleshoot's schema: %v\n%s", err, spec)
		}
		var sb struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Spec       struct {
				Collectors []map[string]json.RawMessage `json:"collectors"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(j, &sb); err != nil {
			t.Fatal(err)
		}
		if sb.APIVersion != "troubleshoot.sh/v1beta2" || sb.Kind != "SupportBundle" {
			t.Errorf("apiVersion/kind %s %s", sb.APIVersion, sb.Kind)
		}
		var kinds []string
		logSel := map[string]bool{}
		for _, col := range sb.Spec.Collectors {
			for k, v := range col {
				kinds = append(kinds, k)
				if k == "logs" {
					var l struct {
						Namespace string   `json:"namespace"`
						Selector  []string `json:"selector"`
					}
					json.Unmarshal(v, &l)
					if l.Namespace != "kube-system" {
						t.Errorf("logs collector outside kube-system: %s", v)
					}
					for _, s := range l.Selector {
						logSel[s] = true
					}
				}
			}
		}
		sort.Strings(kinds)
		if got := strings.Join(kinds, ","); got != "clusterInfo,clusterResources,logs,logs,logs,logs,logs" {
			t.Errorf("collectors %s", got)
		}
		for _, s := range []string{"component=kube-apiserver", "component=kube-controller-manager", "component=cloud-controller-manager"} {
			if !logSel[s] {
				t.Errorf("no logs collector for %s", s)
			}
		}
	}
}

// strict sets additionalProperties: false on every object schema with properties and no
// additionalProperties of its own.
func strict(v any) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["properties"]; ok {
			if _, ok := x["additionalProperties"]; !ok {
				x["additionalProperties"] = false
			}
		}
		for _, c := range x {
			strict(c)
		}
	case []any:
		for _, c := range x {
			strict(c)
		}
	}
}

// TestScriptEscapesWhatItPrints: a context name and a server's error message holding
// ESC sequences (set the title, clear the screen, 8-bit CSI) reach neither the
// customer's terminal nor the summary raw.
func TestScriptEscapesWhatItPrints(t *testing.T) {
	haveShell(t, []string{"dash"})
	dir := t.TempDir()
	stub, _ := filepath.Abs("testdata/stub/kubectl")
	s, err := Script(Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dash", "-s")
	cmd.Stdin = strings.NewReader(s)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "KUBECTL="+stub, "NSA_OUT_DIR="+dir, "STUB_LOG="+filepath.Join(dir, "log"),
		"STUB_CONTEXT=prod\x1b]0;pwned\x07\x1b[2J", "STUB_ESC=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "cleared") || !strings.Contains(errb.String(), "prod?]0;pwned??[2J") {
		t.Errorf("the context or the error is not shown (escaped):\n%q", errb.String())
	}
	if strings.ContainsAny(errb.String(), "\x1b\x07") || strings.Contains(errb.String(), "\x9b") || strings.Contains(errb.String(), "\xc2\x9b") {
		t.Errorf("raw control characters on stderr: %q", errb.String())
	}
	m, _ := filepath.Glob(filepath.Join(dir, "nsanalyze-*.tar.gz"))
	if len(m) != 1 {
		t.Fatalf("no archive: %v", m)
	}
	_, files := tarNames(t, m[0])
	if strings.ContainsAny(files["collect-summary.md"], "\x1b\x07") || strings.Contains(files["collect-summary.md"], "\x9b") {
		t.Errorf("raw control characters in the summary: %q", files["collect-summary.md"])
	}
}
