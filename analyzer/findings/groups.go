package findings

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// GroupExamples is how many names a group of objects shows in a report; a group of at
// most this many objects is reported object by object, with a command for each.
const GroupExamples = 3

// ObjectGroup is the objects of a cause that share kind, API group, finalizers and
// verdict: reports show one line per group (count, kind/group, finalizers, the owning
// controller's state, the oldest and newest deletion times, a few names) and the
// ladder one command for it; the cause's Objects still list every object.
type ObjectGroup struct {
	Kind       string   `json:"kind"`
	Group      string   `json:"group,omitempty"`
	Resource   string   `json:"resource,omitempty"`
	Namespace  string   `json:"namespace"`
	Finalizers []string `json:"finalizers"`
	// Verdict is the state of the controller that owns the finalizers, in a few words
	// ("not running", "present but not healthy", "running", ...).
	Verdict        string     `json:"verdict,omitempty"`
	Count          int        `json:"count"`
	OldestDeletion *time.Time `json:"oldestDeletion,omitempty"`
	NewestDeletion *time.Time `json:"newestDeletion,omitempty"`
	// Examples are the first names of the group (sorted), at most GroupExamples.
	Examples []string `json:"examples"`
	// Node is the node the group's pods are on, when pods are grouped by node
	// (mechanism.PodGroups).
	Node string `json:"node,omitempty"`
	// First is the index in the cause's Objects of the group's first object.
	First int `json:"-"`
}

// GroupObjects groups objects by kind, group, finalizers and verdict (verdict may be
// nil), in one pass (a map by key), groups in the order of their first object.
func GroupObjects(objs []ObjectRef, verdict func(ObjectRef) string) []ObjectGroup {
	var out []ObjectGroup
	byKey := map[string]int{}
	for i, o := range objs {
		v := ""
		if verdict != nil {
			v = verdict(o)
		}
		g := apiGroup(o.APIVersion)
		key := g + "\x00" + o.Kind + "\x00" + o.Namespace + "\x00" + strings.Join(o.Finalizers, ",") + "\x00" + v
		idx, ok := byKey[key]
		if !ok {
			idx = len(out)
			byKey[key] = idx
			out = append(out, ObjectGroup{Kind: o.Kind, Group: g, Resource: o.Resource, Namespace: o.Namespace,
				Finalizers: o.Finalizers, Verdict: v, Examples: []string{}, First: i})
		}
		gr := &out[idx]
		gr.Count++
		if len(gr.Examples) < GroupExamples {
			gr.Examples = append(gr.Examples, o.Name)
		}
		if o.Deletion != nil {
			if gr.OldestDeletion == nil || o.Deletion.Before(*gr.OldestDeletion) {
				gr.OldestDeletion = o.Deletion
			}
			if gr.NewestDeletion == nil || o.Deletion.After(*gr.NewestDeletion) {
				gr.NewestDeletion = o.Deletion
			}
		}
	}
	for i := range out {
		sort.Strings(out[i].Examples)
	}
	return out
}

func apiGroup(apiVersion string) string {
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// Describe names the group in a few words: "2,500 PipelineRuns (tekton.dev)", "Pod web-0".
func (g ObjectGroup) Describe() string {
	s := Count(g.Count) + " " + PluralKind(g.Kind, g.Count)
	if g.Count == 1 && len(g.Examples) == 1 {
		s = g.Kind + " " + g.Examples[0]
	}
	if g.Group != "" {
		s += " (" + g.Group + ")"
	}
	return s
}

// Deletions says when the group's objects were asked to go: "deleted 19:30:00Z" or
// "deleted between 2026-11-29 19:30:00Z and 20:29:59Z" ("" when unknown).
func (g ObjectGroup) Deletions() string {
	switch {
	case g.OldestDeletion == nil:
		return ""
	case g.NewestDeletion == nil || g.NewestDeletion.Equal(*g.OldestDeletion):
		return "deleted " + FmtTime(*g.OldestDeletion)
	}
	return "deleted between " + FmtTime(*g.OldestDeletion) + " and " + FmtTime(*g.NewestDeletion)
}

// DescribeGroups names groups in one phrase: each of the first three, then how many
// objects of how many more kinds ("2,000 objects of 2,000 kinds: Kind0000s (a.io), ...").
func DescribeGroups(gs []ObjectGroup) string {
	var parts []string
	total := 0
	for i, g := range gs {
		total += g.Count
		if i < GroupExamples {
			parts = append(parts, g.Describe())
		}
	}
	if len(gs) <= GroupExamples {
		return strings.Join(parts, ", ")
	}
	kinds := map[string]bool{}
	for _, g := range gs {
		kinds[g.Group+"/"+g.Kind] = true
	}
	return fmt.Sprintf("%s objects of %s kinds (%s and %d more groups)", Count(total), Count(len(kinds)), strings.Join(parts, ", "), len(gs)-GroupExamples)
}

// PodNotScheduled is the verdict of a group of pods on no node.
const PodNotScheduled = "not scheduled to a node"

// VerdictPhrase is the group's verdict in a phrase: where its pods are ("on node
// node-7, not Ready"), else the state of the controller that owns its finalizers
// ("controller not running"); "" without a verdict.
func (g ObjectGroup) VerdictPhrase() string {
	switch {
	case g.Verdict == "":
		return ""
	case g.Node != "" || g.Verdict == PodNotScheduled:
		return g.Verdict
	}
	return "controller " + g.Verdict
}
