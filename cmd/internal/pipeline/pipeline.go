// Package pipeline is what nsanalyze does with a bundle once it is read, for the page
// (cmd/nsanalyze-web, internal/web): the shipped rules, the known-issue catalog, the
// scrubbing of secrets and, with --redact, the redaction of customer identifiers, in the
// order the command's own pipeline (cmd/nsanalyze/pipeline.go) runs them, with the same
// functions. (That one is in package main and also checks clusters and redacts across
// the sides of a diff; the command can call Readable, BundleOptions and Analyze here.)
package pipeline

import (
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/knownissues"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// BundleOptions are the options of reading a bundle for the shipped rules, with the
// defaults of nsanalyze's flags (klog times in UTC, the default line and nesting caps).
func BundleOptions() bundle.Options {
	return bundle.Options{
		Keywords:          rules.Phrases,
		KeepObject:        rules.KeepObject,
		LogLocation:       time.UTC,
		MaxLineBytes:      logs.DefaultMaxLineBytes,
		MaxArchiveNesting: bundle.DefaultMaxArchiveNesting,
	}
}

// Readable reports whether anything of the bundle reads as Kubernetes evidence: an
// object, kubectl output, a collector's error, or a log with a known component, a
// timestamped line or a line a rule matched. Unrelated files and archives with no
// readable member are not a bundle (exit 2, never "no namespace is stuck").
func Readable(rec *bundle.Records) bool {
	if rec.ObjectCount > 0 || len(rec.TextFiles) > 0 || len(rec.CollectorErrors) > 0 {
		return true
	}
	for _, f := range rec.LogFiles {
		if f.Matched > 0 || !f.First.IsZero() || (f.Component != "" && f.Component != "unknown") {
			return true
		}
	}
	for _, m := range rec.Messages {
		if m.NamesAPIService() {
			return true // an APIService's condition pasted without the object
		}
	}
	return false
}

// Options say what the analysis of one bundle reports.
type Options struct {
	Namespaces []string             // only these namespaces (-n); nil: all
	Catalog    *knownissues.Catalog // known issues the problems are matched with; nil: none
	Redactor   *redact.Redactor     // --redact (NewRedactor); nil: no redaction
}

// NewRedactor returns the redactor of one run of --redact: it knows the bundle paths
// as given (an absolute path names a customer's machine) and the -n names before
// anything is printed, so every diagnostic can go through it.
func NewRedactor(paths, namespaces []string) *redact.Redactor {
	rd := redact.New()
	rd.Paths(paths...)
	rd.Names("ns", namespaces...)
	return rd
}

// Analyze turns the records of a bundle into its report: the shipped rules, then the
// known issues that fit each problem's fingerprint, then secrets scrubbed (always),
// then, with a Redactor, customer identifiers replaced (the report's, and every name
// of the records quoted in it); the Redactor then redacts diagnostics the same way.
func Analyze(rec *bundle.Records, o Options) *findings.Report {
	report := Report(rec, o.Namespaces, o.Catalog)
	if rd := o.Redactor; rd != nil {
		rd.Records(rec)
		rd.Report(report)
		report = rd.Apply(report)
	}
	return report
}

// Report is the analysis of one bundle before --redact: the rules, then the known
// issues (before --redact: they match the readable fingerprints), then the secrets
// removed (a report never holds one, --redact or not). The command runs it for each
// side of a diff and redacts the sides with one mapping; Analyze redacts one bundle.
func Report(rec *bundle.Records, namespaces []string, cat *knownissues.Catalog) *findings.Report {
	report := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All, Namespaces: namespaces})
	cat.Annotate(report)
	return redact.Scrub(report)
}
