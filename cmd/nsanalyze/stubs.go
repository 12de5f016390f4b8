package main

import (
	"fmt"
	"io"
)

// Not implemented yet: explain and diff (issue 5, in progress).

func runDiff(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "error: nsanalyze diff is not implemented yet")
	return exitUsage
}
