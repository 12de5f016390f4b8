package text

import (
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/resources"
)

// `kubectl describe` output: "Key:  value" lines nested by indentation, tables (the
// Conditions of namespaces, pods and nodes; Events), and for kinds without a describer of
// their own (APIService, CustomResourceDefinition, custom resources) the object's
// fields themselves with Title Case keys ("Last Transition Time").

type dnode struct {
	key, val string
	line     int
	indent   int
	kids     []*dnode
	values   []string // value lines without a key (list items, label continuations)
	table    *dtable
}

type dtable struct {
	cols []column
	rows []drow
}

type drow struct {
	cells []string
	line  int
}

// describe reads one block that starts with "Name:" at line i; it returns the line after it.
func (p *parser) describe(i int) int {
	j := i + 1
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if strings.HasPrefix(l, "Name:") || parseCommand(l, j+1) != nil || stderrLine(l) || headerColumns(l) != nil ||
			jsonStart(l) || reYAMLTop.MatchString(l) {
			break
		}
	}
	root := p.describeTree(i, j)
	p.describeObject(root, i+1)
	return j
}

func indentOf(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}

func (p *parser) describeTree(i, j int) *dnode {
	root := &dnode{indent: -1}
	type frame struct {
		indent int
		n      *dnode
	}
	stack := []frame{{-1, root}}
	var tab *dtable
	tabIndent, tabParent := 0, 0
	for k := i; k < j; k++ {
		l := p.lines[k]
		if strings.ContainsRune(l, '\t') {
			l = expandTabs(l)
		}
		t := strings.TrimSpace(l)
		ind := indentOf(l)
		if tab != nil {
			if t == "" {
				tab = nil
				continue
			}
			if key, _, ok := describeKey(t, ind); ok && ind <= tabParent && !(ind == 0 && !isUpper(key)) {
				tab = nil
			} else {
				if ind == tabIndent {
					if cells, ok := splitRow(l, tab.cols); ok {
						tab.rows = append(tab.rows, drow{cells: cells, line: k + 1})
						continue
					}
				}
				if n := len(tab.rows); n > 0 {
					// a long message wrapped: by the terminal (at the margin, mid-word) or by the paste
					last := &tab.rows[n-1].cells[len(tab.cols)-1]
					if ind == 0 {
						*last += t
					} else {
						*last += " " + t
					}
				}
				continue
			}
		}
		if t == "" {
			continue
		}
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1].n
		key, val, ok := describeKey(t, ind)
		if !ok {
			// a table under a key with no value: "Conditions:" then "  Type  Status ..."
			if len(top.kids) == 0 && top.val == "" && top != root && top.table == nil {
				if cols := splitCells(l); len(cols) >= 2 && cols[0].name == "Type" && (cols[1].name == "Status" || cols[1].name == "Reason") {
					tab = &dtable{cols: cols}
					top.table = tab
					tabIndent, tabParent = ind, top.indent
					if k+1 < j && strings.HasPrefix(strings.TrimSpace(p.lines[k+1]), "----") {
						k++
					}
					continue
				}
			}
			if top != root {
				top.values = append(top.values, t)
			}
			continue
		}
		n := &dnode{key: key, val: val, line: k + 1, indent: ind}
		top.kids = append(top.kids, n)
		stack = append(stack, frame{ind, n})
		// "Annotations:  API Version:  apiregistration.k8s.io/v1": kubectl printed no
		// newline after empty annotations
		if (key == "Annotations" || key == "Labels") && ind == 0 {
			if k2, v2, ok := describeKey(val, 0); ok && isUpper(k2) {
				n.val = ""
				n2 := &dnode{key: k2, val: v2, line: k + 1, indent: 0}
				root.kids = append(root.kids, n2)
				stack = append(stack[:len(stack)-1], frame{0, n2})
			}
		}
	}
	return root
}

func isUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func (n *dnode) kid(key string) *dnode {
	for _, k := range n.kids {
		if k.key == key {
			return k
		}
	}
	return nil
}

func (n *dnode) text() string {
	if n == nil {
		return ""
	}
	v := n.val
	if v == "<none>" || v == "<unset>" {
		return ""
	}
	return v
}

// describeObject turns a describe tree into an object, when its kind can be told.
func (p *parser) describeObject(root *dnode, line int) {
	name := root.kid("Name").text()
	if name == "" {
		p.warn.Add(p.path, line, "describe block without a name skipped")
		return
	}
	c := p.cmd
	if c != nil && (c.Tool != "kubectl" || c.Verb != "describe") {
		c = nil
	}
	kind, apiVersion := root.kid("Kind").text(), root.kid("API Version").text()
	if kind == "" && c != nil {
		if r, ok := resources.Lookup(c.Resource); ok {
			kind = r.Kind
		}
	}
	status := root.kid("Status")
	if kind == "" {
		switch {
		case root.kid("Containers") != nil && root.kid("Namespace") != nil:
			kind = "Pod"
		case root.kid("Roles") != nil && root.kid("Taints") != nil:
			kind = "Node"
		case root.kid("Namespace") == nil && status != nil && (strings.HasPrefix(status.val, "Active") || strings.HasPrefix(status.val, "Terminating")):
			kind = "Namespace"
		}
	}
	if kind == "" {
		return // a kind the analysis does not read (or cannot tell)
	}
	if kind == "Project" {
		kind = "Namespace"
	}
	r, _ := resources.Lookup(kind)
	if apiVersion == "" {
		apiVersion = r.GroupVersion
	}
	md := map[string]any{"name": name}
	obj := map[string]any{"apiVersion": apiVersion, "kind": kind}
	if ns := root.kid("Namespace").text(); ns != "" {
		md["namespace"] = ns
	} else if c != nil && c.Namespace != "" && r.Namespaced {
		md["namespace"] = c.Namespace
	}
	if lb := root.kid("Labels"); lb != nil {
		labels := map[string]any{}
		for _, kv := range append([]string{lb.val}, lb.values...) {
			if k, v, ok := strings.Cut(kv, "="); ok {
				labels[k] = v
			}
		}
		if len(labels) > 0 {
			md["labels"] = labels
		}
	}
	spec, st := map[string]any{}, map[string]any{}
	var condLines []int
	// the generic describer: Metadata, Spec, Status hold the object's fields
	if m := root.kid("Metadata"); m != nil && len(m.kids) > 0 {
		if v, ok := convert(m).(map[string]any); ok {
			for k, x := range v {
				if _, set := md[k]; !set {
					md[k] = x
				}
			}
		}
	}
	if s := root.kid("Spec"); s != nil && len(s.kids) > 0 {
		if v, ok := convert(s).(map[string]any); ok {
			spec = v
		}
	}
	if status != nil && len(status.kids) > 0 {
		if v, ok := convert(status).(map[string]any); ok {
			st = v
		}
		if cn := status.kid("Conditions"); cn != nil {
			condLines = elementLines(cn)
		}
	} else if status != nil && status.val != "" {
		// "Status:  Terminating", "Status:  Terminating (lasts 13h)", "Status:  Running"
		ph, _, _ := strings.Cut(status.val, " ")
		if kind != "Pod" || ph != "Terminating" {
			st["phase"] = ph
		}
	}
	if cn := root.kid("Conditions"); cn != nil && cn.table != nil {
		var conds []any
		for _, rw := range cn.table.rows {
			cond := map[string]any{}
			for k, col := range cn.table.cols {
				v := strings.TrimSpace(rw.cells[k])
				if v == "" {
					continue
				}
				switch col.name {
				case "Type":
					cond["type"] = v
				case "Status":
					cond["status"] = v
				case "Reason":
					cond["reason"] = v
				case "Message":
					cond["message"] = v
				case "LastTransitionTime":
					if t := describeTime(v); t != "" {
						cond["lastTransitionTime"] = t
					}
				}
			}
			if cond["type"] != nil {
				conds = append(conds, cond)
				condLines = append(condLines, rw.line)
			}
		}
		if conds != nil {
			st["conditions"] = conds
		}
	}
	if kind == "Pod" {
		p.describePod(root, spec, st)
	}
	obj["metadata"] = md
	if len(spec) > 0 {
		obj["spec"] = spec
	}
	if len(st) > 0 {
		obj["status"] = st
	}
	sy := synth{line: line, obj: obj, rendering: RenderingDescribe, condLines: condLines}
	if status != nil {
		// "Status:  Terminating (lasts 13h)": deleted at least that long before the describe
		if _, rest, ok := strings.Cut(status.val, "(lasts "); ok {
			if d, ok := ParseAge(strings.TrimSuffix(strings.TrimSpace(rest), ")")); ok {
				sy.lasts = d
			}
		}
	}
	p.add(sy)
}

func (p *parser) describePod(root *dnode, spec, st map[string]any) {
	if n := root.kid("Node").text(); n != "" {
		host, _, _ := strings.Cut(n, "/")
		spec["nodeName"] = host
	}
	if ip := root.kid("IP").text(); ip != "" {
		st["podIP"] = ip
	}
	cs := root.kid("Containers")
	if cs == nil {
		return
	}
	var containers, statuses []any
	for _, c := range cs.kids {
		containers = append(containers, map[string]any{"name": c.key, "image": c.kid("Image").text()})
		s := map[string]any{}
		if v, ok := atoi(c.kid("Restart Count").text()); ok {
			s["restartCount"] = v
		}
		if state := c.kid("State"); state != nil && state.val == "Waiting" {
			if r := state.kid("Reason").text(); r != "" {
				s["state"] = map[string]any{"waiting": map[string]any{"reason": r}}
			}
		}
		if last := c.kid("Last State"); last != nil && last.val == "Terminated" {
			if r := last.kid("Reason").text(); r != "" {
				s["lastState"] = map[string]any{"terminated": map[string]any{"reason": r}}
			}
		}
		s["ready"] = c.kid("Ready").text() == "True"
		statuses = append(statuses, s)
	}
	if containers != nil {
		spec["containers"] = containers
		st["containerStatuses"] = statuses
	}
}

// listFields are the fields that are lists even with one element.
var listFields = map[string]bool{"conditions": true, "versions": true, "finalizers": true, "ports": true,
	"webhooks": true, "rules": true, "containers": true, "storedVersions": true, "subsets": true, "addresses": true,
	"ownerReferences": true, "endpoints": true, "items": true}

// convert turns a subtree of the generic describer back into the object's JSON shape.
func convert(n *dnode) any {
	if len(n.kids) == 0 {
		if len(n.values) > 0 && n.val == "" {
			out := make([]any, len(n.values))
			for i, v := range n.values {
				out[i] = v
			}
			return out
		}
		v := n.val
		if len(n.values) > 0 {
			v += " " + strings.Join(n.values, " ")
		}
		return scalar(v)
	}
	var elems []map[string]any
	cur, seen := map[string]any{}, map[string]bool{}
	for _, k := range n.kids {
		key := camel(k.key)
		if seen[key] {
			elems = append(elems, cur)
			cur, seen = map[string]any{}, map[string]bool{}
		}
		seen[key] = true
		if v := convert(k); v != nil {
			cur[key] = v
		}
	}
	elems = append(elems, cur)
	if len(elems) > 1 || listFields[camel(n.key)] {
		out := make([]any, len(elems))
		for i, e := range elems {
			out[i] = e
		}
		return out
	}
	return elems[0]
}

// elementLines are the lines where the elements of a list of maps start.
func elementLines(n *dnode) []int {
	var out []int
	seen := map[string]bool{}
	for i, k := range n.kids {
		if i == 0 || seen[k.key] {
			out = append(out, k.line)
			seen = map[string]bool{}
		}
		seen[k.key] = true
	}
	return out
}

func scalar(v string) any {
	switch v {
	case "", "<none>", "<nil>", "<unset>":
		return nil
	case "true":
		return true
	case "false":
		return false
	}
	if n, ok := atoi(v); ok {
		return n
	}
	return v
}

// camel turns a describe label back into its field name: "Last Transition Time" →
// "lastTransitionTime", "API Version" → "apiVersion", "Insecure Skip TLS Verify" →
// "insecureSkipTLSVerify".
func camel(label string) string {
	w := strings.Fields(label)
	if len(w) == 0 {
		return label
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(w[0]))
	for _, x := range w[1:] {
		b.WriteString(x)
	}
	return b.String()
}

// describeTime reads the times kubectl describe prints in tables.
func describeTime(v string) string {
	for _, f := range []string{time.RFC1123Z, time.RFC1123, time.RFC3339, "Mon, 2 Jan 2006 15:04:05 -0700", "2006-01-02 15:04:05 -0700 MST"} {
		if t, err := time.Parse(f, v); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	return ""
}
