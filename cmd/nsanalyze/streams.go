package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// IOStreams are a command's standard streams, as kubectl's genericiooptions.IOStreams:
// In for "-" bundles, Out for the report (and nothing else), ErrOut for diagnostics.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// exitWrite: something nsanalyze had to write (the report on stdout, --results,
// --output-file) was not written, or not in full: a full disk, a closed or unwritable
// stdout. Never a diagnosis, whatever --fail-on says.
const exitWrite = 4

// errStdoutClosed is the error of every write to a standard output that was closed
// when nsanalyze started (nsanalyze >&-).
var errStdoutClosed = errors.New("standard output is closed")

// closedWriter is a standard output that was closed: every write fails.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, errStdoutClosed }

// stdoutWriter is os.Stdout, or a closedWriter when the shell closed standard output:
// the Go runtime then opens /dev/null read-write in its place (runtime.checkfds), which
// would swallow the report; a shell's "> /dev/null" opens it write-only.
func stdoutWriter() io.Writer {
	if fdIsRuntimeDevNull(1) {
		return closedWriter{}
	}
	return os.Stdout
}

// fdIsRuntimeDevNull reports whether descriptor fd is /dev/null opened read-write, as
// the Go runtime opens it on a descriptor that was closed at exec.
func fdIsRuntimeDevNull(fd int) bool {
	target, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	if err != nil || target != os.DevNull {
		return false
	}
	info, err := os.ReadFile(fmt.Sprintf("/proc/self/fdinfo/%d", fd))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(info), "\n") {
		if v, ok := strings.CutPrefix(l, "flags:"); ok {
			var flags int
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%o", &flags); err != nil {
				return false
			}
			return flags&3 == os.O_RDWR
		}
	}
	return false
}

// writeFailure reports what could not be written; its exit code is exitWrite.
func writeFailure(errOut io.Writer, what string, err error) int {
	fmt.Fprintf(errOut, "error: cannot write %s: %s\n", what, shellsafe.EscapeLine(redact.Secrets(err.Error())))
	return exitWrite
}

// diagFormatter prints logrus entries in kubectl's style, one line each:
// "error: MESSAGE", "warning: MESSAGE", "info: MESSAGE key=value ...". Fields are
// sorted by name; a value with a space or a quote is quoted.
type diagFormatter struct{}

func (diagFormatter) Format(e *logrus.Entry) ([]byte, error) {
	var b strings.Builder
	b.WriteString(levelWord(e.Level))
	b.WriteString(": ")
	b.WriteString(e.Message)
	keys := make([]string, 0, len(e.Data))
	for k := range e.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := fmt.Sprint(e.Data[k])
		if strings.ContainsAny(v, " \"=") || v == "" {
			v = fmt.Sprintf("%q", v)
		}
		fmt.Fprintf(&b, " %s=%s", k, v)
	}
	b.WriteByte('\n')
	return []byte(b.String()), nil
}

// levelWord is the word a diagnostic of level l starts with.
func levelWord(l logrus.Level) string {
	switch l {
	case logrus.PanicLevel, logrus.FatalLevel, logrus.ErrorLevel:
		return "error"
	case logrus.WarnLevel:
		return "warning"
	case logrus.InfoLevel:
		return "info"
	}
	return "debug"
}
