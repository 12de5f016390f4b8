package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// stdinBundle is the bundle path that means "read the bundle from standard input".
const stdinBundle = "-"

// stdin is where "-" reads from (a variable for the tests).
var stdin io.Reader = os.Stdin

// spoolStdin copies standard input (an archive or a single file) to a file in a new
// temporary directory, outside any bundle, and returns its path and a function that
// removes the directory. An interactive terminal or an empty input is an error. The
// signals that end nsanalyze are caught before the directory exists, so none leaves it.
func spoolStdin(stdin io.Reader) (string, func(), error) {
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		// /dev/null is a character device too: only a real terminal is refused here
		if target, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err != nil || target != os.DevNull {
			return "", nil, errors.New(`bundle "-" reads standard input, but it is a terminal: pipe an archive or file into it (nsanalyze - < bundle.tar.gz)`)
		}
	}
	spool := removeOnSignal()
	cleanup := spool.cleanup
	dir, err := spool.mkdir()
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("cannot spool standard input: %v", err)
	}
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
func resolveStdin(paths []string, stdin io.Reader) (read []string, cleanup func(), err error) {
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
		path, c, err := spoolStdin(stdin)
		if err != nil {
			return nil, func() {}, err
		}
		prev := cleanup
		cleanup = func() { prev(); c() }
		read = append(read, path)
	}
	return read, cleanup, nil
}

// spoolSignals end nsanalyze while a spool of standard input (a copy of the
// customer's bundle) may exist: the spool is removed first. SIGPIPE (the reader of the
// report went away: nsanalyze - | head) and SIGQUIT end a Go program without its
// deferred functions too.
var spoolSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE, syscall.SIGQUIT}

// spoolDir is the temporary directory of a spool and the signal handler that removes it.
type spoolDir struct {
	mu      sync.Mutex
	dir     string
	removed bool
	cleanup func()
}

// mkdir makes the directory; a signal that came first leaves none.
func (d *spoolDir) mkdir() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.removed {
		return "", errors.New("interrupted")
	}
	dir, err := os.MkdirTemp("", "nsanalyze-stdin-")
	d.dir = dir
	return dir, err
}

func (d *spoolDir) remove() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.removed {
		d.removed = true
		if d.dir != "" {
			_ = os.RemoveAll(d.dir)
		}
	}
}

// removeOnSignal returns a spool directory yet to be made, and makes SIGINT, SIGTERM
// and SIGHUP remove it (once made) before nsanalyze dies of the signal as it would
// have (same signal, so the shell sees the usual status). Its cleanup removes it and
// stops that.
func removeOnSignal() *spoolDir {
	d := &spoolDir{}
	sigs := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sigs, spoolSignals...)
	go func() {
		select {
		case sig := <-sigs:
			d.remove()
			signal.Reset(spoolSignals...)
			s, _ := sig.(syscall.Signal)
			_ = syscall.Kill(os.Getpid(), s) // die of it, as without the handler
			time.Sleep(time.Second)          // (the signal is delivered asynchronously)
			os.Exit(128 + int(s))
		case <-done:
		}
	}()
	var stop sync.Once
	d.cleanup = func() {
		stop.Do(func() {
			signal.Stop(sigs)
			close(done)
			d.remove()
		})
	}
	return d
}
