package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// Problems of one kind are summarised, not repeated: when a report has more problems
// than its first screen shows, the problems whose fingerprints differ only in the names
// of what they are about (two hundred APIServices whose Services are gone, twenty
// operators that left their finalizers behind) are folded under the first of them. It
// is shown in full; the others are one line each under it (at most shownItems, then
// how many more), and the JSON report keeps every one with its chain and ladder.

// foldAt is the number of similar problems from which they are folded (fewer are shown
// one by one), and only when the report holds more problems than firstScreenProblems.
const foldAt = 3

// similarKey is what similar problems share: the cause type, the identity keys of the
// fingerprint without their values, and the root segment whole (its role and state).
// A problem without a fingerprint is similar to none.
func similarKey(p *problemView) string {
	if p.Fingerprint == "" {
		return ""
	}
	cause, segs, err := findings.ParseFingerprint(p.Fingerprint)
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(cause)
	for i, s := range segs {
		switch s.Key {
		case findings.FPBackend, findings.FPController, findings.FPNode:
			b.WriteString("/" + s.Key + "=" + s.Value)
		default:
			if i > 0 && segs[i-1].Key == s.Key {
				continue // several values of one key: how many is a detail of the names
			}
			b.WriteString("/" + s.Key + "=*")
		}
	}
	return b.String()
}

// foldSimilar sets v.Shown and each problem's Like and Similar (one pass, a map by key).
func foldSimilar(v *view) {
	fold := len(v.Problems) > firstScreenProblems
	groups := map[string][]*problemView{}
	var keys []string
	if fold {
		for _, p := range v.Problems {
			k := similarKey(p)
			if k == "" {
				continue
			}
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], p)
		}
	}
	for _, k := range keys {
		g := groups[k]
		if len(g) < foldAt {
			continue
		}
		head := g[0]
		for _, p := range g[1:] {
			p.Like = head
			head.Similar = append(head.Similar, p)
		}
	}
	for _, p := range v.Problems {
		if p.Like == nil {
			v.Shown = append(v.Shown, p)
		}
	}
}

// similarLine is one folded problem in a line: its ID, its root in a few words and the
// namespaces it holds.
func similarLine(p *problemView) string {
	h := p.Headline
	if h == "" {
		h = strings.TrimSuffix(p.Root, ".")
	}
	return p.ID + " " + clipProse(h, 64) + " (" + holdsShort(p) + ")"
}

// holdsShort names the namespaces a problem holds in a few words: "namespace team-a",
// "25 namespaces".
func holdsShort(p *problemView) string {
	switch len(p.Namespaces) {
	case 0:
		return "no namespace"
	case 1:
		return "namespace " + p.Namespaces[0].Name
	}
	return findings.Count(len(p.Namespaces)) + " namespaces"
}

// similarHead says what the folded problems are: "199 more problems like P1 (P2–P200):
// the same kind of root, each about its own names".
func similarHead(p *problemView) string {
	n := len(p.Similar)
	ids := make([]string, n)
	for i, s := range p.Similar {
		ids[i] = s.ID
	}
	return fmt.Sprintf("%s more problem%s like %s (%s): the same kind of root, each about its own %s:",
		findings.Count(n), plural(n), p.ID, idRanges(ids, 6), similarWhat(p))
}

// similarWhat names what differs between similar problems, from the fingerprint's
// identity keys: "APIService", "finalizer", ...
func similarWhat(p *problemView) string {
	_, segs, err := findings.ParseFingerprint(p.Fingerprint)
	if err == nil {
		for _, s := range segs {
			switch s.Key {
			case findings.FPAPIService:
				return "APIService and backend"
			case findings.FPGroup:
				return "group/version and backend"
			case findings.FPWebhook:
				return "webhook and backend"
			case findings.FPFinalizer:
				return "finalizer and objects"
			case findings.FPKind:
				return "objects"
			}
		}
	}
	return "names"
}

// similarLines are the folded problems of p, one line each, at most shownItems, and
// the line that says how many more there are.
func similarLines(p *problemView) (lines []string, more string) {
	shown, rest := firstOf(p.Similar, shownItems)
	for _, s := range shown {
		lines = append(lines, similarLine(s))
	}
	if rest > 0 {
		more = moreLine(rest, "similar problems")
	}
	return lines, more
}

// similarLadderNote says that the folded problems' ladders are this one's with their
// own names.
func similarLadderNote(p *problemView) string {
	if len(p.Similar) == 0 {
		return ""
	}
	ids := make([]string, len(p.Similar))
	for i, s := range p.Similar {
		ids[i] = s.ID
	}
	return fmt.Sprintf("The same steps, each with its own names, fix %s (every one's ladder is in the JSON report, problems[].remediation).", idRanges(ids, 6))
}

// idRanges writes problem IDs compactly, runs of consecutive numbers as ranges:
// "P1–P200", "P2, P4–P9"; at most max ranges, then how many more IDs.
func idRanges(ids []string, max int) string {
	var parts []string
	shownIDs := 0
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && idNum(ids[j+1]) > 0 && idNum(ids[j+1]) == idNum(ids[j])+1 {
			j++
		}
		if len(parts) == max {
			return strings.Join(parts, ", ") + fmt.Sprintf(" and %s more", findings.Count(len(ids)-shownIDs))
		}
		switch {
		case j == i:
			parts = append(parts, ids[i])
		case j == i+1:
			parts = append(parts, ids[i], ids[j])
		default:
			parts = append(parts, ids[i]+"–"+ids[j])
		}
		shownIDs += j - i + 1
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

func idNum(id string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "P"))
	if err != nil || !strings.HasPrefix(id, "P") {
		return -1
	}
	return n
}

// problemIDs lists a namespace's problems once each, compactly (ns.Problems repeats an
// ID for each of its causes that share that problem).
func problemIDs(ns *findings.NamespaceReport) string {
	if len(ns.Problems) == 0 {
		return "no problem found"
	}
	ids := distinct(ns.Problems)
	if len(ids) <= 4 {
		return strings.Join(ids, ", ")
	}
	return idRanges(ids, 12)
}

func distinct(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// verdictShown is how many roots a namespace's verdict names before saying how many more.
const verdictShown = 3

// verdict is a namespace's verdict as the reports show it: whole when it has few
// causes; else its distinct problems' roots, the first verdictShown, then how many more.
func (v *view) verdict(ns *findings.NamespaceReport) string {
	ids := distinct(ns.Problems)
	if len(ns.Causes) <= verdictShown || len(ids) == 0 {
		return ns.Verdict
	}
	if len(ids) == 1 {
		p := v.byID[ids[0]]
		if p == nil {
			return findings.FitText(ns.Verdict, 600) // composed to fit, its decisive end kept
		}
		return fmt.Sprintf("%s causes, one root (%s): %s", findings.Count(len(ns.Causes)), p.ID, p.Root)
	}
	var parts []string
	for _, id := range ids[:min(len(ids), verdictShown)] {
		if p := v.byID[id]; p != nil {
			parts = append(parts, id+": "+strings.TrimSuffix(findings.FitText(p.Root, 240), "."))
		}
	}
	s := fmt.Sprintf("Several independent blockers (%s problems); all must be fixed. %s.", findings.Count(len(ids)), strings.Join(parts, "; "))
	if rest := len(ids) - verdictShown; rest > 0 {
		s += " " + moreLine(rest, "problems")
	}
	return s
}

// afterSteps is a namespace's own last resort, waiting for the steps of its problems:
// "only after the steps of P1 and P2", compactly for many problems.
func afterSteps(s findings.RemediationStep, ns *findings.NamespaceReport) string {
	ids := distinct(ns.Problems)
	list := strings.Join(ids, " and ")
	if len(ids) > 3 {
		list = idRanges(ids, 6)
	}
	return gatedWhy(s, "only after the steps of "+list)
}

// gatedWhy is a last resort's explanation with its gate written as gate, when it waits
// for the steps above it (RemediationStep.Gate); any other rung's Why as it is.
func gatedWhy(s findings.RemediationStep, gate string) string {
	if s.Gate != findings.GateAfterSteps {
		return s.Why
	}
	return "Last resort, " + gate + ": " + s.Does
}

// noStepAbove is the gate of a last resort with no step above it.
const noStepAbove = "only once the cause is understood"
