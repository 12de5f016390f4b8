package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// asMain makes the test binary act as nsanalyze itself (for the shells' completion
// scripts, which call nsanalyze __complete).
const asMain = "NSANALYZE_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		os.Exit(run(os.Args[1:], stdoutWriter(), os.Stderr))
	}
	os.Exit(m.Run())
}

// fakeNsanalyze puts an "nsanalyze" on a PATH of its own that runs this test binary as
// nsanalyze, and returns that PATH.
func fakeNsanalyze(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wrapper := "#!/bin/sh\n" + asMain + "=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "nsanalyze"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// shellCase is a command line typed up to the cursor and the candidates the shell
// must offer (and must not).
type shellCase struct {
	line     string
	want     []string
	wantNone []string
}

var shellCases = []shellCase{
	{"nsanalyze ", []string{"explain", "diff", "collect", "completion", "bundle-dir/"}, []string{"__complete"}},
	{"nsanalyze -n shop di", []string{"diff"}, []string{"explain"}},
	{"nsanalyze diff -o ", []string{"text", "markdown", "json"}, []string{"html", "script"}},
	{"nsanalyze -o ", []string{"text", "markdown", "json", "html", "reply"}, []string{"script"}},
	{"nsanalyze collect -o ", []string{"script", "troubleshoot"}, []string{"json"}},
	{"nsanalyze collect --out", []string{"--output", "--output-file", "--out-dir"}, []string{"--namespace"}},
	{"nsanalyze explain ", []string{"api-discovery-failure", "admission-webhook"}, []string{"bundle-dir/"}},
	{"nsanalyze completion ", []string{"bash", "zsh", "fish"}, nil},
	{"nsanalyze diff bun", []string{"bundle-dir/"}, []string{"diff"}},
}

// shellRun runs script with the fake nsanalyze on PATH, in a directory holding
// bundle-dir/, and returns its output.
func shellRun(t *testing.T, argv []string, path string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bundle-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", argv[0], err, out)
	}
	return string(out)
}

func checkShellCase(t *testing.T, shell string, tc shellCase, out string) {
	t.Helper()
	got := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		l, _, _ = strings.Cut(l, "\t")                            // fish: candidate<TAB>description
		got[strings.TrimSuffix(strings.TrimSpace(l), "/")] = true // bash and zsh add a directory's slash when they show it
	}
	for _, w := range tc.want {
		if !got[strings.TrimSuffix(w, "/")] {
			t.Errorf("%s: %q offers no %q:\n%s", shell, tc.line, w, out)
		}
	}
	for _, w := range tc.wantNone {
		if got[strings.TrimSuffix(w, "/")] {
			t.Errorf("%s: %q offers %q:\n%s", shell, tc.line, w, out)
		}
	}
}

func lookShell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (apt-get install %s)", name, name)
	}
	return p
}

func writeScript(t *testing.T, shell string) string {
	t.Helper()
	code, out, errOut := runCmd("completion", shell)
	if code != exitNotStuck {
		t.Fatalf("completion %s: exit %d: %s", shell, code, errOut)
	}
	p := filepath.Join(t.TempDir(), "nsanalyze."+shell)
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCompletionBash: the bash script parses (bash -n) and, run as bash runs a -F
// completion function, offers commands, flags, -o values per command, causes and paths.
func TestCompletionBash(t *testing.T) {
	bash := lookShell(t, "bash")
	script := writeScript(t, "bash")
	if out, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	path := fakeNsanalyze(t)
	for _, tc := range append(shellCases, shellCase{"nsanalyze collect --output=t", []string{"troubleshoot"}, []string{"--output=troubleshoot"}}) {
		prog := `source "$1"; COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}; _nsanalyze; printf '%s\n' "${COMPREPLY[@]}"`
		checkShellCase(t, "bash", tc, shellRun(t, []string{bash, "-c", prog, "bash", script, tc.line}, path))
	}
}

// TestCompletionZsh: the zsh script parses (zsh -n) and its function, with compadd and
// _files standing in for zsh's completion system, offers what the engine says.
func TestCompletionZsh(t *testing.T) {
	zsh := lookShell(t, "zsh")
	script := writeScript(t, "zsh")
	if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
	path := fakeNsanalyze(t)
	for _, tc := range shellCases {
		prog := `compdef() { :; }; compadd() { while [[ "$1" == -* ]]; do [[ "$1" == -- ]] && { shift; break; }; shift; done; print -l -- "$@"; }
_files() { print -l -- *(/); }
source "$1"
words=(${(z)2}); [[ "$2" == *" " ]] && words+=("")
CURRENT=${#words}
_nsanalyze`
		checkShellCase(t, "zsh", tc, shellRun(t, []string{zsh, "-f", "-c", prog, "zsh", script, tc.line}, path))
	}
}

// TestCompletionFish: the fish script parses (fish --no-execute) and fish's own
// complete -C offers what the engine says.
func TestCompletionFish(t *testing.T) {
	fish := lookShell(t, "fish")
	script := writeScript(t, "fish")
	if out, err := exec.Command(fish, "--no-execute", script).CombinedOutput(); err != nil {
		t.Fatalf("fish --no-execute: %v\n%s", err, out)
	}
	path := fakeNsanalyze(t)
	for _, tc := range shellCases {
		prog := `source $argv[1]; complete -C $argv[2]`
		checkShellCase(t, "fish", tc, shellRun(t, []string{fish, "--no-config", "-c", prog, script, tc.line}, path))
	}
}
