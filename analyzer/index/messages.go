package index

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// RenderingMessage is the Source.Rendering of a Namespace the analyzer knows from
// namespace condition messages alone (text.Message): the namespace deleter writes them
// only while it deletes the namespace, so the message shows the deletion.
const RenderingMessage = "message"

// addMessages gives each namespace condition message found in text (rec.Messages) to
// its namespace: the one its context names, or, when nothing names one, the only
// namespace the bundle shows being deleted. The namespace's copy gains the condition
// (unless it has a condition of that type with a message already) and shows its
// deletion; a namespace the bundle has no object for is created from the message.
// A message that has no namespace stays a log entry of its file (rules read it as a
// cluster-wide line: a discovery failure is a latent risk).
func (ix *Index) addMessages(ms []text.Message) {
	var orphans []text.Message
	for _, m := range ms {
		if m.CondType == "" {
			ix.giveAPIService(m)
			continue
		}
		if m.Context == "" {
			orphans = append(orphans, m)
			continue
		}
		ix.giveCondition(m.Context, m)
	}
	if len(orphans) == 0 {
		return
	}
	only := ""
	for name, o := range ix.Namespaces {
		if o.Deleting() || o.Phase == "Terminating" {
			if only != "" {
				ix.unattributed = orphans // several: the message cannot be attributed
				return
			}
			only = name
		}
	}
	if only == "" {
		ix.unattributed = orphans
		return
	}
	for _, m := range orphans {
		ix.giveCondition(only, m)
	}
}

func (ix *Index) giveCondition(ns string, m text.Message) {
	c := objects.Condition{Type: m.CondType, Status: m.CondStatus, Message: m.Text, Line: m.Line}
	old := ix.Namespaces[ns]
	if old == nil {
		old = ix.promoteNamespace(ns) // a slim namespace gets a condition: it is whole from now on
	}
	if old == nil {
		o := &objects.Object{APIVersion: "v1", Kind: "Namespace", Name: ns, Phase: "Terminating", DeletionShown: true,
			Source: objects.Source{File: m.File, Line: m.Line, Rendering: RenderingMessage}, Conditions: []objects.Condition{c}}
		ix.Namespaces[ns] = o
		ix.ByKind["Namespace"] = append(ix.ByKind["Namespace"], o)
		return
	}
	if cur := old.Condition(m.CondType); cur != nil && cur.Message != "" {
		if !lostWords(cur.Message, m.Text) || !whole(m.CondType, m.Text) {
			return
		}
		// the reader kept a piece of the message the scan read whole (a wrapped
		// line's rest, a space lost at the wrap): the condition is the object's, its
		// message the scan's
		c.Status, c.Line = cur.Status, cur.Line
		if c.Status == "" {
			c.Status = m.CondStatus
		}
	}
	o := *old
	o.Conditions = append([]objects.Condition{c}, old.Conditions...)
	for i := 1; i < len(o.Conditions); i++ {
		if o.Conditions[i].Type == m.CondType {
			o.Conditions = append(o.Conditions[:i], o.Conditions[i+1:]...)
			break
		}
	}
	if !o.Deleting() && m.Deleting {
		o.DeletionShown = true
	}
	if o.Phase == "" || o.Phase == "Active" && m.Deleting {
		o.Phase = "Terminating"
	}
	ix.Namespaces[ns] = &o
	for i, p := range ix.ByKind["Namespace"] {
		if p == old {
			ix.ByKind["Namespace"][i] = &o
		}
	}
}

// lostWords reports whether a condition's message as a structured reader read it is a
// damaged copy of the scan's message: the same characters (whitespace aside) up to
// where the copy ends, without the scan's words (text.SameWords).
func lostWords(copied, scanned string) bool {
	c, s := squeeze(copied), squeeze(scanned)
	return len(c) > 0 && strings.HasPrefix(s, c) && (len(c) < len(s) || !text.SameWords(copied, scanned))
}

func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// whole reports whether a scanned condition message ends as the namespace deleter ends
// it: its lists of remaining resources and finalizers end with "resource instances"
// (a paste cut inside the list, followed by other text, is not the message's rest).
func whole(condType, msg string) bool {
	switch condType {
	case "NamespaceContentRemaining", "NamespaceFinalizersRemaining":
		return strings.HasSuffix(strings.TrimSpace(msg), "resource instances")
	}
	return true
}

// Unattributed are the namespace deleter's condition messages the bundle gives no
// namespace (no object, command, row or log key around them, and not exactly one
// namespace shown being deleted): each proves that some namespace is being deleted and
// what holds it, without saying which namespace.
func (ix *Index) Unattributed() []text.Message { return ix.unattributed }

// giveAPIService reads kube-aggregator's availability check failure ("failing or missing
// response from https://ADDR/apis/GROUP/VERSION: ...", the Available condition's
// message under reason FailedDiscoveryCheck) found in text without its object as the
// condition of APIService VERSION.GROUP, which the URL names: an APIService the bundle
// has no object for is created from the message (Rendering RenderingMessage, citing
// the message's file:line), so a stuck namespace's discovery failure and the latent
// risk read it as they read the object. An APIService object in the bundle speaks for
// itself (its own Available condition wins); one without an Available condition (a
// describe cut before it) gains the message's.
func (ix *Index) giveAPIService(m text.Message) {
	if !strings.HasPrefix(m.Form, "avail-failing-response") {
		return
	}
	name, ok := kubemsg.ParseAvailabilityCheck(m.Text)
	if !ok {
		return
	}
	c := objects.Condition{Type: "Available", Status: "False", Reason: "FailedDiscoveryCheck", Message: m.Text, Line: m.Line}
	if old := ix.APIServices[name]; old != nil {
		if old.Condition("Available") != nil {
			return
		}
		o := *old
		o.Conditions = append([]objects.Condition{c}, old.Conditions...)
		ix.APIServices[name] = &o
		for i, p := range ix.ByKind["APIService"] {
			if p == old {
				ix.ByKind["APIService"][i] = &o
			}
		}
		return
	}
	gv := kubemsg.GroupVersionOfAPIService(name)
	group, version, _ := strings.Cut(gv, "/")
	o := &objects.Object{APIVersion: "apiregistration.k8s.io/v1", Kind: "APIService", Name: name,
		APIService: &objects.APIServiceInfo{Group: group, Version: version},
		Source:     objects.Source{File: m.File, Line: m.Line, Rendering: RenderingMessage}, Conditions: []objects.Condition{c}}
	ix.APIServices[name] = o
	ix.ByKind["APIService"] = append(ix.ByKind["APIService"], o)
}
