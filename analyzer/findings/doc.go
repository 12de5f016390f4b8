// Package findings is the report model: what the analysis found, as typed values that
// the renderers, the redactor and the known-issue catalogue read without re-parsing a
// sentence, and that the analyzer and the rules write.
//
// It holds
//   - the report and its parts (report.go): Report, NamespaceReport, Problem, Cause, Link,
//     Evidence, RemediationStep, Risk, Gap, TimelineEvent, NextStep (nextstep.go);
//   - how evidence is built and dated (evidence.go): FieldEvidence, ConditionEvidence,
//     LogEvidence, Correlate, SampleLines;
//   - what a cause claims beyond its objects (claims.go: ClaimSet, ClaimKind), the groups
//     its objects are shown in (groups.go), the facts its chain establishes and a rung's
//     premises (facts.go), the verdict on each finalizer (verdicts.go);
//   - the machine-readable state of a link (linkcode.go) and the fingerprint of a root
//     problem (fingerprint.go), with the public names it may show (publicnames.go,
//     finalizer_catalog.go);
//   - what a command changes and the risk label that follows from it (rungs.go);
//   - the deep copy a redaction works on (clone.go) and the words reports share
//     (words.go).
//
// It imports no other package of the analyzer, only parsers (objects and logs for the
// records evidence points to, kubemsg for error classes). The index of the
// records, the rule API and the driver are in package analyzer; the rules in
// analyzer/rules.
package findings
