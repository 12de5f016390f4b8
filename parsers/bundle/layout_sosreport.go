package bundle

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// sosreportLayout is a sos report (`sosreport-<host>-<date>/`): its kubernetes plugin saves
// each kubectl command's output under `sos_commands/kubernetes/`, named after the command
// (`cluster-info/kubectl_get_-o_json_nodes`, `cluster-info/<ns>/kubectl_get_-o_json_--namespace_<ns>_pods`,
// `cluster-info/kubectl_get_namespaces` (a table), `.../podlogs/<pod>/kubectl_--namespace_<ns>_logs_<pod>_-c_<container>`),
// without extensions; the rest of the report is the host's files (etc/, var/log/).
var sosreportLayout = Layout{
	Name:  LayoutSosreport,
	Roots: []string{"sos_commands"},
	Claims: func(rel string, v *bundleView) bool {
		return v != nil && v.sos || isSosPath(segs(rel))
	},
	Hint: sosHint,
}

func isSosPath(s segments) bool {
	return s.index("sos_commands") >= 0 || s.index("sos_reports") >= 0 || s.index("sos_logs") >= 0
}

// sosHint reads the command a sos file is named after: the kind of `kubectl get -o json <res>`,
// the command of a text table, the container of a pod log.
func sosHint(rel string) Hint {
	s := segs(rel)
	if s.index("sos_commands") < 0 {
		return Hint{}
	}
	c, ok := sosCommand(s.base())
	if !ok {
		return Hint{}
	}
	h := Hint{Command: c.text}
	switch c.verb {
	case "get":
		if k, ok := kindHint(c.resource, ""); ok {
			h.GroupVersion, h.Kind = k.GroupVersion, k.Kind
		}
	case "logs":
		h.Command = ""
		if comp := logs.ComponentFromPath(c.container); comp != "" && comp != "kubectl" {
			h.Component = comp
		} else if c.container != "" {
			h.Component = c.container
		}
	}
	return h
}

type sosCmd struct {
	text, verb, resource, container string
}

// sosCommand undoes sos's file naming (spaces, "=" and other characters became "_",
// "/" became "."): "kubectl_get_-o_json_--namespace_kube-system_pods" is
// `kubectl get -o json --namespace=kube-system pods`. Resource and namespace names hold
// no "_", so the words come back exactly.
func sosCommand(base string) (sosCmd, bool) {
	t := strings.Split(base, "_")
	for len(t) > 0 && (t[0] == "microk8s" || t[0] == "k8s" || t[0] == "sudo") {
		t = t[1:]
	}
	if len(t) < 2 || t[0] != "kubectl" && t[0] != "oc" {
		return sosCmd{}, false
	}
	var c sosCmd
	words := []string{t[0]}
	var pos []string
	for i := 1; i < len(t); i++ {
		w := t[i]
		next := func() string {
			if i+1 < len(t) {
				i++
				return t[i]
			}
			return ""
		}
		switch {
		case w == "":
		case w == "--kubeconfig" || w == "--context":
			next()
		case strings.HasPrefix(w, "--kubeconfig"):
		case w == "--namespace" || w == "-n":
			words = append(words, "--namespace="+next())
		case w == "--all-namespaces":
			if i+1 < len(t) && t[i+1] == "true" {
				i++
			}
			words = append(words, "--all-namespaces")
		case w == "-o" || w == "--output":
			words = append(words, "-o", next())
		case w == "-c" || w == "--container":
			c.container = next()
			words = append(words, "-c", c.container)
		case strings.HasPrefix(w, "-"):
			words = append(words, w)
		default:
			pos = append(pos, w)
			words = append(words, w)
		}
	}
	if len(pos) == 0 {
		return sosCmd{}, false
	}
	c.verb = pos[0]
	if len(pos) > 1 {
		c.resource = pos[1]
	}
	c.text = strings.Join(words, " ")
	return c, true
}
