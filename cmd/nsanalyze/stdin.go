package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// stdinBundle is the bundle path that means "read the bundle from standard input".
const stdinBundle = "-"

// stdin is where "-" reads from (a variable for the tests).
var stdin io.Reader = os.Stdin

// spoolStdin copies standard input (an archive or a single file) to a file in a new
// temporary directory, outside any bundle, and returns its path and a function that
// removes the directory. An interactive terminal or an empty input is an error.
func spoolStdin() (string, func(), error) {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		// /dev/null is a character device too: only a real terminal is refused here
		if target, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err != nil || target != os.DevNull {
			return "", nil, errors.New(`bundle "-" reads standard input, but it is a terminal: pipe an archive or file into it (nsanalyze - < bundle.tar.gz)`)
		}
	}
	dir, err := os.MkdirTemp("", "nsanalyze-stdin-")
	if err != nil {
		return "", nil, fmt.Errorf("cannot spool standard input: %v", err)
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	path := filepath.Join(dir, "stdin")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("cannot spool standard input: %v", err)
	}
	n, err := io.Copy(f, stdin)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("cannot read the bundle from standard input: %v", err)
	}
	if n == 0 {
		cleanup()
		return "", nil, errors.New(`bundle "-": standard input is empty (pipe an archive or file into it)`)
	}
	return path, cleanup, nil
}

// resolveStdin replaces a "-" among the bundle paths with a spooled copy of standard
// input; "-" may be given once. It returns the paths to read, the display names
// (stdin shows as "-"), and a cleanup function.
func resolveStdin(paths []string) (read []string, cleanup func(), err error) {
	cleanup = func() {}
	seen := false
	for _, p := range paths {
		if p != stdinBundle {
			read = append(read, p)
			continue
		}
		if seen {
			cleanup()
			return nil, func() {}, errors.New(`bundle "-" (standard input) can be given only once`)
		}
		seen = true
		path, c, err := spoolStdin()
		if err != nil {
			return nil, func() {}, err
		}
		prev := cleanup
		cleanup = func() { prev(); c() }
		read = append(read, path)
	}
	return read, cleanup, nil
}
