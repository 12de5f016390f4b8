package mechanism

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// FinalizerLoop is the one command that removes the finalizers of a group's objects:
// the objects of the group's resource in its namespace that carry the group's first
// finalizer are listed (a go-template, so no jq is needed) and patched one by one. It
// is safe to paste: every value is a checked Kubernetes name, every word quoted.
func FinalizerLoop(g findings.ObjectGroup) string {
	res := g.Resource
	if res == "" {
		res = strings.ToLower(g.Kind)
		if g.Group != "" {
			res += "." + g.Group
		}
	}
	fin := ""
	if len(g.Finalizers) > 0 {
		fin = g.Finalizers[0]
	}
	tmpl := `{{range .items}}{{$n := .metadata.name}}{{range .metadata.finalizers}}{{if eq . "` + fin + `"}}{{$n}}{{"\n"}}{{end}}{{end}}{{end}}`
	list := shellsafe.Cmd("kubectl", "-n", g.Namespace, "get", res, "-o", "go-template="+tmpl)
	patch := shellsafe.Cmd("kubectl", "-n", g.Namespace, "patch", res) + ` "$o" ` + shellsafe.Cmd("--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	if strings.HasPrefix(list, "#") {
		return list
	}
	if strings.HasPrefix(patch, "#") {
		return patch
	}
	return list + " | while read -r o; do " + patch + "; done"
}

// PodGroups groups terminating pods by finalizers and node, as GroupObjects does, the
// verdict saying where they are ("on node N, not Ready", "on node N", "not scheduled
// to a node"): the pods a dead node or a missing controller holds are one group, with
// one command (PodDeleteLoop, FinalizerLoop). Each node is looked up once.
func PodGroups(ix *index.Index, pods []*objects.Object) []findings.ObjectGroup {
	nodeOf := make(map[string]string, len(pods))
	state := map[string]string{}
	refs := make([]findings.ObjectRef, 0, len(pods))
	for _, pod := range pods {
		ref := findings.ObjectRefOf(pod)
		ref.Resource = "pods"
		refs = append(refs, ref)
		node := ""
		if pod.Pod != nil {
			node = pod.Pod.NodeName
		}
		nodeOf[pod.Name] = node
		if node == "" {
			state[""] = findings.PodNotScheduled
		}
	}
	for _, pn := range ix.PodNodes(pods) {
		state[pn.Name] = "on node " + pn.Name
		if pn.NotReady() != nil {
			state[pn.Name] += ", not Ready"
		}
	}
	gs := findings.GroupObjects(refs, func(o findings.ObjectRef) string { return state[nodeOf[o.Name]] })
	for i := range gs {
		if len(gs[i].Examples) > 0 {
			gs[i].Node = nodeOf[gs[i].Examples[0]]
		}
	}
	return gs
}

// PodGroupLine is a group of pods in a few words: "2,000 Pods on node node-1, not
// Ready, deleted between ...; e.g. web-0, web-1, web-2".
func PodGroupLine(g findings.ObjectGroup) string {
	s := findings.Count(g.Count) + " " + findings.PluralKind("Pod", g.Count)
	if len(g.Finalizers) > 0 {
		s += " with finalizers " + strings.Join(g.Finalizers, ", ")
	}
	if g.Verdict != "" {
		s += " " + g.Verdict
	}
	if d := g.Deletions(); d != "" {
		s += ", " + d
	}
	return s + "; e.g. " + strings.Join(g.Examples, ", ")
}

// PodDeleteLoop is the one command that force-deletes a group's terminating pods: the
// pods of its namespace (on its node, when it has one) that carry a deletionTimestamp,
// listed with a go-template (no jq) and deleted one by one. Safe to paste: every value
// is a checked Kubernetes name, every word quoted.
func PodDeleteLoop(g findings.ObjectGroup) string {
	tmpl := `{{range .items}}{{if .metadata.deletionTimestamp}}{{.metadata.name}}{{"\n"}}{{end}}{{end}}`
	args := []string{"kubectl", "-n", g.Namespace, "get", "pods"}
	if g.Node != "" {
		args = append(args, "--field-selector", "spec.nodeName="+g.Node)
	}
	list := shellsafe.Cmd(append(args, "-o", "go-template="+tmpl)...)
	del := shellsafe.Cmd("kubectl", "-n", g.Namespace, "delete", "pod") + ` "$o" ` + shellsafe.Cmd("--grace-period=0", "--force")
	if strings.HasPrefix(list, "#") {
		return list
	}
	if strings.HasPrefix(del, "#") {
		return del
	}
	return list + " | while read -r o; do " + del + "; done"
}
