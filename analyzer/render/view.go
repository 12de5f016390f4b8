package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// The renderers share one reading of the report: problems first (the root, the
// namespaces it holds, the first safe steps), then each problem once (its chain, its
// ladder with one last resort for all its namespaces, the timeline and ruled-out causes
// its namespaces share), then per namespace only what differs.

// condensedAt is the number of stuck namespaces from which the per-namespace sections
// are condensed to one entry each (own conditions and timeline digested).
const condensedAt = 4

// problemView is one problem with what the renderers need around it.
type problemView struct {
	findings.Problem
	// index is the problem's position in the report.
	index int
	// Cause is the first namespace's cause of this problem (summary, objects, notes).
	Cause *findings.Cause
	// NS are the namespaces the problem holds, in the problem's order.
	NS []*findings.NamespaceReport
	// LastResort are the /finalize steps of the namespaces held by this problem only
	// (a namespace held by several problems gets its own in its section).
	LastResort []findings.RemediationStep
	LastNames  []string
	// Client is the platform's kubectl (findings.Kubectl): oc on OpenShift.
	Client string
	// Shared are the timeline events of the first namespace that are not its own
	// (not about the namespace itself) and belong to no other problem: the
	// cluster-wide story of the problem. Only the problems given a section have them.
	Shared []findings.TimelineEvent
	// RuledOut is the ruled-out list when every namespace of the problem has the same.
	RuledOut []findings.RuledOut
	// Like is the problem this one is folded under: their fingerprints differ only in
	// the names of what they are about (similar.go). Nil when shown on its own.
	Like *problemView
	// Similar are the problems folded under this one, in report order.
	Similar []*problemView
	// earlier are the commands of every ladder with where they first are ("step 1 of
	// P1"), shared by the problems of the view.
	earlier map[string]firstStep
}

// firstStep is where a command first appears: the problem's index and the rung.
type firstStep struct {
	problem int
	where   string
}

// stepNote says when a rung is also a rung of an earlier problem's ladder (a namespace
// held by two problems carries both ladders).
func (p *problemView) stepNote(s findings.RemediationStep) string {
	if f, ok := p.earlier[s.Command]; ok && f.problem < p.index {
		return " (The same as " + f.where + ".)"
	}
	return ""
}

// view is the report as the renderers read it.
type view struct {
	R        *findings.Report
	Problems []*problemView
	// Shown are the problems the reports show on their own (not folded under a
	// similar one), in report order: the first screen and the sections read these.
	Shown []*problemView
	// Full are the first shownProblems of Shown: the problems given a section.
	Full []*problemView
	// Own are the namespaces' own timeline events (by namespace name).
	Own map[string][]findings.TimelineEvent
	// RestRuledOut are, per namespace, the causes ruled out for it that none of its
	// problems shows as ruled out for all its namespaces.
	RestRuledOut map[string][]findings.RuledOut
	Condensed    bool
	// AtLeast is true when the capture time is estimated (newest timestamp in the
	// bundle): the time a namespace has been stuck is then a lower bound.
	AtLeast bool
	byID    map[string]*problemView
}

func newView(r *findings.Report) *view {
	v := &view{R: r, Own: map[string][]findings.TimelineEvent{}, RestRuledOut: map[string][]findings.RuledOut{},
		Condensed: len(r.Namespaces) >= condensedAt, AtLeast: r.Bundle.CapturedAt != nil && r.Bundle.CapturedAtSource != "",
		byID: map[string]*problemView{}}
	byName := map[string]*findings.NamespaceReport{}
	for i := range r.Namespaces {
		ns := &r.Namespaces[i]
		byName[ns.Name] = ns
		v.Own[ns.Name] = ownEvents(ns)
	}
	earlier := map[string]firstStep{}
	for i := range r.Problems {
		p := &problemView{Problem: r.Problems[i], index: i, earlier: earlier, Client: findings.Kubectl(r.Bundle.Platform)}
		for k, s := range r.Problems[i].Remediation {
			if _, ok := earlier[s.Command]; !ok {
				earlier[s.Command] = firstStep{i, fmt.Sprintf("step %d of %s", k+1, r.Problems[i].ID)}
			}
		}
		for _, pn := range p.Namespaces {
			ns := byName[pn.Name]
			if ns == nil {
				continue
			}
			p.NS = append(p.NS, ns)
			if p.Cause == nil {
				for j, id := range ns.Problems {
					if id == p.ID && j < len(ns.Causes) {
						p.Cause = &ns.Causes[j]
						break
					}
				}
			}
			if len(ns.Problems) == 1 {
				if s, ok := lastResort(ns); ok {
					p.LastResort = append(p.LastResort, s)
					p.LastNames = append(p.LastNames, ns.Name)
				}
			}
		}
		if len(p.NS) > 0 {
			// the causes ruled out for every namespace of the problem are shown once
			first := p.NS[0]
			shared := map[findings.RuledOut]int{}
			for _, ns := range p.NS {
				for _, ro := range ns.RuledOut {
					shared[ro]++
				}
			}
			for _, ro := range first.RuledOut {
				if shared[ro] == len(p.NS) {
					p.RuledOut = append(p.RuledOut, ro)
				}
			}
		}
		v.Problems = append(v.Problems, p)
		v.byID[p.ID] = p
	}
	foldSimilar(v)
	v.Full, _ = firstOf(v.Shown, shownProblems)
	for _, p := range v.Full {
		if len(p.NS) == 0 {
			continue
		}
		first := p.NS[0]
		for _, e := range first.Timeline {
			if e.Own { // about the namespace itself (findings.TimelineEvent.Own)
				continue
			}
			// an event of another problem is that problem's story
			if e.Problem == p.ID || e.Problem == "" && (e.Cause == "" || e.Cause == p.CauseType) {
				p.Shared = append(p.Shared, e)
			}
		}
	}
	for i := range r.Namespaces {
		ns := &r.Namespaces[i]
		shown := map[findings.RuledOut]bool{}
		seen := map[string]bool{}
		for _, id := range ns.Problems {
			p := v.byID[id]
			if p == nil || seen[id] {
				continue
			}
			seen[id] = true
			for _, ro := range p.RuledOut {
				shown[ro] = true
			}
		}
		for _, ro := range ns.RuledOut {
			if !shown[ro] {
				v.RestRuledOut[ns.Name] = append(v.RestRuledOut[ns.Name], ro)
			}
		}
	}
	return v
}

// lastResort is a namespace's /finalize step (the destructive rung its ladder ends with).
func lastResort(ns *findings.NamespaceReport) (findings.RemediationStep, bool) {
	for i := len(ns.Remediation) - 1; i >= 0; i-- {
		if ns.Remediation[i].Risk == findings.RiskDestructive {
			return ns.Remediation[i], true
		}
	}
	return findings.RemediationStep{}, false
}

func ownEvents(ns *findings.NamespaceReport) []findings.TimelineEvent {
	var out []findings.TimelineEvent
	for _, e := range ns.Timeline {
		if e.Own {
			out = append(out, e)
		}
	}
	return out
}

// stuckFor says how long a namespace has been stuck: "at least 9h20m" when the capture
// time is an estimate, "" when unknown.
func (v *view) stuckFor(s string) string {
	if s == "" {
		return ""
	}
	if v.AtLeast {
		if v.boundTooShort(s) {
			return "not shown (the bundle's capture time is an estimate)"
		}
		return "at least " + s
	}
	return s
}

// boundTooShort: with an estimated capture time, a bound of a few seconds says nothing
// (s is a duration as FmtDuration writes it).
func (v *view) boundTooShort(s string) bool {
	d, err := time.ParseDuration(s)
	return v.AtLeast && err == nil && d < time.Minute
}

// deletedPhrase says in prose when a namespace was deleted ("deleted ...").
func deletedPhrase(t *time.Time, inferred bool) string {
	if t == nil {
		return "deletion time unknown"
	}
	return "deleted " + deletedAt(t, inferred)
}

// deletedAt says when a namespace was deleted (a table cell); an inferred time is an
// upper bound.
func deletedAt(t *time.Time, inferred bool) string {
	if t == nil {
		return "unknown"
	}
	if inferred {
		return "by " + ts(t) + " (inferred)"
	}
	return ts(t)
}

// blastRadius is one sentence about the namespaces a problem holds: how many, when they
// were deleted and for how long they have been stuck.
func (v *view) blastRadius(p *problemView) string {
	n := len(p.Namespaces)
	if n == 0 {
		return "no namespace"
	}
	var first, last *time.Time
	var stuck []string
	inferred := false
	for _, pn := range p.Namespaces {
		inferred = inferred || pn.DeletionInferred
		if t := pn.DeletionTimestamp; t != nil {
			if first == nil || t.Before(*first) {
				first = t
			}
			if last == nil || t.After(*last) {
				last = t
			}
		}
		if pn.StuckFor != "" {
			stuck = append(stuck, pn.StuckFor)
		}
	}
	if n == 1 {
		pn := p.Namespaces[0]
		s := "namespace " + pn.Name + ", " + deletedPhrase(pn.DeletionTimestamp, pn.DeletionInferred)
		if pn.StuckFor != "" {
			s += ", stuck for " + v.stuckFor(pn.StuckFor)
		}
		return s
	}
	s := fmt.Sprintf("%d namespaces", n)
	if first != nil {
		s += ", deleted between " + ts(first) + " and " + ts(last)
		if inferred {
			s += " (some times inferred)"
		}
	}
	if len(stuck) > 0 {
		// the oldest deletion has been stuck longest
		longest, shortest := "", ""
		for _, pn := range p.Namespaces {
			if pn.DeletionTimestamp == nil || pn.StuckFor == "" {
				continue
			}
			if pn.DeletionTimestamp.Equal(*first) {
				longest = pn.StuckFor
			}
			if pn.DeletionTimestamp.Equal(*last) {
				shortest = pn.StuckFor
			}
		}
		if longest != "" && shortest != "" && longest != shortest {
			if v.boundTooShort(shortest) {
				s += ", stuck for " + v.stuckFor(longest)
			} else if v.AtLeast {
				s += ", stuck for at least " + shortest + " to " + longest
			} else {
				s += ", stuck for " + shortest + " to " + longest
			}
		} else if longest != "" {
			s += ", stuck for " + v.stuckFor(longest)
		}
	}
	return s
}

// safeSteps are the problem's safe rungs (the first screen shows them), without those
// an earlier problem's first screen already shows (a namespace held by two problems
// carries both ladders).
func safeSteps(p *problemView) []findings.RemediationStep {
	var out []findings.RemediationStep
	for _, s := range p.Remediation {
		if f, done := p.earlier[s.Command]; s.Risk == findings.RiskSafe && (!done || f.problem >= p.index) {
			out = append(out, s)
		}
	}
	return out
}

// readLine says what was read: "read 1 object from 1 file and 2 log files".
func readLine(b findings.BundleInfo) string {
	n := func(k int, what string) string {
		if k == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", k, what)
	}
	return "read " + n(b.Objects, "object") + " from " + n(b.ObjectFiles, "file") + " and " + n(len(b.LogFiles), "log file")
}

// firstSentence is a rung's first screen short form: its Lead (set by the analyzer),
// else (a report the analyzer did not finish, a hand-built step) its Why whole.
func firstSentence(s findings.RemediationStep) string {
	if s.Lead != "" {
		return s.Lead
	}
	return s.Why
}

// stepIndex is the 1-based rung of a problem's ladder that runs command (0 if none).
func stepIndex(p *problemView, command string) int {
	for i, s := range p.Remediation {
		if s.Command == command {
			return i + 1
		}
	}
	return 0
}

// generatorLine names the nsanalyze that wrote the report.
func generatorLine(g *findings.Generator) string {
	if g == nil {
		return "nsanalyze (version not recorded)"
	}
	name := g.Name
	if name == "" {
		name = "nsanalyze"
	}
	s := name + " " + orUnknown(g.Version)
	if g.Revision != "" {
		s += " (revision " + shortRev(g.Revision) + ")"
	}
	return s
}

func shortRev(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "(devel)"
	}
	return s
}

// kubeVersion is the cluster's Kubernetes version, or says it is not known.
func kubeVersion(b findings.BundleInfo) string {
	if b.KubernetesVersion == "" {
		return "Kubernetes version not in the bundle"
	}
	if b.KubernetesVersionKubelet {
		return "Kubernetes " + b.KubernetesVersion + " (the nodes' kubelet version)"
	}
	return "Kubernetes " + b.KubernetesVersion
}

// captureLine says when the bundle was captured and how that was established.
func captureLine(b findings.BundleInfo) string {
	if b.CapturedAt == nil {
		return "capture time unknown (no timestamp in the bundle)"
	}
	s := "captured " + ts(b.CapturedAt)
	switch {
	case b.CapturedAtRecorded:
		s += " (" + b.CapturedAtSource + ")"
	case b.CapturedAtSource != "":
		s += " (estimated: " + b.CapturedAtSource + ")"
	}
	return s
}

// digestComponents is how many components a digest names per run of events.
const digestComponents = 4

// digest condenses a namespace's own timeline into one line: its deletion, its
// condition transitions and the error lines about it.
func digest(evs []findings.TimelineEvent) string {
	if len(evs) == 0 {
		return "no timed event of its own"
	}
	var parts []string
	type run struct {
		kind        string
		n           int
		first, last time.Time
		comps       []string
		seen        map[string]bool
	}
	var runs []*run
	for _, e := range evs {
		var r *run
		if len(runs) > 0 && runs[len(runs)-1].kind == e.Kind {
			r = runs[len(runs)-1]
		} else {
			r = &run{kind: e.Kind, first: e.Time, seen: map[string]bool{}}
			runs = append(runs, r)
		}
		r.n++
		r.last = e.Time
		if !r.seen[e.Component] && !strings.HasPrefix(e.Component, "Namespace/") {
			r.seen[e.Component] = true
			r.comps = append(r.comps, e.Component)
		}
	}
	clock := func(t time.Time) string { return t.UTC().Format("15:04:05") }
	for _, r := range runs {
		when := clock(r.first)
		if r.n > 1 && !r.last.Equal(r.first) {
			when += "–" + clock(r.last)
		}
		var s string
		switch r.kind {
		case findings.EventDeletion:
			s = "deleted " + when
		case findings.EventCondition:
			s = fmt.Sprintf("%d condition%s set %s", r.n, plural(r.n), when)
		case findings.EventError:
			s = fmt.Sprintf("%d error line%s %s", r.n, plural(r.n), when)
		default:
			s = fmt.Sprintf("%d %s%s %s", r.n, r.kind, plural(r.n), when)
		}
		if len(r.comps) > 0 {
			comps, more := firstOf(r.comps, digestComponents)
			s += " (" + strings.Join(comps, ", ")
			if more > 0 {
				s += fmt.Sprintf(" and %s more", findings.Count(more))
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// clipProse clips text to n characters without leaving a quotation open: when the cut
// falls inside a quoted string, it cuts before that string's opening quote.
func clipProse(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if strings.Count(cut, `"`)%2 == 1 {
		if i := strings.LastIndex(cut, `"`); i > 0 {
			cut = strings.TrimRight(cut[:i], " =:(")
		}
	}
	return strings.TrimRight(cut, " ") + "…"
}

// problemConditions are a namespace's conditions that show a problem.
func problemConditions(ns *findings.NamespaceReport) []findings.ConditionReport {
	var out []findings.ConditionReport
	for _, c := range ns.Conditions {
		if c.Problem {
			out = append(out, c)
		}
	}
	return out
}

// nsNames lists namespace names, sorted as given.
func nsNames(p *problemView) []string {
	var out []string
	for _, pn := range p.Namespaces {
		out = append(out, pn.Name)
	}
	return out
}

// gapGroup is coverage gaps that say the same about different things (a stuck
// namespace, a pod, ...): the first one's sentence, what the others name instead, and
// every collect command.
type gapGroup struct {
	Missing string
	// More are the objects of the other gaps of the group (with their detail when it
	// is not the first one's).
	More    []string
	Collect []string
	detail  string
}

// groupGaps folds the gaps of one kind that are about an object (findings.Gap's Kind
// and Object), in the order of their first gap (one pass, a map by kind). It reads the
// gaps' fields, never their sentences.
func groupGaps(r *findings.Report) []gapGroup {
	var out []gapGroup
	idx := map[string]int{}
	for _, g := range r.Coverage {
		if g.Object != "" {
			if i, ok := idx[g.Kind]; ok {
				more := g.Object
				if g.Detail != "" && g.Detail != out[i].detail {
					more += " (" + g.Detail + ")"
				}
				out[i].More = append(out[i].More, more)
				out[i].Collect = append(out[i].Collect, g.Collect)
				continue
			}
			idx[g.Kind] = len(out)
		}
		out = append(out, gapGroup{Missing: g.Missing, Collect: []string{g.Collect}, detail: g.Detail})
	}
	return out
}

// Sentence is the gap's sentence, naming the others it also applies to (at most
// shownItems of them, then how many more).
func (g gapGroup) Sentence() string {
	if len(g.More) == 0 {
		return g.Missing
	}
	names, rest := firstOf(g.More, shownItems)
	s := strings.Join(names, ", ")
	if rest > 0 {
		s += fmt.Sprintf(" and %s more (every one is in the JSON report)", findings.Count(rest))
	}
	return fmt.Sprintf("%s (the same for %s more: %s)", g.Missing, findings.Count(len(g.More)), s)
}

// firstScreenKnown is how many matched known issues a problem's first screen shows
// (the JSON report lists them all).
const firstScreenKnown = 2

// firstKnown returns the known issues a problem's first screen shows, best first.
func firstKnown(pv *problemView) []findings.KnownIssueRef {
	if len(pv.KnownIssues) > firstScreenKnown {
		return pv.KnownIssues[:firstScreenKnown]
	}
	return pv.KnownIssues
}

// verdictLine is a finalizer's verdict as every format writes it, from its structured
// fields: the state of its controller, then what clearing it by hand does.
func verdictLine(fv findings.FinalizerVerdict) string {
	return "controller: " + fv.Controller + "; clearing it by hand: " + fv.Clearing + "."
}

// clipRows clips the timeline rows' texts to their rooms with clipProse, the start of
// a line being what names it; where two rows with the same head (time, kind,
// component) would then print the same text although their lines differ, those are
// composed with fitRow instead, which keeps their decisive, differing end.
func clipRows(heads, texts []string, rooms []int) []string {
	out := make([]string, len(texts))
	first := map[string]string{} // head+clip → the full text of the first row printed so
	collide := map[string]bool{}
	for i, t := range texts {
		out[i] = clipProse(t, rooms[i])
		k := heads[i] + "\x00" + out[i]
		if f, ok := first[k]; ok && f != t {
			collide[k] = true
		} else if !ok {
			first[k] = t
		}
	}
	for i, t := range texts {
		if collide[heads[i]+"\x00"+out[i]] {
			out[i] = fitRow(t, rooms[i])
		}
	}
	return out
}

// fitRow composes a timeline row's text to n characters keeping its decisive end
// (findings.FitText drops middle clauses), so two lines that differ only at their end
// ("... failed with: http error: ResponseCode: 503" and "... failed with: could not get
// list of group versions") never print as the same row; clipProse when the composed
// text would leave a quotation open.
func fitRow(s string, n int) string {
	f := findings.FitText(s, n)
	if i := strings.LastIndex(f, "…"); i >= 0 && strings.Count(f[:i], `"`)%2 == 1 {
		return clipProse(s, n)
	}
	return f
}

// shortOf is a problem in one line, where a list gives it one: its structured short
// form (analyzer.ShortOf), composed to fit, never its root sentence cut.
func shortOf(pv *problemView) string {
	if pv.Short != "" {
		return pv.Short
	}
	return clipProse(pv.Root, 160) // a report written before Problem.Short
}
