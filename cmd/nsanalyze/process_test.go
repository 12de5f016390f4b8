package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// self returns a command that runs nsanalyze with args.
func self(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...) // run as nsanalyze by TestMain (completion_test.go)
	cmd.Env = append(os.Environ(), asMain+"=1")
	return cmd
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestWriteErrorsExit4: what cannot be written (a full disk: /dev/full; a stdout
// opened read-only; a closed stdout, nsanalyze >&-) exits exitWrite whatever --fail-on
// says, in every command, with the error on stderr: a CI job on a full disk never passes
// with no report. --results and --output-file on a full disk too.
func TestWriteErrorsExit4(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("/dev/full is not available")
	}
	bundle := filepath.Join("..", "..", "fixtures", "realdata", "a-discovery-failure")
	exe, _ := os.Executable()
	for _, args := range writeCases(bundle) {
		for _, redirect := range []struct{ shell, want string }{
			{`1>/dev/full`, "no space left"},
			// opened for reading only: EBADF
			{`1</dev/null`, "bad file descriptor"},
			// closed: the Go runtime puts /dev/null read-write in its place, which
			// nsanalyze tells from a shell's > /dev/null (write-only)
			{`1>&-`, "standard output is closed"},
		} {
			cmd := exec.Command("/bin/sh", append([]string{"-c", `exec "$0" "$@" ` + redirect.shell, exe}, args...)...)
			cmd.Env = append(os.Environ(), asMain+"=1")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if code := exitCode(t, cmd.Run()); code != exitWrite || !strings.Contains(errb.String(), redirect.want) || strings.Count(errb.String(), "error: ") != 1 {
				t.Errorf("%v %s: exit %d, stderr %q", args, redirect.shell, code, errb.String())
			}
		}
	}
	// > /dev/null is written in full: no error
	cmd := exec.Command("/bin/sh", "-c", `exec "$0" "$@" >/dev/null`, exe, "-q", "--fail-on", "none", bundle)
	cmd.Env = append(os.Environ(), asMain+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("> /dev/null: %v %s", err, out)
	}
	for _, args := range [][]string{{"scan", "-q", "--results", "/dev/full", bundle}, {"collect", "--output-file", "/dev/full"}} {
		code, _, errOut := runCmd(args...)
		if code != exitWrite || !strings.Contains(errOut, "error: cannot write --") || !strings.Contains(errOut, "no space left") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestSpoolRemovedOnEveryExit: the spool of "-" is gone after every way nsanalyze
// ends without a signal: a report, an unreadable input, a report that cannot be
// written, a usage error after the spool.
func TestSpoolRemovedOnEveryExit(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("/dev/full is not available")
	}
	bundle := filepath.Join("..", "..", "fixtures", "realdata", "a-discovery-failure", "cluster", "namespaces.json")
	data, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		input  []byte
		stdout string
		code   int
	}{
		{[]string{"-q", "-"}, data, "", exitStuck},
		{[]string{"-q", "-"}, []byte("shopping list\n"), "", exitUsage},
		{[]string{"-q", "-"}, data, "/dev/full", exitWrite},
		{[]string{"diff", "-", "-"}, data, "", exitUsage},
		{[]string{"diff", "-", bundle}, data, "/dev/full", exitWrite},
		{[]string{"-q", "-n", "nosuch", "-"}, data, "", exitInconclusive},
	} {
		tmp := t.TempDir()
		cmd := self(t, tc.args...)
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
		cmd.Stdin = bytes.NewReader(tc.input)
		if tc.stdout != "" {
			f, err := os.OpenFile(tc.stdout, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdout = f
		}
		if code := exitCode(t, cmd.Run()); code != tc.code {
			t.Errorf("%q: exit %d, want %d", tc.args, code, tc.code)
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
			t.Errorf("%q: left behind: %v", tc.args, left)
		}
	}
	// the reader of the report went away (nsanalyze - | head -1): SIGPIPE, which
	// ends a Go program without its deferred functions, removes the spool first
	tmp := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := self(t, "-q", "-")
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	cmd.Stdin = bytes.NewReader(data)
	cmd.Stdout = w
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("a closed pipe: %v", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !(ws.Signaled() && ws.Signal() == syscall.SIGPIPE || ws.Exited() && ws.ExitStatus() == exitWrite) {
		t.Errorf("a closed pipe: %v, want death by SIGPIPE (or exit %d)", ee, exitWrite)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("a closed pipe: left behind: %v", left)
	}
}

// TestSpoolRemovedOnSignal: SIGINT, SIGTERM and SIGHUP while "-" spools standard input
// remove the spool (a copy of the customer's bundle) and end nsanalyze by that signal.
func TestSpoolRemovedOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := self(t, "-q", "-")
			cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			if _, err := io.WriteString(in, "E0101 00:00:00.000000 1 x.go:1] part of a bundle\n"); err != nil {
				t.Fatal(err)
			}
			spool := ""
			for deadline := time.Now().Add(30 * time.Second); spool == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				m, _ := filepath.Glob(filepath.Join(tmp, "nsanalyze-stdin-*", "stdin"))
				if len(m) == 1 {
					if st, err := os.Stat(m[0]); err == nil && st.Size() > 0 {
						spool = m[0]
					}
				}
			}
			if spool == "" {
				t.Fatal("the spool never appeared")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			in.Close()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("nsanalyze did not end by the signal: %v", err)
			}
			// death by the signal, or the shell's 128+n when the signal was ignored
			// before nsanalyze started (nohup, some CI runners) and cannot be re-raised
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !(ws.Signaled() && ws.Signal() == sig || ws.Exited() && ws.ExitStatus() == 128+int(sig)) {
				t.Errorf("exit status %v, want death by %v (or exit %d)", ee, sig, 128+int(sig))
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}
