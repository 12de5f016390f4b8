package text

import (
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/resources"
)

// The output of `kubectl get KIND NAME -o jsonpath=... | go-template=...`: what tickets
// paste most for conditions (`{range .status.conditions[*]}{.type}={.status}
// {.message}{"\n"}{end}`), phases (`{.status.phase}`) and name/phase lists. The
// command names the kind and the object; the lines say the rest in any separator.

var (
	// "<Type>=<Status> <rest>", "<Type>: <Status>: <rest>", "<Type>	<Status>	<rest>"
	reTplCond = regexp.MustCompile(`^\s*([A-Z][A-Za-z]+)\s*[=:\t ]\s*(True|False|Unknown)\b[\s:,;|=-]*(.*)$`)
	// go-template's "{{.type}}: {{.message}}" for the namespace controller's conditions
	reTplCondMsg = regexp.MustCompile(`^\s*(Namespace[A-Z][A-Za-z]+)\s*[=:\t]\s*(.+)$`)
	// where one condition starts inside a line without newlines between them
	reTplCondStart = regexp.MustCompile(`(?:Namespace[A-Z][A-Za-z]+|Available|Ready|Established|NamesAccepted|Terminating)[=:](?:True|False|Unknown)\b`)
	// a "{.metadata.name} {.status.phase}" row
	reTplPhaseRow = regexp.MustCompile(`^\s*([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)[\s,:=]+(Active|Terminating)\s*$`)
	// a CamelCase reason: two capitals at least ("DiscoveryFailed", "FailedDiscoveryCheck")
	reReason = regexp.MustCompile(`^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$`)
)

func templateOutput(c *Command) bool {
	if c == nil || c.Tool != "kubectl" || c.Verb != "get" {
		return false
	}
	o := c.Output
	return strings.HasPrefix(o, "jsonpath") || strings.HasPrefix(o, "go-template") || strings.HasPrefix(o, "template")
}

// templateBlock reads the output of a template command starting at line i; it returns
// i when the line is none of it.
func (p *parser) templateBlock(i int) int {
	c := p.cmdFor()
	if !templateOutput(c) {
		return i
	}
	r, ok := resources.Lookup(c.Resource)
	if !ok || r.Kind != "Namespace" && r.Kind != "APIService" && r.Kind != "CustomResourceDefinition" {
		return i
	}
	var conds []any
	var lines []int
	phase := ""
	rows := 0
	j := i
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		t := strings.TrimSpace(l)
		if t == "" || parseCommand(l, j+1) != nil || stderrLine(strings.TrimLeft(l, " ")) {
			break
		}
		pieces := splitTemplateLine(t)
		read := false
		for _, piece := range pieces {
			if m := reTplCond.FindStringSubmatch(piece); m != nil {
				cond := map[string]any{"type": m[1], "status": m[2]}
				rest := strings.TrimSpace(m[3])
				if w, more, _ := strings.Cut(rest, " "); reReason.MatchString(w) {
					cond["reason"], rest = w, strings.TrimSpace(more)
				}
				if rest != "" {
					cond["message"] = rest
				}
				conds = append(conds, cond)
				lines = append(lines, j+1)
				read = true
				continue
			}
			if m := reTplCondMsg.FindStringSubmatch(piece); m != nil && r.Kind == "Namespace" {
				conds = append(conds, map[string]any{"type": m[1], "message": strings.TrimSpace(m[2])})
				lines = append(lines, j+1)
				read = true
			}
		}
		if read {
			continue
		}
		if r.Kind == "Namespace" && (t == "Active" || t == "Terminating") && len(c.Names) == 1 {
			phase = t
			lines = append(lines, j+1)
			continue
		}
		if m := reTplPhaseRow.FindStringSubmatch(t); m != nil && r.Kind == "Namespace" {
			p.add(synth{line: j + 1, obj: map[string]any{"apiVersion": "v1", "kind": "Namespace",
				"metadata": map[string]any{"name": m[1]}, "status": map[string]any{"phase": m[2]}}, rendering: RenderingTable})
			rows++
			continue
		}
		if len(conds) > 0 {
			// a message going on over lines
			last := conds[len(conds)-1].(map[string]any)
			if msg, ok := last["message"].(string); ok {
				last["message"] = msg + " " + t
				continue
			}
		}
		break
	}
	if j == i {
		return i
	}
	p.used = true
	if rows > 0 && p.fullList(c, nil) {
		p.res.NamespaceLists = append(p.res.NamespaceLists, Listing{Line: i + 1, Rows: rows, Command: c.Text, Rendering: RenderingTable})
	}
	if len(conds) == 0 && phase == "" {
		return j
	}
	if len(c.Names) != 1 {
		p.warn.Add(p.path, i+1, "conditions printed by %q without the name of their %s: skipped", c.Text, r.Kind)
		return j
	}
	md := map[string]any{"name": c.Names[0]}
	if r.Namespaced && c.Namespace != "" {
		md["namespace"] = c.Namespace
	}
	status := map[string]any{}
	if conds != nil {
		// a condition without status (a template that printed only the type and message)
		// is not a problem state: it is kept as Unknown
		for _, x := range conds {
			if m := x.(map[string]any); m["status"] == nil {
				m["status"] = "Unknown"
			}
		}
		status["conditions"] = conds
	}
	if phase != "" {
		status["phase"] = phase
	}
	obj := map[string]any{"apiVersion": r.GroupVersion, "kind": r.Kind, "metadata": md, "status": status}
	if r.Kind == "APIService" {
		if v, g, ok := strings.Cut(c.Names[0], "."); ok {
			obj["spec"] = map[string]any{"version": v, "group": g}
		}
	}
	p.add(synth{line: i + 1, obj: obj, rendering: RenderingTemplate, condLines: lines})
	return j
}

// splitTemplateLine splits a line holding several conditions (a template without
// newlines between them) at the start of each.
func splitTemplateLine(t string) []string {
	locs := reTplCondStart.FindAllStringIndex(t, -1)
	if len(locs) < 2 {
		return []string{t}
	}
	var out []string
	if locs[0][0] > 0 {
		out = append(out, t[:locs[0][0]])
	}
	for k, loc := range locs {
		end := len(t)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		out = append(out, strings.TrimSpace(t[loc[0]:end]))
	}
	return out
}
