package bundle

import (
	"bytes"
	"path"
)

// clusterInfoLayout is `kubectl cluster-info dump --output-directory=DIR`: `nodes.json`,
// then per namespace `<ns>/{events,replication-controllers,services,daemonsets,deployments,replicasets,pods}.json`
// and `<ns>/<pod>/logs.txt`.
var clusterInfoLayout = Layout{
	Name: LayoutClusterInfo,
	Claims: func(rel string, v *bundleView) bool {
		s := segs(rel)
		stem := fileStem(s.base())
		if s.base() == "logs.txt" && len(s) >= 3 || stem == "replication-controllers" {
			return true
		}
		// nodes.json and <ns>/<kind>.json next to it
		return v != nil && v.objectFiles[rel] && (v.dirsWithNodes[path.Dir(rel)] && stem == "nodes" ||
			clusterInfoFiles[stem] && v.dirsWithNodes[path.Dir(path.Dir(rel))])
	},
	// <ns>/<pod>/logs.txt holds that pod's containers' logs
	Hint: func(rel string) Hint {
		if s := segs(rel); s.base() == "logs.txt" && len(s) >= 3 {
			return Hint{Role: RoleContainerLog}
		}
		return Hint{}
	},
}

var clusterInfoFiles = map[string]bool{"events": true, "replication-controllers": true, "services": true,
	"daemonsets": true, "deployments": true, "replicasets": true, "pods": true}

// clusterInfoStdoutLayout is `kubectl cluster-info dump` saved from stdout, whatever the
// file is called: recognised by its content (isClusterInfoStdout), read by
// clusterInfoStdout.
var clusterInfoStdoutLayout = Layout{
	Name: LayoutClusterInfoStdout,
	Claims: func(rel string, v *bundleView) bool {
		return v != nil && v.stdoutFiles[rel]
	},
}

var nodeListKind = []byte(`"kind": "NodeList"`)

// isClusterInfoStdout says which JSON files may be `kubectl cluster-info dump` written
// to stdout: those that start with the dump's NodeList, printed kind first (`kubectl get
// -o json` never prints a list that way: it sorts "apiVersion" first and says "List"),
// or whose first KBs hold a `==== START logs for container` marker, and JSON saved
// without a .json/.yaml extension. clusterInfoStdout reads them once, splitting log
// blocks from JSON, and decides by their content: a file is a dump (and a log) only when
// it holds container log blocks or the dump's sequence of lists (nodes, then other
// kinds); a file of JSON only (a sos report's `kubectl_get_-o_json_pods`) is objects.
func isClusterInfoStdout(head []byte, kind, ext string) bool {
	if kind != "json" {
		return false
	}
	t := bytes.TrimSpace(head)
	if !bytes.HasPrefix(t, []byte("{")) {
		return false
	}
	if ext != ".json" && ext != ".yaml" && ext != ".yml" {
		return true
	}
	start := t
	if len(start) > 200 {
		start = start[:200]
	}
	return bytes.Contains(start, nodeListKind) || bytes.Contains(head, append([]byte{'\n'}, markStart...))
}
