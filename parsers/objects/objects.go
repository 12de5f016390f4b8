// Package objects decodes saved Kubernetes objects (`kubectl get -o json|yaml` output:
// single objects, Lists, typed lists, JSON arrays, multi-document YAML, concatenated
// documents) into small typed records that keep only what the analysis needs, each
// with its provenance (file and line).
package objects

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"
)

// KindVersionInfo is the synthetic kind of a saved `kubectl version -o json`.
const KindVersionInfo = "VersionInfo"

// Object is one Kubernetes object as saved in the bundle.
type Object struct {
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	UID        string

	CreationTimestamp time.Time // zero when absent
	DeletionTimestamp time.Time // zero when absent
	// DeletionShown says the object's deletion was requested where the rendering that
	// shows it carries no time: a `kubectl get` table's STATUS "Terminating", describe's
	// "Status: Terminating (lasts 13h)" (DeletionTimestamp stays zero then).
	DeletionShown   bool
	Finalizers      []string // metadata.finalizers
	Labels          map[string]string
	OwnerReferences []OwnerReference
	Managers        []string // metadata.managedFields[].manager, distinct, in order

	Phase          string      // status.phase
	Conditions     []Condition // status.conditions
	SpecFinalizers []string    // spec.finalizers (Namespace)

	Source Source

	// ServerVersion is the server's gitVersion of a KindVersionInfo record.
	ServerVersion string
	// KubeletVersion is a Node's status.nodeInfo.kubeletVersion (or the VERSION column
	// of a `kubectl get nodes` table).
	KubeletVersion string
	// Ages are the durations a text rendering printed for the object (nil for dumps):
	// they bound the capture time once its timestamps are known.
	Ages *Ages

	// Kind-specific details; nil unless Kind matches.
	APIService *APIServiceInfo
	Service    *ServiceInfo
	Endpoints  *EndpointsInfo // Endpoints and EndpointSlice
	Pod        *PodInfo
	Workload   *WorkloadInfo // Deployment, StatefulSet, DaemonSet, ReplicaSet
	Webhooks   []Webhook     // Validating/MutatingWebhookConfiguration
	CRD        *CRDInfo
	Event      *EventInfo
	Lease      *LeaseInfo
}

// Ages are what a kubectl text rendering says of an object's age, as kubectl rounds it
// (down): a table's AGE column (the time since its creationTimestamp when the table was
// printed) and describe's "Terminating (lasts 2d)" (the time since its
// deletionTimestamp). File and Line are the rendering's.
type Ages struct {
	Age, TerminatingFor time.Duration
	File                string
	Line                int
}

// FmtAge renders an age as kubectl would have (rounded down to its two largest units).
func FmtAge(d time.Duration) string {
	day := 24 * time.Hour
	switch {
	case d >= 365*day:
		return fmt.Sprintf("%dy%dd", d/(365*day), (d%(365*day))/day)
	case d >= day:
		if h := (d % day) / time.Hour; h > 0 {
			return fmt.Sprintf("%dd%dh", d/day, h)
		}
		return fmt.Sprintf("%dd", d/day)
	case d >= time.Hour:
		if m := (d % time.Hour) / time.Minute; m > 0 {
			return fmt.Sprintf("%dh%dm", d/time.Hour, m)
		}
		return fmt.Sprintf("%dh", d/time.Hour)
	case d >= time.Minute:
		if s := (d % time.Minute) / time.Second; s > 0 {
			return fmt.Sprintf("%dm%ds", d/time.Minute, s)
		}
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

// Source says where an object was read.
type Source struct {
	File string // path relative to the bundle root
	Line int    // line of the object's opening brace (JSON) or its document (YAML); 0 = unknown
	// Fields maps field paths ("metadata.deletionTimestamp", "spec.finalizers",
	// "status.phase", "metadata.finalizers") to their line, where it could be found.
	Fields map[string]int
	// Rendering is "" for objects read from JSON or YAML; for objects read from a text
	// rendering (parsers/text) it says which: "kubectl-get-table" (a row: no timestamps,
	// no finalizers, no condition messages) or "kubectl-describe".
	Rendering string
}

// LineOf returns the line of a field, or the object's line.
func (s Source) LineOf(field string) int {
	if l, ok := s.Fields[field]; ok {
		return l
	}
	return s.Line
}

// Group returns the API group of the object ("" for the core group).
func (o *Object) Group() string {
	if i := strings.LastIndexByte(o.APIVersion, '/'); i >= 0 {
		return o.APIVersion[:i]
	}
	return ""
}

// Ref renders "Kind/namespace/name" or "Kind/name".
func (o *Object) Ref() string {
	if o.Namespace == "" {
		return o.Kind + "/" + o.Name
	}
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

// Deleting reports whether the object's deletion was requested: a deletionTimestamp,
// or a rendering that shows it without its time (DeletionShown).
func (o *Object) Deleting() bool {
	return !o.DeletionTimestamp.IsZero() || o.DeletionShown
}

// Events yields the times the object records of what happened to it since it was
// made: its deletion, its conditions' transitions, a Lease's renewal, an Event's first
// and last time. Zero times are yielded too; creation is not (CreationTimestamp).
func (o *Object) Events() iter.Seq[time.Time] {
	return func(yield func(time.Time) bool) {
		if !yield(o.DeletionTimestamp) {
			return
		}
		for _, c := range o.Conditions {
			if !yield(c.LastTransitionTime) {
				return
			}
		}
		if o.Lease != nil && !yield(o.Lease.RenewTime) {
			return
		}
		if o.Event != nil && yield(o.Event.First) {
			yield(o.Event.Last)
		}
	}
}

// Condition returns the status condition of the given type, or nil.
func (o *Object) Condition(condType string) *Condition {
	for i := range o.Conditions {
		if o.Conditions[i].Type == condType {
			return &o.Conditions[i]
		}
	}
	return nil
}

// OwnerReference is a metadata.ownerReferences entry.
type OwnerReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Controller *bool  `json:"controller,omitempty"`
}

// Condition is a status condition.
type Condition struct {
	Type               string
	Status             string
	Reason             string
	Message            string
	LastTransitionTime time.Time
	Line               int // line of the condition in Source.File (0 = unknown)
}

// ServiceReference is a reference to a Service (APIService, webhook client config).
type ServiceReference struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Path      string `json:"path,omitempty"`
	Port      *int   `json:"port,omitempty"`
}

// APIServiceInfo holds an APIService's spec.
type APIServiceInfo struct {
	Group   string
	Version string
	Service *ServiceReference // nil for local APIServices
}

// ServiceInfo holds a Service's spec.
type ServiceInfo struct {
	Type         string
	ClusterIP    string
	ExternalName string
	Selector     map[string]string
	Ports        []ServicePort
}

// ServicePort is one Service port.
type ServicePort struct {
	Name       string
	Port       int
	TargetPort string
}

// EndpointsInfo summarises Endpoints or an EndpointSlice.
type EndpointsInfo struct {
	ServiceName string // EndpointSlice: label kubernetes.io/service-name; Endpoints: own name
	Ready       int    // ready addresses
	NotReady    int    // not-ready addresses
	PortNames   []string
	TargetPods  []string // names of the pods behind the addresses
}

// PodInfo holds what matters of a Pod.
type PodInfo struct {
	NodeName   string
	Ready      bool
	Restarts   int
	Waiting    []string // container waiting reasons (CrashLoopBackOff, ImagePullBackOff, ...)
	Terminated []string // last terminated reasons
	Images     []string
	PodIP      string
	Claims     []string // PersistentVolumeClaims its volumes mount (spec.volumes[].persistentVolumeClaim.claimName)
}

// WorkloadInfo holds what matters of a Deployment, StatefulSet, DaemonSet or ReplicaSet.
type WorkloadInfo struct {
	Replicas      *int
	ReadyReplicas int
	Images        []string
	Selector      map[string]string
}

// Webhook is one admission webhook of a configuration.
type Webhook struct {
	Name              string
	FailurePolicy     string
	Service           *ServiceReference
	URL               string
	Rules             []WebhookRule
	NamespaceSelector string // JSON of the selector, "" when absent
	TimeoutSeconds    *int
}

// WebhookRule is one rule of a webhook.
type WebhookRule struct {
	Operations  []string `json:"operations"`
	APIGroups   []string `json:"apiGroups"`
	APIVersions []string `json:"apiVersions"`
	Resources   []string `json:"resources"`
}

// CRDInfo holds a CustomResourceDefinition's spec.
type CRDInfo struct {
	Group              string
	Plural             string
	Kind               string
	Scope              string
	Versions           []string
	StorageVersion     string
	ConversionStrategy string
	ConversionService  *ServiceReference
}

// EventInfo holds a core/v1 or events.k8s.io/v1 Event.
type EventInfo struct {
	Involved  ObjectReference
	Reason    string
	Message   string
	Type      string
	Count     int
	First     time.Time
	Last      time.Time
	Component string
}

// ObjectReference names an object.
type ObjectReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}

// LeaseInfo holds a coordination.k8s.io Lease.
type LeaseInfo struct {
	Holder       string
	RenewTime    time.Time
	DurationSecs int
	AcquireTime  time.Time
	Transitions  int
}

// String renders an object reference for diagnostics.
func (o *Object) String() string {
	return fmt.Sprintf("%s (%s:%s)", o.Ref(), o.Source.File, strconv.Itoa(o.Source.Line))
}
