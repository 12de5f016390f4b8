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
		return FitText(head, MaxSummary)
	}
	p := r.Problems[0]
	tail := ""
	if len(r.Problems) > 1 {
		tail = fmt.Sprintf(" (+%d more independent problem%s)", len(r.Problems)-1, Plural(len(r.Problems)-1, "s", ""))
	}
	blocker, root := blockerAndRoot(&p)
	budget := MaxSummary - utf8.RuneCountInString(tail)
	compose := func(blocker string) (string, int) {
		s := FitText(head, budget)
		if blocker != "" {
			s += ", blocked by " + blocker
		}
		if p.CauseType == CauseUndetermined {
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
		s += FitText(root, room)
	}
	return FitText(s, budget) + tail
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

// FitText composes s to at most n characters without cutting its end: the decisive
// words of a finding come last ("... dial tcp 10.0.0.1:443: connect: connection
// refused", "phase Pending, not Ready, not scheduled"), so when s is too long its
// middle goes, at the separators of its clauses (": ", "; ", ", "), marked " … ", and
// the first clause and as many of the last ones as fit are kept whole. Only when the
// first and last clauses alone do not fit are words dropped from the middle, the same
// way. The result never ends in "…".
func FitText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	segs := splitClauses(s)
	if len(segs) > 1 {
		first := segs[0]
		kept := ""
		for i := len(segs) - 1; i > 0; i-- {
			try := segs[i] + kept
			if utf8.RuneCountInString(first)+utf8.RuneCountInString(" … ")+utf8.RuneCountInString(strings.TrimLeft(try, ":;, ")) > n {
				break
			}
			kept = try
		}
		if kept != "" {
			return strings.TrimRight(first, ":;, ") + " … " + strings.TrimLeft(kept, ":;, ")
		}
	}
	// words: the first and the last that fit, the middle elided
	words := strings.Fields(s)
	width := func(ws []string) int { return utf8.RuneCountInString(strings.Join(ws, " ")) }
	var head, tail []string
	if len(words) > 1 && utf8.RuneCountInString(words[0])+3+utf8.RuneCountInString(words[len(words)-1]) <= n {
		head = words[:1]
		for i, j := 1, len(words)-1; i <= j; {
			if width(head)+3+width(append([]string{words[j]}, tail...)) > n {
				break
			}
			tail = append([]string{words[j]}, tail...)
			j--
			if i > j || width(append(head, words[i]))+3+width(tail) > n {
				break
			}
			head = append(head, words[i])
			i++
		}
		if len(head)+len(tail) == len(words) {
			return strings.Join(words, " ")
		}
		return strings.TrimRight(strings.Join(head, " "), ":;, ") + " … " + strings.Join(tail, " ")
	}
	// the first word alone is too long: the last words that fit
	for j := len(words) - 1; j >= 0 && 2+width(append([]string{words[j]}, tail...)) <= n; j-- {
		tail = append([]string{words[j]}, tail...)
	}
	if len(tail) > 0 {
		return "… " + strings.Join(tail, " ")
	}
	r := []rune(s)
	return string(r[len(r)-n:]) // one word longer than the room: its end, where the decisive part is
}

// splitClauses splits s before each ": ", "; " and ", " outside quotes and brackets,
// each piece keeping its leading separator.
func splitClauses(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s)-1; i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case (c == ':' || c == ';' || c == ',') && s[i+1] == ' ' && depth == 0 && !quoted && i > start:
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// MaxShort is the most characters a problem's short form (Problem.Short) holds.
const MaxShort = 140

// linkStates are the words of LinkState, by the fact a link establishes about its own
// component, most telling first.
var linkStates = []struct{ fact, words string }{
	{FactServiceMissing, "missing"},
	{FactNoPods, "without pods"},
	{FactPodsNotReady, "pods not Ready"},
	{FactNoReadyEndpoints, "without ready endpoints"},
	{FactOwnerAbsent, "controller absent"},
	{FactOwnerFailing, "controller present but failing"},
	{FactOwnerRunning, "controller still working"},
	{FactDeleting, "being deleted"},
	{FactNotInBundle, "not in the bundle"},
}

// LinkState is a link's state in a few words, from the facts its evidence establishes
// about its own component (never from its sentences); "" when it establishes none.
func LinkState(l *Link) string {
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
func ShortOf(p *Problem) string {
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
	var rl, bl *Link
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
	case p.CauseType == CauseUndetermined:
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
	if bl != nil && p.CauseType != CauseUndetermined {
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
			if utf8.RuneCountInString(s) <= MaxShort {
				return s
			}
		}
	}
	return FitText(s, MaxShort) // one component longer than the room: its middle goes, never its end
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
