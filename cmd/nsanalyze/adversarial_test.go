package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// TestAdversarialCorpus runs the third adversarial corpus (fixtures/hostile
// AdversarialCases: secrets, redaction, look-alike and invisible characters, bytes that
// are not UTF-8, decoder bombs, encrypted archive members) end to end: every format,
// with and without --redact, diff --redact, and stderr. What a case plants is first shown
// to reach the unredacted report (so its absence means something); then no output may
// hold a leak, and the report must say what the attack was.
func TestAdversarialCorpus(t *testing.T) {
	for _, c := range hostile.AdversarialCases() {
		t.Run(c.Class+"/"+c.Name, func(t *testing.T) {
			if c.Heavy && testing.Short() {
				t.Skip("heavy case skipped with -short")
			}
			if c.Tool != "" {
				if _, err := exec.LookPath(c.Tool); err != nil {
					t.Skipf("%s is not installed", c.Tool)
				}
			}
			p, err := c.Build(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			runIt := func(args ...string) (string, string, int) {
				var out, errb bytes.Buffer
				code := run(append(append([]string{"-q"}, args...), p), &out, &errb)
				return out.String(), errb.String(), code
			}
			plain, plainErr, code := runIt(append([]string{"-o", "text"}, c.Args...)...)
			if code == exitUsage {
				t.Fatalf("exit %d:\n%s%s", code, plain, plainErr)
			}
			for _, s := range c.Shown {
				if !strings.Contains(plain, s) {
					t.Errorf("the unredacted report does not quote %q: the case proves nothing", s)
				}
			}
			for _, s := range c.Want {
				if !strings.Contains(plain+plainErr, s) {
					t.Errorf("the report does not say %q:\n%s\n%s", s, plain, plainErr)
				}
			}
			leak := func(what, out string) {
				low := strings.ToLower(out)
				for _, l := range c.Leaks {
					if i := strings.Index(low, strings.ToLower(l)); i >= 0 {
						t.Errorf("%s: %q survives: …%q…", what, l, out[max(0, i-80):min(len(out), i+len(l)+80)])
					}
				}
			}
			formats := []string{"text", "markdown", "json", "html"}
			if c.Class == "bomb" {
				return // bounded is the point; what it prints was checked above
			}
			for _, format := range formats {
				for _, redact := range []bool{false, true} {
					if c.Redact && !redact {
						continue // the identifiers are the report's point without --redact
					}
					args := append([]string{"-o", format}, c.Args...)
					if redact {
						args = append([]string{"--redact", "-v", "info"}, args...)
					}
					out, errOut, _ := runIt(args...)
					name := format
					if redact {
						name += " --redact"
					}
					leak(name, out)
					leak(name+" (stderr)", errOut)
				}
			}
			for _, format := range []string{"text", "markdown", "json"} {
				var out, errb bytes.Buffer
				run(append(append([]string{"diff", "--redact", "-o", format}, c.Args...), p, p), &out, &errb)
				leak("diff --redact -o "+format, out.String())
				leak("diff --redact (stderr)", errb.String())
			}
		})
	}
}
