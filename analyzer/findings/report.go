package findings

import (
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// SchemaVersion identifies the JSON report shape. Fields may be added; none renamed.
const SchemaVersion = "nsanalyze/v1"

// CauseUndetermined is the cause type reported when no rule found a cause; every other
// cause type is the Name of a Rule (analyzer/rules).
const CauseUndetermined = "undetermined"

// Risk levels of remediation steps, least destructive first.
const (
	RiskSafe        = "safe"
	RiskCaution     = "caution"
	RiskDestructive = "destructive"
)

// Report is the analysis of one bundle.
type Report struct {
	SchemaVersion string `json:"schemaVersion"`
	// Generator names the nsanalyze that wrote the report (set by the command).
	Generator *Generator `json:"generator,omitempty"`
	// Summary is one line fit for a ticket title.
	Summary string `json:"summary"`
	// State says what the bundle shows of the namespaces: StateStuck, StateNoneStuck or
	// StateUnknown (the bundle cannot show namespace state; StateReason says why).
	State       string `json:"state"`
	StateReason string `json:"stateReason,omitempty"`
	// StateSeen is StateReason without the commands it asks for, when it asks for some
	// (the next step asks for them on their own).
	StateSeen string     `json:"-"`
	Bundle    BundleInfo `json:"bundle"`
	// Problems are the independent root problems, each with the namespaces it holds
	// stuck, its chain and one ladder (namespaces[] keeps every namespace in full).
	Problems   []Problem         `json:"problems"`
	Namespaces []NamespaceReport `json:"namespaces"`
	// Deleting are the namespaces still being deleted, not stuck: Terminating for less
	// than analyzer.DeletingThreshold with no blocker in the evidence (analyzer/deleting.go).
	Deleting []DeletingNamespace `json:"deleting,omitempty"`
	Risks    []Risk              `json:"risks"`
	Coverage []Gap               `json:"coverage"`
	// NextStep is what to ask the customer for when the report is inconclusive (state
	// unknown, or a cause undetermined); nil otherwise.
	NextStep *NextStep      `json:"nextStep,omitempty"`
	Warnings []diag.Warning `json:"warnings"`
	// NotInBundle are the namespaces asked for (Options.Namespaces) that the bundle
	// does not hold: no Namespace object and no log line of the namespace controller
	// names them. StateReason says so; the command names each on stderr.
	NotInBundle []string `json:"-"`
	// Inline are the commands written inside StateReason, see InlineCommands.
	Inline []string `json:"-"`
}

// Report states.
const (
	StateStuck     = "stuck"      // at least one namespace is stuck in Terminating
	StateNoneStuck = "none-stuck" // the bundle holds the namespace list and none is stuck
	StateUnknown   = "unknown"    // the bundle cannot show whether a namespace is stuck
	// StateDeleting: no namespace is stuck, but some are still being deleted (Report.Deleting)
	StateDeleting = "deleting"
)

// DeletingNamespace is a namespace still being deleted: Terminating for less than
// analyzer.DeletingThreshold, with no blocker in the evidence. It gets what to look at should it
// not finish, never a ladder.
type DeletingNamespace struct {
	Name              string            `json:"name"`
	DeletionTimestamp *time.Time        `json:"deletionTimestamp"`
	Phase             string            `json:"phase,omitempty"`
	DeletingFor       string            `json:"deletingFor"`
	DeletingSeconds   int64             `json:"deletingSeconds"`
	Conditions        []ConditionReport `json:"conditions,omitempty"`
	Source            *Evidence         `json:"source,omitempty"`
	// Why says why it is not called stuck (its age, the threshold, the rules that found nothing).
	Why string `json:"why"`
	// Watch are read-only commands for when it does not finish.
	Watch []RemediationStep `json:"watch"`
}

// Generator identifies the nsanalyze build that wrote a report.
type Generator struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
}

// Problem is one independent root problem and the namespaces it holds stuck.
type Problem struct {
	ID        string `json:"id"` // "P1", "P2", ... in reporting order
	CauseType string `json:"causeType"`
	// Fingerprint names the root so that the same fault reads the same in every bundle
	// (cause type, identity, root kind and state; see fingerprint.go and docs/fingerprint.md).
	Fingerprint string `json:"fingerprint"`
	// ReadableFingerprint is the fingerprint with every name as it is (never shown, never
	// serialised: it holds the customer's names); known issues are matched against it.
	ReadableFingerprint string `json:"-"`
	// KnownIssues are the catalog entries whose fingerprint pattern fits, best first
	// (set by the command from analyzer/knownissues).
	KnownIssues []KnownIssueRef `json:"knownIssues,omitempty"`
	// Root is one sentence: the deepest link the evidence proves, and the component
	// chain above it.
	Root string `json:"root"`
	// Short is the problem in one structured line, composed from its chain's components
	// and states to fit MaxShort, never cut (analyzer.ShortOf): "tobedeleted: Pods kube-system
	// k8s-app=metrics-server, pod unschedulable → APIService v1beta1.metrics.k8s.io".
	Short         string             `json:"short"`
	RootComponent string             `json:"rootComponent"`
	Confidence    string             `json:"confidence"`
	Namespaces    []ProblemNamespace `json:"namespaces"`
	// Chain and Remediation are those of the first namespace (the same for all).
	Chain       []Link            `json:"chain"`
	Remediation []RemediationStep `json:"remediation"`
	// Evidence is the cause's evidence of the first namespace.
	Evidence []Evidence `json:"evidence"`
	// Correlation is the first namespace's time correlation sentence.
	Correlation string `json:"correlation,omitempty"`
	// Headline is the root in a few words, for the report's one-line summary.
	Headline string `json:"-"`
}

// KnownIssueRef is a known issue whose fingerprint pattern fits a problem.
type KnownIssueRef struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	Pattern string `json:"pattern"`
	Fix     string `json:"fix,omitempty"`
	// Source is "builtin" for the shipped catalog, else the --known-issues file.
	Source string `json:"source"`
}

// ProblemNamespace is one namespace a problem holds stuck.
type ProblemNamespace struct {
	Name              string     `json:"name"`
	DeletionTimestamp *time.Time `json:"deletionTimestamp"`
	DeletionInferred  bool       `json:"deletionInferred,omitempty"` // not a deletionTimestamp: an upper bound from conditions or logs
	StuckFor          string     `json:"stuckFor,omitempty"`
}

// BundleInfo describes what was read.
type BundleInfo struct {
	Path             string     `json:"path"`
	CapturedAt       *time.Time `json:"capturedAt"`
	CapturedAtSource string     `json:"capturedAtSource,omitempty"`
	Objects          int        `json:"objects"`
	ObjectFiles      int        `json:"objectFiles"`
	LogFiles         []LogFile  `json:"logFiles"`
	// CapturedAtRecorded is true when capturedAt is the collector's own record of when
	// it ran (must-gather's timestamp file, sonobuoy's meta/run.log), not an estimate.
	CapturedAtRecorded bool `json:"capturedAtRecorded,omitempty"`
	// KubernetesVersion is read from a layout's version file, a saved `kubectl version
	// -o json`, a component's start-up line or the nodes' kubelet version;
	// KubernetesVersionSource says which.
	KubernetesVersion       string `json:"kubernetesVersion,omitempty"`
	KubernetesVersionSource string `json:"kubernetesVersionSource,omitempty"`
	// KubernetesVersionKubelet: the version is the nodes' kubelet version (the control
	// plane is this version or newer), not the server's.
	KubernetesVersionKubelet bool `json:"kubernetesVersionKubelet,omitempty"`
	// Layouts names the bundle layouts recognised (troubleshoot, must-gather, ...).
	Layouts []string `json:"layouts"`
	// Platform is what the bundle shows of the platform (findings.Platform*: aks, eks,
	// gke, openshift, k3s, rke2, talos); empty for kubeadm and unknown.
	Platform string `json:"platform,omitempty"`
}

// LogFile summarises one log file.
type LogFile struct {
	File         string     `json:"file"`
	Component    string     `json:"component"`
	Format       string     `json:"format"`
	Lines        int        `json:"lines"`
	Matched      int        `json:"matched"`
	First        *time.Time `json:"first"`
	Last         *time.Time `json:"last"`
	YearInferred bool       `json:"yearInferred,omitempty"`
	// YearBasis says where the year of year-less times came from (see the README).
	YearBasis string `json:"yearBasis,omitempty"`
}

// NamespaceReport is the diagnosis of one stuck namespace.
type NamespaceReport struct {
	Name              string     `json:"name"`
	DeletionTimestamp *time.Time `json:"deletionTimestamp"`
	Phase             string     `json:"phase"`
	// Problems are the IDs of the report's problems that hold this namespace.
	Problems     []string `json:"problems"`
	StuckFor     string   `json:"stuckFor,omitempty"`
	StuckSeconds int64    `json:"stuckSeconds,omitempty"`
	StuckSince   string   `json:"stuckSince,omitempty"` // how the start was established
	// DeletionInferred says the start is not the Namespace's deletionTimestamp but an
	// upper bound from conditions, logs or ages (StuckSince says which): what renderers
	// read, never StuckSince's words.
	DeletionInferred   bool              `json:"-"`
	SpecFinalizers     []string          `json:"specFinalizers"`
	MetadataFinalizers []string          `json:"metadataFinalizers"`
	Conditions         []ConditionReport `json:"conditions"`
	Source             *Evidence         `json:"source,omitempty"`
	Verdict            string            `json:"verdict"`
	Causes             []Cause           `json:"causes"`
	RuledOut           []RuledOut        `json:"ruledOut"`
	Remediation        []RemediationStep `json:"remediation"`
	// Timeline lists what happened to the namespace and around it, oldest first:
	// the deletion, condition transitions, error log lines and events (analyzer/timeline.go).
	Timeline []TimelineEvent `json:"timeline"`
}

// Timeline event kinds.
const (
	EventDeletion  = "deletion"
	EventCondition = "condition"
	EventError     = "error"
	EventEvent     = "event"
)

// TimelineEvent is one timed fact about a stuck namespace.
type TimelineEvent struct {
	Time         time.Time `json:"time"`
	TimeInferred bool      `json:"timeInferred,omitempty"` // klog year inferred
	Component    string    `json:"component"`              // who reported it: "kube-controller-manager", "APIService/v1beta1.metrics.k8s.io", ...
	Kind         string    `json:"kind"`                   // deletion, condition, error, event
	Text         string    `json:"text"`
	Cause        string    `json:"cause,omitempty"` // the cause type the event supports, when it supports one
	// Problem is the ID of the report's problem whose cause the event supports (one of
	// the namespace's problems), when it supports one: what a problem's timeline shows.
	Problem string `json:"problem,omitempty"`
	// Own says the event is about the namespace itself (its deletion, its conditions, a
	// line or event that names it) rather than about the cluster around it.
	Own  bool   `json:"own,omitempty"`
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// CauseIndex is 1 + the index in the namespace's Causes of the cause the event supports
	// (0: none), turned into Problem once problems are grouped.
	CauseIndex int `json:"-"`
}

// ConditionReport is a namespace status condition decoded into plain words.
type ConditionReport struct {
	Type               string     `json:"type"`
	Status             string     `json:"status"`
	Reason             string     `json:"reason,omitempty"`
	Message            string     `json:"message,omitempty"`
	LastTransitionTime *time.Time `json:"lastTransitionTime"`
	Problem            bool       `json:"problem"`
	Meaning            string     `json:"meaning,omitempty"`
}

// Cause is one reason a namespace cannot finish deleting.
type Cause struct {
	Type          string   `json:"type"`
	Summary       string   `json:"summary"`
	Confidence    string   `json:"confidence"` // high, medium, low
	GroupVersions []string `json:"groupVersions"`
	APIServices   []string `json:"apiServices"`
	Finalizers    []string `json:"finalizers"`
	// Verdicts are the plain verdict on each finalizer that blocks (its controller's
	// state, what clearing it by hand does).
	Verdicts []FinalizerVerdict `json:"finalizerVerdicts,omitempty"`
	Webhooks []string           `json:"webhooks,omitempty"`
	Objects  []ObjectRef        `json:"objects"`
	// Groups are the Objects that share kind, finalizers and verdict, one entry each
	// (what the reports show; Objects keep every object).
	Groups   []ObjectGroup `json:"objectGroups,omitempty"`
	Chain    []Link        `json:"chain,omitempty"`
	Evidence []Evidence    `json:"evidence"`
	// Time correlation of the log lines that support this cause, relative to the
	// namespace's deletion timestamp.
	FirstSeen          *time.Time `json:"firstSeen"`
	LastSeen           *time.Time `json:"lastSeen"`
	Occurrences        int        `json:"occurrences"`
	SeenBeforeDeletion bool       `json:"seenBeforeDeletion"`
	FirstSeenOverall   *time.Time `json:"firstSeenOverall,omitempty"`
	Correlation        string     `json:"correlation,omitempty"`
	Notes              []string   `json:"notes,omitempty"`
	// Related are every log line that supports the cause (Evidence quotes a sample);
	// the timeline shows them all.
	Related []*logs.Entry `json:"-"`
	// Ladder is this cause's own safe and caution rungs (its problem's ladder).
	Ladder []RemediationStep `json:"-"`
	// Claimed is what the cause claims beyond Objects and Related (claims.go).
	Claimed *ClaimSet `json:"-"`
	// Inline are the commands written inside Summary and Notes, see InlineCommands.
	Inline []string `json:"-"`
}

// Link is one step of a causal chain, from the namespace towards the root cause.
type Link struct {
	Component string `json:"component"` // "namespace controller", "APIService v1beta1.metrics.k8s.io", ...
	Finding   string `json:"finding"`
	// Fault is true when the link itself shows something broken (not only context);
	// the deepest fault of a chain is its root.
	Fault bool `json:"fault,omitempty"`
	// Root marks the deepest fault link of the chain (set by the analyzer).
	Root bool `json:"root,omitempty"`
	// State is the link's state in a few words of a closed vocabulary (analyzer.LinkState), from
	// the facts its own evidence establishes about its component; "" when none does.
	State string `json:"state,omitempty"`
	// Fix is what acts on this link, when the rule knows it; the root's fix is the
	// ladder's first rung.
	Fix      *RemediationStep `json:"fix,omitempty"`
	Evidence []Evidence       `json:"evidence,omitempty"`
	// FirstSeen and LastSeen are the earliest and latest times of the link's evidence.
	FirstSeen *time.Time `json:"firstSeen,omitempty"`
	LastSeen  *time.Time `json:"lastSeen,omitempty"`
	// Facts are what the link's evidence establishes, for the rungs' premises (facts.go).
	Facts []Fact `json:"-"`
	// Code is the state of the link's component as the fingerprint names it, one word of
	// a closed vocabulary (the Code... constants, or an error class of
	// kubemsg.ClassifyError read from the message the link quotes), set where the finding
	// is composed; "" when the link names none. The fingerprint reads it, never Finding.
	Code string `json:"-"`
	// Inline are the commands written inside Finding ("(collect: CMD)"), see
	// InlineCommands.
	Inline []string `json:"-"`
}

// ObjectRef names a Kubernetes object.
type ObjectRef struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Namespace  string     `json:"namespace"`
	Name       string     `json:"name"`
	Finalizers []string   `json:"finalizers,omitempty"`
	Deletion   *time.Time `json:"deletionTimestamp,omitempty"`
	Resource   string     `json:"resource,omitempty"` // kubectl resource name, e.g. "kubevirts.example.io"
	Source     *Evidence  `json:"source,omitempty"`
}

// Evidence is a quoted object field or log line.
type Evidence struct {
	File         string     `json:"file"`
	Line         int        `json:"line"`
	Time         *time.Time `json:"time"`
	TimeInferred bool       `json:"timeInferred,omitempty"`
	Component    string     `json:"component,omitempty"`
	Object       string     `json:"object,omitempty"` // Kind/namespace/name for object fields
	Field        string     `json:"field,omitempty"`
	Text         string     `json:"text"`
	Count        int        `json:"count,omitempty"` // how many lines of this shape the file holds (log evidence)
}

// RemediationStep is one rung of the remediation ladder.
type RemediationStep struct {
	// Risk follows from Changes (RiskOf), never set apart from it.
	Risk string `json:"risk"`
	// Changes says what the rung changes: ChangesNothing, ChangesWorkload, ChangesObject,
	// ChangesAPISurface or ChangesData (rungs.go); the most of what the rule declares and
	// what the command does.
	Changes string `json:"changes,omitempty"`
	Command string `json:"command"`
	Why     string `json:"why"`
	// Premise are the chain facts the rung relies on; the analyzer checks them against
	// the cause's chain (facts.go).
	Premise []Fact `json:"-"`
	// Gate is what a last resort waits for (GateAfterSteps, GateCauseUnderstood; "" for
	// other rungs) and Does what it does: Why is "Last resort, " + the gate's words + ": "
	// + Does. A renderer that shows the rung where its gate reads otherwise (no step
	// above it, the steps of several problems) writes it from Gate and Does, never by
	// editing Why.
	Gate string `json:"-"`
	Does string `json:"-"`
	// Lead is the first sentence of Why, what a first screen shows of the rung (the
	// ladder shows Why whole); set once the rung is finished (leads).
	Lead string `json:"-"`
}

// Last resort gates (RemediationStep.Gate).
const (
	GateAfterSteps      = "after-steps"      // only after the steps above
	GateCauseUnderstood = "cause-understood" // only once the cause is understood
)

// RuledOut is a cause that was checked and rejected.
type RuledOut struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// Risk is a broken piece of the cluster that will hang the next namespace deletion.
type Risk struct {
	Type     string     `json:"type"`
	Summary  string     `json:"summary"`
	Object   string     `json:"object,omitempty"`
	Evidence []Evidence `json:"evidence"`
	// Fix is what to do about it, least destructive first.
	Fix []RemediationStep `json:"fix,omitempty"`
	// Inline are the commands written inside Summary, see InlineCommands.
	Inline []string `json:"-"`
	// Unnamed: not a latent risk but a deletion under way whose namespace the bundle
	// does not name (a namespace deleter's condition pasted without its namespace).
	Unnamed bool `json:"unnamed,omitempty"`
}

// Gap is something the bundle lacked for a complete diagnosis. Renderers read its
// fields, never its sentence: gaps of one Kind with an Object say one thing about
// several objects and are folded into one line.
type Gap struct {
	// Kind is what is missing, one of the Gap... constants.
	Kind string `json:"kind"`
	// Object is what the gap is about (a pod "NAMESPACE/NAME", a namespace), "" when it
	// is about the bundle as a whole.
	Object string `json:"object,omitempty"`
	// Detail is what the gap says of its Object beyond its Kind (a pod's state).
	Detail string `json:"detail,omitempty"`
	// Missing says it in a sentence.
	Missing string `json:"missing"`
	Collect string `json:"collect"`
	// Why says why it matters for the diagnosis, when that is not plain from Missing.
	Why string `json:"why,omitempty"`
}

// The kinds of coverage gap (Gap.Kind).
const (
	GapNamespaces            = "namespaces"                  // no Namespace objects
	GapNamespaceListing      = "namespace-listing"           // only some namespaces collected
	GapNamespace             = "namespace"                   // a namespace asked for is not in the bundle
	GapNamespaceState        = "namespace-state"             // namespaces listed by name only
	GapNamespaceObjects      = "namespace-objects"           // no object of a stuck namespace dumped
	GapAPIServices           = "apiservices"                 // no APIService objects
	GapWebhookConfigurations = "webhook-configurations"      // no webhook configurations
	GapControllerManagerLog  = "kube-controller-manager-log" // no kube-controller-manager log
	GapAPIServerLog          = "kube-apiserver-log"          // no kube-apiserver log
	GapBackendPodLogs        = "backend-pod-logs"            // logs of a backend pod not running normally
	GapCollectorForbidden    = "collector-forbidden"         // the bundle collector was refused
	GapCollectorFailed       = "collector-failed"            // the bundle collector failed otherwise
	GapEncrypted             = "encrypted-members"           // archive members not read
)

// ObjectRefOf is the reference to an object a report gives, its source as evidence.
func ObjectRefOf(o *objects.Object) ObjectRef {
	ref := o.Ref()
	ev := Evidence{File: o.Source.File, Line: o.Source.Line, Object: ref, Text: ref}
	return ObjectRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name,
		Finalizers: o.Finalizers, Deletion: TimePtr(o.DeletionTimestamp), Source: &ev}
}
