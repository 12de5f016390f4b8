package index

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// Index gives the rules fast access to the bundle's records.
type Index struct {
	// platform is what Platform read from the bundle (platformDone once read).
	platform     string
	platformDone bool
	Records      *bundle.Records

	// Namespaces are the whole Namespace objects by name (the newest copy when a
	// namespace is dumped twice). The Active namespaces of Records.SlimNamespaces are
	// not in it: NamespaceExists, NamespaceCount, NamespaceNames and Namespace see both
	// (slimnamespaces.go).
	Namespaces  map[string]*objects.Object
	APIServices map[string]*objects.Object // by name
	// ByNamespace and ByKind hold the whole objects (Records.Objects). The pods of
	// Records.SlimPods are not in them: InNamespace, EachOfKind, Find, Has and
	// KindDumped see both (slimpods.go).
	ByNamespace map[string][]*objects.Object // namespaced objects (not Namespaces) by namespace
	ByKind      map[string][]*objects.Object
	CRDs        map[string]*objects.Object // by "plural.group"
	// fileIx answers questions about file names (fileindex.go).
	fileIx *fileIndex
	// crdByGroupKind indexes CRDs by group and kind (CRDOf).
	crdByGroupKind map[string]*objects.Object
	// resourceNames: ResourceName's answers by apiVersion and kind (one string for the
	// thousands of objects of one kind)
	resourceNames map[[2]string]string
	// NamespaceListed is true when the bundle holds a dump of all namespaces (a list
	// with more than one Namespace), so a namespace absent from it no longer exists.
	NamespaceListed bool

	Entries []*logs.Entry
	// Log entries by what they say.
	NamespaceDeletionFailed map[string][]*logs.Entry // namespace -> "deletion of namespace X failed"
	NamespaceDeleted        map[string][]*logs.Entry // namespace -> "Namespace has been deleted X"
	// ContentStillRemains are "unexpected items still remain in namespace: X for gvr: G"
	// lines by namespace (content left without finalizers; the only namespace-naming
	// failure line before 1.16).
	ContentStillRemains map[string][]ContentLine
	// NamespaceTerminating are the API server's refusals because a namespace is being
	// deleted ("Operation cannot be fulfilled on namespaces \"X\": The system is ensuring
	// all content is removed from this namespace"), by namespace: kubectl stderr saved
	// with a ticket, often the only sign a namespace is Terminating.
	NamespaceTerminating map[string][]*logs.Entry
	// NamespaceDeleteWaits are a client's lines saying it deleted a namespace and still
	// waits for it to be gone (Terraform's "kubernetes_namespace.X: Still destroying...
	// [id=NAME, 5m0s elapsed]" past kubemsg.MinTerraformNamespaceWait), by namespace.
	NamespaceDeleteWaits map[string][]*logs.Entry
	// NamespaceControllerDeletes are kube-apiserver request-log lines of the namespace
	// controller's DELETEs of a namespace's content, by namespace: the controller only
	// deletes the content of a namespace that is being deleted.
	NamespaceControllerDeletes map[string][]*logs.Entry
	// cloud are the cloud controllers' lines by controller (cloudlines.go).
	cloud map[string]*cloudLines
	// slim is the index of Records.SlimPods (slimpods.go).
	slim slimIndex
	// slimNS are the rows of Records.SlimNamespaces by name: the namespaces whose
	// first copy is slim (slimnamespaces.go).
	slimNS map[string]int32
	// ruleLines are the lines each rule's matchers kept: rule name -> key -> lines.
	ruleLines  map[string]map[string][]*logs.Entry
	collectors []Collector
	// guard holds the names of the bundle's objects Kubernetes would have refused
	// (each validated once, while the index is built): no command carries them.
	guard *shellsafe.Guard
	// nameWarnings are the warnings for those names (NameWarnings).
	nameWarnings []diag.Warning
	// unattributed are the namespace deleter's condition messages no namespace could be
	// given (addMessages): evidence of a deletion whose namespace the bundle does not name.
	unattributed []text.Message

	CapturedAt       time.Time
	CapturedAtSource string
	// CaptureRecorded is true when CapturedAt is the collector's own record of when it
	// ran (Records.CaptureClock), not an estimate from the newest time in the bundle
	// (which only bounds the capture from below).
	CaptureRecorded bool
	// KubernetesVersion is the server version from a layout's version file, a saved
	// `kubectl version -o json`, a component's start-up log line or, failing those, the
	// kubelet version of the nodes ("" when unknown); KubernetesVersionSource says which.
	KubernetesVersion        string
	KubernetesVersionSource  string
	KubernetesVersionKubelet bool // the nodes' kubelet version
	// ControllerStarts are kube-controller-manager (re)starts and leadership gains.
	ControllerStarts []*logs.Entry
}

// ContentLine is an "unexpected items still remain" line and the resource it names.
type ContentLine struct {
	Entry *logs.Entry
	GVR   kubemsg.GroupVersionResource
}

// Collector is a rule's log line matchers, by the rule's name: the lines they keep are
// found with RuleLines and RuleKeys.
type Collector struct {
	Rule  string
	Lines []Match
}

// New builds the index for the rules: the facts every rule may read, and the
// lines each collector's matchers keep, in one pass over the bundle's log entries.
func New(rec *bundle.Records, collectors []Collector) *Index {
	ix := &Index{
		Records:                    rec,
		Namespaces:                 map[string]*objects.Object{},
		APIServices:                map[string]*objects.Object{},
		ByNamespace:                map[string][]*objects.Object{},
		ByKind:                     map[string][]*objects.Object{},
		CRDs:                       map[string]*objects.Object{},
		NamespaceDeletionFailed:    map[string][]*logs.Entry{},
		NamespaceDeleted:           map[string][]*logs.Entry{},
		ruleLines:                  map[string]map[string][]*logs.Entry{},
		ContentStillRemains:        map[string][]ContentLine{},
		NamespaceTerminating:       map[string][]*logs.Entry{},
		NamespaceDeleteWaits:       map[string][]*logs.Entry{},
		NamespaceControllerDeletes: map[string][]*logs.Entry{},
	}
	for _, c := range collectors {
		if len(c.Lines) > 0 {
			ix.collectors = append(ix.collectors, c)
			ix.ruleLines[c.Rule] = map[string][]*logs.Entry{}
		}
	}
	ix.indexObjects(rec)
	ix.addMessages(rec.Messages)
	ix.NamespaceListed = rec.NamespaceListSeen
	if ix.KubernetesVersion != "" {
		ix.KubernetesVersionSource = "kubectl version -o json"
	}
	if rec.ServerVersion != "" {
		// the layout's own record of the server's version (sonobuoy serverversion.json,
		// troubleshoot cluster_version.json) wins over log lines
		ix.KubernetesVersion, ix.KubernetesVersionSource = rec.ServerVersion, rec.ServerVersionFile
	}
	for i := range rec.Entries {
		ix.addEntry(&rec.Entries[i])
	}
	if ix.KubernetesVersion == "" {
		ix.nodeVersion()
	}
	for _, ce := range rec.CollectorErrors {
		// a collector's saved error is evidence like a log line without a time: the
		// rules' matchers see it (a discovery error troubleshoot recorded, say)
		e := &logs.Entry{File: ce.File, Line: ce.Line, Component: "bundle collector", Message: ce.Text, Text: ce.Text}
		if ix.match(e, ce.Text) {
			ix.Entries = append(ix.Entries, e)
		}
	}
	ix.guard = &shellsafe.Guard{}
	invalidNames(rec, func(file string, line int, kind shellsafe.NameKind, name string) {
		ix.guard.Add(kind, name)
		ix.nameWarnings = append(ix.nameWarnings, diag.Warning{File: file, Line: line, Message: shellsafe.HostileName(kind, name)})
	})
	lookAlikes(rec, func(file string, line int, what, name, like string) {
		ix.nameWarnings = append(ix.nameWarnings, diag.Warning{File: file, Line: line, Message: lookAlikeMessage(what, name, like)})
	})
	ix.guard.Prepare()
	ix.captureTime()
	return ix
}

func (ix *Index) addEntry(e *logs.Entry) {
	ix.Entries = append(ix.Entries, e)
	d := e.Detail()
	ns, _, ok := kubemsg.ParseNamespaceDeletionFailed(d)
	if !ok && e.Message == "Deletion of namespace failed" && kubemsg.IsNamespaceName(e.Field("namespace")) {
		// 1.35+: "Deletion of namespace failed" err="..." namespace="<ns>"
		ns, ok = e.Field("namespace"), true
	}
	if ok {
		ix.NamespaceDeletionFailed[ns] = append(ix.NamespaceDeletionFailed[ns], e)
	} else if ns, gvr, ok := kubemsg.ParseContentStillRemains(d); ok {
		// before 1.16 the controller logged the bare error, naming the namespace only here
		ix.NamespaceDeletionFailed[ns] = append(ix.NamespaceDeletionFailed[ns], e)
		ix.ContentStillRemains[ns] = append(ix.ContentStillRemains[ns], ContentLine{Entry: e, GVR: gvr})
	} else if ns, _, ok := parseOrdered(d); ok {
		ix.NamespaceDeletionFailed[ns] = append(ix.NamespaceDeletionFailed[ns], e)
	}
	// the API server's refusals in a namespace being deleted (409 Conflict, the
	// NamespaceLifecycle Forbidden): the message may be inside another's (a condition)
	if ns, ok := kubemsg.ParseNamespaceTerminating(d); ok {
		ix.NamespaceTerminating[ns] = append(ix.NamespaceTerminating[ns], e)
	} else if d != e.Text {
		if ns, ok := kubemsg.ParseNamespaceTerminating(e.Text); ok {
			ix.NamespaceTerminating[ns] = append(ix.NamespaceTerminating[ns], e)
		}
	}

	if ns, d, ok := kubemsg.ParseTerraformNamespaceWait(e.Text); ok && d >= kubemsg.MinTerraformNamespaceWait {
		ix.NamespaceDeleteWaits[ns] = append(ix.NamespaceDeleteWaits[ns], e)
	}

	if strings.Contains(e.Text, "namespace-controller") {
		if r, ok := kubemsg.ParseRequestLog(e.Text); ok && r.Verb == "DELETE" && r.Namespace != "" && r.Resource != "" &&
			strings.Contains(r.UserAgent, "namespace-controller") {
			ix.NamespaceControllerDeletes[r.Namespace] = append(ix.NamespaceControllerDeletes[r.Namespace], e)
		}
	}
	if strings.Contains(d, "Namespace has been deleted") {
		ns := e.Field("namespace")
		if ns == "" {
			ns = strings.TrimSpace(strings.TrimPrefix(d[strings.Index(d, "Namespace has been deleted"):], "Namespace has been deleted"))
		}
		if kubemsg.IsNamespaceName(ns) {
			ix.NamespaceDeleted[ns] = append(ix.NamespaceDeleted[ns], e)
		}
	}
	ix.addCloudLine(e, d)
	ix.match(e, d)
	if ix.KubernetesVersion == "" && (e.Component == "kube-controller-manager" || e.Component == "kube-apiserver") {
		if v := e.Field("version"); strings.HasPrefix(v, "v1.") {
			ix.KubernetesVersion = v
		} else if i := strings.Index(d, "Version: v1."); i >= 0 {
			ix.KubernetesVersion = strings.Fields(d[i+len("Version: "):])[0]
		}
		if ix.KubernetesVersion != "" {
			ix.KubernetesVersionSource = fmt.Sprintf("%s start-up line (%s:%d)", e.Component, e.File, e.Line)
		}
	}
	if e.Component == "kube-controller-manager" && (strings.Contains(d, "Starting namespace controller") ||
		strings.Contains(d, "successfully acquired lease kube-system/kube-controller-manager")) {
		ix.ControllerStarts = append(ix.ControllerStarts, e)
	}
}

// RuleLines returns the log lines a rule's matchers kept under key, for what the rule
// reads outside a namespace's pass (its Risks).
func (ix *Index) RuleLines(rule, key string) []*logs.Entry { return ix.ruleLines[rule][key] }

// RuleKeys returns the keys under which a rule's matchers kept lines, sorted.
func (ix *Index) RuleKeys(rule string) []string { return findings.SortedKeys(ix.ruleLines[rule]) }

// Warnings are what the index found wrong in the records while it was built: names
// Kubernetes would have refused, and look-alike names (NameWarnings).
func (ix *Index) Warnings() []diag.Warning { return ix.nameWarnings }

// match runs the rules' matchers on a line; it reports whether one kept it.
func (ix *Index) match(e *logs.Entry, d string) bool {
	kept := false
	for _, r := range ix.collectors {
		byKey := ix.ruleLines[r.Rule]
		for i := range r.Lines {
			for _, key := range r.Lines[i].keep(e, d) {
				kept = true
				if l := byKey[key]; len(l) == 0 || l[len(l)-1] != e { // once per key, whichever matchers keep it
					byKey[key] = append(l, e)
				}
			}
		}
	}
	return kept
}

// captureTime estimates when the bundle was collected: the newest time in any object
// or log (the issue of the bundle format: nothing records it explicitly).
//
// A time later than this machine's clock by more than a day cannot be a capture time
// (a damaged or hostile bundle: an object dated 9999): it is ignored, the newest
// plausible time of the kept objects is used instead, and the source says so.
func (ix *Index) captureTime() {
	limit := ix.now().Add(24 * time.Hour)
	t := ix.Records.NewestObjectTime
	src := "newest object timestamp"
	var ignored []string
	if t.After(limit) {
		ignored = append(ignored, "an object time of "+findings.FmtTime(t))
		t = ix.newestPlausibleObjectTime(limit)
	}
	for _, f := range ix.Records.LogFiles {
		if f.Last.After(limit) {
			ignored = append(ignored, "the last line of "+f.Path+" at "+findings.FmtTime(f.Last))
			continue
		}
		if f.Last.After(t) {
			t = f.Last
			src = "newest log line (" + f.Path + ")"
		}
	}
	for _, b := range ix.Records.CaptureBounds {
		// a table's AGE (describe's "lasts") added to the dumped object's own timestamp
		if b.Time.After(limit) {
			ignored = append(ignored, b.Why())
			continue
		}
		if b.Time.After(t) {
			t, src = b.Time, b.Why()
		}
	}
	if c := ix.Records.CaptureClock; !c.IsZero() && !c.After(limit) {
		switch {
		case !c.Before(t):
			t, src = c, "recorded by the collector ("+ix.Records.CaptureClockSource+")"
			ix.CaptureRecorded = true
		default:
			// a time in the bundle after the collector's clock: the clock is not the end
			src += "; the collector's record (" + ix.Records.CaptureClockSource + ", " + findings.FmtTime(c) + ") is older"
		}
	}
	if len(ignored) > 0 {
		src += "; ignored as in the future: " + strings.Join(ignored, ", ")
	}
	ix.CapturedAt = t
	ix.CapturedAtSource = src
}

// nodeVersion takes the cluster version from the nodes' kubelet versions (a Node dump's
// status.nodeInfo.kubeletVersion, a `kubectl get nodes` table's VERSION column) when the
// bundle says nothing better: the newest one, since the control plane is never older
// than its kubelets.
func (ix *Index) nodeVersion() {
	var best *objects.Object
	for _, o := range ix.ByKind["Node"] {
		v := o.KubeletVersion
		if !strings.HasPrefix(v, "v1.") || len(v) > 64 {
			continue
		}
		if best == nil || versionLess(best.KubeletVersion, v) {
			best = o
		}
	}
	if best == nil {
		return
	}
	ix.KubernetesVersion, ix.KubernetesVersionKubelet = best.KubeletVersion, true
	ix.KubernetesVersionSource = fmt.Sprintf("kubelet version of node %s (%s:%d); the control plane is this version or newer", best.Name, best.Source.File, best.Source.Line)
}

// now is the machine's clock (the capture time can only be before it).
func (ix *Index) now() time.Time { return time.Now() }

// newestPlausibleObjectTime is the newest time the kept objects carry that is not
// after limit: deletion timestamps, condition transitions, Lease renewals, events.
func (ix *Index) newestPlausibleObjectTime(limit time.Time) time.Time {
	var t time.Time
	see := func(x time.Time) {
		if !x.After(limit) && x.After(t) {
			t = x
		}
	}
	for _, objs := range ix.ByKind {
		for _, o := range objs {
			for x := range o.Events() {
				see(x)
			}
		}
	}
	for _, o := range ix.Namespaces {
		for x := range o.Events() {
			see(x)
		}
	}
	see(ix.slim.newestTime(limit))
	return t
}

// InNamespace returns the objects of a kind in a namespace ("" = every kind), in the
// order they were read.
func (ix *Index) InNamespace(ns, kind string) []*objects.Object {
	objs := ix.objectsIn(ns)
	if kind == "" {
		return append([]*objects.Object(nil), objs...)
	}
	var out []*objects.Object
	for _, o := range objs {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// Find returns the object of a kind with the given namespace and name, or nil.
func (ix *Index) Find(kind, ns, name string) *objects.Object {
	if kind == "Pod" && len(ix.slim.byNamespace[ns]) > 0 {
		for _, o := range ix.InNamespace(ns, kind) {
			if o.Name == name {
				return o
			}
		}
		return nil
	}
	for _, o := range ix.ByKind[kind] {
		if o.Name == name && o.Namespace == ns {
			return o
		}
	}
	return nil
}

// hasObjectsIn reports whether the bundle holds an object of the namespace.
func (ix *Index) hasObjectsIn(ns string) bool {
	return len(ix.ByNamespace[ns]) > 0 || len(ix.slim.byNamespace[ns]) > 0
}

// Has reports whether the bundle holds any object of a kind.
func (ix *Index) Has(kind string) bool {
	return len(ix.ByKind[kind]) > 0 || kind == "Pod" && len(ix.slim.live) > 0
}

// HasLogsOf reports whether the bundle holds a log of the component.
func (ix *Index) HasLogsOf(component string) bool {
	for _, f := range ix.Records.LogFiles {
		if f.Component == component {
			return true
		}
	}
	return false
}

// PodsSelectedBy returns the pods in ns whose labels match selector.
func (ix *Index) PodsSelectedBy(ns string, selector map[string]string) []*objects.Object {
	if len(selector) == 0 {
		return nil
	}
	var out []*objects.Object
	for _, p := range ix.InNamespace(ns, "Pod") {
		ok := true
		for k, v := range selector {
			if p.Labels[k] != v {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// parseOrdered is kubemsg.ParseOrderedDeletionFailure behind a literal check (it runs a
// regexp, and this runs for every prefiltered log line).
func parseOrdered(d string) (string, string, bool) {
	if !strings.Contains(d, "failed to delete pods for namespace") {
		return "", "", false
	}
	return kubemsg.ParseOrderedDeletionFailure(d)
}
