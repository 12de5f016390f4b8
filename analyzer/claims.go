package analyzer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// A cause claims what it explains, so that every object of a stuck namespace is
// explained exactly once and none disappears:
//
//   - the objects it names (Cause.Objects, claimed automatically) or names only in
//     its chain (Cause.ClaimObject: pods held back by ordered deletion, ...);
//   - the log lines it rests on (Cause.Related, claimed automatically);
//   - what the namespace's conditions count without naming objects: group-resources
//     of NamespaceContentRemaining (Cause.ClaimResource, Cause.ClaimGroup), finalizer
//     names of NamespaceFinalizersRemaining (Cause.ClaimFinalizer), or all remaining
//     content (Cause.ClaimContent: nothing is deleted while the cause lasts).
//
// A rule declares the kinds of claim its causes make (Rule.Claims) and the kinds it
// defers to (Rule.Yields: finalizers-remaining, content-remaining explain what remains);
// the order the rules run in is derived from these declarations (order.go), so a rule
// that yields sees the claims of every rule it yields to (Pass.Objects,
// Pass.Claimed...). A claim is per object, not per cause type: a second object with its
// own finalizer beside one a specific cause explains is still reported, by the generic
// rule, with its own ladder.
//
// Which cause owns a claim never depends on an undeclared order: a rule that runs
// before another by declaration keeps what both claim; between rules the declarations
// leave unordered, the first in reporting order keeps it, and two such rules claiming
// one object by name is a rule error (reported as a warning: neither says which of
// them explains it, the case of a new cause silently taking over a generic one's).

// namespaceClaims is what the causes found so far for one namespace claim, with the
// cause type of the owner of each (the first claimant in declared order, then in
// reporting order).
type namespaceClaims struct {
	objects    map[findings.ClaimID]string
	resources  map[string]string
	groups     map[string]string
	finalizers map[string]string
	lines      map[*logs.Entry]string
	content    []string // cause types claiming all content, in reporting order
	summaries  map[string]string
	// plan orders the rules; rank is each cause type's index in the registry.
	plan *Plan
	rank map[string]int
	// conflicts are objects claimed by two rules the declarations leave unordered.
	conflicts []string
}

func newNamespaceClaims(plan *Plan) *namespaceClaims {
	nc := &namespaceClaims{objects: map[findings.ClaimID]string{}, resources: map[string]string{}, groups: map[string]string{},
		finalizers: map[string]string{}, lines: map[*logs.Entry]string{}, summaries: map[string]string{}, plan: plan}
	if plan != nil {
		nc.rank = make(map[string]int, len(plan.rules))
		for i, r := range plan.rules {
			nc.rank[r.Name] = i
		}
	}
	return nc
}

// owner returns which of two claimants of one key owns it: the one that runs first by
// declaration, else the first in reporting order. related is false when the
// declarations leave the two unordered.
func (nc *namespaceClaims) owner(old, cur string) (owner string, related bool) {
	if old == cur || nc.plan == nil {
		return old, true
	}
	a, okA := nc.rank[old]
	b, okB := nc.rank[cur]
	if !okA || !okB {
		return old, true
	}
	switch {
	case nc.plan.Before(a, b):
		return old, true
	case nc.plan.Before(b, a):
		return cur, true
	case b < a:
		return cur, false
	}
	return old, false
}

// add records a cause's claims.
func (nc *namespaceClaims) add(c *findings.Cause) {
	put := func(m map[string]string, k string) {
		if old, ok := m[k]; !ok {
			m[k] = c.Type
		} else if w, _ := nc.owner(old, c.Type); w != old {
			m[k] = w
		}
	}
	putObject := func(k findings.ClaimID) {
		old, ok := nc.objects[k]
		if !ok {
			nc.objects[k] = c.Type
			return
		}
		w, related := nc.owner(old, c.Type)
		if !related {
			nc.conflicts = append(nc.conflicts, fmt.Sprintf("rules %s and %s both claim %s and neither declares the other (Requires, or Yields of a kind the other Claims): which one explains it is not declared",
				min(old, c.Type), max(old, c.Type), k))
		}
		nc.objects[k] = w
	}
	if len(nc.objects) == 0 && len(c.Objects) > 8 {
		nc.objects = make(map[findings.ClaimID]string, len(c.Objects)) // grown once, not by doubling
	}
	for _, o := range c.Objects {
		putObject(findings.ClaimKey(o.APIVersion, o.Kind, o.Namespace, o.Name))
		for _, f := range o.Finalizers {
			put(nc.finalizers, f)
		}
	}
	for _, e := range c.Related {
		if old, ok := nc.lines[e]; !ok {
			nc.lines[e] = c.Type
		} else {
			nc.lines[e], _ = nc.owner(old, c.Type)
		}
	}
	if s := c.Claimed; s != nil {
		for _, k := range s.Objects {
			putObject(k)
		}
		for _, r := range s.Resources {
			put(nc.resources, r)
		}
		for _, g := range s.Groups {
			put(nc.groups, g)
		}
		for _, f := range s.Finalizers {
			put(nc.finalizers, f)
		}
		if s.Content && !findings.Contains(nc.content, c.Type) {
			nc.content = append(nc.content, c.Type)
			sort.SliceStable(nc.content, func(i, j int) bool { return nc.rank[nc.content[i]] < nc.rank[nc.content[j]] })
		}
	}
	if _, ok := nc.summaries[c.Type]; !ok {
		nc.summaries[c.Type] = c.Summary
	}
}

// Claimed reports whether a cause found earlier claims the object: by name, or, for
// an object without finalizers of its own being deleted, through its resource, its
// group or all content.
func (p *Pass) Claimed(o *objects.Object) bool { return p.ClaimedBy(o) != "" }

// ClaimedBy returns the cause type that claims the object, or "".
func (p *Pass) ClaimedBy(o *objects.Object) string {
	nc := p.claims
	if nc == nil {
		return ""
	}
	if t := nc.objects[findings.ClaimKey(o.APIVersion, o.Kind, o.Namespace, o.Name)]; t != "" {
		return t
	}
	if len(o.Finalizers) > 0 && !o.DeletionTimestamp.IsZero() {
		return "" // a blocker of its own: only a claim by name explains it
	}
	if t := nc.groups[o.Group()]; t != "" && o.Group() != "" {
		return t
	}
	if t := nc.resources[p.Index.ResourceName(o)]; t != "" {
		return t
	}
	if len(nc.content) > 0 {
		return nc.content[0]
	}
	return ""
}

// ClaimedFinalizer returns the cause type that claims a finalizer (directly, or by
// claiming an object that carries it), or "".
func (p *Pass) ClaimedFinalizer(f string) string {
	if p.claims == nil {
		return ""
	}
	return p.claims.finalizers[f]
}

// ClaimedResource returns the cause type that claims the remaining objects of a
// group-resource of the NamespaceContentRemaining condition ("pods",
// "widgets.example.com"), through the resource, its group or all content, or "".
func (p *Pass) ClaimedResource(groupResource string) string {
	nc := p.claims
	if nc == nil {
		return ""
	}
	if t := nc.resources[groupResource]; t != "" {
		return t
	}
	if i := strings.IndexByte(groupResource, '.'); i >= 0 {
		if t := nc.groups[groupResource[i+1:]]; t != "" {
			return t
		}
	}
	if len(nc.content) > 0 {
		return nc.content[0]
	}
	return ""
}

// ClaimedContent returns the cause types that claim all remaining content.
func (p *Pass) ClaimedContent() []string {
	if p.claims == nil {
		return nil
	}
	return p.claims.content
}

// ClaimedLine returns the cause type that claims a log line, or "".
func (p *Pass) ClaimedLine(e *logs.Entry) string {
	if p.claims == nil {
		return ""
	}
	return p.claims.lines[e]
}

// Objects returns the objects of the namespace (of one kind, or all when kind is "")
// that no cause found so far claims: what a generic rule may still explain.
func (p *Pass) Objects(kind string) []*objects.Object {
	all := p.Index.InNamespace(p.Namespace, kind)
	if p.claims == nil {
		return all
	}
	out := all[:0]
	for _, o := range all {
		if !p.Claimed(o) {
			out = append(out, o)
		}
	}
	return out
}

// ExplainedBy says which causes found so far explain something, for a generic rule's
// ruled-out reason: "explained by finalizers-remaining (summary)". types are the cause
// types to name (duplicates are removed; empty: none).
func (p *Pass) ExplainedBy(types ...string) string {
	if p.claims == nil || len(types) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var names, sums []string
	for _, t := range types {
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		names = append(names, t)
		if s := p.claims.summaries[t]; s != "" {
			sums = append(sums, findings.Clip(s, 200))
		}
	}
	if len(names) == 0 {
		return ""
	}
	out := "explained by " + strings.Join(names, ", ")
	if len(sums) > 0 {
		out += " (" + strings.Join(sums, "; ") + ")"
	}
	return out
}
