package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

const explainUsage = `Usage:
  nsanalyze explain            list the cause types
  nsanalyze explain CAUSE      what a cause type means, how Kubernetes gets there, and its
                               remediation ladder (on placeholder names); no bundle needed
`

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

func runExplain(args []string, stdout, stderr io.Writer) int {
	names, docs := causeDocs()
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, explainUsage)
		return exitNotStuck
	}
	if len(args) == 0 {
		fmt.Fprintln(stdout, "Cause types (nsanalyze explain CAUSE for details):")
		for _, n := range names {
			first, _, _ := strings.Cut(docs[n], "\n")
			fmt.Fprintf(stdout, "  %-24s %s\n", n, first)
		}
		return exitNotStuck
	}
	if len(args) != 1 {
		fmt.Fprint(stderr, explainUsage)
		return exitUsage
	}
	name := strings.ToLower(strings.TrimSpace(args[0]))
	doc, ok := docs[name]
	if !ok {
		// accept a unique prefix ("discovery", "webhook" is ambiguous)
		var hits []string
		for _, n := range names {
			if strings.HasPrefix(n, name) || strings.Contains(n, name) {
				hits = append(hits, n)
			}
		}
		sort.Strings(hits)
		if len(hits) != 1 {
			fmt.Fprintf(stderr, "error: unknown cause %q; cause types: %s\n", args[0], strings.Join(names, ", "))
			return exitUsage
		}
		name, doc = hits[0], docs[hits[0]]
	}
	title, body, _ := strings.Cut(doc, "\n")
	fmt.Fprintf(stdout, "%s: %s\n", name, strings.TrimSpace(title))
	fmt.Fprintf(stdout, "%s\n", strings.Repeat("=", min(100, len(name)+2+len(strings.TrimSpace(title)))))
	if b := strings.TrimSpace(body); b != "" {
		fmt.Fprintf(stdout, "\n%s\n", b)
	}
	fmt.Fprintf(stdout, "\nRemediation ladder, safest first (as a report writes it, on placeholder names):\n")
	rule := rules.ByName(name)
	if rule == nil {
		rule = analyzer.Undetermined
	}
	for i, s := range analyzer.ExampleLadder(rule) {
		fmt.Fprintf(stdout, "\n  %d. [%s] %s\n", i+1, s.Risk, s.Command)
		for _, l := range wrap(s.Why, 92) {
			fmt.Fprintf(stdout, "     %s\n", l)
		}
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
