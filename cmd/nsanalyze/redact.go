package main

import (
	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// redactReport replaces customer identifiers of the report (and every name of the
// bundle's objects quoted in it) with stable tokens.
func redactReport(r *analyzer.Report, rec *bundle.Records) *analyzer.Report {
	namespaces, names := analyzer.BundleNames(rec)
	out, _ := analyzer.Redact(r, namespaces, names)
	return out
}
