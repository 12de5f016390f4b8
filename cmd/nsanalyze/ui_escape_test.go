package main

import (
	"bytes"
	"errors"
	"regexp"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// TestLoggerEscapesOnTerminal: on a terminal logrus writes messages and fields raw
// (with its colours); the escaping formatter shows every unsafe character escaped.
func TestLoggerEscapesOnTerminal(t *testing.T) {
	sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	for _, forceColors := range []bool{true, false} {
		var buf bytes.Buffer
		log := newLogger(&buf)
		log.SetFormatter(escapingFormatter{next: &logrus.TextFormatter{ForceColors: forceColors, DisableTimestamp: true}})
		hostile := "member\x1b]0;pwned\x07\x1b[2J\u009b\x9b\u202e\u200b\nfake line"
		log.WithField("file", hostile).WithError(errors.New(hostile)).Warn("cannot read " + hostile)
		out := sgr.ReplaceAllString(buf.String(), "")
		for i, r := range out {
			if analyzer.Unsafe(r) || r == 0xfffd {
				t.Errorf("colors %v: raw %q at %d in %q", forceColors, r, i, out)
				break
			}
		}
		if bytes.Count([]byte(out), []byte("\n")) != 1 {
			t.Errorf("colors %v: the entry spans lines: %q", forceColors, out)
		}
	}
}
