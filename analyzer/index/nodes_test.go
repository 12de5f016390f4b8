package index

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestPodNodes: each node once, in the order of its first pod; a node missing from a
// bundle that lists nodes is gone, from one that lists none it is only not shown;
// NotReady only for a Node whose Ready is not True.
func TestPodNodes(t *testing.T) {
	pod := func(name, node string) *objects.Object {
		o := &objects.Object{APIVersion: "v1", Kind: "Pod", Namespace: "x", Name: name}
		if node != "-" {
			o.Pod = &objects.PodInfo{NodeName: node}
		}
		return o
	}
	node := func(name, ready string) *objects.Object {
		return &objects.Object{APIVersion: "v1", Kind: "Node", Name: name,
			Conditions: []objects.Condition{{Type: "Ready", Status: ready}}}
	}
	pods := []*objects.Object{pod("a", "n2"), pod("b", ""), pod("c", "n1"), pod("d", "n2"), pod("e", "-"), pod("f", "n3")}
	for _, tc := range []struct {
		name  string
		nodes []*objects.Object
		want  []PodNode // Node compared by name only
		ready []bool    // NotReady() == nil
	}{
		{"nodes listed", []*objects.Object{node("n1", "True"), node("n2", "Unknown")},
			[]PodNode{{Name: "n2", Pod: pods[0]}, {Name: "n1", Pod: pods[2]}, {Name: "n3", Pod: pods[5], Gone: true}},
			[]bool{false, true, true}},
		{"no nodes in the bundle", nil,
			[]PodNode{{Name: "n2", Pod: pods[0]}, {Name: "n1", Pod: pods[2]}, {Name: "n3", Pod: pods[5]}},
			[]bool{true, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := New(&bundle.Records{Objects: append(append([]*objects.Object{}, pods...), tc.nodes...)}, nil)
			got := ix.PodNodes(pods)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d nodes %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Name != w.Name || g.Pod != w.Pod || g.Gone != w.Gone || (g.Node == nil) != (tc.nodes == nil || w.Gone) {
					t.Errorf("node %d: got %+v, want %+v", i, g, w)
				}
				if g.Node != nil && g.Node.Name != w.Name {
					t.Errorf("node %d: Node %s for %s", i, g.Node.Name, w.Name)
				}
				if (g.NotReady() == nil) != tc.ready[i] {
					t.Errorf("node %s: NotReady %v", g.Name, g.NotReady())
				}
			}
		})
	}
}
