// Package index is the analysis' view of a bundle's records: built once, in one pass
// over the objects and one over the log lines, then only read.
//
// It holds
//   - the objects by namespace, kind and name, the whole Namespace objects and the slim
//     rows of the Active ones (index.go, slimnamespaces.go, slimpods.go), the files each
//     kind was dumped in, so that "not in the bundle" can be told from "none"
//     (fileindex.go);
//   - the log lines every rule reads (the namespace controller's failures and
//     deletions, content that remains, controller starts) and the lines each rule's own
//     matchers keep (Match, Collector, RuleLines);
//   - the cloud controllers' failures and the clouds' refusals by controller
//     (cloudlines.go), the Kubernetes sentences found in pasted text, given to the
//     namespace or APIService they name (messages.go), and LineHolds, which asks
//     whether a log line holds a name (a long line is indexed once, as a suffix array:
//     textindex.go);
//   - lookups over them: a pod's node (nodes.go), a CRD by group and kind, a webhook by
//     name, the platform the bundle comes from (lookups.go);
//   - the names Kubernetes would have refused, so that no command carries one
//     (names.go, CheckCmd).
//
// It knows no rule and no cause: the mechanisms that turn these records into chains
// (the backend walk, finalizer owners) are in analyzer/mechanism, the rule API and the
// driver in package analyzer.
package index
