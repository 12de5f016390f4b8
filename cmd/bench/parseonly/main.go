// Command parseonly reads a bundle as nsanalyze does (the same bundle.Options as its
// defaults: the rules' key phrases and kept kinds, UTC, 8 MiB lines) and stops there:
// no analysis, no report. The bench runs it beside nsanalyze on the same bundle, so a
// row shows what the analysis and the report cost on top of reading (issue 22: the
// analysis must cost less than the parse).
//
// Usage: parseonly [--exclude PATH]... BUNDLE...
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	var exclude list
	flag.Var(&exclude, "exclude", "skip this bundle path (repeatable)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: parseonly [--exclude PATH]... BUNDLE...")
		os.Exit(2)
	}
	rec, err := bundle.LoadAll(flag.Args(), bundle.Options{Keywords: rules.Phrases, LogLocation: time.UTC,
		MaxLineBytes: logs.DefaultMaxLineBytes, Exclude: exclude, KeepObject: rules.KeepObject,
		MaxArchiveNesting: bundle.DefaultMaxArchiveNesting})
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(2)
	}
	lines := 0
	for _, f := range rec.LogFiles {
		lines += f.Matched
	}
	fmt.Printf("%d objects from %d files, %d matched log lines in %d log files, %d warnings\n",
		rec.ObjectCount, len(rec.ObjectFiles), lines, len(rec.LogFiles), len(rec.Warnings))
}
