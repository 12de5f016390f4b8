package text

import (
	"regexp"
	"strings"
)

// YAML whose indentation a chat tool or a web page flattened keeps its keys in order,
// and Kubernetes' object schema says where each belongs: reindent puts every key back
// under the innermost open map that has such a key (metadata, spec, status, a
// condition, ...), list items under their list, and continuation lines of a wrapped
// scalar under their key. One output line per input line, so lines stay the file's.

// yamlShape is what a key opens: a map of known keys, a list of scalars, a list of
// maps of known keys, or a map of any keys (labels, annotations).
type yamlShape struct {
	kind string // "map", "list", "maps", "any"
	keys map[string]*yamlShape
}

func shapeMap(kind string, keys map[string]*yamlShape) *yamlShape {
	return &yamlShape{kind: kind, keys: keys}
}

var (
	leaf       = (*yamlShape)(nil)
	scalarList = shapeMap("list", nil)
	anyMap     = shapeMap("any", nil)
	condition  = map[string]*yamlShape{"type": leaf, "status": leaf, "reason": leaf, "message": leaf,
		"lastTransitionTime": leaf, "lastUpdateTime": leaf, "lastProbeTime": leaf, "lastHeartbeatTime": leaf,
		"observedGeneration": leaf}
	serviceRef = shapeMap("map", map[string]*yamlShape{"name": leaf, "namespace": leaf, "port": leaf, "path": leaf})
	metadata   = shapeMap("map", map[string]*yamlShape{"name": leaf, "namespace": leaf, "uid": leaf, "resourceVersion": leaf,
		"creationTimestamp": leaf, "deletionTimestamp": leaf, "deletionGracePeriodSeconds": leaf, "generation": leaf,
		"selfLink": leaf, "generateName": leaf, "labels": anyMap, "annotations": anyMap, "finalizers": scalarList,
		"ownerReferences": shapeMap("maps", map[string]*yamlShape{"apiVersion": leaf, "kind": leaf, "name": leaf, "uid": leaf,
			"controller": leaf, "blockOwnerDeletion": leaf}),
		"managedFields": shapeMap("maps", map[string]*yamlShape{"apiVersion": leaf, "fieldsType": leaf, "fieldsV1": anyMap,
			"manager": leaf, "operation": leaf, "time": leaf, "subresource": leaf})})
	spec = shapeMap("map", map[string]*yamlShape{"finalizers": scalarList, "group": leaf, "version": leaf,
		"groupPriorityMinimum": leaf, "versionPriority": leaf, "insecureSkipTLSVerify": leaf, "caBundle": leaf,
		"service": serviceRef, "nodeName": leaf, "selector": anyMap, "type": leaf, "clusterIP": leaf,
		"ports": shapeMap("maps", map[string]*yamlShape{"name": leaf, "port": leaf, "protocol": leaf, "targetPort": leaf})})
	status = shapeMap("map", map[string]*yamlShape{"phase": leaf, "conditions": shapeMap("maps", condition),
		"podIP": leaf, "hostIP": leaf, "startTime": leaf})
	topShape = shapeMap("map", map[string]*yamlShape{"apiVersion": leaf, "kind": leaf, "metadata": metadata,
		"spec": spec, "status": status})
)

// maxFlatDepth bounds the nesting reindent and reindentDescribe restore (no Kubernetes
// object is nested deeper), so a hostile block costs linear time.
const maxFlatDepth = 32

var reFlatKey = regexp.MustCompile(`^(- )?([A-Za-z_][\w./-]*|"[^"]*"|'[^']*'):(?: (.*))?$`)

// flattened reports whether a YAML block lost its indentation: every line at the
// margin, and a key of a nested map right after the key that opens it.
func flattened(lines []string) bool {
	nested := false
	for k, l := range lines {
		if l != "" && (l[0] == ' ' || l[0] == '\t') {
			return false
		}
		if k > 0 && (lines[k-1] == "metadata:" || lines[k-1] == "status:" || lines[k-1] == "spec:") {
			if m := reFlatKey.FindStringSubmatch(l); m != nil && topShape.keys[m[2]] == nil {
				nested = true
			}
		}
	}
	return nested
}

type yamlFrame struct {
	shape  *yamlShape
	indent int // of the frame's keys
	seen   map[string]bool
}

// reindent restores the indentation of a flattened YAML block, line for line.
func reindent(lines []string) []string {
	out := make([]string, len(lines))
	stack := []*yamlFrame{{shape: topShape, indent: 0, seen: map[string]bool{}}}
	lastIndent := 0
	var open byte
	for k, l := range lines {
		t := strings.TrimSpace(l)
		if open != 0 {
			// inside a quoted scalar that goes on over lines
			out[k] = strings.Repeat(" ", lastIndent+2) + t
			open = quoteOpen(open, t)
			continue
		}
		open = quoteOpen(0, t)
		if t == "" || t == "---" || strings.HasPrefix(t, "#") {
			out[k] = t
			if t == "---" {
				stack = stack[:1]
				stack[0].seen = map[string]bool{}
			}
			continue
		}
		m := reFlatKey.FindStringSubmatch(t)
		if m == nil {
			if strings.HasPrefix(t, "- ") {
				// a scalar list item: the innermost open list
				for len(stack) > 1 && stack[len(stack)-1].shape.kind != "list" {
					stack = stack[:len(stack)-1]
				}
				out[k] = strings.Repeat(" ", stack[len(stack)-1].indent) + t
				lastIndent = stack[len(stack)-1].indent + 2
				continue
			}
			// the continuation of a wrapped scalar
			out[k] = strings.Repeat(" ", lastIndent+2) + t
			continue
		}
		item, key, val := m[1] != "", strings.Trim(m[2], `"'`), m[3]
		var f *yamlFrame
		if item {
			// "- key: v" starts an item of the innermost list of maps
			for len(stack) > 1 && stack[len(stack)-1].shape.kind != "maps" {
				stack = stack[:len(stack)-1]
			}
			f = stack[len(stack)-1]
			f.seen = map[string]bool{}
		} else {
			// the innermost open map that has this key and has not had it yet;
			// a map of any keys takes a key nobody above knows
			at := -1
			for i := len(stack) - 1; i >= 0; i-- {
				sh := stack[i].shape
				if sh.kind != "any" && sh.kind != "list" && hasKey(sh, key) && !stack[i].seen[key] {
					at = i
					break
				}
			}
			if at < 0 {
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i].shape.kind != "list" {
						at = i
						break
					}
				}
			}
			stack = stack[:at+1]
			f = stack[at]
		}
		f.seen[key] = true
		ind := f.indent
		if item {
			out[k] = strings.Repeat(" ", ind) + t
		} else {
			out[k] = strings.Repeat(" ", ind) + t
		}
		keyIndent := ind
		if item {
			keyIndent = ind + 2
		}
		lastIndent = keyIndent
		if f.shape.kind == "maps" && item && len(stack) < maxFlatDepth {
			// the item's own keys are at ind+2: a frame for them
			stack = append(stack, &yamlFrame{shape: shapeMap("map", f.shape.keys), indent: ind + 2, seen: map[string]bool{key: true}})
		}
		if (strings.TrimSpace(val) == "" || val == "|" || val == ">" || val == "|-" || val == ">-") && len(stack) < maxFlatDepth {
			child := childShape(stack[len(stack)-1].shape, key)
			ci := keyIndent + 2
			if child.kind == "list" || child.kind == "maps" {
				ci = keyIndent // kubectl does not indent sequences under their key
			}
			stack = append(stack, &yamlFrame{shape: child, indent: ci, seen: map[string]bool{}})
		}
	}
	return out
}

func hasKey(s *yamlShape, key string) bool {
	_, ok := s.keys[key]
	return ok
}

func childShape(s *yamlShape, key string) *yamlShape {
	if c, ok := s.keys[key]; ok && c != nil {
		return c
	}
	return anyMap
}

// quoteOpen follows a YAML scalar quoted over several lines: given the quote still open
// before line t (0: none), it returns the quote open after it.
func quoteOpen(open byte, t string) byte {
	if open == 0 {
		m := reFlatKey.FindStringSubmatch(t)
		if m == nil {
			return 0
		}
		v := strings.TrimSpace(m[3])
		if v == "" || v[0] != '\'' && v[0] != '"' {
			return 0
		}
		open, t = v[0], v[1:]
	}
	for i := 0; i < len(t); i++ {
		switch {
		case open == '"' && t[i] == '\\':
			i++
		case t[i] == open && open == '\'' && i+1 < len(t) && t[i+1] == '\'':
			i++ // '' inside single quotes
		case t[i] == open:
			return 0
		}
	}
	return open
}
