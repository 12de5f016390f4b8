// Package rules is the registry of nsanalyze's rules: one line per cause. Each rule
// lives in its own package beside this file (its doc, the log phrases and kinds it
// reads, what it collects, finds, explains and fixes, with its testdata), in the
// spirit of golang.org/x/tools/go/analysis.
//
// Adding a cause is adding one directory here (copy a small one such as
// namespacefinalizer/, with its testdata/ for ruletest.Run) and one line to All; the
// loader's log prefilter and keep-set, `nsanalyze explain`, the JSON schema's enum and
// the README's table follow from the registry (tests hold the schema, docs/json.md and
// the README to it).
package rules

import (
	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/admissionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/contentremaining"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/controllernotrunning"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/conversionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/loadbalancercleanup"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/namespacefinalizer"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ordereddeletion"
)

// All is every rule, in the order their causes are listed in a report. The order they
// run in is not this one: it is derived from what each rule declares (Claims, Yields,
// Requires; analyzer.NewPlan), and init rejects declarations that cannot be ordered.
var All = []*analyzer.Rule{
	apidiscovery.Rule,
	ordereddeletion.Rule,
	admissionwebhook.Rule,
	conversionwebhook.Rule,
	loadbalancercleanup.Rule,
	finalizers.Rule,
	contentremaining.Rule,
	namespacefinalizer.Rule,
	controllernotrunning.Rule,
}

// The registry is checked once, when the program starts: a rule without a doc, a run
// function, a ladder or an example, a name registered twice, or declarations that form
// a cycle, is a programming error.
func init() {
	if err := analyzer.Validate(All); err != nil {
		panic("nsanalyze rules registry: " + err.Error())
	}
}

// KeepObject is the loader's keep decision derived from All.
var KeepObject = analyzer.KeepObject(All)

// Phrases is the loader's log prefilter derived from All.
var Phrases = analyzer.Phrases(All)

// ByName returns the rule that reports a cause type, or nil.
func ByName(name string) *analyzer.Rule { return analyzer.RuleByName(All, name) }
