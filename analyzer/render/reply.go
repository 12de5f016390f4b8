package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// Reply writes the note a support engineer pastes into the customer's ticket (-o reply):
// plain text that reads as Markdown too. It says what the bundle shows; for an
// inconclusive report, what is missing and why it matters, and the one command to run
// (the read-only script of nsanalyze collect, or the platform's own collector) with the
// two or three commands that suffice instead; for a diagnosed one, the cause and the
// first safe step. It reads the report's structured fields only (Report.NextStep,
// Problems, Remediation).
func Reply(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	code := func(cmds ...string) {
		p("```\n")
		for _, c := range cmds {
			p("%s\n", c)
		}
		p("```\n\n")
	}
	p("Hello,\n\nthank you for the bundle. ")
	if ns := r.NextStep; ns != nil {
		p("%s\n\n", ns.Seen)
		if len(ns.Missing) > 0 {
			p("What the bundle lacks, and why it matters:\n\n")
			for _, g := range ns.Missing {
				if g.Why != "" {
					p("- %s: %s\n", g.Missing, g.Why)
				} else {
					p("- %s\n", g.Missing)
				}
			}
			p("\n")
		}
		if ns.Make != "" {
			p("Please run the attached script collect.sh (it only reads from the cluster, stores no Secret values, and writes one .tar.gz) and send us the file it writes:\n\n")
		} else {
			p("Please run this read-only collection and send us what it writes:\n\n")
		}
		code(ns.Command)
		if len(ns.Commands) > 0 {
			p("If you cannot run it, the output of these commands is enough:\n\n")
			code(ns.Commands...)
		}
		if ns.Make != "" {
			p("<!-- for the engineer: make the script with `%s` -->\n", ns.Make)
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	p("%s.\n\n", strings.TrimSuffix(r.Summary, "."))
	if len(r.Problems) > 0 {
		pr := r.Problems[0]
		p("What holds it: %s\n\n", pr.Root)
		if len(pr.Remediation) > 0 {
			s := pr.Remediation[0]
			what := map[string]string{findings.ChangesNothing: "it only reads", findings.ChangesWorkload: "it restarts a controller; nothing stored is lost"}[s.Changes]
			if what == "" {
				what = "it changes the cluster: " + s.Risk
			}
			p("The first step (%s): %s\n\n", what, s.Why)
			code(s.Command)
		}
		if len(r.Problems) > 1 {
			p("(%d independent problems; the full report lists each.)\n\n", len(r.Problems))
		}
	}
	if len(r.Problems) == 0 {
		p("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
