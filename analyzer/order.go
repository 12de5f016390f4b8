package analyzer

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Plan is the order the rules of a registry run in, derived from what they declare:
// a rule runs after the rules it Requires, and after every rule that Claims a kind it
// Yields (unless that rule yields the kind too: rules that yield the same kind are
// peers, ordered by Requires). Rules the declarations leave unordered run by name, so
// the order is stable and no rule depends on its place in the registry; the registry's
// order is only the order causes are reported in.
type Plan struct {
	// Run are the indexes into the registry, in the order the rules run.
	Run []int
	// before[a][b]: rule a runs before rule b because of a declaration (transitively).
	before [][]bool
	rules  []*Rule
}

// NewPlan derives the run order of rules (the registry, in reporting order). A required
// rule that is not among rules is left out (a rule run alone, in its own tests). It
// fails on a cycle, naming the declarations that make it.
func NewPlan(rules []*Rule) (*Plan, error) {
	return NewPlanTies(rules, func(a, b *Rule) bool { return a.Name < b.Name })
}

// NewPlanTies is NewPlan with the rules the declarations leave unordered taken in the
// order of less: every such order gives the same report (TestRunOrderIrrelevant).
func NewPlanTies(rules []*Rule, less func(a, b *Rule) bool) (*Plan, error) {
	n := len(rules)
	idx := make(map[*Rule]int, n)
	for i, r := range rules {
		idx[r] = i
	}
	// after[b] = the rules b runs after, with the declaration that says so
	after := make([]map[int]string, n)
	for b, rb := range rules {
		after[b] = map[int]string{}
		for _, req := range rb.Requires {
			if a, ok := idx[req]; ok && a != b {
				after[b][a] = rb.Name + " requires " + req.Name
			}
		}
		for _, k := range rb.Yields {
			for a, ra := range rules {
				if a != b && slices.Contains(ra.Claims, k) && !slices.Contains(ra.Yields, k) {
					if _, ok := after[b][a]; !ok {
						after[b][a] = fmt.Sprintf("%s yields %s, which %s claims", rb.Name, k, ra.Name)
					}
				}
			}
		}
	}
	// Kahn's algorithm, the least ready rule first
	indeg := make([]int, n)
	for b := range rules {
		indeg[b] = len(after[b])
	}
	var ready []int
	for i := range rules {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	byName := func(s []int) { sort.Slice(s, func(i, j int) bool { return less(rules[s[i]], rules[s[j]]) }) }
	p := &Plan{rules: rules}
	for len(ready) > 0 {
		byName(ready)
		a := ready[0]
		ready = ready[1:]
		p.Run = append(p.Run, a)
		for b := range rules {
			if _, ok := after[b][a]; ok {
				indeg[b]--
				if indeg[b] == 0 {
					ready = append(ready, b)
				}
			}
		}
	}
	if len(p.Run) < n {
		return nil, fmt.Errorf("the rules' declarations form a cycle: %s", cycle(rules, after, indeg))
	}
	// before: transitive closure, in run order
	p.before = make([][]bool, n)
	for i := range p.before {
		p.before[i] = make([]bool, n)
	}
	for _, b := range p.Run {
		for a := range after[b] {
			p.before[a][b] = true
			for c := range rules {
				if p.before[c][a] {
					p.before[c][b] = true
				}
			}
		}
	}
	return p, nil
}

// cycle names one cycle among the rules Kahn's algorithm left (indeg > 0), with the
// declarations that make it.
func cycle(rules []*Rule, after []map[int]string, indeg []int) string {
	start := -1
	for i := range rules {
		if indeg[i] > 0 && (start < 0 || rules[i].Name < rules[start].Name) {
			start = i
		}
	}
	// walk back along "runs after" edges inside the remaining set until a rule repeats
	var path []int
	seen := map[int]int{}
	for cur := start; ; {
		if at, ok := seen[cur]; ok {
			path = path[at:]
			break
		}
		seen[cur] = len(path)
		path = append(path, cur)
		next := -1
		for a := range after[cur] {
			if indeg[a] > 0 && (next < 0 || rules[a].Name < rules[next].Name) {
				next = a
			}
		}
		cur = next
	}
	var parts []string
	for i, b := range path {
		a := path[(i+1)%len(path)]
		parts = append(parts, after[b][a])
	}
	return strings.Join(parts, "; ")
}

// Before reports whether rule a runs before rule b because of a declaration
// (indexes into the registry).
func (p *Plan) Before(a, b int) bool { return p.before[a][b] }

// Related reports whether the declarations order rules a and b either way.
func (p *Plan) Related(a, b int) bool { return a == b || p.before[a][b] || p.before[b][a] }

// Order returns the rules of a registry in the order they run (NewPlan).
func Order(rules []*Rule) ([]*Rule, error) {
	p, err := NewPlan(rules)
	if err != nil {
		return nil, err
	}
	out := make([]*Rule, len(p.Run))
	for i, j := range p.Run {
		out[i] = rules[j]
	}
	return out, nil
}
