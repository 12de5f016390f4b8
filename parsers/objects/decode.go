package objects

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"sigs.k8s.io/yaml"
)

// DefaultMaxObjectBytes caps one object; larger ones are skipped with a warning.
const DefaultMaxObjectBytes = 64 << 20

// Options tune decoding.
type Options struct {
	// KindHint is used for objects that carry no kind and sit in no typed list
	// (e.g. troubleshoot's custom-resources files); "" = none.
	KindHint string
	// MaxObjectBytes caps one object (default DefaultMaxObjectBytes).
	MaxObjectBytes int
	// Keep, when set, is asked about each JSON object before it is decoded in full, with
	// a head that holds only Kind, APIVersion, Name, Namespace, UID, CreationTimestamp,
	// Source and, for Events, Event.Type, Event.Involved.Kind and Event.Last. When it
	// returns false, the head is emitted instead of the full object (the caller drops
	// it). Objects with finalizers or a deletionTimestamp, and any object whose head
	// cannot be read cheaply and exactly, are always decoded in full. Keep is called
	// from several goroutines.
	Keep func(*Object) bool
}

// DecodeJSON reads a stream of JSON documents from r (the file at path, relative to the
// bundle root) and calls emit for every object in it. Malformed parts are reported to
// warn with their line; everything readable before them is still emitted. It returns
// the number of objects emitted. A bug caught while reading (a panic) becomes a
// diag.InternalError warning and ends the file.
func DecodeJSON(r io.Reader, path string, opts Options, warn *diag.Sink, emit func(*Object)) (n int) {
	defer warn.Catch(path)
	if opts.MaxObjectBytes <= 0 {
		opts.MaxObjectBytes = DefaultMaxObjectBytes
	}
	sp := newSplitter(r, opts.MaxObjectBytes)
	if runtime.GOMAXPROCS(0) > 1 {
		return decodeParallel(sp, path, opts, warn, emit, &n)
	}
	var st splitState
	d := newItemDecoder(opts.Keep)
	for {
		it, err := sp.next(&st)
		if err != nil {
			splitError(err, sp.line, path, warn)
			return n
		}
		if it.raw == nil {
			continue
		}
		if o := safeDecodeJSONItem(it, path, opts, warn, d); o != nil {
			emit(o)
			n++
		}
	}
}

// itemDecoder is the state one decoding goroutine keeps between items: which kinds
// opts.Keep wants whatever their content (Pods, Services, ...; those are not read
// twice), and the buffer pruned items are written to.
type itemDecoder struct {
	keep   func(*Object) bool
	kinds  map[string]bool
	pruned []byte
}

func newItemDecoder(keep func(*Object) bool) *itemDecoder {
	return &itemDecoder{keep: keep, kinds: map[string]bool{}}
}

func (d *itemDecoder) wantsAll(kind string) bool {
	if kind == "" || d.keep == nil {
		return false
	}
	v, ok := d.kinds[kind]
	if !ok {
		v = d.keep(&Object{Kind: kind})
		if len(d.kinds) < 256 { // kinds are few; a hostile stream of names is not cached
			d.kinds[kind] = v
		}
	}
	return v
}

// decodeJSONItem decodes one item of a JSON stream, or only its head when opts.Keep
// does not want it. Items decoded in full go through the fast decoder (fastdecode.go);
// those it declines are pruned (prune.go) and decoded by encoding/json.
func decodeJSONItem(it item, path string, opts Options, warn warner, d *itemDecoder) *Object {
	if it.internal {
		it.raw = externalize(it.raw)
	}
	if opts.Keep != nil {
		if h := quickHead(it, path, opts, d.wantsAll); h != nil && !opts.Keep(h) {
			return h
		}
	}
	if !disableFastDecode.Load() {
		var w wire
		if fastDecodeWire(it.raw, &w) {
			return objectFromWire(it, &w, path, 0, opts, warn)
		}
	}
	body := it.raw
	if !disablePrune.Load() {
		if pr, ok := pruneItem(it.raw, d.pruned); ok {
			body, d.pruned = pr, pr
		}
	}
	return decodeItem(it, body, path, 0, opts, warn)
}

// disablePrune makes every item decode whole (tests compare both ways).
var disablePrune atomic.Bool

// disableFastDecode sends every item through pruning and encoding/json, as if the fast
// decoder (fastdecode.go) declined it (tests compare both ways).
var disableFastDecode atomic.Bool

// DecodeYAML reads multi-document YAML (documents separated by `---` lines) and calls
// emit for every object in it.
func DecodeYAML(r io.Reader, path string, opts Options, warn *diag.Sink, emit func(*Object)) (n int) {
	defer warn.Catch(path)
	if opts.MaxObjectBytes <= 0 {
		opts.MaxObjectBytes = DefaultMaxObjectBytes
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var doc bytes.Buffer
	docLine, line := 1, 0
	tooBig := false
	flush := func() {
		defer func() { doc.Reset(); tooBig = false }()
		if tooBig {
			warn.Add(path, docLine, "YAML document larger than %d bytes skipped", opts.MaxObjectBytes)
			return
		}
		if len(bytes.TrimSpace(doc.Bytes())) == 0 {
			return
		}
		if bytes.IndexByte(doc.Bytes(), '&') >= 0 && bytes.IndexByte(doc.Bytes(), '*') >= 0 {
			// anchors and aliases: a small document may expand to gigabytes
			if size, ok := yamlExpansion(doc.Bytes(), opts.MaxObjectBytes); !ok {
				warn.Add(path, docLine, "YAML document whose aliases expand to more than %d bytes (%d bytes read so far) skipped", opts.MaxObjectBytes, size)
				return
			}
		}
		src := doc.Bytes()
		if bytes.Contains(src, redactedMarker) {
			src = quoteRedacted(src)
		}
		js, err := yaml.YAMLToJSON(src)
		if err != nil {
			warn.Add(path, docLine, "invalid YAML document: %v", err)
			return
		}
		if len(js) == 0 || js[0] != '{' && js[0] != '[' {
			return
		}
		n += decodeYAMLDoc(js, path, docLine, opts, warn, emit)
	}
	for {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 {
			line++
			if bytes.HasPrefix(l, []byte("---")) && len(bytes.TrimSpace(l[3:])) == 0 {
				flush()
				docLine = line + 1
			} else if doc.Len()+len(l) > opts.MaxObjectBytes {
				tooBig = true
			} else if !tooBig {
				doc.Write(l)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			line-- // the same line continues
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				warn.Add(path, line, "read error: %v", err)
			}
			break
		}
	}
	flush()
	return n
}

func decodeYAMLDoc(js []byte, path string, line int, opts Options, warn *diag.Sink, emit func(*Object)) int {
	sp := newSplitterSize(bytes.NewReader(js), opts.MaxObjectBytes, len(js)+512)
	var st splitState
	n := 0
	for {
		it, err := sp.next(&st)
		if err != nil {
			return n
		}
		if it.raw == nil {
			continue
		}
		it.line = line
		if o := decodeItem(it, it.raw, path, line, opts, warn); o != nil {
			o.Source.Fields = nil // lines of the converted JSON say nothing about the YAML
			emit(o)
			n++
		}
	}
}

// wire is the union of the fields the analysis reads, across kinds. Fields of other
// kinds simply stay empty; unknown fields are skipped by the decoder. Its parts are
// named types so that the fast decoder (fastdecode.go) can fill each of them; adding a
// field here without teaching fastdecode.go makes the fast decoder decline the objects
// that hold it (its key names a wire field it does not read), never misread them.
type wire struct {
	APIVersion string       `json:"apiVersion"`
	Kind       string       `json:"kind"`
	Metadata   wireMetadata `json:"metadata"`
	Spec       wireSpec     `json:"spec"`
	Status     wireStatus   `json:"status"`
	// Endpoints
	Subsets []wireSubset `json:"subsets"`
	// EndpointSlice
	Endpoints []wireEndpoint  `json:"endpoints"`
	Ports     []wireSlicePort `json:"ports"`
	// Webhook configurations
	Webhooks []wireWebhook `json:"webhooks"`
	// core/v1 Event
	InvolvedObject *ObjectReference `json:"involvedObject"`
	Reason         string           `json:"reason"`
	Message        string           `json:"message"`
	Type           string           `json:"type"`
	Count          int              `json:"count"`
	FirstTimestamp string           `json:"firstTimestamp"`
	LastTimestamp  string           `json:"lastTimestamp"`
	EventTime      string           `json:"eventTime"`
	EventSource    wireEventSource  `json:"source"`
	// events.k8s.io/v1 Event
	Regarding               *ObjectReference `json:"regarding"`
	Note                    string           `json:"note"`
	DeprecatedLastTimestamp string           `json:"deprecatedLastTimestamp"`
	DeprecatedCount         int              `json:"deprecatedCount"`
	ReportingController     string           `json:"reportingController"`
	// `kubectl version -o json`
	ServerVersion *wireServerVersion `json:"serverVersion"`
}

// wireMetadata is an object's metadata.
type wireMetadata struct {
	Name              string             `json:"name"`
	Namespace         string             `json:"namespace"`
	UID               string             `json:"uid"`
	CreationTimestamp string             `json:"creationTimestamp"`
	DeletionTimestamp string             `json:"deletionTimestamp"`
	Finalizers        []string           `json:"finalizers"`
	Labels            map[string]string  `json:"labels"`
	OwnerReferences   []OwnerReference   `json:"ownerReferences"`
	ManagedFields     []wireManagedField `json:"managedFields"`
}

// wireManagedField is a metadata.managedFields entry.
type wireManagedField struct {
	Manager string `json:"manager"`
}

// wireSpec is the union of the specs read, across kinds.
type wireSpec struct {
	Finalizers []string `json:"finalizers"`
	// APIService, CRD
	Group   string            `json:"group"`
	Version string            `json:"version"`
	Service *ServiceReference `json:"service"`
	// Service
	Type         string            `json:"type"`
	ClusterIP    string            `json:"clusterIP"`
	ExternalName string            `json:"externalName"`
	Selector     json.RawMessage   `json:"selector"`
	Ports        []wireServicePort `json:"ports"`
	// Pod
	NodeName   string          `json:"nodeName"`
	Containers []wireContainer `json:"containers"`
	// workloads
	Replicas *int         `json:"replicas"`
	Template wireTemplate `json:"template"`
	// CRD
	Names      wireCRDNames     `json:"names"`
	Scope      string           `json:"scope"`
	Versions   []wireCRDVersion `json:"versions"`
	Conversion *wireConversion  `json:"conversion"`
	// Lease
	HolderIdentity       *string `json:"holderIdentity"`
	RenewTime            string  `json:"renewTime"`
	AcquireTime          string  `json:"acquireTime"`
	LeaseDurationSeconds int     `json:"leaseDurationSeconds"`
	LeaseTransitions     int     `json:"leaseTransitions"`
	// Pod
	Volumes []wireVolume `json:"volumes"`
}

// wireVolume is a pod's spec.volumes entry: only the claim it mounts matters (a
// PersistentVolumeClaim is held by kubernetes.io/pvc-protection while a pod mounts it).
type wireVolume struct {
	PersistentVolumeClaim *wireClaimSource `json:"persistentVolumeClaim"`
}

// wireClaimSource is a volume's persistentVolumeClaim.
type wireClaimSource struct {
	ClaimName string `json:"claimName"`
}

// wireServicePort is a Service's spec.ports entry.
type wireServicePort struct {
	Name       string          `json:"name"`
	Port       int             `json:"port"`
	TargetPort json.RawMessage `json:"targetPort"`
}

// wireTemplate is a workload's spec.template.
type wireTemplate struct {
	Spec wirePodSpec `json:"spec"`
}

// wirePodSpec is the pod spec of a workload's template.
type wirePodSpec struct {
	Containers []wireContainer `json:"containers"`
}

// wireCRDNames is a CRD's spec.names.
type wireCRDNames struct {
	Plural string `json:"plural"`
	Kind   string `json:"kind"`
}

// wireCRDVersion is a CRD's spec.versions entry.
type wireCRDVersion struct {
	Name    string `json:"name"`
	Storage bool   `json:"storage"`
}

// wireConversion is a CRD's spec.conversion.
type wireConversion struct {
	Strategy            string              `json:"strategy"`
	Webhook             *wireConversionHook `json:"webhook"`
	WebhookClientConfig *wireClientConfig   `json:"webhookClientConfig"`
}

// wireConversionHook is a CRD's spec.conversion.webhook.
type wireConversionHook struct {
	ClientConfig wireClientConfig `json:"clientConfig"`
}

// wireStatus is the union of the statuses read, across kinds.
type wireStatus struct {
	Phase      string          `json:"phase"`
	Conditions []wireCondition `json:"conditions"`
	// Pod
	ContainerStatuses []wireContainerStatus `json:"containerStatuses"`
	PodIP             string                `json:"podIP"`
	// workloads
	ReadyReplicas int `json:"readyReplicas"`
	// Node
	NodeInfo *wireNodeInfo `json:"nodeInfo"`
}

// wireNodeInfo is a Node's status.nodeInfo.
type wireNodeInfo struct {
	KubeletVersion string `json:"kubeletVersion"`
}

// wireContainerStatus is a Pod's status.containerStatuses entry.
type wireContainerStatus struct {
	Ready        bool               `json:"ready"`
	RestartCount int                `json:"restartCount"`
	State        wireContainerState `json:"state"`
	LastState    wireLastState      `json:"lastState"`
}

// wireContainerState is a container status's state.
type wireContainerState struct {
	Waiting *wireReason `json:"waiting"`
}

// wireLastState is a container status's lastState.
type wireLastState struct {
	Terminated *wireReason `json:"terminated"`
}

// wireReason is a container state's reason.
type wireReason struct {
	Reason string `json:"reason"`
}

// wireSubset is an Endpoints' subsets entry.
type wireSubset struct {
	Addresses         []wireAddress  `json:"addresses"`
	NotReadyAddresses []wireAddress  `json:"notReadyAddresses"`
	Ports             []wirePortName `json:"ports"`
}

// wirePortName is a port of which only the name is read.
type wirePortName struct {
	Name string `json:"name"`
}

// wireEndpoint is an EndpointSlice's endpoints entry.
type wireEndpoint struct {
	Addresses  []string               `json:"addresses"`
	Conditions wireEndpointConditions `json:"conditions"`
	TargetRef  *ObjectReference       `json:"targetRef"`
}

// wireEndpointConditions is an EndpointSlice endpoint's conditions.
type wireEndpointConditions struct {
	Ready *bool `json:"ready"`
}

// wireSlicePort is an EndpointSlice's ports entry (the name may be null).
type wireSlicePort struct {
	Name *string `json:"name"`
}

// wireWebhook is a webhook configuration's webhooks entry.
type wireWebhook struct {
	Name              string           `json:"name"`
	FailurePolicy     string           `json:"failurePolicy"`
	ClientConfig      wireClientConfig `json:"clientConfig"`
	Rules             []WebhookRule    `json:"rules"`
	NamespaceSelector json.RawMessage  `json:"namespaceSelector"`
	TimeoutSeconds    *int             `json:"timeoutSeconds"`
}

// wireEventSource is a core/v1 Event's source.
type wireEventSource struct {
	Component string `json:"component"`
}

// wireServerVersion is the serverVersion of `kubectl version -o json`.
type wireServerVersion struct {
	GitVersion string `json:"gitVersion"`
}

// wireContainer is a container of a pod spec.
type wireContainer struct {
	Image string `json:"image"`
}

// wireClientConfig is a webhook's client config.
type wireClientConfig struct {
	Service *ServiceReference `json:"service"`
	URL     string            `json:"url"`
}

// wireAddress is an Endpoints address.
type wireAddress struct {
	IP        string           `json:"ip"`
	TargetRef *ObjectReference `json:"targetRef"`
}

// wireCondition is a status.conditions entry.
type wireCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	Reason             string `json:"reason"`
	Message            string `json:"message"`
	LastTransitionTime string `json:"lastTransitionTime"`
}

// decodeItem turns one object's JSON (body: it.raw, or it pruned) into an Object. Wrong
// field types are reported and the rest of the object is kept (the decoder fills what
// it can).
func decodeItem(it item, body []byte, path string, yamlLine int, opts Options, warn warner) *Object {
	var w wire
	var te *json.UnmarshalTypeError
	if err := unmarshalWire(body, &w); err != nil && !errors.As(err, &te) {
		warn.Add(path, it.line, "invalid object skipped: %v", err)
		return nil
	}
	o := objectFromWire(it, &w, path, yamlLine, opts, warn)
	if te != nil && o != nil {
		// only about Kubernetes objects: a file of other JSON (healthz.json's
		// {"status":200}, Prometheus alerts, sonobuoy results) is not one, whatever its types
		warn.Add(path, it.line, "object has a field of the wrong type (%s: %s), the rest of it was read", te.Field, te.Value)
	}
	return o
}

// objectFromWire builds the Object of an item from its decoded wire struct (filled by
// encoding/json or by the fast decoder: the same wire gives the same Object and the
// same warnings). It returns nil for what is not a Kubernetes object.
func objectFromWire(it item, w *wire, path string, yamlLine int, opts Options, warn warner) *Object {
	if w.Kind == "" {
		switch {
		case strings.HasSuffix(it.listKind, "List") && it.listKind != "List":
			w.Kind = strings.TrimSuffix(it.listKind, "List")
		case opts.KindHint != "":
			w.Kind = opts.KindHint
		}
	}
	if w.APIVersion == "" && it.listAPIVer != "" && it.listKind != "List" {
		w.APIVersion = it.listAPIVer
	}
	if w.Kind == "" && w.Metadata.Name == "" {
		if w.ServerVersion != nil && w.ServerVersion.GitVersion != "" {
			return &Object{Kind: KindVersionInfo, Name: "server", ServerVersion: w.ServerVersion.GitVersion, Source: Source{File: path, Line: it.line}}
		}
		return nil // not a Kubernetes object
	}
	o := &Object{
		APIVersion:        w.APIVersion,
		Kind:              w.Kind,
		Name:              w.Metadata.Name,
		Namespace:         w.Metadata.Namespace,
		UID:               w.Metadata.UID,
		CreationTimestamp: parseTime(w.Metadata.CreationTimestamp),
		DeletionTimestamp: parseTime(w.Metadata.DeletionTimestamp),
		Finalizers:        w.Metadata.Finalizers,
		Labels:            w.Metadata.Labels,
		OwnerReferences:   w.Metadata.OwnerReferences,
		Managers:          managers(w.Metadata.ManagedFields),
		Phase:             w.Status.Phase,
		SpecFinalizers:    w.Spec.Finalizers,
		Source:            Source{File: path, Line: it.line},
	}
	if w.Status.NodeInfo != nil && o.Kind == "Node" {
		o.KubeletVersion = w.Status.NodeInfo.KubeletVersion
	}
	if w.Metadata.DeletionTimestamp != "" && timeStatus(w.Metadata.DeletionTimestamp) == timeInvalid {
		warn.Add(path, it.line, "%s: metadata.deletionTimestamp %q is not an RFC3339 time", o.Ref(), capString(w.Metadata.DeletionTimestamp))
	}
	if len(w.Status.Conditions) > 0 {
		o.Conditions = make([]Condition, 0, len(w.Status.Conditions))
	}
	for _, c := range w.Status.Conditions {
		o.Conditions = append(o.Conditions, Condition{
			Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
			LastTransitionTime: parseTime(c.LastTransitionTime),
		})
	}
	fillKind(o, w)
	checkTimes(o, w, path, it.line, warn)
	if len(it.raw) > MaxStringBytes {
		capStrings(o, path, it.line, warn)
	}
	if yamlLine == 0 && (citedConditions[o.Kind] || !o.DeletionTimestamp.IsZero() || len(o.Finalizers) > 0) {
		locateFields(o, it.raw, it.line)
	}
	return o
}

// managers lists the distinct field managers of an object (managedFields[].manager).
// managerCompares counts the comparisons managers makes (TestManagersLinear: work is
// counted, not timed).
var managerCompares atomic.Int64

func managers(mf []wireManagedField) []string {
	var out []string
	var seen map[string]bool // past a few managers: linear, not quadratic
	for _, m := range mf {
		if m.Manager == "" {
			continue
		}
		if seen == nil && len(out) >= 16 {
			seen = make(map[string]bool, len(out))
			for _, x := range out {
				seen[x] = true
			}
		}
		if seen != nil {
			managerCompares.Add(1)
			if !seen[m.Manager] {
				seen[m.Manager] = true
				out = append(out, m.Manager)
			}
		} else {
			managerCompares.Add(int64(len(out)))
			if !slices.Contains(out, m.Manager) {
				out = append(out, m.Manager)
			}
		}
	}
	return out
}

func fillKind(o *Object, w *wire) {
	switch o.Kind {
	case "APIService":
		o.APIService = &APIServiceInfo{Group: w.Spec.Group, Version: w.Spec.Version, Service: w.Spec.Service}
	case "Service":
		s := &ServiceInfo{Type: w.Spec.Type, ClusterIP: w.Spec.ClusterIP, ExternalName: w.Spec.ExternalName}
		_ = json.Unmarshal(w.Spec.Selector, &s.Selector)
		for _, p := range w.Spec.Ports {
			s.Ports = append(s.Ports, ServicePort{Name: p.Name, Port: p.Port, TargetPort: strings.Trim(string(p.TargetPort), `"`)})
		}
		o.Service = s
	case "Endpoints":
		e := &EndpointsInfo{ServiceName: o.Name}
		for _, ss := range w.Subsets {
			e.Ready += len(ss.Addresses)
			e.NotReady += len(ss.NotReadyAddresses)
			for _, p := range ss.Ports {
				e.PortNames = append(e.PortNames, p.Name)
			}
			for _, a := range append(ss.Addresses, ss.NotReadyAddresses...) {
				if a.TargetRef != nil && a.TargetRef.Kind == "Pod" {
					e.TargetPods = append(e.TargetPods, a.TargetRef.Name)
				}
			}
		}
		o.Endpoints = e
	case "EndpointSlice":
		e := &EndpointsInfo{ServiceName: o.Labels["kubernetes.io/service-name"]}
		for _, ep := range w.Endpoints {
			if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
				e.Ready += len(ep.Addresses)
			} else {
				e.NotReady += len(ep.Addresses)
			}
			if ep.TargetRef != nil && ep.TargetRef.Kind == "Pod" {
				e.TargetPods = append(e.TargetPods, ep.TargetRef.Name)
			}
		}
		for _, p := range w.Ports {
			if p.Name != nil {
				e.PortNames = append(e.PortNames, *p.Name)
			}
		}
		o.Endpoints = e
	case "Pod":
		p := &PodInfo{NodeName: w.Spec.NodeName, PodIP: w.Status.PodIP}
		if len(w.Spec.Containers) > 0 {
			p.Images = make([]string, 0, len(w.Spec.Containers))
		}
		for _, c := range w.Spec.Containers {
			p.Images = append(p.Images, c.Image)
		}
		for _, v := range w.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName != "" {
				p.Claims = append(p.Claims, v.PersistentVolumeClaim.ClaimName)
			}
		}
		if c := o.Condition("Ready"); c != nil && c.Status == "True" {
			p.Ready = true
		}
		for _, cs := range w.Status.ContainerStatuses {
			p.Restarts += cs.RestartCount
			if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
				p.Waiting = append(p.Waiting, cs.State.Waiting.Reason)
			}
			if cs.LastState.Terminated != nil && cs.LastState.Terminated.Reason != "" {
				p.Terminated = append(p.Terminated, cs.LastState.Terminated.Reason)
			}
		}
		o.Pod = p
	case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet":
		wl := &WorkloadInfo{Replicas: w.Spec.Replicas, ReadyReplicas: w.Status.ReadyReplicas}
		for _, c := range w.Spec.Template.Spec.Containers {
			wl.Images = append(wl.Images, c.Image)
		}
		var sel struct {
			MatchLabels map[string]string `json:"matchLabels"`
		}
		_ = json.Unmarshal(w.Spec.Selector, &sel)
		wl.Selector = sel.MatchLabels
		o.Workload = wl
	case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration":
		for _, wh := range w.Webhooks {
			h := Webhook{Name: wh.Name, FailurePolicy: wh.FailurePolicy, Service: wh.ClientConfig.Service,
				URL: wh.ClientConfig.URL, Rules: wh.Rules, TimeoutSeconds: wh.TimeoutSeconds}
			if h.FailurePolicy == "" {
				h.FailurePolicy = "Fail" // the admissionregistration.k8s.io/v1 default
			}
			if len(wh.NamespaceSelector) > 0 && string(wh.NamespaceSelector) != "{}" && string(wh.NamespaceSelector) != "null" {
				h.NamespaceSelector = string(wh.NamespaceSelector)
			}
			o.Webhooks = append(o.Webhooks, h)
		}
	case "CustomResourceDefinition":
		c := &CRDInfo{Group: w.Spec.Group, Plural: w.Spec.Names.Plural, Kind: w.Spec.Names.Kind, Scope: w.Spec.Scope}
		for _, v := range w.Spec.Versions {
			c.Versions = append(c.Versions, v.Name)
			if v.Storage {
				c.StorageVersion = v.Name
			}
		}
		if w.Spec.Version != "" && len(c.Versions) == 0 {
			c.Versions = []string{w.Spec.Version}
		}
		if cv := w.Spec.Conversion; cv != nil {
			c.ConversionStrategy = cv.Strategy
			if cv.Webhook != nil {
				c.ConversionService = cv.Webhook.ClientConfig.Service
			} else if cv.WebhookClientConfig != nil {
				c.ConversionService = cv.WebhookClientConfig.Service
			}
		}
		o.CRD = c
	case "Event":
		e := &EventInfo{Reason: w.Reason, Type: w.Type, Message: w.Message, Count: w.Count,
			First: parseTime(w.FirstTimestamp), Last: parseTime(w.LastTimestamp), Component: w.EventSource.Component}
		if w.InvolvedObject != nil {
			e.Involved = *w.InvolvedObject
		}
		if w.Regarding != nil {
			e.Involved = *w.Regarding
		}
		if e.Message == "" {
			e.Message = w.Note
		}
		if e.Last.IsZero() {
			e.Last = parseTime(w.DeprecatedLastTimestamp)
		}
		if e.Last.IsZero() {
			e.Last = parseTime(w.EventTime)
		}
		if e.First.IsZero() {
			e.First = e.Last
		}
		if e.Count == 0 {
			e.Count = w.DeprecatedCount
		}
		if e.Component == "" {
			e.Component = w.ReportingController
		}
		o.Event = e
	case "Lease":
		l := &LeaseInfo{RenewTime: parseTime(w.Spec.RenewTime), AcquireTime: parseTime(w.Spec.AcquireTime),
			DurationSecs: w.Spec.LeaseDurationSeconds, Transitions: w.Spec.LeaseTransitions}
		if w.Spec.HolderIdentity != nil {
			l.Holder = *w.Spec.HolderIdentity
		}
		o.Lease = l
	}
}

// parseTime reads RFC3339 (metav1.Time) and RFC3339 with fractions (metav1.MicroTime).
// A time outside years 0001-9999 once in UTC (which JSON cannot carry) is no time;
// 0001-01-01T00:00:00Z, Go's zero time, is no time too.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	t = t.UTC()
	if !diag.InRange(t) {
		return time.Time{}
	}
	return t
}

const (
	timeOK = iota
	timeInvalid
	timeOutOfRange
)

// timeStatus tells a valid time from one that is not RFC3339 and from one outside
// years 0001-9999 in UTC.
func timeStatus(s string) int {
	t, err := time.Parse(time.RFC3339Nano, s)
	switch {
	case err != nil:
		return timeInvalid
	case !diag.InRange(t.UTC()):
		return timeOutOfRange
	}
	return timeOK
}

// checkTimes reports the times of an object that lie outside years 0001-9999 (they
// were read as no time).
func checkTimes(o *Object, w *wire, path string, line int, warn warner) {
	check := func(field, v string) {
		if v != "" && timeStatus(v) == timeOutOfRange {
			warn.Add(path, line, "%s: %s %q is outside years 0001-9999, ignored", o.Ref(), field, capString(v))
		}
	}
	check("metadata.creationTimestamp", w.Metadata.CreationTimestamp)
	check("metadata.deletionTimestamp", w.Metadata.DeletionTimestamp)
	for _, c := range w.Status.Conditions {
		check("status.conditions[].lastTransitionTime", c.LastTransitionTime)
	}
	if o.Event != nil {
		check("firstTimestamp", w.FirstTimestamp)
		check("lastTimestamp", w.LastTimestamp)
		check("deprecatedLastTimestamp", w.DeprecatedLastTimestamp)
		check("eventTime", w.EventTime)
	}
	if o.Lease != nil {
		check("spec.renewTime", w.Spec.RenewTime)
		check("spec.acquireTime", w.Spec.AcquireTime)
	}
}

// citedConditions are the kinds whose status.phase and status.conditions evidence
// quotes line by line (a stuck namespace's conditions, an APIService's Available, a
// node's Ready); for the others (tens of thousands of Pods) their lines are not looked
// up and evidence names the object's line.
var citedConditions = map[string]bool{"Namespace": true, "APIService": true, "Node": true}

// locateFields records the lines of the fields evidence quotes, by finding them in the
// object's text.
func locateFields(o *Object, raw []byte, line int) {
	if bytes.IndexByte(raw, '\n') < 0 {
		// one line (kubectl -o json of a List puts each item on many; jq -c and many
		// collectors on one): every field is on the object's line, which is what
		// Source.LineOf and the condition evidence fall back to
		return
	}
	lineAt := func(i int) int { return line + bytes.Count(raw[:i], []byte{'\n'}) }
	find := func(field, needle string) {
		if i := bytes.Index(raw, []byte(needle)); i >= 0 {
			if o.Source.Fields == nil {
				o.Source.Fields = map[string]int{}
			}
			o.Source.Fields[field] = lineAt(i)
		}
	}
	find("metadata.deletionTimestamp", `"deletionTimestamp"`)
	if i := bytes.Index(raw, []byte(`"finalizers"`)); i >= 0 {
		// the first "finalizers" key may be metadata's or spec's; tell them apart by the
		// values we decoded
		find("metadata.finalizers", `"finalizers"`)
		if len(o.SpecFinalizers) > 0 {
			if j := bytes.Index(raw, []byte(`"spec"`)); j >= 0 {
				if k := bytes.Index(raw[j:], []byte(`"finalizers"`)); k >= 0 {
					o.Source.Fields["spec.finalizers"] = lineAt(j + k)
				}
			}
		}
	}
	if !citedConditions[o.Kind] {
		return
	}
	find("status.phase", `"phase"`)
	statusAt := bytes.Index(raw, []byte(`"conditions"`))
	if statusAt < 0 {
		return
	}
	for i := range o.Conditions {
		c := &o.Conditions[i]
		needle := `"` + c.Type + `"`
		if c.Message != "" {
			if enc, err := json.Marshal(c.Message); err == nil {
				if k := bytes.Index(raw[statusAt:], enc); k >= 0 {
					c.Line = lineAt(statusAt + k)
					continue
				}
			}
		}
		if k := bytes.Index(raw[statusAt:], []byte(needle)); k >= 0 {
			c.Line = lineAt(statusAt + k)
		}
	}
}

// Sniff tells what a file holds from its first bytes: "json", "yaml", "jsonlog"
// (one JSON log record per line), "binary" or "text".
func Sniff(head []byte) string {
	if looksBinary(head) {
		return "binary"
	}
	if bytes.IndexByte(head, 0) >= 0 {
		// text with NUL bytes (a log preallocated or cut by a crash): the NULs are not content
		head = bytes.ReplaceAll(head, []byte{0}, nil)
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	t = bytes.TrimPrefix(t, []byte("\xef\xbb\xbf"))
	if len(t) == 0 {
		return "text"
	}
	switch t[0] {
	case '[':
		return "json"
	case '{':
		first := t
		if nl := bytes.IndexByte(t, '\n'); nl >= 0 {
			first = t[:nl]
		}
		if (bytes.Contains(first, []byte(`"ts":`)) && bytes.Contains(first, []byte(`"msg":`))) ||
			bytes.HasPrefix(first, []byte(`{"log":`)) || jsonLogLine(first) {
			return "jsonlog"
		}
		return "json"
	}
	for _, p := range []string{"apiVersion:", "kind:", "---", "items:", "metadata:"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return "yaml"
		}
	}
	return "text"
}

// jsonLogLine reports whether the first line of a file is a whole JSON log record of
// another shape than component-base's: logrus/zap (`{"level":..,"msg":..,"time":..}`)
// or journalctl -o json (`{"MESSAGE":..,"__REALTIME_TIMESTAMP":..}`); never an object
// with an apiVersion.
func jsonLogLine(first []byte) bool {
	first = bytes.TrimRight(first, " \t\r")
	if len(first) < 2 || first[len(first)-1] != '}' || bytes.Contains(first, []byte(`"apiVersion":`)) {
		return false
	}
	if bytes.Contains(first, []byte(`"__REALTIME_TIMESTAMP":`)) && bytes.Contains(first, []byte(`"MESSAGE":`)) {
		return true
	}
	return bytes.Contains(first, []byte(`"msg":`)) && bytes.Contains(first, []byte(`"time":`)) && bytes.Contains(first, []byte(`"level":`))
}

// looksBinary tells binary data from text that merely holds some NUL bytes (logs of a
// node that crashed are often padded with NULs): it is binary when it is all NULs, or
// when more than 1 in 20 of its other bytes are control characters that text never
// holds.
func looksBinary(head []byte) bool {
	nul, ctrl := 0, 0
	for _, c := range head {
		switch {
		case c == 0:
			nul++
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' && c != 0x1b, c == 0x7f:
			ctrl++
		}
	}
	other := len(head) - nul
	return (nul > 0 && other == 0) || ctrl*20 > other
}

// String renders an object reference for diagnostics.
func (o *Object) String() string {
	return fmt.Sprintf("%s (%s:%s)", o.Ref(), o.Source.File, strconv.Itoa(o.Source.Line))
}

// Bytes that are not UTF-8 are kept as bytes, never replaced by U+FFFD: "team\xffa",
// "team\xfea" and "team\uFFFDa" are three namespaces, and a report must show three.
// encoding/json replaces such bytes, so before it reads an object each one (0x80-0xFF)
// becomes a code point of the last private-use plane (U+10FF80-U+10FFFF), which
// runesToBytes turns back into the byte in every decoded string. An object that holds
// one of those code points itself is read as encoding/json reads it.
const keptByteBase = 0x10ff00

// unmarshalWire is json.Unmarshal of one object into its wire struct, keeping bytes
// that are not UTF-8.
func unmarshalWire(body []byte, w *wire) error {
	keep := !utf8.Valid(body) && canKeepBytes(body)
	if keep {
		body = bytesToRunes(body)
	}
	err := json.Unmarshal(body, w)
	if keep {
		runesToBytes(reflect.ValueOf(w).Elem())
	}
	return err
}

func canKeepBytes(b []byte) bool {
	return !bytes.Contains(b, []byte{0xf4, 0x8f, 0xbe}) && !bytes.Contains(b, []byte{0xf4, 0x8f, 0xbf})
}

func bytesToRunes(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			out = utf8.AppendRune(out, keptByteBase+rune(b[i]))
			i++
			continue
		}
		out = append(out, b[i:i+n]...)
		i += n
	}
	return out
}

func runesToBytes(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if !strings.Contains(s, "\xf4\x8f") {
			return
		}
		var b strings.Builder
		for _, r := range s {
			if r >= keptByteBase+0x80 && r <= keptByteBase+0xff {
				b.WriteByte(byte(r - keptByteBase))
			} else {
				b.WriteRune(r)
			}
		}
		v.SetString(b.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			runesToBytes(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).CanSet() {
				runesToBytes(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			runesToBytes(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			runesToBytes(e)
			nk := reflect.New(k.Type()).Elem()
			nk.Set(k)
			runesToBytes(nk)
			if !nk.Equal(k) {
				v.SetMapIndex(k, reflect.Value{})
			}
			v.SetMapIndex(nk, e)
		}
	}
}
