package analyzer

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// SummaryOf writes the one-line summary of a stuck report from its exported fields only
// (so it can be written again on a copy, after redaction): the namespaces, what blocks
// them and the root of the first problem, at most MaxSummary characters, cut at a word:
//
//	namespace shop stuck in Terminating, blocked by APIService v1beta1.metrics.k8s.io; root: Pods ...: phase Pending
func SummaryOf(r *findings.Report) string {
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
		return findings.FitText(head, findings.MaxSummary)
	}
	p := r.Problems[0]
	tail := ""
	if len(r.Problems) > 1 {
		tail = fmt.Sprintf(" (+%d more independent problem%s)", len(r.Problems)-1, findings.Plural(len(r.Problems)-1, "s", ""))
	}
	blocker, root := blockerAndRoot(&p)
	budget := findings.MaxSummary - utf8.RuneCountInString(tail)
	compose := func(blocker string) (string, int) {
		s := findings.FitText(head, budget)
		if blocker != "" {
			s += ", blocked by " + blocker
		}
		if p.CauseType == findings.CauseUndetermined {
			s += "; cause "
		} else if root != "" {
			s += "; root: "
		}
		return s, budget - utf8.RuneCountInString(s)
	}
	s, room := compose(blocker)
	if blocker != "" && room < utf8.RuneCountInString(root) && room < 80 {
		s, room = compose("") // the root's words matter more than the blocker's name
	}
	if root != "" && room > 0 {
		s += findings.FitText(root, room)
	}
	return findings.FitText(s, budget) + tail
}

// blockerAndRoot name what holds a problem's namespaces (the first link that names an
// object, not a control-plane component, nor the root) and its root (the root link's
// component and the first clause of its finding; the problem's root sentence when no
// link shows a fault).
func blockerAndRoot(p *findings.Problem) (blocker, root string) {
	var rl *findings.Link
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
	if p.CauseType == findings.CauseUndetermined {
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

// linkStates are the words of LinkState, by the fact a link establishes about its own
// component, most telling first.
var linkStates = []struct{ fact, words string }{
	{findings.FactServiceMissing, "missing"},
	{findings.FactNoPods, "without pods"},
	{findings.FactPodsNotReady, "pods not Ready"},
	{findings.FactNoReadyEndpoints, "without ready endpoints"},
	{findings.FactOwnerAbsent, "controller absent"},
	{findings.FactOwnerFailing, "controller present but failing"},
	{findings.FactOwnerRunning, "controller still working"},
	{findings.FactDeleting, "being deleted"},
	{findings.FactNotInBundle, "not in the bundle"},
}

// LinkState is a link's state in a few words, from the facts its evidence establishes
// about its own component (never from its sentences); "" when it establishes none.
func LinkState(l *findings.Link) string {
	for _, s := range linkStates {
		for _, f := range l.Facts {
			if f.Is == s.fact && f.Subject == l.Component {
				return s.words
			}
		}
	}
	return ""
}

// ShortOf composes a problem's short form from its structured fields only (so a
// redacted copy composes it again from its redacted values): its namespaces, its root
// link's component and state (the fingerprint's backend state, else LinkState), and
// the first faulty object it blocks on the way to them:
//
//	tobedeleted: Pods kube-system k8s-app=metrics-server, pod unschedulable → APIService v1beta1.metrics.k8s.io
//
// When that is longer than MaxShort, parts go whole, least telling first (the blocker's
// state, the blocker, the namespaces' names for their count); it is never cut.
func ShortOf(p *findings.Problem) string {
	var names []string
	for _, pn := range p.Namespaces {
		names = append(names, pn.Name)
	}
	subjects := []string{fmt.Sprintf("%d namespaces", len(names))}
	switch {
	case len(names) == 1:
		subjects = []string{names[0]}
	case len(names) <= 3:
		subjects = []string{strings.Join(names, ", "), subjects[0]}
	}
	var rl, bl *findings.Link
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
		if l.Fault && !controlPlaneComponent(l.Component) && l.Component != "deadlock" {
			bl = l
			break
		}
	}
	var root string
	rootName := ""
	if rl != nil {
		rootName = shortComponent(rl.Component)
		if controlPlaneComponent(rl.Component) {
			// kube-apiserver reports on an APIService or webhook further down the chain:
			// that object is what the reader looks for
			for i := len(p.Chain) - 1; i >= 0 && &p.Chain[i] != rl; i-- {
				if c := p.Chain[i].Component; strings.HasPrefix(c, "APIService ") || strings.HasPrefix(c, "webhook ") {
					rootName = shortComponent(c) + " (per " + rootName + ")"
				}
			}
		}
	}
	switch {
	case p.CauseType == findings.CauseUndetermined:
		root = "cause undetermined"
	case rl != nil && backendState(p.Fingerprint) != "":
		root = rootName + ", " + backendState(p.Fingerprint)
	case rl != nil:
		root = phrase(rootName, rl.State)
	case p.RootComponent != "":
		root = shortComponent(p.RootComponent)
	default:
		root = p.CauseType
	}
	var blockers []string
	if bl != nil && p.CauseType != findings.CauseUndetermined {
		blockers = []string{phrase(shortComponent(bl.Component), bl.State), shortComponent(bl.Component)}
	}
	blockers = append(blockers, "")
	var s string
	for _, subj := range subjects {
		for _, b := range blockers {
			s = subj + ": " + root
			if b != "" {
				s += " → " + b
			}
			if utf8.RuneCountInString(s) <= findings.MaxShort {
				return s
			}
		}
	}
	return findings.FitText(s, findings.MaxShort) // one component longer than the room: its middle goes, never its end
}

// backendState is the state of the backend a fingerprint names (its "backend=" key,
// docs/fingerprint.md: "pod-unschedulable" → "pod unschedulable"); "" without one.
func backendState(fp string) string {
	_, v, ok := strings.Cut(fp, "/backend=")
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, "/")
	return strings.ReplaceAll(v, "-", " ")
}

func phrase(component, state string) string {
	if state == "" {
		return component
	}
	return component + " " + state
}
