package finalizers

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// risks reports the namespace deleter's finalizer and content messages the bundle
// gives no namespace (a condition pasted alone, in inline code, as two describe rows
// without their header): each proves that some namespace is being deleted and what
// holds it, and names the finalizers or resources, although not the namespace. The
// report stays inconclusive on which namespace; this says what holds it and how to
// find both.
func risks(ix *index.Index, reported map[string]bool) []findings.Risk {
	var out []findings.Risk
	seen := map[string]bool{}
	for _, m := range ix.Unattributed() {
		// what, and the message as far as it was read (a message in a sentence is
		// followed by the sentence's own words)
		var what, msg string
		switch m.CondType {
		case kubemsg.CondFinalizersRemaining:
			var parts, items []string
			for _, f := range kubemsg.ParseFinalizersRemaining(m.Text) {
				parts = append(parts, fmt.Sprintf("finalizer %s (%d resource instance%s)", f.Finalizer, f.Count, findings.Plural(f.Count, "s", "")))
				items = append(items, fmt.Sprintf("%s in %d resource instances", f.Finalizer, f.Count))
			}
			msg = "Some content in the namespace has finalizers remaining: " + strings.Join(items, ", ")
			if len(parts) == 0 {
				continue
			}
			what = "waits for " + strings.Join(parts, ", ") + " to be removed by " + findings.Plural(len(parts), "their controllers", "its controller")
		case kubemsg.CondContentRemaining:
			var parts, items []string
			for _, r := range kubemsg.ParseContentRemaining(m.Text) {
				parts = append(parts, fmt.Sprintf("%d %s", r.Count, r.GroupResource()))
				items = append(items, fmt.Sprintf("%s has %d resource instances", r.GroupResource(), r.Count))
			}
			msg = "Some resources are remaining: " + strings.Join(items, ", ")
			if len(parts) == 0 {
				continue
			}
			what = "still holds " + strings.Join(parts, ", ")
		default:
			continue
		}
		if seen[what] {
			continue
		}
		seen[what] = true
		out = append(out, findings.Risk{Type: Name, Unnamed: true,
			Summary:  fmt.Sprintf("A namespace being deleted %s: the namespace controller writes this condition (%s) only while it deletes a namespace, but the bundle does not say which namespace.", what, m.CondType),
			Evidence: []findings.Evidence{{File: m.File, Line: m.Line, Field: "status.conditions[type=" + m.CondType + "]", Text: m.CondType + "=" + m.CondStatus + " message=" + msg}},
			Fix: []findings.RemediationStep{
				{Risk: findings.RiskSafe, Command: "kubectl get namespaces --field-selector status.phase=Terminating",
					Why: "Which namespaces are being deleted: the condition is one of theirs (kubectl describe namespace NAME shows its conditions)."},
				{Risk: findings.RiskSafe, Command: mechanism.FindAllHoldersCmd(),
					Why: "Every object that carries finalizers, in every namespace: those in a Terminating namespace are what it waits for; their finalizers go once their controllers run."},
			}})
	}
	return out
}
