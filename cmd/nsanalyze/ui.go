package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// isTerminal reports whether w is a character device (a terminal), without cgo or x/term.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// useColor decides whether the text report gets ANSI colours: --color always|never, or
// auto = stdout is a terminal and NO_COLOR (https://no-color.org) is unset or empty,
// and TERM is not "dumb".
func useColor(mode string, stdout io.Writer, getenv func(string) string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
			return false, nil
		}
		return isTerminal(stdout), nil
	}
	return false, fmt.Errorf("invalid --color %q (want auto, always or never)", mode)
}

// exitCodeFor maps a report to the exit code chosen by --fail-on.
func exitCodeFor(r *findings.Report, failOn string) (int, error) {
	switch failOn {
	case "none":
		return exitNotStuck, nil
	case "stuck", "":
		if len(r.Namespaces) > 0 {
			return exitStuck, nil
		}
		if r.State == findings.StateUnknown {
			return exitInconclusive, nil
		}
		return exitNotStuck, nil
	case "risk":
		if len(r.Namespaces) > 0 || len(r.Risks) > 0 {
			return exitStuck, nil
		}
		if r.State == findings.StateUnknown {
			return exitInconclusive, nil
		}
		return exitNotStuck, nil
	}
	return exitUsage, fmt.Errorf("invalid --fail-on %q (want none, stuck or risk)", failOn)
}

// progress shows, on a terminal's stderr, how much of the bundle has been read: bytes
// and files of the bundle, the bytes this process has read so far (Linux /proc/self/io
// rchar, so the parsers need no hook) and an ETA. It writes nothing when disabled.
type progress struct {
	w          io.Writer
	totalBytes int64
	files      int
	startRead  int64
	start      time.Time
	stop       chan struct{}
	done       sync.WaitGroup
	shown      bool
}

// startProgress begins reporting when enabled (stderr is a terminal and not --quiet).
func startProgress(w io.Writer, roots []string, enabled bool) *progress {
	p := &progress{w: w}
	if !enabled {
		return p
	}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if info, err := d.Info(); err == nil {
					p.totalBytes += info.Size()
					p.files++
				}
			}
			return nil
		})
	}
	p.start = time.Now()
	p.startRead, _ = readBytes()
	p.stop = make(chan struct{})
	p.done.Add(1)
	go p.loop()
	return p
}

func (p *progress) loop() {
	defer p.done.Done()
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			if time.Since(p.start) < 500*time.Millisecond {
				continue // fast runs stay silent
			}
			p.draw()
		}
	}
}

func (p *progress) draw() {
	elapsed := time.Since(p.start)
	line := fmt.Sprintf("reading %d files, %s", p.files, humanBytes(p.totalBytes))
	if n, ok := readBytes(); ok && p.totalBytes > 0 {
		read := n - p.startRead
		if read > p.totalBytes {
			read = p.totalBytes
		}
		pct := float64(read) / float64(p.totalBytes)
		line = fmt.Sprintf("read %s of %s (%d files) %3.0f%%", humanBytes(read), humanBytes(p.totalBytes), p.files, pct*100)
		if pct > 0.02 && pct < 1 {
			eta := time.Duration(float64(elapsed) * (1 - pct) / pct).Round(time.Second)
			line += fmt.Sprintf(", ETA %s", eta)
		}
	}
	line += fmt.Sprintf(", %s elapsed", elapsed.Round(time.Second))
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

// Stop ends the indicator and clears its line.
func (p *progress) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.done.Wait()
	p.stop = nil
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// readBytes returns the bytes this process has read (rchar of /proc/self/io).
func readBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// escapingFormatter makes logrus print, on a terminal or not, no character of the
// bundle raw: warnings quote member and file names, object names and messages from
// the bundle, which may hold terminal escapes (clear the screen, set the window title),
// 8-bit CSI, bidirectional overrides or zero-width characters. The message and every
// field are escaped as the report is (shellsafe.EscapeLine) before the wrapped formatter
// (logrus' own colours included) writes them.
// Secrets are removed from every diagnostic (redact.Secrets); under --redact the
// filter is the report's redactor, so stderr names what the report names, tokenised.
type escapingFormatter struct {
	next   logrus.Formatter
	filter func(string) string
}

func (f escapingFormatter) Format(e *logrus.Entry) ([]byte, error) {
	if f.filter == nil {
		f.filter = redact.Secrets
	}
	c := *e
	c.Message = shellsafe.EscapeLine(f.filter(e.Message))
	c.Data = make(logrus.Fields, len(e.Data))
	for k, v := range e.Data {
		switch x := v.(type) {
		case string:
			v = shellsafe.EscapeLine(f.filter(x))
		case error:
			v = shellsafe.EscapeLine(f.filter(x.Error()))
		case fmt.Stringer:
			v = shellsafe.EscapeLine(f.filter(x.String()))
		}
		c.Data[shellsafe.EscapeLine(k)] = v
	}
	return f.next.Format(&c)
}

// newLogger is the logger of nsanalyze's diagnostics on stderr, in kubectl's style
// ("warning: ...", "error: ...": diagFormatter) like every other line on stderr.
func newLogger(stderr io.Writer) *logrus.Logger {
	log := logrus.New()
	log.SetOutput(stderr)
	log.SetFormatter(escapingFormatter{next: diagFormatter{}, filter: redact.Secrets})
	return log
}

// setLogFilter makes every later diagnostic of log go through filter (after the
// secrets are removed).
func setLogFilter(log *logrus.Logger, filter func(string) string) {
	if f, ok := log.Formatter.(escapingFormatter); ok {
		f.filter = func(s string) string { return filter(redact.Secrets(s)) }
		log.SetFormatter(f)
	}
}
