package main

import (
	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
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

// redactReport replaces customer identifiers of the report (and every name of the
// bundle's records quoted in it, and every word of its free text that is not public
// vocabulary) with stable tokens; rd then redacts the warnings on stderr the same way.
func redactReport(rd *redact.Redactor, r *analyzer.Report, rec *bundle.Records) *analyzer.Report {
	rd.Records(rec)
	rd.Report(r)
	return rd.Apply(r)
}
