// Package findings is the report model: what the analysis found, as typed values that
// the renderers, the redactor and the known-issue catalogue read without re-parsing a
// sentence, and that the analyzer and the rules write.
//
// It holds
//   - the report and its parts (report.go): Report, NamespaceReport, Problem, Cause, Link,
//     Evidence, RemediationStep, Risk, Gap, TimelineEvent, NextStep (nextstep.go);
//   - how evidence is built, dated and said (evidence.go): FieldEvidence,
//     ConditionEvidence, LogEvidence, Correlate, SampleLines, CondState, and the span of
//     a set of log lines (linespan.go);
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
// It also holds what every layer above it shares: the platform a bundle comes from and
// its client (platform.go: Platform*, Kubectl, ForClient), text fitted to a width
// (fit.go), the commands written inside sentences (inline.go), the span of a timeline
// (timespan.go) and small helpers on strings and lists (strings.go, words.go).
//
// It imports no other package of the analyzer, only parsers (objects and logs for the
// records evidence points to, kubemsg for error classes). The index of the records is
// in analyzer/index, the shared mechanisms in analyzer/mechanism, the rule API and the
// driver in package analyzer, the rules in analyzer/rules.
package findings
