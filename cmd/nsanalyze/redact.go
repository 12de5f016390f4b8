package main

import (
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/internal/pipeline"
)

// newRedactor returns the redactor of one run of --redact (pipeline.NewRedactor).
func newRedactor(paths, namespaces []string) *redact.Redactor {
	return pipeline.NewRedactor(paths, namespaces)
}
