package analyzer

import (
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Undetermined is the cause the analyzer reports when no rule found one; it is not in
// the registry (no Run), but has a doc, a ladder (what to collect) and an example.
var Undetermined = &Rule{
	Name:    findings.CauseUndetermined,
	Doc:     undeterminedDoc,
	Ladder:  undeterminedLadder,
	Example: func(*Pass) findings.Cause { return findings.Cause{} },
}

const undeterminedDoc = `No rule could prove why the namespace is stuck.

The namespace has a deletion timestamp, but the bundle holds neither a condition nor a
log line nor an object that explains it: the namespace controller's conditions are
missing or all False, no finalizer is left on the objects the bundle holds, and the
controller's log has no failure for the namespace. Usually the bundle lacks what would
show it (the namespace's own objects, APIServices, webhook configurations, or the
kube-controller-manager log around the deletion time); the report lists what to collect.`

// ExampleLadder returns the remediation ladder the analyzer writes for a rule's cause,
// computed by the same code as in a report on the rule's Example (placeholder names
// NAMESPACE, NAME, example.com/FINALIZER, ...): what "nsanalyze explain" prints.
func ExampleLadder(rule *Rule) []findings.RemediationStep {
	const ns = "NAMESPACE"
	ix := index.New(&bundle.Records{}, nil)
	p := &Pass{Scope: mechanism.Scope{Index: ix, Namespace: ns, Stuck: map[string]bool{ns: true}}, Rule: rule, example: true, warn: &warnings{},
		Object: &objects.Object{Kind: "Namespace", Name: ns, SpecFinalizers: []string{"kubernetes"}}}
	c := rule.Example(p)
	c.Type = rule.Name
	nr := findings.NamespaceReport{Name: ns, Causes: []findings.Cause{c}}
	return remediation(p, nr, []*Rule{rule})
}
