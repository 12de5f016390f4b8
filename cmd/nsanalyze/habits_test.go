package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestKubectlHabits: argv → exit code and what stdout and stderr must (not) say, one
// row per habit of issue 23: global flags before or after the command, -o as the
// output format everywhere, --help exiting 0 on every command, help, completion.
func TestKubectlHabits(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	dir := t.TempDir()
	script := filepath.Join(dir, "collect.sh")
	spec := filepath.Join(dir, "spec.yaml")
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		out, noOut []string // stdout contains each / none
		err        []string // stderr contains each
	}{
		// flags before the command are the command's: the "report: diff, OLD, NEW"
		{"flags before diff", []string{"-n", "tobedeleted", "diff", a, a}, exitStuck,
			[]string{"nsanalyze diff: ", "0 resolved, 1 still stuck", "namespaces tobedeleted only"}, []string{"report:"}, nil},
		{"flags after diff", []string{"diff", a, "-n", "tobedeleted", a, "-o", "json"}, exitStuck, []string{`"stillStuck": [`}, nil, nil},
		{"-o before diff", []string{"-o", "json", "diff", a, a}, exitStuck, []string{`"schemaVersion": "nsanalyze-diff/v1"`}, nil, nil},
		{"= form before diff", []string{"--output=markdown", "-v", "error", "diff", a, a}, exitStuck, []string{"# nsanalyze diff"}, nil, nil},
		{"shorthand cluster before diff", []string{"-ojson", "diff", a, a}, exitStuck, []string{`"old":`}, nil, nil},
		{"-o before explain", []string{"-o", "json", "explain", "discovery"}, exitNotStuck, []string{`"name": "api-discovery-failure"`}, nil, nil},
		{"global -v after version", []string{"version", "-v", "debug"}, exitNotStuck, []string{"nsanalyze "}, nil, nil},
		{"global -v before version", []string{"-v", "info", "version"}, exitNotStuck, []string{"nsanalyze "}, nil, nil},
		{"flag of another command", []string{"--redact", "explain"}, exitUsage, nil, nil, []string{"error: unknown flag: --redact", "nsanalyze explain"}},
		{"a flag's value named like a command", []string{"-n", "diff", "-o", "json", a}, exitInconclusive, []string{`"schemaVersion": "nsanalyze/v1"`}, []string{"nsanalyze-diff"}, nil},
		{"-- ends the flags: diff is a bundle", []string{"--", "diff"}, exitUsage, nil, []string{"nsanalyze diff:"}, []string{"diff"}},
		{"bundle first: diff is a second bundle", []string{"-q", a, "diff"}, exitStuck, []string{"nsanalyze report: "}, []string{"nsanalyze diff:"}, []string{"stat diff"}},
		// -o is the output format in every command
		{"collect -o json is no file", []string{"collect", "-o", "json"}, exitUsage, nil, []string{"#!/bin/sh"},
			[]string{`invalid --output "json" for collect (want script or troubleshoot)`, "--output-file"}},
		{"collect -o script", []string{"collect", "-o", "script"}, exitNotStuck, []string{"#!/bin/sh"}, nil, nil},
		{"collect -o troubleshoot", []string{"collect", "-o", "troubleshoot"}, exitNotStuck, []string{"kind: SupportBundle"}, nil, nil},
		{"collect --output-file", []string{"collect", "--output-file", script}, exitNotStuck, nil, []string{"#!/bin/sh"}, []string{"wrote " + script}},
		{"collect --file -o troubleshoot", []string{"-o", "troubleshoot", "collect", "--file", spec}, exitNotStuck, nil, nil, []string{"wrote " + spec}},
		{"collect --format still works", []string{"collect", "--format", "troubleshoot"}, exitNotStuck, []string{"kind: SupportBundle"}, nil, []string{"deprecated"}},
		{"diff -o html", []string{"diff", "-o", "html", a, a}, exitUsage, nil, nil, []string{`invalid --output "html" for diff (want text, markdown or json)`}},
		{"root -o yaml", []string{"-o", "yaml", a}, exitUsage, nil, nil, []string{`invalid --output "yaml" (want text, markdown, json, html or reply)`}},
		// help
		{"help", []string{"help"}, exitNotStuck, []string{"Commands:", "Examples:", "nsanalyze collect [flags]", "Exit codes:"}, nil, nil},
		{"help diff", []string{"help", "diff"}, exitNotStuck, []string{"nsanalyze diff [flags] OLD NEW", "--namespace"}, nil, nil},
		{"help completion", []string{"help", "completion"}, exitNotStuck, []string{"nsanalyze completion bash|zsh|fish"}, nil, nil},
		{"help bogus", []string{"help", "bogus"}, exitUsage, nil, nil, []string{`error: unknown command "bogus"`}},
		{"help two", []string{"help", "diff", "explain"}, exitUsage, nil, nil, []string{"error: help takes at most one COMMAND"}},
		{"help __complete is hidden", []string{"help", "__complete"}, exitUsage, nil, nil, []string{"unknown command"}},
		// completion
		{"completion", []string{"completion"}, exitUsage, nil, nil, []string{"error: completion takes one shell"}},
		{"completion tcsh", []string{"completion", "tcsh"}, exitUsage, nil, nil, []string{`no completion for shell "tcsh"`}},
		{"completion bash", []string{"completion", "bash"}, exitNotStuck, []string{"complete -F _nsanalyze nsanalyze"}, nil, nil},
		{"completion zsh", []string{"completion", "zsh"}, exitNotStuck, []string{"#compdef nsanalyze"}, nil, nil},
		{"completion fish", []string{"completion", "fish"}, exitNotStuck, []string{"complete -c nsanalyze"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(tc.args...)
			if code != tc.code {
				t.Errorf("%q: exit %d, want %d\nstderr: %s", tc.args, code, tc.code, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("%q: stdout lacks %q:\n%.2000s", tc.args, w, out)
				}
			}
			for _, w := range tc.noOut {
				if strings.Contains(out, w) {
					t.Errorf("%q: stdout holds %q:\n%.2000s", tc.args, w, out)
				}
			}
			for _, w := range tc.err {
				if !strings.Contains(errOut, w) {
					t.Errorf("%q: stderr lacks %q:\n%s", tc.args, w, errOut)
				}
			}
		})
	}
	if b, err := os.ReadFile(script); err != nil || !strings.HasPrefix(string(b), "#!/bin/sh") {
		t.Errorf("--output-file: %v %.40q", err, b)
	} else if st, _ := os.Stat(script); st.Mode().Perm()&0o100 == 0 {
		t.Errorf("--output-file script mode %v, want executable", st.Mode())
	}
	if b, err := os.ReadFile(spec); err != nil || !strings.Contains(string(b), "kind: SupportBundle") {
		t.Errorf("--file spec: %v %.80q", err, b)
	}
	if _, err := os.Stat("json"); err == nil {
		t.Errorf("collect -o json wrote a file named json")
	}
}

// TestHelpOnEveryCommand: --help and -h print the command's help on stdout and exit 0,
// before or after the command's name, whatever else the command line holds; the
// top-level help lists every command.
func TestHelpOnEveryCommand(t *testing.T) {
	_, top, _ := runCmd("--help")
	for _, c := range append([]*command{root}, commands...) {
		if c.hidden {
			continue
		}
		if c != root && !strings.Contains(top, "nsanalyze "+strings.TrimSpace(c.name+" "+c.args)) {
			t.Errorf("nsanalyze --help does not list %q", c.name)
		}
		want := c.helpText()
		lines := [][]string{{c.name, "--help"}, {c.name, "-h"}, {"--help", c.name}, {c.name, "--help", "extra", "args"}, {"help", c.name}}
		if c == root {
			lines = [][]string{{"--help"}, {"-h"}, {"help"}, {"--help", "extra", "args"}, {"-o", "json", "-h"}}
		}
		for _, args := range lines {
			code, out, errOut := runCmd(args...)
			if c.flags == nil { // a command that parses its own flags says its own help
				if code != exitNotStuck || out == "" {
					t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
				}
				continue
			}
			if code != exitNotStuck || out != want || errOut != "" {
				t.Errorf("%q: exit %d, stderr %q, help as expected: %v", args, code, errOut, out == want)
			}
		}
		if !strings.Contains(want, "Usage:") || !strings.Contains(want, "--help") {
			t.Errorf("%s --help lacks Usage or its flags:\n%s", c.title(), want)
		}
	}
}

// TestFlagsMeanTheSameEverywhere: a flag name has one shorthand and one type in every
// command (so routing flags before the command is sound, and -o/-n/-v mean one thing),
// and -o, where a command has it, is an output format with its values listed.
func TestFlagsMeanTheSameEverywhere(t *testing.T) {
	type sig struct{ short, typ, cmd string }
	seen := map[string]sig{}
	shorts := map[string]string{}
	outputs := 0
	for _, c := range append([]*command{root}, commands...) {
		fs, _ := c.flagSet(nil)
		fs.VisitAll(func(f *pflag.Flag) {
			s := sig{f.Shorthand, f.Value.Type(), c.title()}
			if p, ok := seen[f.Name]; ok && (p.short != s.short || p.typ != s.typ) {
				t.Errorf("--%s is -%s %s in %s but -%s %s in %s", f.Name, p.short, p.typ, p.cmd, s.short, s.typ, s.cmd)
			}
			seen[f.Name] = s
			if f.Shorthand != "" {
				if n, ok := shorts[f.Shorthand]; ok && n != f.Name {
					t.Errorf("-%s is --%s and --%s", f.Shorthand, n, f.Name)
				}
				shorts[f.Shorthand] = f.Name
			}
			if f.Name == "output" {
				outputs++
				if len(f.Annotations[annValues]) < 2 || !strings.Contains(f.Usage, f.Annotations[annValues][0]) {
					t.Errorf("%s -o: values %v, usage %q", c.title(), f.Annotations[annValues], f.Usage)
				}
			}
		})
	}
	if outputs < 4 || shorts["o"] != "output" || shorts["n"] != "namespace" || shorts["v"] != "verbosity" {
		t.Errorf("%d commands with -o; shorthands %v", outputs, shorts)
	}
}

// TestComplete: the completion engine behind every shell's script, on command lines
// as typed (the last word is the one under the cursor).
func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  []string // exactly these candidates, in order (nil: none)
		files bool
	}{
		{[]string{""}, []string{"explain", "diff", "scan", "collect", "version", "help", "completion"}, true},
		{[]string{"c"}, []string{"collect", "completion"}, true},
		{[]string{"-n", "shop", "di"}, []string{"diff"}, true},
		{[]string{"diff", ""}, nil, true},
		{[]string{"diff", "-o", ""}, []string{"text", "markdown", "json"}, false},
		{[]string{"-o", ""}, []string{"text", "markdown", "json", "html", "reply"}, false},
		{[]string{"collect", "-o", ""}, []string{"script", "troubleshoot"}, false},
		{[]string{"collect", "--output", "t"}, []string{"troubleshoot"}, false},
		{[]string{"collect", "--output=t"}, []string{"--output=troubleshoot"}, false},
		{[]string{"explain", "-o", ""}, []string{"text", "json"}, false},
		{[]string{"explain", "-o", "json", "api"}, []string{"api-discovery-failure"}, false},
		{[]string{"explain", "api-discovery-failure", ""}, nil, false},
		{[]string{"diff", "--fail-on", ""}, []string{"stuck", "risk", "none"}, false},
		{[]string{"-v", ""}, []string{"error", "warning", "info", "debug"}, false},
		{[]string{"--color", "a"}, []string{"auto", "always"}, false},
		{[]string{"diff", "--output-"}, nil, false},
		{[]string{"collect", "--output"}, []string{"--output", "--output-file"}, false},
		{[]string{"collect", "--output-file", ""}, nil, true},
		{[]string{"--profile-output", ""}, nil, true},
		{[]string{"--exclude", ""}, nil, true},
		{[]string{"-n", ""}, nil, false},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}, false},
		{[]string{"completion", "bash", ""}, nil, false},
		{[]string{"help", ""}, []string{"explain", "diff", "scan", "collect", "version", "help", "completion"}, false},
		{[]string{"version", ""}, []string{}, false},
		{[]string{"version", "--h"}, []string{"--help"}, false},
		{[]string{"version", "-"}, []string{"--help", "-h", "--verbosity", "-v"}, false},
		{[]string{"--", "-"}, nil, true},
		{[]string{"bundle", ""}, nil, true},
	} {
		got, files := completeWords(tc.words)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") || files != tc.files {
			t.Errorf("complete %q: %q files=%v, want %q files=%v", tc.words, got, files, tc.want, tc.files)
		}
	}
	// every flag of collect is offered, none deprecated
	got, _ := completeWords([]string{"collect", "--"})
	for _, w := range []string{"--output", "--output-file", "--namespace", "--request-timeout", "--help", "--verbosity"} {
		if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+w+" ") {
			t.Errorf("collect --: %q lacks %s", got, w)
		}
	}
	if strings.Contains(strings.Join(got, " "), "--format") {
		t.Errorf("collect --: offers the deprecated --format: %q", got)
	}
	// what __complete prints: the candidates, then :files
	code, out, _ := runCmd("__complete", "diff", "")
	if code != exitNotStuck || out != ":files\n" {
		t.Errorf("__complete diff '': exit %d, %q", code, out)
	}
	_, out, _ = runCmd("__complete", "diff", "-o", "")
	if out != "text\nmarkdown\njson\n" {
		t.Errorf("__complete diff -o '': %q", out)
	}
	_ = json.Valid
}

// TestVerbosityDebugListsEveryFile: -v debug logs, on stderr, one line per file of the
// bundle saying how it was read or why nothing was read from it (the loader's
// FileRead records), for the analysis and for diff; without it, none.
func TestVerbosityDebugListsEveryFile(t *testing.T) {
	a := realBundle(t, "a-discovery-failure")
	var files []string
	err := filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(a, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil || len(files) < 10 {
		t.Fatalf("%d files (%v)", len(files), err)
	}
	for _, args := range [][]string{{"-v", "debug", "-o", "json", a}, {"diff", a, a, "-v", "debug"}} {
		code, _, errOut := runCmd(args...)
		if code != exitStuck {
			t.Errorf("%q: exit %d", args, code)
		}
		for _, f := range files {
			if !strings.Contains(errOut, "debug: "+f+": ") {
				t.Errorf("%q: no debug line for %s", args, f)
			}
		}
		for _, w := range []string{"debug: logs/kube-controller-manager.log: read as log (klog), 523 log lines, 31 matched",
			"debug: README.md: read as log (plain), ", // Markdown is text: read (prose is a log without times)
			"debug: cluster/crds.json: read as objects (json), 0 objects: nothing read: no Kubernetes object in it",
			"debug: cluster/namespaces.json: layout kubectl-get, read as objects (json), 5 objects\n",
			"debug: files of the bundle files=" + strconv.Itoa(len(files)) + " "} {
			if !strings.Contains(errOut, w) {
				t.Errorf("%q: stderr lacks %q", args, w)
			}
		}
	}
	if _, _, errOut := runCmd("-o", "json", a); strings.Contains(errOut, "read as") {
		t.Errorf("without -v debug, file lines:\n%s", errOut)
	}
}

// TestCommandWithItsOwnFlags: a command added by one entry with run (it parses its own
// arguments, as h-fingerprint's scan may) gets the flags written before its name first,
// `help CMD` runs it with --help, and it is listed and completed.
func TestCommandWithItsOwnFlags(t *testing.T) {
	var got [][]string
	fake := &command{name: "fake", args: "[flags] X", summary: "a test command", run: func(args []string, stdout, stderr io.Writer) int {
		got = append(got, args)
		return 7
	}}
	saved := commands
	commands = append(append([]*command{}, commands...), fake)
	defer func() { commands = saved }()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "shop", "fake", "x", "--own", "1"}, "-n shop x --own 1"},
		{[]string{"--output=json", "-v", "debug", "fake"}, "--output=json -v debug"},
		{[]string{"help", "fake"}, "--help"},
		{[]string{"fake", "--help"}, "--help"},
	} {
		got = nil
		code, _, _ := runCmd(tc.args...)
		if code != 7 || len(got) != 1 || strings.Join(got[0], " ") != tc.want {
			t.Errorf("%q: exit %d, run with %q, want %q", tc.args, code, got, tc.want)
		}
	}
	if _, out, _ := runCmd("--help"); !strings.Contains(out, "nsanalyze fake [flags] X") {
		t.Errorf("--help does not list the command")
	}
	if c, _ := completeWords([]string{"fa"}); strings.Join(c, " ") != "fake" {
		t.Errorf("complete fa: %q", c)
	}
}
