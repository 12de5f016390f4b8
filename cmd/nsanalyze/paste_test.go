package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// The paste test: whoever reads a report pastes its commands into a shell. Every
// command of every report (remediation ladders, problems, latent risks' fixes, chain
// links' fixes, coverage collect commands) is run with sh -c in an empty directory
// whose PATH holds only stubs: kubectl, jq, xargs, grep, and base64 and openssl (which
// decode and print a caBundle's certificate) record their argv; touch,
// id, rm, cat, curl, ... leave a marker. A command passes when it parses (sh -n), runs
// nothing but the recording stubs, prints no INJECTED, creates no file, and every
// name it quotes reaches a stub as one argv word, byte-exact.

// recordingStubs are the programs a report's commands may run.
var recordingStubs = []string{"kubectl", "jq", "xargs", "grep", "base64", "openssl", "oc", "journalctl", "az", "aws", "gcloud", "talosctl"}

// markerStubs are programs an injected command would run.
var markerStubs = []string{"touch", "id", "rm", "cat", "curl", "wget", "sh", "bash", "env", "ls", "sleep", "nc",
	"python3", "perl", "chmod", "mv", "cp", "tee", "sed", "awk", "head", "tail", "xdg-open", "open"}

type pasteEnv struct {
	bin, log, cwd string
	// done holds what each command pasted so far gave: a command runs in a fresh
	// directory with the same stubs every time, so the same command (the fixtures
	// share many) gives the same problems and calls and is run once.
	done map[string]pasted
}

type pasted struct {
	problems []string
	calls    []call
}

func newPasteEnv(t *testing.T) *pasteEnv {
	t.Helper()
	root := t.TempDir()
	e := &pasteEnv{bin: filepath.Join(root, "bin"), log: filepath.Join(root, "log"), cwd: filepath.Join(root, "cwd"), done: map[string]pasted{}}
	for _, d := range []string{e.bin, e.log, e.cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range recordingStubs {
		// only shell builtins: PATH holds nothing else. $$ names one file per process.
		script := "#!/bin/sh\n{ printf '%s\\0' " + n + ` "$#"; for a in "$@"; do printf '%s\0' "$a"; done; } > "$NSA_LOG/call.` + n + ".$$\"\n"
		if n == "kubectl" {
			script += "printf '{}\\n'\n"
		}
		if err := os.WriteFile(filepath.Join(e.bin, n), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range markerStubs {
		script := "#!/bin/sh\n: > \"$NSA_LOG/MARKER." + n + ".$$\"\n"
		if err := os.WriteFile(filepath.Join(e.bin, n), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// call is one recorded stub invocation.
type call struct {
	prog string
	argv []string
}

// paste runs cmd and returns what went wrong (nil: nothing) and the stub calls.
func (e *pasteEnv) paste(cmd string) (problems []string, calls []call) {
	if p, ok := e.done[cmd]; ok {
		return append([]string(nil), p.problems...), p.calls
	}
	defer func() { e.done[cmd] = pasted{append([]string(nil), problems...), calls} }()
	for _, d := range []string{e.log, e.cwd} {
		os.RemoveAll(d)
		os.MkdirAll(d, 0o755)
	}
	env := []string{"PATH=" + e.bin, "NSA_LOG=" + e.log, "HOME=" + e.cwd, "LC_ALL=C"}
	// syntax
	syn := exec.Command("/bin/sh", "-n", "-c", cmd)
	syn.Env = env
	syn.Dir = e.cwd
	if out, err := syn.CombinedOutput(); err != nil {
		problems = append(problems, fmt.Sprintf("sh -n: %v: %s", err, out))
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostile.HangCap(10*time.Second))
	defer cancel()
	run := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
	run.Env = env
	run.Dir = e.cwd
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	_ = run.Run() // the exit status of a stubbed pipeline says nothing
	if ctx.Err() != nil {
		problems = append(problems, "did not finish within 10s")
	}
	out := stdout.String() + stderr.String()
	if strings.Contains(out, "INJECTED") {
		problems = append(problems, fmt.Sprintf("printed INJECTED: %q", out))
	}
	if strings.Contains(stderr.String(), "not found") {
		problems = append(problems, fmt.Sprintf("ran a program that is not a stub: %q", stderr.String()))
	}
	if ents, _ := os.ReadDir(e.cwd); len(ents) > 0 {
		var names []string
		for _, en := range ents {
			names = append(names, en.Name())
		}
		problems = append(problems, fmt.Sprintf("created files %q", names))
	}
	ents, _ := os.ReadDir(e.log)
	for _, en := range ents {
		n := en.Name()
		if strings.HasPrefix(n, "MARKER.") {
			problems = append(problems, "ran "+strings.Split(n, ".")[1])
			continue
		}
		b, err := os.ReadFile(filepath.Join(e.log, n))
		if err != nil {
			continue
		}
		f := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if len(f) < 2 {
			continue
		}
		argc, _ := strconv.Atoi(f[1])
		c := call{prog: f[0], argv: f[2:]}
		if len(c.argv) != argc {
			problems = append(problems, fmt.Sprintf("%s: recorded %d words, argc %d", c.prog, len(c.argv), argc))
		}
		calls = append(calls, c)
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].prog < calls[j].prog })
	return problems, calls
}

// reportCommands lists every command of a report, with where it was found.
func reportCommands(r *findings.Report) [][2]string {
	var out [][2]string
	add := func(where, cmd string) {
		if cmd != "" {
			out = append(out, [2]string{where, cmd})
		}
	}
	ladder := func(where string, steps []findings.RemediationStep) {
		for i, s := range steps {
			add(fmt.Sprintf("%s.remediation[%d]", where, i), s.Command)
		}
	}
	chain := func(where string, links []findings.Link) {
		for i, l := range links {
			if l.Fix != nil {
				add(fmt.Sprintf("%s.chain[%d].fix", where, i), l.Fix.Command)
			}
		}
	}
	for i, p := range r.Problems {
		w := fmt.Sprintf("problems[%d]", i)
		ladder(w, p.Remediation)
		chain(w, p.Chain)
	}
	for i, ns := range r.Namespaces {
		w := fmt.Sprintf("namespaces[%d]", i)
		ladder(w, ns.Remediation)
		for j, c := range ns.Causes {
			chain(fmt.Sprintf("%s.causes[%d]", w, j), c.Chain)
		}
	}
	for i, rk := range r.Risks {
		for j, s := range rk.Fix {
			add(fmt.Sprintf("risks[%d].fix[%d]", i, j), s.Command)
		}
	}
	for i, g := range r.Coverage {
		add(fmt.Sprintf("coverage[%d].collect", i), g.Collect)
	}
	return out
}

// reportNames are the names of a report a command may quote.
func reportNames(r *findings.Report) []string {
	seen := map[string]bool{}
	for _, ns := range r.Namespaces {
		seen[ns.Name] = true
		for _, c := range ns.Causes {
			for _, o := range c.Objects {
				seen[o.Name] = true
				seen[o.Namespace] = true
			}
			for _, w := range c.APIServices {
				seen[w] = true
			}
			for _, w := range c.Webhooks {
				seen[w] = true
			}
		}
	}
	var out []string
	for n := range seen {
		if len(n) > 2 {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func analyzeForPaste(t *testing.T, dir string, extra ...string) *findings.Report {
	t.Helper()
	var out, errb bytes.Buffer
	args := append(append([]string{"-o", "json", "-q"}, extra...), dir)
	code := run(args, &out, &errb)
	if code == exitUsage {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r findings.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("report is not JSON: %v\nstderr: %s", err, errb.String())
	}
	return &r
}

// checkPaste pastes every command of r; hostile is the invalid name of the bundle
// ("" for a fixture). It returns the number of commands.
func checkPaste(t *testing.T, e *pasteEnv, r *findings.Report, hostileName string) int {
	t.Helper()
	names := reportNames(r)
	cmds := reportCommands(r)
	for _, wc := range cmds {
		where, cmd := wc[0], wc[1]
		problems, calls := e.paste(cmd)
		var words []string
		for _, c := range calls {
			words = append(words, c.argv...)
		}
		for _, n := range names {
			if n == hostileName || !strings.Contains(cmd, shellsafe.Quote(n)) {
				continue
			}
			found := false
			for _, w := range words {
				found = found || strings.Contains(w, n)
			}
			if !found && len(calls) > 0 {
				problems = append(problems, fmt.Sprintf("name %q is in the command but reached no stub as one word", n))
			}
		}
		if hostileName != "" {
			whole, part := false, false
			for _, w := range words {
				whole = whole || strings.Contains(w, hostileName)
				for _, frag := range hostileFragments(hostileName) {
					part = part || strings.Contains(w, frag)
				}
			}
			if part && !whole {
				problems = append(problems, "the hostile name reached a stub split or changed")
			}
			if whole || strings.Contains(cmd, shellsafe.Quote(hostileName)) {
				problems = append(problems, "a command uses the invalid name (it must not: shellsafe.SafeCmd / KubectlName)")
			}
		}
		if len(problems) > 0 {
			t.Errorf("%s: %q:\n  %s", where, cmd, strings.Join(problems, "\n  "))
		}
	}
	return len(cmds)
}

// hostileFragments are the parts of a hostile name between its metacharacters.
func hostileFragments(h string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(h, func(r rune) bool { return strings.ContainsRune(" \n;$()`'\"\\|>#", r) }) {
		if len(f) >= 3 && f != "touch" && f != "echo" {
			out = append(out, f)
		}
	}
	return out
}

// TestPasteFixtures: every command of every fixture bundle's report is safe to paste.
func TestPasteFixtures(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	e := newPasteEnv(t)
	total := 0
	for _, dir := range fixtureDirs(t) {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "fixtures"), dir)
		t.Run(rel, func(t *testing.T) {
			code, out, errb := runFixtureJSON(dir)
			if code == exitUsage {
				t.Fatalf("exit %d: %s", code, errb)
			}
			r := new(findings.Report)
			if err := json.Unmarshal(out, r); err != nil {
				t.Fatalf("report is not JSON: %v\nstderr: %s", err, errb)
			}
			total += checkPaste(t, e, r, "")
			for _, w := range r.Warnings {
				if strings.Contains(w.Message, "is not a valid Kubernetes name") {
					t.Errorf("a fixture of a real cluster has a name flagged invalid: %s", w)
				}
			}
		})
	}
	t.Logf("pasted %d commands", total)
}

// TestPasteHostileNames: a bundle with a name no API server accepts, in every place a
// name reaches a command, yields no command that runs anything but the stubs, and no
// command uses the name; the report says the name is invalid.
func TestPasteHostileNames(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	e := newPasteEnv(t)
	for _, c := range hostile.NameCases() {
		t.Run(c.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			if err := c.Build(dir); err != nil {
				t.Fatal(err)
			}
			r := analyzeForPaste(t, dir)
			// JSON cannot carry bytes that are not UTF-8: the loader reads them as U+FFFD
			n := checkPaste(t, e, r, strings.ToValidUTF8(c.Value, "\uFFFD"))
			t.Logf("%d commands", n)
			flagged := false
			for _, w := range r.Warnings {
				flagged = flagged || strings.Contains(w.Message, "is not a valid Kubernetes name")
			}
			if !flagged {
				t.Errorf("no warning says the name %q is not a valid Kubernetes name", c.Value)
			}
		})
	}
}

// TestPasteScaleShapes: the group commands of the scale shapes (one loop for a group
// of objects or pods: FinalizerLoop, PodDeleteLoop, the /finalize loop) are safe to
// paste, as every other command.
func TestPasteScaleShapes(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	e := newPasteEnv(t)
	for _, shape := range []string{"finalizers", "deadnodepods", "orderedpods", "namespaces"} {
		t.Run(shape, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			n := 20
			if shape == "namespaces" {
				n = 20 * 52 // 52 namespaces a problem: above the /finalize loop's threshold (50)
			}
			if _, err := gen.GenerateShape(dir, shape, n); err != nil {
				t.Fatal(err)
			}
			if shape == "namespaces" {
				// the /finalize loop is the text report's (the JSON keeps a command per namespace)
				var out, errb bytes.Buffer
				run([]string{"-q", "--exclude", "expected.json", dir}, &out, &errb)
				loops := 0
				for _, l := range strings.Split(out.String(), "\n") {
					if cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "$ "); ok && strings.HasPrefix(cmd, "for ns in ") {
						loops++
						if problems, _ := e.paste(cmd); len(problems) > 0 {
							t.Errorf("%s: %s", cmd[:80], strings.Join(problems, "; "))
						}
					}
				}
				if loops == 0 {
					t.Errorf("no /finalize loop in the text report")
				}
				return
			}
			r := analyzeForPaste(t, dir, "--exclude", "expected.json")
			loops := 0
			for _, wc := range reportCommands(r) {
				if strings.Contains(wc[1], "while read -r") {
					loops++
				}
			}
			if loops == 0 {
				t.Errorf("no group loop among the report's commands")
			}
			t.Logf("%d commands, %d group loops", checkPaste(t, e, r, ""), loops)
		})
	}
}
