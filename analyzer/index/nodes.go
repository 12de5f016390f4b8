package index

import "github.com/nsanalyze/nsanalyze/parsers/objects"

// PodNode is one node that pods run on, as the bundle shows it. Index.PodNodes is the
// one pod → node walk of the analysis: the backend chain, the pods held by a
// terminating node, the groups of many pods and the content-remaining rule all read it.
type PodNode struct {
	Name string          // the pods' spec.nodeName ("" for pods not scheduled)
	Node *objects.Object // the Node object; nil when the bundle does not hold it
	Pod  *objects.Object // the first pod (in the order given) that runs on it
	// Gone: the bundle lists nodes and not this one (deleted, or not collected). A
	// bundle without nodes shows nothing about them: Node is nil and Gone false.
	Gone bool
}

// NotReady returns the node's Ready condition when it is not True (the kubelet does not
// report), or nil: Ready=True, no Ready condition, or no Node in the bundle.
func (n PodNode) NotReady() *objects.Condition {
	if n.Node == nil {
		return nil
	}
	if c := n.Node.Condition("Ready"); c != nil && c.Status != "True" {
		return c
	}
	return nil
}

// PodNodes returns the nodes pods run on, each once, in the order of its first pod;
// pods without a node (not scheduled, or not a pod record) are left out. Each node is
// looked up once.
func (ix *Index) PodNodes(pods []*objects.Object) []PodNode {
	var out []PodNode
	seen := map[string]bool{}
	for _, pod := range pods {
		if pod.Pod == nil || pod.Pod.NodeName == "" || seen[pod.Pod.NodeName] {
			continue
		}
		name := pod.Pod.NodeName
		seen[name] = true
		n := ix.findNode(name)
		out = append(out, PodNode{Name: name, Node: n, Pod: pod, Gone: n == nil && ix.Has("Node")})
	}
	return out
}
