package mechanism

import "github.com/nsanalyze/nsanalyze/analyzer/index"
import "github.com/nsanalyze/nsanalyze/analyzer/findings"

// clearingEffect says what removing a finalizer by hand does, for the finalizers whose
// effect is known; the others skip their controller's cleanup, whatever it guards.
func clearingEffect(f string) string {
	switch f {
	case "foregroundDeletion":
		return "safe: the garbage collector's marker; its dependents are deleted anyway, in the background"
	case "orphan":
		return "safe: the dependents are left in place, as asked"
	case "kubernetes.io/pvc-protection":
		return "safe once no pod uses the claim; while one does, the volume may be detached under it"
	case "kubernetes.io/pv-protection":
		return "safe once the volume is unbound; the storage behind it is kept or deleted by its reclaim policy"
	case "kubernetes":
		return "only through /finalize; whatever is still stored for the namespace is orphaned in etcd"
	}
	return "skips its controller's cleanup: whatever it guards outside Kubernetes (cloud resources, volumes, registrations) may be orphaned; only its controller knows what"
}

// Verdicts gives each finalizer a cause names its verdict.
func Verdicts(ix *index.Index, c *findings.Cause) []findings.FinalizerVerdict {
	var out []findings.FinalizerVerdict
	for _, f := range c.Finalizers {
		_, v := FinalizerOwner(ix, f, nil)
		out = append(out, findings.FinalizerVerdict{Finalizer: f, Controller: v, Clearing: clearingEffect(f)})
	}
	return out
}
