package analyzer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// maxTimelineErrors caps the error lines of one namespace's timeline; beyond it the
// lines of each component are thinned evenly, keeping the first and the last.
const maxTimelineErrors = 400

// timeline collects the timed facts about a stuck namespace from what the report and
// the index already hold: its deletion, the transitions of its conditions and of the
// conditions quoted as evidence, every log line that supports one of its causes (not
// only the sampled evidence) and the Kubernetes events about it. Oldest first.
func timeline(p *Pass, nr *findings.NamespaceReport) []findings.TimelineEvent {
	out := []findings.TimelineEvent{}
	type eventKey struct {
		kind, file string
		line       int
		what       string // the text, or the component for a line of a file
	}
	seen := map[eventKey]bool{}
	// the same event read twice (a log kept in two files, an Event in events.json and
	// in a describe) is one row: what a row shows is its time, component, kind and text
	type shownKey struct {
		time                  int64
		component, kind, text string
	}
	shown := map[shownKey]bool{}
	add := func(ev findings.TimelineEvent) {
		if ev.Time.IsZero() {
			return
		}
		key := eventKey{ev.Kind, ev.File, ev.Line, ev.Text}
		if ev.File != "" && ev.Line > 0 && ev.Kind != findings.EventDeletion {
			key.what = ev.Component
		}
		sk := shownKey{ev.Time.UnixNano(), ev.Component, ev.Kind, ev.Text}
		if seen[key] || shown[sk] {
			return
		}
		seen[key], shown[sk] = true, true
		ev.Time = ev.Time.UTC()
		out = append(out, ev)
	}
	addEntry := func(e *logs.Entry, cause string, idx int) {
		comp := e.Component
		if comp == "" {
			comp = "log " + e.File
		}
		add(findings.TimelineEvent{Time: e.Time, TimeInferred: e.YearInferred, Component: comp, Kind: findings.EventError,
			Text: findings.Clip(entryText(e), 300), Cause: cause, File: e.File, Line: e.Line, CauseIndex: idx})
	}

	if nr.DeletionTimestamp != nil {
		ev := findings.TimelineEvent{Time: *nr.DeletionTimestamp, Component: "Namespace/" + nr.Name, Kind: findings.EventDeletion,
			Text: "namespace " + nr.Name + " deleted"}
		if nr.DeletionInferred {
			ev.Text += " (" + nr.StuckSince + ")"
		}
		if nr.Source != nil {
			ev.File = nr.Source.File
			if p.Object != nil {
				ev.Line = p.Object.Source.LineOf("metadata.deletionTimestamp")
			}
		}
		add(ev)
	}
	for _, c := range nr.Conditions {
		if c.LastTransitionTime == nil {
			continue
		}
		ev := findings.TimelineEvent{Time: *c.LastTransitionTime, Component: "Namespace/" + nr.Name, Kind: findings.EventCondition,
			Text: conditionText(c.Type, c.Status, c.Reason)}
		if p.Object != nil {
			ev.File = p.Object.Source.File
			if oc := p.Object.Condition(c.Type); oc != nil && oc.Line > 0 {
				ev.Line = oc.Line
			} else {
				ev.Line = p.Object.Source.Line
			}
		}
		add(ev)
	}

	for i, c := range nr.Causes {
		// every occurrence the rule related to the cause, not only the sampled evidence
		// (first, so lines carry their message)
		for _, e := range c.Related {
			addEntry(e, c.Type, i+1)
		}
	}
	for i, c := range nr.Causes {
		var evs []findings.Evidence
		for _, l := range c.Chain {
			evs = append(evs, l.Evidence...)
		}
		evs = append(evs, c.Evidence...)
		for _, e := range evs {
			if e.Time == nil {
				continue
			}
			switch {
			case strings.HasPrefix(e.Field, "status.conditions"):
				if e.Object == "Namespace/"+nr.Name {
					continue // already above
				}
				add(findings.TimelineEvent{Time: *e.Time, Component: e.Object, Kind: findings.EventCondition, Text: findings.Clip(e.Text, 300),
					Cause: c.Type, File: e.File, Line: e.Line, CauseIndex: i + 1})
			case strings.HasPrefix(e.Object, "Event/"):
				add(findings.TimelineEvent{Time: *e.Time, Component: findings.OrDefault(e.Component, e.Object), Kind: findings.EventEvent,
					Text: findings.Clip(e.Text, 300), Cause: c.Type, File: e.File, Line: e.Line, CauseIndex: i + 1})
			case e.Object == "":
				comp := e.Component
				if comp == "" {
					comp = "log " + e.File
				}
				add(findings.TimelineEvent{Time: *e.Time, TimeInferred: e.TimeInferred, Component: comp, Kind: findings.EventError,
					Text: findings.Clip(e.Text, 300), Cause: c.Type, File: e.File, Line: e.Line, CauseIndex: i + 1})
			}
		}
		if len(c.Groups) > 0 && len(c.Groups) < len(c.Objects) {
			// objects grouped: one event per group, at its oldest deletion (each
			// object's time is in causes[].objects[])
			for _, g := range c.Groups {
				if g.OldestDeletion == nil {
					continue
				}
				ev := findings.TimelineEvent{Time: *g.OldestDeletion, Component: g.Kind + "/" + g.Namespace, Kind: findings.EventDeletion, Cause: c.Type, CauseIndex: i + 1,
					Text: g.Describe() + " " + g.Deletions()}
				if len(g.Finalizers) > 0 {
					ev.Text += ", waiting for finalizers " + strings.Join(g.Finalizers, ", ")
				}
				ev.Text += "; e.g. " + strings.Join(g.Examples, ", ")
				if o := c.Objects[g.First]; o.Source != nil {
					ev.File, ev.Line = o.Source.File, o.Source.Line
				}
				add(ev)
			}
			continue
		}
		for _, o := range c.Objects {
			if o.Deletion == nil {
				continue
			}
			ref := o.Kind + "/" + o.Name
			if o.Namespace != "" {
				ref = o.Kind + "/" + o.Namespace + "/" + o.Name
			}
			ev := findings.TimelineEvent{Time: *o.Deletion, Component: ref, Kind: findings.EventDeletion, Text: ref + " deleted", Cause: c.Type, CauseIndex: i + 1}
			if len(o.Finalizers) > 0 {
				ev.Text += ", waiting for finalizers " + strings.Join(o.Finalizers, ", ")
			}
			if o.Source != nil {
				ev.File, ev.Line = o.Source.File, o.Source.Line
			}
			add(ev)
		}
	}
	// the namespace controller's failures for this namespace that no cause claimed
	for _, e := range p.Index.NamespaceDeletionFailed[nr.Name] {
		cause, idx := "", 0
		if len(nr.Causes) == 1 {
			cause, idx = nr.Causes[0].Type, 1
		}
		addEntry(e, cause, idx)
	}
	// kube-controller-manager (re)starts: the namespace controller begins a new pass
	for _, e := range p.Index.ControllerStarts {
		add(findings.TimelineEvent{Time: e.Time, TimeInferred: e.YearInferred, Component: e.Component,
			Kind: findings.EventEvent, Text: findings.Clip(strings.TrimSpace(e.Detail()), 300), File: e.File, Line: e.Line})
	}
	for _, e := range p.Index.NamespaceDeleted[nr.Name] {
		add(findings.TimelineEvent{Time: e.Time, TimeInferred: e.YearInferred, Component: findings.OrDefault(e.Component, "log "+e.File),
			Kind: findings.EventEvent, Text: findings.Clip(strings.TrimSpace(e.Detail()), 300), File: e.File, Line: e.Line})
	}
	for _, o := range p.Index.ByKind["Event"] {
		ei := o.Event
		if ei == nil {
			continue
		}
		about := o.Namespace == nr.Name || (ei.Involved.Kind == "Namespace" && ei.Involved.Name == nr.Name)
		if !about {
			continue
		}
		t := ei.Last
		if t.IsZero() {
			t = ei.First
		}
		text := strings.TrimSpace(ei.Type + " " + ei.Reason + ": " + ei.Message)
		if ei.Count > 1 {
			text += fmt.Sprintf(" (x%d)", ei.Count)
		}
		add(findings.TimelineEvent{Time: t, Component: findings.OrDefault(ei.Component, "events"), Kind: findings.EventEvent, Text: findings.Clip(text, 300),
			File: o.Source.File, Line: o.Source.Line})
	}

	sort.SliceStable(out, func(i, j int) bool {
		sortOps.Inc()
		a, b := out[i], out[j]
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		if a.Kind != b.Kind {
			return kindOrder(a.Kind) < kindOrder(b.Kind)
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	for i := range out {
		out[i].Own = out[i].Component == "Namespace/"+nr.Name || mentions(out[i].Text, nr.Name)
	}
	return thinErrors(out, maxTimelineErrors)
}

// mentions tells whether text names name as a whole word: not inside a longer name
// (no letter, digit, "." or "-" before it, no letter, digit or "-" after it; a name
// may end a sentence with a dot). A scan, no regexp per name.
func mentions(text, name string) bool {
	if name == "" {
		return false
	}
	before := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' }
	after := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' }
	for from := 0; ; {
		k := strings.Index(text[from:], name)
		if k < 0 {
			return false
		}
		k += from
		end := k + len(name)
		if (k == 0 || !before(text[k-1])) && (end == len(text) || !after(text[end])) {
			return true
		}
		from = k + 1
	}
}

// entryText is a log line's message with its structured fields (but the logger's name),
// so a line like `"changing APIService availability" name=... newStatus=...` keeps its facts.
func entryText(e *logs.Entry) string {
	d := strings.TrimSpace(e.Detail())
	if e.Fields["err"] != "" || len(e.Fields) == 0 {
		return d
	}
	var keys []string
	for k := range e.Fields {
		if k != "logger" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		d += " " + k + "=" + e.Fields[k]
	}
	return d
}

func conditionText(typ, status, reason string) string {
	s := typ + "=" + status
	if reason != "" {
		s += " (" + reason + ")"
	}
	return s
}

func kindOrder(k string) int {
	switch k {
	case findings.EventDeletion:
		return 0
	case findings.EventCondition:
		return 1
	case findings.EventEvent:
		return 2
	}
	return 3
}

// thinErrors keeps at most max error events, spread evenly over each component's
// lines (the first and last of each component always kept).
func thinErrors(evs []findings.TimelineEvent, max int) []findings.TimelineEvent {
	var n int
	per := map[string][]int{}
	var comps []string
	for i, e := range evs {
		if e.Kind != findings.EventError {
			continue
		}
		n++
		if _, ok := per[e.Component]; !ok {
			comps = append(comps, e.Component)
		}
		per[e.Component] = append(per[e.Component], i)
	}
	if n <= max {
		return evs
	}
	keep := map[int]bool{}
	for _, c := range comps {
		idx := per[c]
		quota := max * len(idx) / n
		if quota < 2 {
			quota = 2
		}
		if quota >= len(idx) {
			for _, i := range idx {
				keep[i] = true
			}
			continue
		}
		for k := 0; k < quota; k++ {
			keep[idx[k*(len(idx)-1)/(quota-1)]] = true
		}
	}
	out := make([]findings.TimelineEvent, 0, len(keep))
	for i, e := range evs {
		if e.Kind != findings.EventError || keep[i] {
			out = append(out, e)
		}
	}
	return out
}
