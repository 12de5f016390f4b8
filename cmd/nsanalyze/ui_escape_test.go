package main

import (
	"bytes"
	"errors"
	"regexp"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
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
			if shellsafe.Unsafe(r) || r == 0xfffd {
				t.Errorf("colors %v: raw %q at %d in %q", forceColors, r, i, out)
				break
			}
		}
		if bytes.Count([]byte(out), []byte("\n")) != 1 {
			t.Errorf("colors %v: the entry spans lines: %q", forceColors, out)
		}
	}
}

// TestExplainPrintsNothingUnsafe: explain prints only nsanalyze's own text (no bundle),
// and an unknown cause typed by the user is quoted.
func TestExplainPrintsNothingUnsafe(t *testing.T) {
	names, _ := causeDocs()
	for _, arg := range append(names, "evil\x1b]0;t\x07\u202e") {
		var out, errb bytes.Buffer
		run([]string{"explain", arg}, &out, &errb)
		for _, s := range []string{out.String(), errb.String()} {
			for i, r := range s {
				if shellsafe.Unsafe(r) {
					t.Errorf("explain %q: raw %q at %d", arg, r, i)
					break
				}
			}
		}
	}
}
