package text

import (
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/resources"
)

// reEventSuffix is the suffix the event recorder adds to the involved object's name to
// name an event (client-go tools/record: fmt.Sprintf("%v.%x", ref.Name, t.UnixNano())).
var reEventSuffix = regexp.MustCompile(`\.[0-9a-f]{8,20}$`)

// eventRow turns a row of a `kubectl get events` table into an Event: before 1.14 its
// NAME is the event's (the involved object's name and a hex suffix) and KIND the
// involved object's kind; from 1.14 OBJECT says kind/name. TYPE, REASON, COUNT,
// SOURCE and MESSAGE are the event's own.
func (p *parser) eventRow(names, cells []string, line int, c *Command) {
	get := func(n string) string {
		for i, x := range names {
			if x == n && i < len(cells) {
				if v := cells[i]; v != "<none>" && v != "<unknown>" {
					return v
				}
				return ""
			}
		}
		return ""
	}
	involved := map[string]any{}
	name := get("NAME")
	if obj := get("OBJECT"); obj != "" {
		res, n, ok := strings.Cut(obj, "/")
		if !ok {
			p.warn.Add(p.path, line, "event row without a readable object (kind/name expected): %q", obj)
			return
		}
		if r, ok := resources.Lookup(res); ok {
			involved["kind"] = r.Kind
		}
		involved["name"] = n
	} else {
		if k := get("KIND"); k != "" {
			involved["kind"] = k
		}
		if name != "" {
			involved["name"] = reEventSuffix.ReplaceAllString(name, "")
		}
	}
	if involved["name"] == nil || strings.ContainsAny(name, " \t") {
		p.warn.Add(p.path, line, "event row without a readable object")
		return
	}
	ns := get("NAMESPACE")
	if ns == "" && c != nil && !c.AllNamespaces {
		ns = c.Namespace
	}
	md := map[string]any{}
	if name != "" {
		md["name"] = name
	}
	if ns != "" {
		if !kubemsg.IsNamespaceName(ns) {
			p.warn.Add(p.path, line, "no Event read: its namespace %q is no namespace name (a DNS-1123 label)", ns)
			return
		}
		md["namespace"] = ns
		involved["namespace"] = ns
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "Event", "metadata": md, "involvedObject": involved,
		"reason": get("REASON"), "message": get("MESSAGE"), "type": get("TYPE")}
	if n, ok := atoi(get("COUNT")); ok {
		obj["count"] = n
	}
	if src := get("SOURCE"); src != "" {
		comp, _, _ := strings.Cut(src, ",") // "kubelet, node-1"
		obj["source"] = map[string]any{"component": strings.TrimSpace(comp)}
	}
	p.add(synth{line: line, obj: obj, rendering: RenderingTable})
}
