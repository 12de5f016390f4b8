package main

import (
	"fmt"
	"io"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// Not implemented yet: explain, diff and --redact (issue 5, in progress).

func runExplain(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "error: nsanalyze explain is not implemented yet")
	return exitUsage
}

func runDiff(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "error: nsanalyze diff is not implemented yet")
	return exitUsage
}

func redactReport(r *analyzer.Report) *analyzer.Report {
	panic("--redact is not implemented yet")
}
