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

// TestWriteErrorsExit2: a report that cannot be written (a full disk: /dev/full; a
// closed stdout) exits 2 whatever --fail-on says, in every format and for diff, with the
// error on stderr; a CI job on a full disk never passes with no report.
func TestWriteErrorsExit2(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("/dev/full is not available")
	}
	bundle := filepath.Join("..", "..", "fixtures", "realdata", "a-discovery-failure")
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	var cases [][]string
	for _, f := range []string{"text", "markdown", "json", "html"} {
		for _, failOn := range []string{"none", "stuck", "risk"} {
			cases = append(cases, []string{"-q", "-o", f, "--fail-on", failOn, bundle})
		}
	}
	cases = append(cases, []string{"diff", "--fail-on", "none", bundle, bundle}, []string{"diff", "-o", "json", bundle, bundle})
	for _, args := range cases {
		cmd := self(t, args...)
		cmd.Stdout = full
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if code := exitCode(t, cmd.Run()); code != exitUsage || !strings.Contains(errb.String(), "no space left") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q", args, code, errb.String())
		}
	}
	// a stdout that cannot be written (opened for reading only: EBADF). A pipe whose
	// reader is gone kills nsanalyze with SIGPIPE, as the Go runtime does for fd 1 (the
	// shell sees 141, never success); a stdout closed with >&- is /dev/null to a Go
	// program (the runtime opens /dev/null on closed standard descriptors).
	exe, _ := os.Executable()
	for _, args := range [][]string{{"-q", bundle}, {"-q", "-o", "json", "--fail-on", "none", bundle}, {"diff", "--fail-on", "none", bundle, bundle}} {
		cmd := exec.Command("/bin/sh", append([]string{"-c", `exec "$0" "$@" 1</dev/null`, exe}, args...)...)
		cmd.Env = append(os.Environ(), asMain+"=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if code := exitCode(t, cmd.Run()); code != exitUsage || !strings.Contains(errb.String(), "bad file descriptor") {
			t.Errorf("%v with a read-only stdout: exit %d, stderr %q", args, code, errb.String())
		}
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
