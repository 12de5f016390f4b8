package analyzer

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// maxAsk is how many missing pieces the note names, and how many commands it offers
// instead of the script.
const maxAsk = 3

// nextStep writes the report's next step when it is inconclusive (nil otherwise).
func nextStep(ix *index.Index, r *findings.Report) *findings.NextStep {
	var undetermined []string
	for _, p := range r.Problems {
		if p.CauseType == findings.CauseUndetermined {
			for _, n := range p.Namespaces {
				undetermined = append(undetermined, n.Name)
			}
		}
	}
	if r.State != findings.StateUnknown && len(undetermined) == 0 {
		return nil
	}
	platform := ix.Platform()
	ns := &findings.NextStep{Platform: platform}
	var unnamed []string
	for _, rk := range r.Risks {
		if rk.Unnamed {
			unnamed = append(unnamed, rk.Summary)
		}
	}
	switch {
	case r.State == findings.StateUnknown && len(unnamed) > 0:
		// (each summary says what holds a deletion and that the namespace is not named)
		ns.Seen = unnamed[0]
		if len(unnamed) > 1 {
			ns.Seen += fmt.Sprintf(" The bundle shows %d more such condition%s.", len(unnamed)-1, findings.Plural(len(unnamed)-1, "s", ""))
		}
		ns.Commands = append(ns.Commands, findings.ForClient(platform, "kubectl get namespaces --field-selector status.phase=Terminating -o yaml"))
	case r.State == findings.StateUnknown:
		reason := r.StateReason
		if r.StateSeen != "" {
			reason = r.StateSeen // without the commands: they are asked for below
		}
		ns.Seen = "The bundle cannot show whether a namespace is stuck in Terminating: " + strings.TrimSuffix(reason, ".") + "."
	default:
		ns.Seen = "Namespace" + findings.Plural(len(undetermined), "s ", " ") + strings.Join(findings.FirstN(undetermined, 5), ", ") + findings.Plural(len(undetermined), " are", " is") +
			" stuck in Terminating, and nothing in the bundle shows what holds " + findings.Plural(len(undetermined), "them", "it") + "."
	}
	for _, g := range r.Coverage {
		if len(ns.Missing) == maxAsk {
			break
		}
		if w := whyMissing(g); w != "" && g.Why == "" {
			g.Why = w
		}
		ns.Missing = append(ns.Missing, g)
		if !findings.CommentOnly(g.Collect) && len(ns.Commands) < maxAsk {
			ns.Commands = append(ns.Commands, g.Collect)
		}
	}
	if platform == findings.PlatformOpenShift {
		ns.Command = "oc adm must-gather"
		if len(undetermined) > 0 {
			if c, ok := shellsafe.SafeCmd(append([]any{"oc", "adm", "inspect"}, nsWords(undetermined)...)...); ok {
				ns.Command += " && " + c
			}
		}
		return ns
	}
	ns.Make = "nsanalyze collect --output-file collect.sh"
	ns.Command = "sh collect.sh"
	return ns
}

func nsWords(names []string) []any {
	var out []any
	for _, n := range findings.FirstN(names, 5) {
		out = append(out, shellsafe.NS(n).In("ns/", ""))
	}
	return out
}

// Why a missing piece matters, by its kind (for the note to the customer).
func whyMissing(g findings.Gap) string {
	switch g.Kind {
	case findings.GapControllerManagerLog:
		return "the namespace controller runs in kube-controller-manager; its log says which call fails for the namespace"
	case findings.GapAPIServices:
		return "an APIService that is not Available stops every namespace deletion"
	case findings.GapBackendPodLogs:
		return "the pod serves an APIService or webhook: while it does not run, the APIService is not Available or the webhook fails, and its log says why"
	case findings.GapWebhookConfigurations:
		return "a webhook that refuses or times out blocks the namespace controller's deletes"
	case findings.GapNamespaces, findings.GapNamespaceListing, findings.GapNamespace, findings.GapNamespaceState, findings.GapNamespaceObjects:
		return "its status.conditions name what is left and what fails"
	case findings.GapAPIServerLog:
		return "it shows the refused calls and failing API groups"
	}
	return ""
}
