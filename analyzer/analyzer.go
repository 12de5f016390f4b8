// Package analyzer turns the records parsed from a support bundle into findings: which
// namespaces are stuck in Terminating, why (each cause backed by evidence, its chain
// followed to the deepest proven link), when the errors started relative to the
// deletion, and what to do about it.
//
// Each cause is a Rule (rule.go): one value that declares the log phrases and object
// kinds it reads, what it collects in the single pass over the log lines, what it finds
// for a stuck namespace (Run), which other causes it explains, its remediation ladder,
// latent risks and an example, in the spirit of golang.org/x/tools/go/analysis. The
// rules live one package each under analyzer/rules/, registered in analyzer/rules.All;
// this package knows no cause type but "undetermined". Adding a cause is adding one
// directory under analyzer/rules/ (with testdata/ run by ruletest) and one registry line;
// the order the rules run in is derived from what they declare they claim, yield to and
// require (order.go).
//
// This package is the rule API (Rule, Pass, the claims, the plan) and the driver
// (Analyze: the stuck namespaces, the rules run over each, problems grouped, ladders
// assembled, the timeline, latent risks, coverage and the next step). What it reads and
// writes has packages of its own: analyzer/index (the records, indexed once),
// analyzer/mechanism (what several causes share: the backend walk, finalizer owners,
// deadlocks, cloud refusals) and analyzer/findings (the report model, which the
// renderers read).
package analyzer

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// Options tune the analysis.
type Options struct {
	// Rules are the rules to run, in reporting order (analyzer/rules.All); the order
	// they run in is derived from their declarations (NewPlan).
	Rules []*Rule
	// Plan is the order the rules run in (nil: NewPlan(Rules)).
	Plan *Plan
	// Namespaces limits the report to these namespaces (empty = all).
	Namespaces []string
}

// Analyze runs every rule over every stuck namespace.
func Analyze(rec *bundle.Records, opts Options) *findings.Report {
	ix := index.New(rec, Collectors(opts.Rules))
	r := &findings.Report{
		SchemaVersion: findings.SchemaVersion,
		Bundle: findings.BundleInfo{
			Path:             rec.Path,
			CapturedAt:       findings.TimePtr(ix.CapturedAt),
			CapturedAtSource: ix.CapturedAtSource,
			Objects:          rec.ObjectCount,
			ObjectFiles:      len(rec.ObjectFiles),
		},
		Namespaces: []findings.NamespaceReport{},
		Risks:      []findings.Risk{},
		Coverage:   []findings.Gap{},
		Warnings:   append(append([]diag.Warning{}, rec.Warnings...), ix.Warnings()...),
	}
	if r.Warnings == nil {
		r.Warnings = []diag.Warning{}
	}
	for _, f := range rec.LogFiles {
		r.Bundle.LogFiles = append(r.Bundle.LogFiles, findings.LogFile{File: f.Path, Component: f.Component, Format: f.Format,
			Lines: f.Lines, Matched: f.Matched, First: findings.TimePtr(f.First), Last: findings.TimePtr(f.Last), YearInferred: f.YearInferred, YearBasis: f.YearBasis})
	}
	r.Bundle.KubernetesVersion, r.Bundle.KubernetesVersionSource = ix.KubernetesVersion, ix.KubernetesVersionSource
	r.Bundle.KubernetesVersionKubelet = ix.KubernetesVersionKubelet
	r.Bundle.CapturedAtRecorded = ix.CaptureRecorded
	r.Bundle.Layouts = append([]string{}, rec.Layouts...)
	plan := opts.Plan
	if plan == nil {
		var err error
		if plan, err = NewPlan(opts.Rules); err != nil {
			// the registry is validated when the program starts (rules.All): a programming error
			panic("nsanalyze rules: " + err.Error())
		}
	}
	if !slices.Equal(plan.rules, opts.Rules) {
		panic("nsanalyze rules: Options.Plan is not the plan of Options.Rules")
	}
	warn := &warnings{}
	stuck := findStuck(ix)
	stuckSet := map[string]bool{}
	for _, s := range stuck {
		stuckSet[s.name] = true
	}
	for _, s := range stuck {
		if len(opts.Namespaces) > 0 && !findings.Contains(opts.Namespaces, s.name) {
			continue
		}
		pass := &Pass{Scope: mechanism.Scope{Index: ix, Namespace: s.name, Stuck: stuckSet}, Object: s.obj, Deletion: s.deletion, warn: warn}
		r.Namespaces = append(r.Namespaces, analyzeNamespace(pass, s, opts.Rules, plan))
	}
	r.Warnings = append(r.Warnings, warn.premise...)
	r.Warnings = append(r.Warnings, warn.rule...)
	splitDeleting(ix, r)
	groupProblems(r)
	r.Risks = latentRisks(ix, r, opts.Rules)
	r.Coverage = coverage(ix, r)
	namespaceState(ix, r, opts.Namespaces)
	deletingState(r)
	summarize(r)
	r.Bundle.Platform = ix.Platform()
	r.NextStep = nextStep(ix, r)
	forClient(r, r.Bundle.Platform)
	leads(r)
	return r
}

// leads sets the first sentence of every rung of the problems' and namespaces' ladders
// (RemediationStep.Lead), so that no renderer cuts Why itself.
func leads(r *findings.Report) {
	set := func(s []findings.RemediationStep) {
		for i := range s {
			s[i].Lead = firstSentence(s[i].Why)
		}
	}
	for i := range r.Problems {
		set(r.Problems[i].Remediation)
	}
	for i := range r.Namespaces {
		set(r.Namespaces[i].Remediation)
	}
}

// firstSentence is the first sentence of a rung's explanation: up to the first full
// stop followed by a space, past its 20th byte and outside parentheses.
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && i > 20 && strings.Count(s[:i], "(") == strings.Count(s[:i], ")") {
			return s[:i+1]
		}
	}
	return s
}

// namespaceState decides whether the bundle can say "no namespace is stuck": only when
// it holds a listing of every namespace (a namespace List or table) or Namespace objects
// covering the namespaces asked for. A bundle of some namespaces' files (a must-gather,
// an oc adm inspect, a few dumps) says which ones it covers and that the others were
// not collected: the state is then unknown unless one is stuck. Otherwise the state is
// unknown too, with why and the command that would show it.
func namespaceState(ix *index.Index, r *findings.Report, asked []string) {
	collect := "kubectl get namespaces -o json"
	partial := ix.NamespaceCount() > 0 && !ix.NamespaceListed && len(asked) == 0
	if partial {
		r.Coverage = append(r.Coverage, findings.Gap{Kind: findings.GapNamespaceListing, Missing: "a listing of all namespaces: " + coveredOnly(ix, 8, true) + ", the others were not collected", Collect: collect})
	}
	if len(r.Namespaces) > 0 {
		r.State = findings.StateStuck
		var missing []string
		for _, n := range asked {
			if !slices.ContainsFunc(r.Namespaces, func(nr findings.NamespaceReport) bool { return nr.Name == n }) {
				if !ix.NamespaceExists(n) {
					missing = append(missing, n)
				}
			}
		}
		if len(missing) > 0 {
			r.StateReason = fmt.Sprintf("namespace %s is not in the bundle", strings.Join(missing, ", "))
			r.NotInBundle = missing
		}
		return
	}
	switch {
	case len(asked) > 0:
		var missing []string
		for _, n := range asked {
			if !ix.NamespaceExists(n) {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			r.NotInBundle = missing
			r.State = findings.StateUnknown
			r.StateReason = fmt.Sprintf("namespace %s is not in the bundle (neither a Namespace object nor a log line of the namespace controller names it)", strings.Join(missing, ", "))
			r.Coverage = append(r.Coverage, findings.Gap{Kind: findings.GapNamespace, Object: strings.Join(missing, ", "), Missing: "namespace " + strings.Join(missing, ", "), Collect: shellsafe.Cmd(append([]string{"kubectl", "get", "namespace"}, missing...)...) + " -o json"})
			return
		}
		if unknown := stateless(ix, asked); len(unknown) > 0 {
			statelessState(r, unknown, collect)
			return
		}
		r.State = findings.StateNoneStuck
		if len(r.Deleting) == 0 {
			r.StateReason = fmt.Sprintf("namespace %s is in the bundle and not being deleted", strings.Join(asked, ", "))
		}
	case ix.NamespaceCount() == 0:
		r.State = findings.StateUnknown
		what := "the bundle holds no Namespace object and no namespace table"
		if slices.ContainsFunc(ix.Records.Layouts, func(l string) bool { return strings.HasPrefix(l, "cluster-info-dump") }) {
			what += " (a kubectl cluster-info dump holds none)"
		}
		r.StateSeen = what + ", and no namespace controller log line names a namespace being deleted"
		r.StateReason = r.StateSeen + "; collect: " + collect
		r.Inline = append(r.Inline, collect)
	case partial:
		r.State = findings.StateUnknown
		r.StateReason = fmt.Sprintf("%s, none of them stuck; the others were not collected (collect: %s)", coveredOnly(ix, 3, false), collect)
		r.Inline = append(r.Inline, collect)
	default:
		// (a slim namespace is Active: never stateless)
		if unknown := stateless(ix, findings.SortedKeys(ix.Namespaces)); len(unknown) > 0 {
			statelessState(r, unknown, collect)
			return
		}
		r.State = findings.StateNoneStuck
		if len(r.Deleting) == 0 {
			r.StateReason = fmt.Sprintf("none of the %d namespaces in the bundle is being deleted", ix.NamespaceCount())
		} else {
			r.StateReason = fmt.Sprintf("the bundle lists all %d namespaces", ix.NamespaceCount())
		}
	}
}

// stateless lists the Namespace objects among names that say nothing of their state
// (Stateless): a names-only listing shows that they exist, not that they are not being
// deleted.
func stateless(ix *index.Index, names []string) []*objects.Object {
	var out []*objects.Object
	for _, n := range names {
		if o := ix.Namespaces[n]; o != nil && Stateless(o) {
			out = append(out, o)
		}
	}
	return out
}

// statelessState: nothing stuck, but some namespaces are known by name only.
func statelessState(r *findings.Report, unknown []*objects.Object, collect string) {
	names := make([]string, len(unknown))
	for i, o := range unknown {
		names[i] = o.Name
	}
	o := unknown[0]
	r.State = findings.StateUnknown
	r.StateSeen = fmt.Sprintf("%s %s in the bundle by name only, without a state (first %s:%d: no status.phase, no deletionTimestamp), so whether %s being deleted is not shown",
		findings.Plural(len(names), "namespaces", "namespace"), strings.Join(findings.FirstN(names, 8), ", "), o.Source.File, o.Source.Line, findings.Plural(len(names), "they are", "it is"))
	r.StateReason = r.StateSeen + "; collect: " + collect
	r.Inline = append(r.Inline, collect)
	r.Coverage = append(r.Coverage, findings.Gap{Kind: findings.GapNamespaceState, Missing: "the state of " + findings.Plural(len(names), "namespaces", "namespace") + " " + strings.Join(findings.FirstN(names, 8), ", ") + " (listed by name only)", Collect: collect})
}

// coveredOnly says which namespaces a bundle without a listing of all namespaces covers
// (the first n of them), and with explain what kind of bundle gathers only some.
func coveredOnly(ix *index.Index, n int, explain bool) string {
	names := ix.NamespaceNames()
	what, why := "the bundle", ""
	for _, l := range ix.Records.Layouts {
		switch l {
		case bundle.LayoutMustGather:
			what, why = "this must-gather", " (it gathers the openshift-* namespaces and those named with oc adm inspect)"
		case bundle.LayoutInspect:
			what, why = "this oc adm inspect", " (it holds only the namespaces named on its command line)"
		case bundle.LayoutInsights:
			what, why = "this Insights Operator archive", " (it holds what its gatherers chose, not every namespace)"
		}
	}
	if explain {
		what += why
	}
	return fmt.Sprintf("%s covers only %d %s (%s)", what, len(names), findings.Plural(len(names), "namespaces", "namespace"), strings.Join(findings.FirstN(names, n), ", "))
}

type stuckNamespace struct {
	name     string
	obj      *objects.Object
	deletion time.Time
	since    string
	// stamped: deletion is the object's metadata.deletionTimestamp (not inferred).
	stamped bool
}

// findStuck lists the namespaces being deleted: a Namespace object with a deletion
// timestamp or phase Terminating, or (when the bundle has no Namespace object for it)
// a namespace the namespace controller keeps failing to delete according to its log.
func findStuck(ix *index.Index) []stuckNamespace {
	var out []stuckNamespace
	// the slim namespaces are Active, read from dumps: never deleting, and no line
	// shows them deleting despite that (deletingDespite)
	for name, o := range ix.Namespaces {
		if o.DeletionTimestamp.IsZero() && o.Phase != "Terminating" {
			if s, ok := deletingDespite(ix, name, o); ok {
				out = append(out, s)
			}
			continue
		}
		if goneInLaterList(ix, o) {
			continue // a later listing of every namespace in the same file no longer has it
		}
		s := stuckNamespace{name: name, obj: o, deletion: o.DeletionTimestamp}
		if !s.deletion.IsZero() {
			s.since, s.stamped = "metadata.deletionTimestamp", true
		} else {
			// no deletion timestamp in the dump: the earliest condition transition is an upper bound
			for _, c := range o.Conditions {
				if !c.LastTransitionTime.IsZero() && (s.deletion.IsZero() || c.LastTransitionTime.Before(s.deletion)) {
					s.deletion = c.LastTransitionTime
					s.since = "earliest status.conditions lastTransitionTime (no deletionTimestamp in the dump; deleted at or before this time)"
				}
			}
		}
		if s.deletion.IsZero() {
			// a rendering without times (a table row, describe): the namespace
			// controller's first failure bounds the deletion from above
			if e := firstTimed(ix.NamespaceDeletionFailed[name]); e != nil {
				s.deletion = e.Time
				s.since = fmt.Sprintf("first namespace controller failure in the log (%s:%d; no deletion time in the bundle's %s; deleted at or before this time)",
					e.File, e.Line, o.Source.File)
			}
		}
		if o.Ages != nil && o.Ages.Age > 0 && !s.stamped {
			// a table row's AGE counts from the namespace's creation, not its deletion: it
			// says how long it existed, and bounds how long it can have been Terminating
			if s.since == "" {
				s.since = fmt.Sprintf("deletion time not in the bundle; the namespace was %s old when %s:%d was printed, so it has been Terminating for at most %s",
					objects.FmtAge(o.Ages.Age), o.Ages.File, o.Ages.Line, objects.FmtAge(o.Ages.Age))
			} else {
				s.since += fmt.Sprintf("; the namespace was at least %s old when %s:%d was printed (AGE counts from its creation: it existed that long)",
					objects.FmtAge(o.Ages.Age), o.Ages.File, o.Ages.Line)
			}
		}
		out = append(out, s)
	}
	for name, lines := range ix.NamespaceDeletionFailed {
		if ix.NamespaceExists(name) || ix.NamespaceListed {
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
	for name, lines := range ix.NamespaceTerminating {
		if ix.NamespaceExists(name) || ix.NamespaceListed || len(ix.NamespaceDeletionFailed[name]) > 0 {
			continue
		}
		first := lines[0]
		out = append(out, stuckNamespace{name: name, deletion: first.Time,
			since: "the API server refused an operation because the namespace is being deleted (no Namespace object in the bundle; deleted at or before this time, when the line has one)"})
	}
	for name, lines := range ix.NamespaceDeleteWaits {
		if ix.NamespaceExists(name) || ix.NamespaceListed || len(ix.NamespaceDeletionFailed[name]) > 0 || len(ix.NamespaceTerminating[name]) > 0 {
			continue
		}
		out = append(out, stuckNamespace{name: name, deletion: lines[0].Time,
			since: "a client that deleted the namespace was still waiting for it to be gone (Terraform's kubernetes provider waits while the namespace is Terminating; no Namespace object in the bundle)"})
	}
	for name, lines := range ix.NamespaceControllerDeletes {
		if ix.NamespaceExists(name) || ix.NamespaceListed || len(ix.NamespaceDeletionFailed[name]) > 0 || len(ix.NamespaceTerminating[name]) > 0 || len(ix.NamespaceDeleteWaits[name]) > 0 {
			continue
		}
		if del := ix.NamespaceDeleted[name]; len(del) > 0 && !del[len(del)-1].Time.Before(lines[len(lines)-1].Time) {
			continue // finished after its last delete call
		}
		out = append(out, stuckNamespace{name: name, deletion: lines[0].Time,
			since: "the namespace controller deletes its content (kube-apiserver request log; no Namespace object in the bundle; deleted at or before this time, when the line has one)"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// firstTimed returns the earliest of lines that has a time, nil when none has.
func firstTimed(lines []*logs.Entry) *logs.Entry {
	var first *logs.Entry
	for _, e := range lines {
		if !e.Time.IsZero() && (first == nil || e.Time.Before(first.Time)) {
			first = e
		}
	}
	return first
}

// Stateless reports whether a Namespace object says nothing of its state: no
// status.phase, no deletion timestamp, no condition. A `kubectl get ns -o name` line, a
// manifest (operator.yaml's `kind: Namespace`) or an object cut before its status is
// one; the API server always writes status.phase (Active or Terminating), so a
// namespace read from the cluster says its state.
func Stateless(o *objects.Object) bool {
	return o.Phase == "" && o.DeletionTimestamp.IsZero() && len(o.Conditions) == 0
}

// deletingDespite finds the namespace a Namespace object shows as present (not being
// deleted, or without any state) to be deleting after all, from the log evidence the
// other loops of findStuck read only for namespaces without an object: any such line
// when the object says nothing of its state, and a line later in the same text file
// than the object's row or block (printed after it: newer) otherwise.
func deletingDespite(ix *index.Index, name string, o *objects.Object) (stuckNamespace, bool) {
	stateless := Stateless(o)
	later := func(lines []*logs.Entry) *logs.Entry {
		for _, e := range lines {
			if stateless || o.Source.Rendering != "" && e.File == o.Source.File && e.Line > o.Source.Line {
				return e
			}
		}
		return nil
	}
	what := fmt.Sprintf("the Namespace at %s:%d says nothing of its state", o.Source.File, o.Source.Line)
	if !stateless {
		what = fmt.Sprintf("printed after the Namespace at %s:%d, which showed it %s", o.Source.File, o.Source.Line, orUnknown(o.Phase))
	}
	for _, ev := range []struct {
		lines []*logs.Entry
		says  string
	}{
		{ix.NamespaceDeletionFailed[name], "namespace controller failure"},
		{ix.NamespaceTerminating[name], "refusal of the API server because the namespace is being deleted"},
		{ix.NamespaceDeleteWaits[name], "wait of a client for the namespace it deleted to be gone"},
		{ix.NamespaceControllerDeletes[name], "delete call of the namespace controller"},
	} {
		e := later(ev.lines)
		if e == nil {
			continue
		}
		if del := ix.NamespaceDeleted[name]; len(del) > 0 && !e.Time.IsZero() && !del[len(del)-1].Time.Before(ev.lines[len(ev.lines)-1].Time) {
			return stuckNamespace{}, false // finished after its last failure
		}
		return stuckNamespace{name: name, deletion: e.Time,
			since: fmt.Sprintf("%s at %s:%d (%s; deleted at or before this time, when the line has one)", ev.says, e.File, e.Line, what)}, true
	}
	return stuckNamespace{}, false
}

func orUnknown(s string) string {
	if s == "" {
		return "without a phase"
	}
	return s
}

// goneInLaterList reports whether a Namespace read from a text table is absent from a
// later listing of every namespace in the same file (it finished in between).
func goneInLaterList(ix *index.Index, o *objects.Object) bool {
	if o.Source.Rendering == "" {
		return false
	}
	for _, l := range ix.Records.NamespaceLists {
		if l.File != o.Source.File || l.Line <= o.Source.Line || l.Rendering == "" {
			continue
		}
		for _, x := range ix.Records.Objects {
			if x.Kind == "Namespace" && x.Name == o.Name && x.Source.File == l.File && x.Source.Line > l.Line && x.Source.Line <= l.Line+l.Namespaces+3 {
				return false // listed again
			}
		}
		return true
	}
	return false
}

func analyzeNamespace(p *Pass, s stuckNamespace, rules []*Rule, plan *Plan) findings.NamespaceReport {
	nr := findings.NamespaceReport{Name: s.name, DeletionTimestamp: findings.TimePtr(s.deletion), StuckSince: s.since,
		SpecFinalizers: []string{}, MetadataFinalizers: []string{}, Conditions: []findings.ConditionReport{},
		Causes: []findings.Cause{}, RuledOut: []findings.RuledOut{}, Remediation: []findings.RemediationStep{}}
	if o := s.obj; o != nil {
		nr.Phase = o.Phase
		if o.SpecFinalizers != nil {
			nr.SpecFinalizers = o.SpecFinalizers
		}
		if o.Finalizers != nil {
			nr.MetadataFinalizers = o.Finalizers
		}
		src := findings.Evidence{File: o.Source.File, Line: o.Source.Line, Object: o.Ref(), Text: "Namespace " + o.Name}
		nr.Source = &src
		for _, c := range o.Conditions {
			nr.Conditions = append(nr.Conditions, findings.ConditionReport{Type: c.Type, Status: c.Status, Reason: c.Reason,
				Message: c.Message, LastTransitionTime: findings.TimePtr(c.LastTransitionTime), Problem: c.Status == "True",
				Meaning: kubemsg.ConditionMeaning(c.Type, c.Status)})
		}
	} else {
		nr.Phase = "Terminating (inferred from logs)"
	}
	if !s.deletion.IsZero() && !p.Index.CapturedAt.IsZero() && p.Index.CapturedAt.After(s.deletion) {
		d := p.Index.CapturedAt.Sub(s.deletion)
		nr.StuckFor = findings.FmtDuration(d)
		nr.StuckSeconds = int64(d / time.Second)
	}
	if o := s.obj; o != nil && o.Ages != nil && o.Ages.TerminatingFor > time.Duration(nr.StuckSeconds)*time.Second &&
		!p.Index.CapturedAt.IsZero() && !s.stamped {
		// (with the deletionTimestamp, the capture time already includes the bound: CaptureBounds)
		// describe's "Terminating (lasts 2d)": deleted at least that long before it was
		// printed, which was at or before the capture
		d := o.Ages.TerminatingFor
		nr.StuckFor = findings.FmtDuration(d)
		nr.StuckSeconds = int64(d / time.Second)
		why := fmt.Sprintf("%s:%d says Terminating (lasts %s): deleted at least that long before it was printed", o.Ages.File, o.Ages.Line, objects.FmtAge(d))
		if nr.StuckSince == "" {
			nr.StuckSince = why
		} else {
			nr.StuckSince += "; " + why
		}
	}
	nr.DeletionInferred = !s.stamped && nr.StuckSince != ""
	ruledOut := map[string]string{}
	said := make([]bool, len(rules)) // the rule found causes or a ruled-out reason
	byRule := make([][]findings.Cause, len(rules))
	p.claims = newNamespaceClaims(plan)
	// in the order derived from the rules' declarations: a rule that yields sees the
	// claims of every rule it yields to
	for _, i := range plan.Run {
		rule := rules[i]
		p.Rule = rule
		causes, why := rule.Run(p)
		for j := range causes {
			causes[j].Type = rule.Name
			checkKinds(p.warn, rule, &causes[j])
			p.claims.add(&causes[j])
		}
		byRule[i] = causes
		if len(causes) == 0 && why != "" {
			ruledOut[rule.Name] = why
		}
		said[i] = len(causes) > 0 || why != ""
	}
	for _, c := range p.claims.conflicts {
		p.warn.ruleError(c, " (namespace "+p.Namespace+")")
	}
	p.Rule = nil
	var notApplicable []string // rules that found nothing they read (said nothing), in reporting order
	for i, rule := range rules {
		if !said[i] {
			notApplicable = append(notApplicable, rule.Name)
		}
	}
	for _, cs := range byRule {
		nr.Causes = append(nr.Causes, cs...)
	}
	for _, rule := range rules {
		if why, ok := ruledOut[rule.Name]; ok {
			nr.RuledOut = append(nr.RuledOut, findings.RuledOut{Type: rule.Name, Reason: why})
		}
	}
	if len(nr.Causes) == 0 {
		nr.Causes = append(nr.Causes, undetermined(p, nr.RuledOut, notApplicable))
	}
	for i := range nr.Causes {
		for j := range nr.Causes[i].Chain {
			nr.Causes[i].Chain[j].SetTimes()
		}
		markRoots(&nr.Causes[i])
		findings.FocusEvidence(&nr.Causes[i])
		nr.Causes[i].Verdicts = mechanism.Verdicts(p.Index, &nr.Causes[i])
	}
	p.guard = namespaceGuard(nr)
	for i := range nr.Causes {
		for j := range nr.Causes[i].Chain {
			if f := nr.Causes[i].Chain[j].Fix; f != nil {
				g := *f
				g.Command = p.checkCmd(g.Command)
				g = findings.Label(g)
				nr.Causes[i].Chain[j].Fix = &g
			}
		}
	}
	nr.Verdict = verdict(nr)
	nr.Remediation = remediation(p, nr, rules)
	nr.Timeline = timeline(p, &nr)
	return nr
}

func verdict(nr findings.NamespaceReport) string {
	var parts []string
	for i := range nr.Causes {
		c := &nr.Causes[i]
		if l := RootLink(c); l != nil && l != &c.Chain[0] {
			parts = append(parts, "Root: "+RootSentence(c))
			continue
		}
		parts = append(parts, c.Summary)
	}
	v := strings.Join(parts, " Also: ")
	if len(nr.Causes) > 1 {
		v = "Several independent blockers; all must be fixed. " + v
	}
	return v
}

// The work counters of the analysis' inner loops (parsers/work: counted only in the
// tests that hold the analysis linear).
var sortOps = work.New("sort comparisons (timeline, evidence)")

// undetermined is reported when no rule found a cause.
func undetermined(p *Pass, ruled []findings.RuledOut, notApplicable []string) findings.Cause {
	var checked []string
	for _, r := range ruled {
		checked = append(checked, r.Type+": "+r.Reason)
	}
	for _, n := range notApplicable {
		checked = append(checked, n+": nothing in the bundle it reads")
	}
	c := findings.Cause{Type: findings.CauseUndetermined, Confidence: "low", GroupVersions: []string{}, APIServices: []string{}, Finalizers: []string{}, Objects: []findings.ObjectRef{}, Evidence: []findings.Evidence{}}
	c.Summary = "The bundle does not show why this namespace is stuck. Checked: " + strings.Join(checked, "; ") + "."
	for _, s := range undeterminedLadder(p, &c) {
		c.Notes = append(c.Notes, "collect: "+s.Command)
		c.Inline = append(c.Inline, s.Command)
	}
	if p.Object != nil && len(p.Object.Conditions) == 0 {
		c.Notes = append(c.Notes, "the Namespace has no status conditions: either the namespace controller never processed it (is kube-controller-manager running?) or the cluster is older than 1.16")
	}
	return c
}

// undeterminedLadder collects what would show the cause: the safe first step when no
// rule found one.
func undeterminedLadder(p *Pass, _ *findings.Cause) []findings.RemediationStep {
	ns := p.Namespace
	return []findings.RemediationStep{
		{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "namespace", ns, "-o", "json"), Why: "Its status.conditions and finalizers name what is left and what fails (nsanalyze collect gathers this and the rest in one script)."},
		{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "apiservices", "-o", "json"), Why: "An APIService that is not Available stops every namespace deletion."},
		{Risk: findings.RiskSafe, Command: "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 " + shellsafe.Cmd("kubectl", "get", "--show-kind", "--ignore-not-found", "-n", ns, "-o", "json"), Why: "What is still in the namespace, and which of it carries finalizers."},
		{Risk: findings.RiskSafe, Command: shellsafe.Cmd("kubectl", "get", "validatingwebhookconfigurations,mutatingwebhookconfigurations", "-o", "json"), Why: "A webhook that refuses or times out blocks the namespace controller's deletes."},
		{Risk: findings.RiskSafe, Command: mechanism.ControllerManagerLogs(p.Index, -1, ""), Why: "The kube-controller-manager log covering the deletion time says why the namespace controller cannot finish."},
	}
}
