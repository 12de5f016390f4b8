package analyzer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxSummary is the most characters the report's one-line summary holds (a ticket title).
const MaxSummary = 200

// SummaryOf writes the one-line summary of a stuck report from its exported fields only
// (so it can be written again on a copy, after redaction): the namespaces, what blocks
// them and the root of the first problem, at most MaxSummary characters, cut at a word:
//
//	namespace shop stuck in Terminating, blocked by APIService v1beta1.metrics.k8s.io; root: Pods ...: phase Pending
func SummaryOf(r *Report) string {
	n := len(r.Namespaces)
	var names []string
	for _, ns := range r.Namespaces {
		names = append(names, ns.Name)
	}
	subject := fmt.Sprintf("%d namespaces", n)
	switch {
	case n == 1:
		subject = "Namespace " + names[0]
	case n <= 3:
		subject += " (" + strings.Join(names, ", ") + ")"
	default:
		subject += fmt.Sprintf(" (%s, +%d more)", strings.Join(names[:2], ", "), n-2)
	}
	head := subject + " stuck in Terminating"
	if len(r.Problems) == 0 {
		return CutSummary(head, MaxSummary)
	}
	p := r.Problems[0]
	tail := ""
	if len(r.Problems) > 1 {
		tail = fmt.Sprintf(" (+%d more independent problem%s)", len(r.Problems)-1, Plural(len(r.Problems)-1, "s", ""))
	}
	blocker, root := blockerAndRoot(&p)
	s := head
	if blocker != "" {
		s += ", blocked by " + blocker
	}
	switch {
	case p.CauseType == CauseUndetermined:
		s += "; cause " + root
	case root != "":
		s += "; root: " + root
	}
	return CutSummary(s, MaxSummary-utf8.RuneCountInString(tail)) + tail
}

// blockerAndRoot name what holds a problem's namespaces (the first link that names an
// object, not a control-plane component, nor the root) and its root (the root link's
// component and the first clause of its finding; the problem's root sentence when no
// link shows a fault).
func blockerAndRoot(p *Problem) (blocker, root string) {
	var rl *Link
	for i := range p.Chain {
		if p.Chain[i].Root {
			rl = &p.Chain[i]
		}
	}
	for i := range p.Chain {
		l := &p.Chain[i]
		if l == rl {
			break
		}
		if controlPlaneComponent(l.Component) || l.Component == "deadlock" {
			continue
		}
		blocker = shortComponent(l.Component)
		break
	}
	if p.CauseType == CauseUndetermined {
		return blocker, "undetermined: the bundle does not show why (see what to collect)"
	}
	if rl == nil {
		return blocker, strings.TrimSuffix(firstClause(p.Root), ".")
	}
	comp := shortComponent(rl.Component)
	finding := strings.TrimSuffix(firstClause(rl.Finding), ".")
	if strings.HasPrefix(finding, comp+" ") || strings.HasPrefix(finding, comp+":") {
		return blocker, finding
	}
	if i := strings.LastIndexByte(comp, ' '); i > 0 && strings.HasPrefix(finding, comp[i+1:]+" ") {
		return blocker, comp[:i+1] + finding // "finalizer F: F is removed by ..." -> "finalizer F is removed by ..."
	}
	return blocker, comp + ": " + finding
}

// controlPlaneComponent is true for the links that name a control-plane component
// rather than an object: the namespace controller, kube-apiserver, the garbage collector.
func controlPlaneComponent(c string) bool {
	for _, p := range []string{"namespace controller", "kube-apiserver", "kube-controller-manager", "garbage collector"} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// CutSummary cuts s to at most n characters at a word boundary, with "…" when cut:
// never inside a word ("dial tcp 10.…"), never leaving a quotation open, never ending
// on a dangling separator or small word ("… reason=", "… the", ", "); parentheses
// left open by the cut are closed after the "…".
func CutSummary(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	for room := n - 1; room > 0; room-- {
		kept := cutWords(runes, room)
		closers := strings.Count(kept, "(") - strings.Count(kept, ")")
		if closers < 0 {
			closers = 0
		}
		if utf8.RuneCountInString(kept)+1+closers <= n {
			if kept == "" {
				return string(runes[:n-1]) + "…"
			}
			return kept + "…" + strings.Repeat(")", closers)
		}
	}
	return string(runes[:n-1]) + "…"
}

// cutWords keeps the words of runes that fit in room characters, without a dangling end.
func cutWords(runes []rune, room int) string {
	cut := room
	for cut > 0 && !unicode.IsSpace(runes[cut]) {
		cut--
	}
	kept := strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace)
	for {
		before := kept
		kept = strings.TrimRight(kept, " ,;:=(→-")
		for _, w := range []string{" the", " a", " an", " of", " to", " by", " in", " and", " or", " is", " its", " for", " from", " with", " at", " on"} {
			kept = strings.TrimSuffix(kept, w)
		}
		if strings.Count(kept, `"`)%2 == 1 {
			if q := strings.LastIndex(kept, `"`); q > 0 {
				kept = strings.TrimRightFunc(kept[:q], unicode.IsSpace)
			}
		}
		if kept == before {
			return kept
		}
	}
}
