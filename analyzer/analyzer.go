// Package analyzer turns the records parsed from a support bundle into findings: which
// namespaces are stuck in Terminating, why (each cause backed by evidence), when the
// errors started relative to the deletion, and what to do about it.
//
// Each cause is a Rule: a small named value with a doc string and a Run function, in the
// spirit of golang.org/x/tools/go/analysis. A rule looks at one stuck namespace through
// a Pass and returns the causes it can prove; it returns nothing when its evidence is
// absent. Adding a cause is adding one rule_*.go file and its test.
package analyzer

import (
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Rule explains one way a namespace gets stuck.
type Rule struct {
	Name string // the cause type it reports, e.g. "api-discovery-failure"
	Doc  string // what the cause is and how Kubernetes gets there
	// Run returns the causes found for pass.Namespace; when it finds none it may
	// return a RuledOut reason (empty string = not applicable, say nothing).
	Run func(pass *Pass) ([]Cause, string)
}

// Pass is what a rule sees: the index of the whole bundle and one stuck namespace.
type Pass struct {
	Index     *Index
	Namespace string
	Object    *objects.Object // the Namespace object; nil when the namespace is known only from logs
	Deletion  time.Time       // deletion timestamp (zero when unknown)
	Stuck     map[string]bool // every stuck namespace of the bundle
}

// Condition returns the namespace's condition of a type, or nil.
func (p *Pass) Condition(t string) *objects.Condition {
	if p.Object == nil {
		return nil
	}
	return p.Object.Condition(t)
}

// ConditionTrue returns the condition when its status is "True".
func (p *Pass) ConditionTrue(t string) *objects.Condition {
	if c := p.Condition(t); c != nil && c.Status == "True" {
		return c
	}
	return nil
}

// Rules is every rule, in reporting order.
var Rules = []*Rule{
	APIDiscoveryRule,
	AdmissionWebhookRule,
	ConversionWebhookRule,
	FinalizersRule,
	ContentRemainingRule,
	NamespaceFinalizerRule,
	ControllerNotRunningRule,
}

// Options tune the analysis.
type Options struct {
	// Namespaces limits the report to these namespaces (empty = all).
	Namespaces []string
}

// KeepObject tells the bundle loader which objects the rules may read; the rest are
// only counted, so memory follows what matters, not the size of the bundle.
func KeepObject(o *objects.Object) bool {
	switch o.Kind {
	case "Namespace", "APIService", "Service", "Endpoints", "EndpointSlice", "ValidatingWebhookConfiguration",
		"MutatingWebhookConfiguration", "CustomResourceDefinition", "Deployment", "StatefulSet", "DaemonSet",
		"Lease", "Node":
		return true
	case "Pod":
		return true
	case "Event":
		return o.Event != nil && (o.Event.Type == "Warning" || o.Event.Involved.Kind == "Namespace")
	}
	return len(o.Finalizers) > 0 || !o.DeletionTimestamp.IsZero()
}

// Analyze runs every rule over every stuck namespace.
func Analyze(rec *bundle.Records, opts Options) *Report {
	ix := NewIndex(rec)
	r := &Report{
		SchemaVersion: SchemaVersion,
		Bundle: BundleInfo{
			Path:             rec.Path,
			CapturedAt:       timePtr(ix.CapturedAt),
			CapturedAtSource: ix.CapturedAtSource,
			Objects:          rec.ObjectCount,
			ObjectFiles:      len(rec.ObjectFiles),
		},
		Namespaces: []NamespaceReport{},
		Risks:      []Risk{},
		Coverage:   []Gap{},
		Warnings:   rec.Warnings,
	}
	if r.Warnings == nil {
		r.Warnings = []diag.Warning{}
	}
	for _, f := range rec.LogFiles {
		r.Bundle.LogFiles = append(r.Bundle.LogFiles, LogFile{File: f.Path, Component: f.Component, Format: f.Format,
			Lines: f.Lines, Matched: f.Matched, First: timePtr(f.First), Last: timePtr(f.Last), YearInferred: f.YearInferred, YearBasis: f.YearBasis})
	}
	r.Bundle.KubernetesVersion = ix.KubernetesVersion
	r.Bundle.Layouts = append([]string{}, rec.Layouts...)
	stuck := findStuck(ix)
	stuckSet := map[string]bool{}
	for _, s := range stuck {
		stuckSet[s.name] = true
	}
	for _, s := range stuck {
		if len(opts.Namespaces) > 0 && !contains(opts.Namespaces, s.name) {
			continue
		}
		pass := &Pass{Index: ix, Namespace: s.name, Object: s.obj, Deletion: s.deletion, Stuck: stuckSet}
		r.Namespaces = append(r.Namespaces, analyzeNamespace(pass, s))
	}
	r.Risks = latentRisks(ix, r)
	r.Coverage = coverage(ix, r)
	return r
}

type stuckNamespace struct {
	name     string
	obj      *objects.Object
	deletion time.Time
	since    string
}

// findStuck lists the namespaces being deleted: a Namespace object with a deletion
// timestamp or phase Terminating, or (when the bundle has no Namespace object for it)
// a namespace the namespace controller keeps failing to delete according to its log.
func findStuck(ix *Index) []stuckNamespace {
	var out []stuckNamespace
	for name, o := range ix.Namespaces {
		if o.DeletionTimestamp.IsZero() && o.Phase != "Terminating" {
			continue
		}
		s := stuckNamespace{name: name, obj: o, deletion: o.DeletionTimestamp}
		if !s.deletion.IsZero() {
			s.since = "metadata.deletionTimestamp"
		} else {
			// no deletion timestamp in the dump: the earliest condition transition is an upper bound
			for _, c := range o.Conditions {
				if !c.LastTransitionTime.IsZero() && (s.deletion.IsZero() || c.LastTransitionTime.Before(s.deletion)) {
					s.deletion = c.LastTransitionTime
					s.since = "earliest status.conditions lastTransitionTime (no deletionTimestamp in the dump; deleted at or before this time)"
				}
			}
		}
		out = append(out, s)
	}
	for name, lines := range ix.NamespaceDeletionFailed {
		if _, ok := ix.Namespaces[name]; ok || ix.NamespaceListed {
			continue // the dump is authoritative: present and not deleting, or gone
		}
		last := lines[len(lines)-1]
		if del := ix.NamespaceDeleted[name]; len(del) > 0 && !del[len(del)-1].Time.Before(last.Time) {
			continue // finished after its last failure
		}
		first := lines[0]
		for _, e := range lines {
			if !e.Time.IsZero() && (first.Time.IsZero() || e.Time.Before(first.Time)) {
				first = e
			}
		}
		out = append(out, stuckNamespace{name: name, deletion: first.Time,
			since: "first namespace controller failure in the log (no Namespace object in the bundle; deleted at or before this time)"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func analyzeNamespace(p *Pass, s stuckNamespace) NamespaceReport {
	nr := NamespaceReport{Name: s.name, DeletionTimestamp: timePtr(s.deletion), StuckSince: s.since,
		SpecFinalizers: []string{}, MetadataFinalizers: []string{}, Conditions: []ConditionReport{},
		Causes: []Cause{}, RuledOut: []RuledOut{}, Remediation: []RemediationStep{}}
	if o := s.obj; o != nil {
		nr.Phase = o.Phase
		if o.SpecFinalizers != nil {
			nr.SpecFinalizers = o.SpecFinalizers
		}
		if o.Finalizers != nil {
			nr.MetadataFinalizers = o.Finalizers
		}
		src := Evidence{File: o.Source.File, Line: o.Source.Line, Object: o.Ref(), Text: "Namespace " + o.Name}
		nr.Source = &src
		for _, c := range o.Conditions {
			nr.Conditions = append(nr.Conditions, ConditionReport{Type: c.Type, Status: c.Status, Reason: c.Reason,
				Message: c.Message, LastTransitionTime: timePtr(c.LastTransitionTime), Problem: c.Status == "True",
				Meaning: kubemsg.ConditionMeaning(c.Type, c.Status)})
		}
	} else {
		nr.Phase = "Terminating (inferred from logs)"
	}
	if !s.deletion.IsZero() && !p.Index.CapturedAt.IsZero() && p.Index.CapturedAt.After(s.deletion) {
		d := p.Index.CapturedAt.Sub(s.deletion)
		nr.StuckFor = fmtDuration(d)
		nr.StuckSeconds = int64(d / time.Second)
	}
	for _, rule := range Rules {
		causes, ruledOut := rule.Run(p)
		nr.Causes = append(nr.Causes, causes...)
		if len(causes) == 0 && ruledOut != "" {
			nr.RuledOut = append(nr.RuledOut, RuledOut{Type: rule.Name, Reason: ruledOut})
		}
	}
	if len(nr.Causes) == 0 {
		nr.Causes = append(nr.Causes, undetermined(p, nr.RuledOut))
	}
	for i := range nr.Causes {
		for j := range nr.Causes[i].Chain {
			nr.Causes[i].Chain[j].span()
		}
	}
	nr.Verdict = verdict(nr)
	nr.Remediation = remediation(p, nr)
	nr.Timeline = timeline(p, &nr)
	return nr
}

func verdict(nr NamespaceReport) string {
	var parts []string
	for _, c := range nr.Causes {
		parts = append(parts, c.Summary)
	}
	v := strings.Join(parts, " Also: ")
	if len(nr.Causes) > 1 {
		v = "Several independent blockers; all must be fixed. " + v
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
