package analyzer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// markRoots sets Link.Root on the deepest fault link of each cause's chain.
func markRoots(c *findings.Cause) {
	root := -1
	for i := range c.Chain {
		c.Chain[i].Root = false
		c.Chain[i].State = LinkState(&c.Chain[i])
		if c.Chain[i].Fault {
			root = i
		}
	}
	if root >= 0 {
		c.Chain[root].Root = true
	}
}

// RootLink returns the root link of a cause's chain (nil when no link shows a fault).
func RootLink(c *findings.Cause) *findings.Link {
	for i := range c.Chain {
		if c.Chain[i].Root {
			return &c.Chain[i]
		}
	}
	return nil
}

// RootSentence says, in one sentence, the deepest link the evidence proves and the
// faulty components above it, root first; without a fault link, the cause's summary.
func RootSentence(c *findings.Cause) string {
	l := RootLink(c)
	if l == nil {
		return c.Summary
	}
	var above []string
	for i := range c.Chain {
		if &c.Chain[i] == l {
			break
		}
		if !c.Chain[i].Fault {
			continue
		}
		comp := shortComponent(c.Chain[i].Component)
		if len(above) == 0 || above[len(above)-1] != comp {
			above = append(above, comp)
		}
	}
	finding := strings.TrimSuffix(firstClause(l.Finding), ".")
	s := l.Component + ": " + findings.FitText(finding, 240)
	if len(above) > 0 {
		s += "; this blocks " + strings.Join(reverse(above), " → ")
	}
	return s + "."
}

// shortComponent drops a component's parenthesised detail: "namespace controller
// (kube-controller-manager)" -> "namespace controller".
func shortComponent(s string) string {
	if i := strings.Index(s, " ("); i > 0 {
		return s[:i]
	}
	return s
}

// firstClause cuts a finding at its first sentence end or " — " aside.
func firstClause(s string) string {
	if i := strings.Index(s, " — "); i > 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i]
	}
	return s
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i := range s {
		out[len(s)-1-i] = s[i]
	}
	return out
}

// problemKey identifies a cause's root problem across namespaces: its type and the
// cluster-wide things it names (APIServices, webhooks, finalizers, cluster-scoped objects).
func problemKey(c *findings.Cause) string {
	parts := []string{c.Type}
	add := func(prefix string, xs []string) {
		xs = append([]string{}, xs...)
		sort.Strings(xs)
		for _, x := range xs {
			parts = append(parts, prefix+x)
		}
	}
	add("apiservice:", c.APIServices)
	add("webhook:", c.Webhooks)
	add("finalizer:", c.Finalizers)
	var cluster []string
	for _, o := range c.Objects {
		if o.Namespace == "" && o.Kind != "Namespace" {
			cluster = append(cluster, o.Kind+"/"+o.Name)
		}
	}
	add("object:", cluster)
	if l := RootLink(c); l != nil {
		parts = append(parts, "root:"+l.Component)
	}
	return strings.Join(parts, "\x00")
}

// sharedRootKey identifies a cause's root across causes that differ only in what the
// root serves: the cause type, the root link's component and its finding with the
// cause's own group/versions and APIServices blanked. One failing backend behind many
// group/versions (one missing Service, one adapter whose every group is stale) is then
// one problem, not one per group/version. Without a root link it is problemKey.
func sharedRootKey(c *findings.Cause) string {
	l := RootLink(c)
	if l == nil || len(c.GroupVersions)+len(c.APIServices) == 0 {
		return problemKey(c)
	}
	finding := l.Finding
	for _, x := range append(append([]string{}, c.APIServices...), c.GroupVersions...) {
		if x != "" {
			finding = strings.ReplaceAll(finding, x, "\x01")
		}
	}
	parts := []string{c.Type, "root:" + l.Component, finding}
	for _, x := range []struct {
		prefix string
		xs     []string
	}{{"webhook:", c.Webhooks}, {"finalizer:", c.Finalizers}} {
		ys := append([]string{}, x.xs...)
		sort.Strings(ys)
		for _, y := range ys {
			parts = append(parts, x.prefix+y)
		}
	}
	return strings.Join(parts, "\x00")
}

// groupProblems groups the namespaces by root problem: namespaces stuck for the same
// proven reason share one Problem (one chain, one ladder).
func groupProblems(r *findings.Report) {
	r.Problems = []findings.Problem{}
	byKey := map[string]int{}
	lastNS := map[int]int{} // problem → the last namespace added to it
	shared := map[int]int{} // problem → causes merged into it beyond its first
	defer func() {
		for idx, n := range shared {
			r.Problems[idx].Root = strings.TrimSuffix(r.Problems[idx].Root, ".") +
				fmt.Sprintf("; the same root holds %s more group/version%s or APIService%s (each one is listed with the causes of its namespaces).", findings.Count(n), findings.Plural(n, "s", ""), findings.Plural(n, "s", ""))
		}
	}()
	for i := range r.Namespaces {
		ns := &r.Namespaces[i]
		ns.Problems = []string{}
		extra := 0
		for j := range ns.Causes {
			c := &ns.Causes[j]
			key := sharedRootKey(c)
			idx, ok := byKey[key]
			if !ok {
				idx = len(r.Problems)
				byKey[key] = idx
				steps := append([]findings.RemediationStep{}, c.Ladder...)
				r.Problems = append(r.Problems, findings.Problem{ID: fmt.Sprintf("P%d", idx+1), CauseType: c.Type,
					Fingerprint: findings.Fingerprint(c), ReadableFingerprint: findings.ReadableFingerprint(c), Root: RootSentence(c), Headline: headline(c), RootComponent: rootComponent(c), Confidence: c.Confidence,
					Chain: c.Chain, Remediation: steps, Evidence: c.Evidence, Correlation: c.Correlation})
			}
			p := &r.Problems[idx]
			// ns.Problems stays parallel to ns.Causes (an ID repeats when several of
			// the namespace's causes share a root); the problem lists it once
			if last, seen := lastNS[idx]; seen && last == i {
				extra++
				shared[idx] = max(shared[idx], extra)
			} else {
				lastNS[idx] = i
				extra = 0
				p.Namespaces = append(p.Namespaces, findings.ProblemNamespace{Name: ns.Name, DeletionTimestamp: ns.DeletionTimestamp,
					DeletionInferred: ns.DeletionInferred, StuckFor: ns.StuckFor})
			}
			ns.Problems = append(ns.Problems, p.ID)
		}
		// each timeline event names the problem whose cause it supports
		for k := range ns.Timeline {
			if e := &ns.Timeline[k]; e.CauseIndex > 0 && e.CauseIndex <= len(ns.Problems) {
				e.Problem = ns.Problems[e.CauseIndex-1]
			}
		}
	}
}

// headline is the root in a few words: its component and the first clause of its finding.
func headline(c *findings.Cause) string {
	l := RootLink(c)
	if l == nil {
		return findings.FitText(firstClause(c.Summary), 140)
	}
	return shortComponent(l.Component) + ": " + findings.FitText(strings.TrimSuffix(firstClause(l.Finding), "."), 140)
}

func rootComponent(c *findings.Cause) string {
	if l := RootLink(c); l != nil {
		return l.Component
	}
	return ""
}

// summarize writes the report's one-line summary and state.
// Summarize writes the report's state and one-line summary again from its problems
// and namespaces (a redacted copy is summarised from its redacted values, so the cut
// of the summary falls on a token, never inside a name).
func Summarize(r *findings.Report) { summarize(r) }

func summarize(r *findings.Report) {
	switch {
	case len(r.Namespaces) > 0:
		r.State = findings.StateStuck
		for i := range r.Problems {
			r.Problems[i].Short = ShortOf(&r.Problems[i])
		}
		r.Summary = SummaryOf(r)
	case r.State == findings.StateUnknown:
		r.Summary = findings.FitText("Namespace state unknown: "+r.StateReason, findings.MaxSummary)
	case r.State == findings.StateDeleting:
		var names []string
		for _, d := range r.Deleting {
			names = append(names, d.Name+" ("+d.DeletingFor+")")
		}
		r.Summary = findings.FitText(fmt.Sprintf("No namespace is stuck: %d %s still being deleted with no blocker in the evidence: %s",
			len(r.Deleting), findings.Plural(len(r.Deleting), "namespaces", "namespace"), strings.Join(names, ", ")), findings.MaxSummary)
	default:
		r.State = findings.StateNoneStuck
		r.Summary = "No namespace is stuck in Terminating"
		if r.StateReason != "" {
			r.Summary = findings.FitText(r.Summary+" ("+r.StateReason+")", findings.MaxSummary)
		}
	}
}
