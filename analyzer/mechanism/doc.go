// Package mechanism holds how Kubernetes gets stuck, as the rules share it: the walks
// that turn the index's records into links of a causal chain, each link with its
// evidence, its state (findings.Link.Code) and its fix.
//
//   - the backend walk (backend.go): an APIService's or webhook's Service → endpoints
//     → pods → node, and the facts a rung's premise may require of it (premise.go);
//     the workload behind a Service, whether its backend is broken, whether a webhook
//     intercepts deletes (workload.go);
//   - finalizers (finalizer.go, owner.go): who removes a finalizer (its controller,
//     present, failing or absent; verdicts.go), and what Kubernetes' own finalizers wait
//     for (pvc-protection, foregroundDeletion, the CRD cleanup, ...), with the safe rung
//     that acts on each;
//   - deadlocks (deadlock.go): a backend (an APIService's, a webhook's, a finalizer's
//     controller) that lives in the namespace being deleted;
//   - the cloud (cloud.go): a cloud controller whose calls the cloud refuses;
//   - commands that read a component's log on the bundle's platform (logs.go), and the
//     loops over a group of objects (groups.go).
//
// A mechanism reads a Scope (the index, the namespace, the stuck set), which a rule's
// Pass embeds. It knows no rule: the rule API and the driver are in package analyzer.
package mechanism
