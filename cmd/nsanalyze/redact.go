package main

import (
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
)

// newRedactor returns the redactor of one run of --redact: it knows the bundle paths
// as given (an absolute path names a customer's machine) and the -n names before
// anything is printed, so every diagnostic can go through it.
func newRedactor(paths, namespaces []string) *redact.Redactor {
	rd := redact.New()
	rd.Paths(paths...)
	rd.Names("ns", namespaces...)
	return rd
}
