package render

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// Reports summarise, the JSON keeps everything: every list a report repeats per item
// (problems, the namespaces a problem holds, a cause's objects, latent risks,
// warnings, the per-namespace section) shows its first items and then one line that
// says how many more there are and that -o json lists them all. The limits are fixed,
// so a report's size follows the number of causes, not of objects or namespaces.
const (
	// shownProblems: problems after these are listed one line each, without sections.
	shownProblems = 8
	// firstScreenProblems: problems shown with their root and first steps on the first screen.
	firstScreenProblems = 5
	// shownItems: objects, object groups and namespaces held shown per problem.
	shownItems = 10
	// shownNamespaces: entries of the per-namespace section.
	shownNamespaces = 20
	// shownLinkEvidence: evidence quoted per link of a causal chain.
	shownLinkEvidence = 10
	// shownCollect: collect commands shown per group of similar coverage gaps.
	shownCollect = 3
	// shownRisks, shownWarnings: latent risks and warnings shown.
	shownRisks    = 12
	shownWarnings = 30
)

// moreLine says how many items a list left out: "… and 1,990 more objects (every one
// is in the JSON report, -o json)".
func moreLine(rest int, noun string) string {
	return fmt.Sprintf("… and %s more %s (every one is in the JSON report, -o json)", findings.Count(rest), noun)
}

// firstOf returns at most n items of xs and how many it left out.
func firstOf[T any](xs []T, n int) ([]T, int) {
	if len(xs) <= n {
		return xs, 0
	}
	return xs[:n], len(xs) - n
}

// objectLines are a cause's objects as the reports list them: one line per group of
// objects sharing kind, finalizers and verdict when the cause groups them, else one
// per object; at most shownItems, then how many more.
func objectLines(c *findings.Cause) (lines []string, more string) {
	if len(c.Groups) > 0 && len(c.Groups) < len(c.Objects) {
		gs, rest := firstOf(c.Groups, shownItems)
		for _, g := range gs {
			lines = append(lines, groupLine(g))
		}
		if rest > 0 {
			more = moreLine(rest, "groups of objects")
		}
		return lines, more
	}
	os, rest := firstOf(c.Objects, shownItems)
	for _, o := range os {
		lines = append(lines, objectLine(o))
	}
	if rest > 0 {
		more = moreLine(rest, "objects")
	}
	return lines, more
}

// groupLine is one group of objects: "2,500 PipelineRuns (tekton.dev)
// finalizers=tekton.dev/pipelineRun, controller not running, deleted between A and B;
// e.g. build-1, build-2, build-3".
func groupLine(g findings.ObjectGroup) string {
	if g.Count == 1 && len(g.Examples) == 1 {
		s := g.Kind + " " + g.Namespace + "/" + g.Examples[0]
		if len(g.Finalizers) > 0 {
			s += " finalizers=" + strings.Join(g.Finalizers, ",")
		}
		if g.OldestDeletion != nil {
			s += " deletionTimestamp=" + ts(g.OldestDeletion)
		}
		if v := g.VerdictPhrase(); v != "" {
			s += " (" + v + ")"
		}
		return s
	}
	s := g.Describe()
	if len(g.Finalizers) > 0 {
		s += " finalizers=" + strings.Join(g.Finalizers, ",")
	}
	if v := g.VerdictPhrase(); v != "" {
		s += ", " + v
	}
	if d := g.Deletions(); d != "" {
		s += ", " + d
	}
	return s + "; e.g. " + strings.Join(g.Examples, ", ")
}

// shownTimeline is how many (folded) timeline entries a timeline shows: the first and
// the last halves, the middle said in one line.
const shownTimeline = 24

// clipTimeline keeps the first and last shownTimeline/2 groups and says how many it
// left out of the middle.
func clipTimeline(gs []timelineGroup) ([]timelineGroup, int) {
	if len(gs) <= shownTimeline {
		return gs, 0
	}
	h := shownTimeline / 2
	out := append(append([]timelineGroup{}, gs[:h]...), gs[len(gs)-h:]...)
	return out, len(gs) - shownTimeline
}

// loopNamespaces is the number of namespaces from which a problem's last resort is
// printed as one loop instead of one command per namespace.
const loopNamespaces = 50

// lastResortLoop is the /finalize last resort of a problem's namespaces as one loop,
// when more than loopNamespaces namespaces share it and every one's own command was
// built (a name Kubernetes would refuse keeps its comment, and no loop is made).
func lastResortLoop(pv *problemView) (string, bool) {
	if len(pv.LastResort) <= loopNamespaces {
		return "", false
	}
	for _, s := range pv.LastResort {
		if strings.HasPrefix(s.Command, "#") {
			return "", false
		}
	}
	k := pv.Client
	if k == "" {
		k = "kubectl"
	}
	return "for ns in " + shellsafe.Cmd(pv.LastNames...) + `; do ` + k + ` get namespace "$ns" -o json | jq '.spec.finalizers = []' | ` + k + ` replace --raw "/api/v1/namespaces/$ns/finalize" -f -; done`, true
}

// risksHeading is latent when every risk is one, else unnamed (a risk that is a deletion
// under way whose namespace the bundle does not name is no latent risk).
func risksHeading(risks []findings.Risk, latent, unnamed string) string {
	for _, rk := range risks {
		if rk.Unnamed {
			return unnamed
		}
	}
	return latent
}
