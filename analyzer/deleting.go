package analyzer

import (
	"fmt"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// DeletingThreshold is how long a namespace may be Terminating, with no blocker in the
// evidence, before it is called stuck rather than still being deleted.
//
// Why this value (k8s.io/kubernetes v1.34, pkg/controller/namespace): the namespace
// controller waits namespaceDeletionGracePeriod (5 s) after the deletion before it
// starts; while content remains it requeues after estimate/2+1 s, the estimate being
// the longest pod terminationGracePeriodSeconds (30 s by default) or 15 s for objects
// with finalizers (finalizerEstimateSeconds); a failed pass is retried with an
// exponential backoff of 5 ms up to 60 s (nsControllerRateLimiter), and every namespace
// is resynced each --namespace-sync-period (5 min by default). A deletion nothing blocks
// therefore ends within about a minute; one still unfinished after a full resync period
// has been retried at the longest backoff several times. Pods whose own grace period
// is longer than 5 minutes can make a healthy deletion take longer: then the pods' state
// is the evidence to read, and a rule reports them.
const DeletingThreshold = 5 * time.Minute

// splitDeleting moves out of r.Namespaces the namespaces that are still being deleted
// rather than stuck: no rule found a blocker (their only cause is "undetermined"), their
// metadata.deletionTimestamp is known, and the capture came less than DeletingThreshold
// after it. They are listed in r.Deleting, with what to look at if they do not finish,
// and get no ladder (no /finalize).
func splitDeleting(ix *index.Index, r *findings.Report) {
	kept := r.Namespaces[:0]
	for _, nr := range r.Namespaces {
		if d, ok := stillDeleting(ix, &nr); ok {
			r.Deleting = append(r.Deleting, d)
			continue
		}
		kept = append(kept, nr)
	}
	r.Namespaces = kept
}

func stillDeleting(ix *index.Index, nr *findings.NamespaceReport) (findings.DeletingNamespace, bool) {
	// an estimated capture time is only the newest time in the bundle, a lower bound:
	// a young age is proven only against the collector's own clock
	if nr.DeletionTimestamp == nil || nr.DeletionInferred || ix.CapturedAt.IsZero() || !ix.CaptureRecorded {
		return findings.DeletingNamespace{}, false
	}
	for _, c := range nr.Causes {
		if c.Type != findings.CauseUndetermined {
			return findings.DeletingNamespace{}, false // a blocker: stuck however young
		}
	}
	age := ix.CapturedAt.Sub(*nr.DeletionTimestamp)
	if age < 0 || age >= DeletingThreshold {
		return findings.DeletingNamespace{}, false
	}
	d := findings.DeletingNamespace{Name: nr.Name, DeletionTimestamp: nr.DeletionTimestamp, DeletingFor: findings.FmtDuration(age),
		DeletingSeconds: int64(age / time.Second), Phase: nr.Phase, Conditions: nr.Conditions, Source: nr.Source}
	if d.DeletingFor == "" {
		d.DeletingFor = "0s"
	}
	clock := "the capture (" + ix.CapturedAtSource + ")"
	d.Why = fmt.Sprintf("deleted %s before %s, less than the %s the namespace controller needs at most when nothing blocks it, and no blocker in the evidence (%s)",
		d.DeletingFor, clock, findings.FmtDuration(DeletingThreshold), checkedRules(nr))
	ns := nr.Name
	w := func(cmd, why string) {
		d.Watch = append(d.Watch, findings.RemediationStep{Risk: findings.RiskSafe, Command: cmd, Why: why})
	}
	w(shellsafe.Cmd("kubectl", "get", "namespace", ns, "-o", "json"),
		fmt.Sprintf("If it is still Terminating %s after its deletion, read its status.conditions: they name what is left (NamespaceContentRemaining, NamespaceFinalizersRemaining) or what fails (NamespaceDeletionDiscoveryFailure, NamespaceDeletionContentFailure).", findings.FmtDuration(DeletingThreshold)))
	w("kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 "+shellsafe.Cmd("kubectl", "get", "--show-kind", "--ignore-not-found", "-n", ns),
		"What is still in the namespace, and which of it carries finalizers or a deletion timestamp.")
	w(shellsafe.Cmd("kubectl", "get", "apiservices"), "An APIService that is not Available stops every namespace deletion.")
	w(mechanism.ControllerManagerLogs(ix, 500, shellsafe.Cmd("grep", "-F", ns)),
		"The namespace controller's errors for it, if any; then run nsanalyze again on a new bundle (nsanalyze collect).")
	g := namespaceGuard(*nr)
	for i := range d.Watch {
		d.Watch[i].Command = ix.CheckCmd(g.Check(d.Watch[i].Command))
	}
	findings.LabelAll(d.Watch)
	return d, true
}

// checkedRules lists the rules that found nothing, for the reason a namespace is only
// still being deleted.
func checkedRules(nr *findings.NamespaceReport) string {
	var types []string
	for _, ro := range nr.RuledOut {
		types = append(types, ro.Type)
	}
	if len(types) == 0 {
		return "no rule found one"
	}
	return "checked: " + strings.Join(types, ", ")
}

// deletingState sets the report's state when no namespace is stuck but some are still
// being deleted.
func deletingState(r *findings.Report) {
	if len(r.Namespaces) > 0 || len(r.Deleting) == 0 {
		return
	}
	if r.State == findings.StateUnknown {
		var names []string
		for _, d := range r.Deleting {
			names = append(names, d.Name)
		}
		r.StateReason += fmt.Sprintf("; still being deleted with no blocker in the evidence: %s", strings.Join(names, ", "))
		return
	}
	r.State = findings.StateDeleting
	var parts []string
	for _, d := range r.Deleting {
		parts = append(parts, fmt.Sprintf("%s (deleted %s before the capture)", d.Name, d.DeletingFor))
	}
	reason := fmt.Sprintf("%d %s still being deleted, not stuck: %s; no blocker in the evidence", len(r.Deleting), findings.Plural(len(r.Deleting), "namespaces are", "namespace is"), strings.Join(parts, ", "))
	if r.StateReason != "" {
		reason += "; " + r.StateReason
	}
	r.StateReason = reason
}
