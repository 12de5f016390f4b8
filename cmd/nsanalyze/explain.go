package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
)

const explainUsage = `Usage:
  nsanalyze explain [-o text|json]          list the cause types
  nsanalyze explain [-o text|json] CAUSE    what a cause type means, how Kubernetes gets
                                            there, and its remediation ladder (on
                                            placeholder names); no bundle needed
CAUSE may be a unique part of a cause type's name ("discovery").

Flags:
`

// explainJSON is the JSON answer of nsanalyze explain -o json (a list of these without CAUSE).
type explainJSON struct {
	Name   string                     `json:"name"`
	Title  string                     `json:"title"`
	Doc    string                     `json:"doc,omitempty"`
	Ladder []findings.RemediationStep `json:"ladder,omitempty"`
}

// causeDocs returns every cause type with its documentation, in reporting order.
func causeDocs() (names []string, docs map[string]string) {
	docs = map[string]string{}
	for _, r := range rules.All {
		names = append(names, r.Name)
		docs[r.Name] = r.Doc
	}
	names = append(names, analyzer.Undetermined.Name)
	docs[analyzer.Undetermined.Name] = analyzer.Undetermined.Doc
	return names, docs
}

// explainOptions are the flags of nsanalyze explain and its CAUSE.
type explainOptions struct {
	output *string
	args   []string
}

// explainFlags declares the flags of nsanalyze explain.
func explainFlags(fs *pflag.FlagSet) runFunc {
	return runOptions(&explainOptions{output: enumFlag(fs, "output", "o", "text", []string{"text", "json"}, "output format: text|json")})
}

// Complete keeps the arguments.
func (o *explainOptions) Complete(fs *pflag.FlagSet, _ IOStreams) error {
	o.args = fs.Args()
	return nil
}

// Validate checks there is at most one CAUSE.
func (o *explainOptions) Validate() error {
	if len(o.args) > 1 {
		return usageError{fmt.Errorf("explain takes at most one CAUSE, got %d: %s", len(o.args), strings.Join(o.args, " "))}
	}
	return nil
}

// Run lists the causes, or explains one.
func (o *explainOptions) Run(s IOStreams) int { return runExplain(o.args, *o.output, s.Out, s.ErrOut) }

func runExplain(args []string, format string, stdout, stderr io.Writer) int {
	output := &format
	names, docs := causeDocs()
	if len(args) == 0 {
		if *output == "json" {
			list := []explainJSON{}
			for _, n := range names {
				first, _, _ := strings.Cut(docs[n], "\n")
				list = append(list, explainJSON{Name: n, Title: strings.TrimSpace(first)})
			}
			return writeJSON(stdout, list)
		}
		fmt.Fprintln(stdout, "Cause types (nsanalyze explain CAUSE for details):")
		for _, n := range names {
			first, _, _ := strings.Cut(docs[n], "\n")
			fmt.Fprintf(stdout, "  %-24s %s\n", n, first)
		}
		return exitNotStuck
	}
	arg := args[0]
	name := strings.ToLower(strings.TrimSpace(arg))
	doc, ok := docs[name]
	if !ok {
		// accept a unique part of a name ("discovery"; "webhook" is ambiguous)
		var hits []string
		for _, n := range names {
			if name != "" && (strings.HasPrefix(n, name) || strings.Contains(n, name)) {
				hits = append(hits, n)
			}
		}
		sort.Strings(hits)
		switch len(hits) {
		case 1:
			name, doc = hits[0], docs[hits[0]]
		case 0:
			fmt.Fprintf(stderr, "error: unknown cause %q; cause types: %s\n", arg, strings.Join(names, ", "))
			return exitUsage
		default:
			fmt.Fprintf(stderr, "error: cause %q is ambiguous: it matches %s\n", arg, strings.Join(hits, ", "))
			return exitUsage
		}
	}
	title, body, _ := strings.Cut(doc, "\n")
	rule := rules.ByName(name)
	if rule == nil {
		rule = analyzer.Undetermined
	}
	ladder := analyzer.ExampleLadder(rule)
	if *output == "json" {
		return writeJSON(stdout, explainJSON{Name: name, Title: strings.TrimSpace(title), Doc: strings.TrimSpace(body), Ladder: ladder})
	}
	fmt.Fprintf(stdout, "%s: %s\n", name, strings.TrimSpace(title))
	fmt.Fprintf(stdout, "%s\n", strings.Repeat("=", min(100, len(name)+2+len(strings.TrimSpace(title)))))
	if b := strings.TrimSpace(body); b != "" {
		fmt.Fprintf(stdout, "\n%s\n", b)
	}
	fmt.Fprintf(stdout, "\nRemediation ladder, safest first (as a report writes it, on placeholder names):\n")
	for i, s := range ladder {
		fmt.Fprintf(stdout, "\n  %d. [%s]\n", i+1, s.Risk)
		for _, l := range wrap(s.Why, 92) {
			fmt.Fprintf(stdout, "     %s\n", l)
		}
		fmt.Fprintf(stdout, "     $ %s\n", s.Command)
	}
	return exitNotStuck
}

func writeJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return exitUsage
	}
	return exitNotStuck
}

func wrap(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
