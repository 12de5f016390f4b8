package objects

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unicode/utf8"
)

// The fast decoder: a kept object's JSON read straight into the wire struct in one
// pass by the strict reader of quickhead.go, without pruning, encoding/json's scanner
// or reflection. It is a fast path only. Whenever encoding/json could decode the item
// differently or report anything, it declines ("not handled") and the item goes
// through pruning and encoding/json as before, so warnings, type errors and
// strictness stay exactly those of encoding/json. It declines on:
//
//   - invalid JSON, trailing text, nesting deeper than qMaxDepth, an item that is not
//     an object;
//   - a value of a JSON type the field does not take (encoding/json reports it), a
//     number that is not an integer of at most 18 characters for an int field;
//   - a key of a wire struct that is escaped or not ASCII, that names a field only
//     case-insensitively (encoding/json folds case), or that repeats a field (the
//     second value would be merged into the first);
//
// Strings that hold escapes or invalid UTF-8 are unquoted by encoding/json itself,
// one string at a time. Keys that name no field are validated and skipped, as
// encoding/json does. Every struct's field names are taken from the wire types by
// reflection once, at start-up: a wire field this file does not read is declined,
// never skipped.

// fastDecodeWire fills w, which must be zero, from raw, one item as the splitter cut
// it. It reports false when it declines the item; w then holds part of the item and
// must be dropped.
func fastDecodeWire(raw []byte, w *wire) bool {
	r := wireReader{qreader{b: raw}}
	r.ws()
	if r.i >= len(r.b) || r.b[r.i] != '{' || !r.wire(w) {
		return false
	}
	r.ws()
	return r.i == len(r.b)
}

// wireReader reads the wire struct; its methods shadow the head reader's of the same
// names (those only look at a value, these fill one).
type wireReader struct{ qreader }

// The JSON field names of each wire type, for telling a key that names a field only
// case-insensitively (declined) from an unknown one (skipped).
var (
	namesWire            = fieldNames[wire]()
	namesMetadata        = fieldNames[wireMetadata]()
	namesOwnerRef        = fieldNames[OwnerReference]()
	namesManagedField    = fieldNames[wireManagedField]()
	namesSpec            = fieldNames[wireSpec]()
	namesServiceRef      = fieldNames[ServiceReference]()
	namesServicePort     = fieldNames[wireServicePort]()
	namesContainer       = fieldNames[wireContainer]()
	namesVolume          = fieldNames[wireVolume]()
	namesClaimSource     = fieldNames[wireClaimSource]()
	namesTemplate        = fieldNames[wireTemplate]()
	namesPodSpec         = fieldNames[wirePodSpec]()
	namesCRDNames        = fieldNames[wireCRDNames]()
	namesCRDVersion      = fieldNames[wireCRDVersion]()
	namesConversion      = fieldNames[wireConversion]()
	namesConversionHook  = fieldNames[wireConversionHook]()
	namesClientConfig    = fieldNames[wireClientConfig]()
	namesStatus          = fieldNames[wireStatus]()
	namesCondition       = fieldNames[wireCondition]()
	namesContainerStatus = fieldNames[wireContainerStatus]()
	namesContainerState  = fieldNames[wireContainerState]()
	namesLastState       = fieldNames[wireLastState]()
	namesReason          = fieldNames[wireReason]()
	namesSubset          = fieldNames[wireSubset]()
	namesAddress         = fieldNames[wireAddress]()
	namesPortName        = fieldNames[wirePortName]()
	namesEndpoint        = fieldNames[wireEndpoint]()
	namesEndpointConds   = fieldNames[wireEndpointConditions]()
	namesSlicePort       = fieldNames[wireSlicePort]()
	namesWebhook         = fieldNames[wireWebhook]()
	namesWebhookRule     = fieldNames[WebhookRule]()
	namesObjectRef       = fieldNames[ObjectReference]()
	namesEventSource     = fieldNames[wireEventSource]()
	namesServerVersion   = fieldNames[wireServerVersion]()
	namesNodeInfo        = fieldNames[wireNodeInfo]()
)

// nameSet holds the lower-case JSON names of a struct's fields.
type nameSet struct {
	lengths uint64   // bit n: some name has n bytes (names are shorter than 64)
	names   []string // lower case
}

// fieldNames lists the JSON names of T's fields.
func fieldNames[T any]() nameSet {
	var s nameSet
	for name := range jsonNames(reflect.TypeFor[T]()) {
		if len(name) >= 64 {
			panic("objects: wire field name of 64 bytes or more: " + name)
		}
		s.lengths |= 1 << len(name)
		s.names = append(s.names, name)
	}
	return s
}

// has reports whether key, an ASCII key, names a field in any case.
func (s *nameSet) has(key []byte) bool {
	if len(key) >= 64 || s.lengths&(1<<len(key)) == 0 {
		return false
	}
	for _, n := range s.names {
		if len(n) == len(key) && equalFoldASCII(key, n) {
			return true
		}
	}
	return false
}

// equalFoldASCII compares key with lower, a lower-case name of the same length, ASCII
// letters folded.
func equalFoldASCII(key []byte, lower string) bool {
	for i, c := range key {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// fieldUnknown is what a field reader returns for a key that names none of its fields.
const fieldUnknown = -1

// fields reads null (nothing is set) or an object into a struct. field is called with
// each key: when the key names one of the struct's fields exactly it reads the value
// and returns the field's index (below 64) and whether it accepted the value; for any
// other key it returns fieldUnknown without reading. Unknown keys are skipped, unless
// they name a field in another case (names: the struct's lower-case field names).
func (r *wireReader) fields(names *nameSet, depth int, field func(k []byte) (int, bool)) bool {
	_, empty, ok := r.open()
	if !ok || empty {
		return ok
	}
	var seen uint64
	for {
		k, ok := r.key()
		if !ok {
			return false
		}
		idx, ok := field(k)
		switch {
		case !ok:
			return false
		case idx == fieldUnknown:
			if names.has(k) || !r.skip(depth+1) {
				return false
			}
		case seen&(1<<idx) != 0:
			return false // a repeated field: encoding/json merges the values
		default:
			seen |= 1 << idx
		}
		if end, ok := r.next('}'); !ok || end {
			return ok
		}
	}
}

// isNull reads null if the next value is null.
func (r *wireReader) isNull() (null, ok bool) {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == 'n' {
		return true, r.lit("null")
	}
	return false, true
}

// pointer reads null (*dst stays nil) or a value, which fill reads into a new T.
func pointer[T any](r *wireReader, dst **T, fill func(*T) bool) bool {
	if null, ok := r.isNull(); null || !ok {
		return ok
	}
	v := new(T)
	*dst = v
	return fill(v)
}

// slice reads null (*dst stays nil), [] (an empty slice, not nil, as encoding/json
// sets it) or an array, elem reading each element into a new zero T. A non-empty
// array starts with room for capHint elements (what most objects have: fewer
// reallocations; slices the Object keeps take 0, so they do not hold spare room).
func slice[T any](r *wireReader, dst *[]T, capHint int, elem func(*T) bool) bool {
	if null, ok := r.isNull(); null || !ok {
		return ok
	}
	empty, ok := r.openArray()
	if !ok {
		return false
	}
	if empty {
		*dst = []T{}
		return true
	}
	s := make([]T, 0, max(capHint, 1))
	for {
		var zero T
		s = append(s, zero)
		if !elem(&s[len(s)-1]) {
			return false
		}
		end, ok := r.next(']')
		if !ok {
			return false
		}
		if end {
			*dst = s
			return true
		}
	}
}

// string reads a string into *dst, or null (*dst unchanged).
func (r *wireReader) string(dst *string) bool {
	if null, ok := r.isNull(); null || !ok {
		return ok
	}
	s, ok := r.stringValue()
	if ok {
		*dst = s
	}
	return ok
}

// enum reads a string of the kind that takes a few values across a cluster (kinds,
// condition types and statuses, reasons, managers): one of the common ones is shared
// instead of allocated again for every object.
func (r *wireReader) enum(dst *string) bool {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == '"' {
		text := r.b[r.i+1 : min(len(r.b), r.i+2+maxCommonLen)] // room for the longest and its quote
		if end := bytes.IndexByte(text, '"'); end >= 0 {
			if v, ok := commonStrings[string(text[:end])]; ok {
				r.i += end + 2
				*dst = v
				return true
			}
		}
	}
	return r.string(dst)
}

// commonStrings are the values enum shares; maxCommonLen is the longest.
var commonStrings, maxCommonLen = commonSet(
	// kinds and API versions, also of owners and involved objects
	"v1", "apps/v1", "batch/v1", "Pod", "Node", "Service", "Endpoints", "EndpointSlice", "Namespace", "Event",
	"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob", "ConfigMap", "Secret", "Lease",
	"PersistentVolumeClaim", "PersistentVolume", "ServiceAccount", "APIService", "CustomResourceDefinition",
	"events.k8s.io/v1", "coordination.k8s.io/v1", "discovery.k8s.io/v1", "apiregistration.k8s.io/v1",
	// condition statuses and types
	"True", "False", "Unknown", "Ready", "Initialized", "ContainersReady", "PodScheduled",
	"PodReadyToStartContainers", "DisruptionTarget", "Available", "Progressing", "ReplicaFailure",
	"MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable", "Established", "NamesAccepted",
	"NamespaceDeletionDiscoveryFailure", "NamespaceDeletionGroupVersionParsingFailure",
	"NamespaceDeletionContentFailure", "NamespaceContentRemaining", "NamespaceFinalizersRemaining",
	// reasons, phases, event types
	"ContainersNotReady", "PodCompleted", "Unschedulable", "MinimumReplicasAvailable", "MinimumReplicasUnavailable",
	"NewReplicaSetAvailable", "ReplicaSetUpdated", "ProgressDeadlineExceeded", "KubeletReady", "KubeletHasSufficientMemory",
	"KubeletHasNoDiskPressure", "KubeletHasSufficientPID", "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull",
	"ContainerCreating", "PodInitializing", "CreateContainerConfigError", "Error", "Completed", "OOMKilled",
	"Running", "Pending", "Succeeded", "Failed", "Active", "Terminating", "Normal", "Warning",
	"Scheduled", "Pulling", "Pulled", "Created", "Started", "Killing", "BackOff", "Unhealthy", "FailedScheduling",
	"SuccessfulCreate", "SuccessfulDelete", "ScalingReplicaSet", "FailedMount", "LeaderElection",
	// field managers and event sources
	"kubectl", "kubectl-client-side-apply", "kubectl-create", "kubectl-edit", "kubectl-patch", "kubelet",
	"kube-controller-manager", "kube-scheduler", "kube-apiserver", "default-scheduler", "helm", "Go-http-client",
)

// commonSet builds the table of shared strings.
func commonSet(values ...string) (map[string]string, int) {
	m, longest := make(map[string]string, len(values)), 0
	for _, v := range values {
		m[v] = v
		longest = max(longest, len(v))
	}
	return m, longest
}

// stringValue reads a string as the decoder unquotes it: its bytes when it holds no
// escape (bytes that are not UTF-8 kept as they are, as decodeItem keeps them), else
// what encoding/json makes of it (escapes decoded); a string with both an escape and
// bytes that are not UTF-8 declines the fast path (decodeItem keeps them).
func (r *wireReader) stringValue() (string, bool) {
	start := r.i
	raw, esc, ok := r.str()
	if !ok {
		return "", false
	}
	if !esc {
		return string(raw), true
	}
	if !utf8.Valid(raw) {
		return "", false
	}
	var s string
	if json.Unmarshal(r.b[start:r.i], &s) != nil {
		return "", false
	}
	return s, true
}

// strings reads null, or an array of strings (null elements are "").
func (r *wireReader) strings(dst *[]string) bool {
	return slice(r, dst, 0, r.string)
}

// stringMap reads null, or an object of strings (null values are "") into a new map.
func (r *wireReader) stringMap(dst *map[string]string) bool {
	isNull, empty, ok := r.open()
	if !ok || isNull {
		return ok
	}
	m := map[string]string{}
	*dst = m
	if empty {
		return true
	}
	for {
		r.ws()
		k, ok := r.stringValue()
		if !ok || !r.colon() {
			return false
		}
		v := ""
		if !r.string(&v) {
			return false
		}
		m[k] = v
		if end, ok := r.next('}'); !ok || end {
			return ok
		}
	}
}

// int reads an integer of at most 18 characters (encoding/json takes it whatever its
// size; longer ones are left to it), or null (*dst unchanged).
func (r *wireReader) int(dst *int) bool {
	if null, ok := r.isNull(); null || !ok {
		return ok
	}
	start := r.i
	isInt, ok := r.num()
	if !ok || !isInt {
		return false
	}
	digits, neg := r.b[start:r.i], false
	if digits[0] == '-' {
		digits, neg = digits[1:], true
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	*dst = n
	return true
}

// bool reads true, false or null (*dst unchanged).
func (r *wireReader) bool(dst *bool) bool {
	r.ws()
	switch {
	case r.lit("true"):
		*dst = true
	case r.lit("false"):
		*dst = false
	default:
		return r.lit("null")
	}
	return true
}

// raw reads any value as json.RawMessage: the value's text, as encoding/json keeps
// it. It is a slice of the item (capacity capped), not a copy: the wire struct does not
// outlive the item.
func (r *wireReader) raw(dst *json.RawMessage, depth int) bool {
	r.ws()
	start := r.i
	if !r.skip(depth) {
		return false
	}
	*dst = r.b[start:r.i:r.i]
	return true
}

// wire reads the top-level object.
func (r *wireReader) wire(w *wire) bool {
	return r.fields(&namesWire, 0, func(k []byte) (int, bool) {
		switch string(k) {
		case "apiVersion":
			return 0, r.enum(&w.APIVersion)
		case "kind":
			return 1, r.enum(&w.Kind)
		case "metadata":
			return 2, r.metadata(&w.Metadata)
		case "spec":
			return 3, r.spec(&w.Spec)
		case "status":
			return 4, r.status(&w.Status)
		case "subsets":
			return 5, slice(r, &w.Subsets, 0, r.subset)
		case "endpoints":
			return 6, slice(r, &w.Endpoints, 4, r.endpoint)
		case "ports":
			return 7, slice(r, &w.Ports, 4, r.slicePort)
		case "webhooks":
			return 8, slice(r, &w.Webhooks, 0, r.webhook)
		case "involvedObject":
			return 9, pointer(r, &w.InvolvedObject, r.objectRef)
		case "reason":
			return 10, r.enum(&w.Reason)
		case "message":
			return 11, r.string(&w.Message)
		case "type":
			return 12, r.enum(&w.Type)
		case "count":
			return 13, r.int(&w.Count)
		case "firstTimestamp":
			return 14, r.string(&w.FirstTimestamp)
		case "lastTimestamp":
			return 15, r.string(&w.LastTimestamp)
		case "eventTime":
			return 16, r.string(&w.EventTime)
		case "source":
			return 17, r.eventSource(&w.EventSource)
		case "regarding":
			return 18, pointer(r, &w.Regarding, r.objectRef)
		case "note":
			return 19, r.string(&w.Note)
		case "deprecatedLastTimestamp":
			return 20, r.string(&w.DeprecatedLastTimestamp)
		case "deprecatedCount":
			return 21, r.int(&w.DeprecatedCount)
		case "reportingController":
			return 22, r.enum(&w.ReportingController)
		case "serverVersion":
			return 23, pointer(r, &w.ServerVersion, r.serverVersion)
		}
		return fieldUnknown, true
	})
}

// metadata reads an object's metadata.
func (r *wireReader) metadata(m *wireMetadata) bool {
	return r.fields(&namesMetadata, 1, func(k []byte) (int, bool) {
		switch string(k) {
		case "name":
			return 0, r.string(&m.Name)
		case "namespace":
			return 1, r.string(&m.Namespace)
		case "uid":
			return 2, r.string(&m.UID)
		case "creationTimestamp":
			return 3, r.string(&m.CreationTimestamp)
		case "deletionTimestamp":
			return 4, r.string(&m.DeletionTimestamp)
		case "finalizers":
			return 5, r.strings(&m.Finalizers)
		case "labels":
			return 6, r.stringMap(&m.Labels)
		case "ownerReferences":
			return 7, slice(r, &m.OwnerReferences, 0, r.ownerReference)
		case "managedFields":
			return 8, slice(r, &m.ManagedFields, 8, r.managedField)
		}
		return fieldUnknown, true
	})
}

// ownerReference reads a metadata.ownerReferences entry.
func (r *wireReader) ownerReference(o *OwnerReference) bool {
	return r.fields(&namesOwnerRef, 3, func(k []byte) (int, bool) {
		switch string(k) {
		case "apiVersion":
			return 0, r.enum(&o.APIVersion)
		case "kind":
			return 1, r.enum(&o.Kind)
		case "name":
			return 2, r.string(&o.Name)
		case "controller":
			return 3, pointer(r, &o.Controller, r.bool)
		}
		return fieldUnknown, true
	})
}

// managedField reads a metadata.managedFields entry.
func (r *wireReader) managedField(m *wireManagedField) bool {
	return r.fields(&namesManagedField, 3, func(k []byte) (int, bool) {
		if string(k) == "manager" {
			return 0, r.enum(&m.Manager)
		}
		return fieldUnknown, true
	})
}

// spec reads the spec of any kind.
func (r *wireReader) spec(s *wireSpec) bool {
	return r.fields(&namesSpec, 1, func(k []byte) (int, bool) {
		switch string(k) {
		case "finalizers":
			return 0, r.strings(&s.Finalizers)
		case "group":
			return 1, r.string(&s.Group)
		case "version":
			return 2, r.string(&s.Version)
		case "service":
			return 3, pointer(r, &s.Service, r.serviceReference)
		case "type":
			return 4, r.enum(&s.Type)
		case "clusterIP":
			return 5, r.string(&s.ClusterIP)
		case "externalName":
			return 6, r.string(&s.ExternalName)
		case "selector":
			return 7, r.raw(&s.Selector, 2)
		case "ports":
			return 8, slice(r, &s.Ports, 4, r.servicePort)
		case "nodeName":
			return 9, r.string(&s.NodeName)
		case "containers":
			return 10, slice(r, &s.Containers, 4, r.container)
		case "replicas":
			return 11, pointer(r, &s.Replicas, r.int)
		case "template":
			return 12, r.template(&s.Template)
		case "names":
			return 13, r.crdNames(&s.Names)
		case "scope":
			return 14, r.string(&s.Scope)
		case "versions":
			return 15, slice(r, &s.Versions, 0, r.crdVersion)
		case "conversion":
			return 16, pointer(r, &s.Conversion, r.conversion)
		case "holderIdentity":
			return 17, pointer(r, &s.HolderIdentity, r.string)
		case "renewTime":
			return 18, r.string(&s.RenewTime)
		case "acquireTime":
			return 19, r.string(&s.AcquireTime)
		case "leaseDurationSeconds":
			return 20, r.int(&s.LeaseDurationSeconds)
		case "leaseTransitions":
			return 21, r.int(&s.LeaseTransitions)
		case "volumes":
			return 22, slice(r, &s.Volumes, 4, r.volume)
		}
		return fieldUnknown, true
	})
}

// serviceReference reads a reference to a Service.
func (r *wireReader) serviceReference(s *ServiceReference) bool {
	return r.fields(&namesServiceRef, 4, func(k []byte) (int, bool) {
		switch string(k) {
		case "namespace":
			return 0, r.string(&s.Namespace)
		case "name":
			return 1, r.string(&s.Name)
		case "path":
			return 2, r.string(&s.Path)
		case "port":
			return 3, pointer(r, &s.Port, r.int)
		}
		return fieldUnknown, true
	})
}

// servicePort reads a Service's spec.ports entry.
func (r *wireReader) servicePort(p *wireServicePort) bool {
	return r.fields(&namesServicePort, 3, func(k []byte) (int, bool) {
		switch string(k) {
		case "name":
			return 0, r.string(&p.Name)
		case "port":
			return 1, r.int(&p.Port)
		case "targetPort":
			return 2, r.raw(&p.TargetPort, 4)
		}
		return fieldUnknown, true
	})
}

// container reads a container of a pod spec.
func (r *wireReader) container(c *wireContainer) bool {
	return r.fields(&namesContainer, 3, func(k []byte) (int, bool) {
		if string(k) == "image" {
			return 0, r.string(&c.Image)
		}
		return fieldUnknown, true
	})
}

// volume reads a pod's spec.volumes entry (the claim it mounts).
func (r *wireReader) volume(v *wireVolume) bool {
	return r.fields(&namesVolume, 3, func(k []byte) (int, bool) {
		if string(k) == "persistentVolumeClaim" {
			return 0, pointer(r, &v.PersistentVolumeClaim, func(c *wireClaimSource) bool {
				return r.fields(&namesClaimSource, 4, func(k []byte) (int, bool) {
					if string(k) == "claimName" {
						return 0, r.string(&c.ClaimName)
					}
					return fieldUnknown, true
				})
			})
		}
		return fieldUnknown, true
	})
}

// template reads a workload's spec.template.
func (r *wireReader) template(t *wireTemplate) bool {
	return r.fields(&namesTemplate, 2, func(k []byte) (int, bool) {
		if string(k) == "spec" {
			return 0, r.fields(&namesPodSpec, 3, func(k []byte) (int, bool) {
				if string(k) == "containers" {
					return 0, slice(r, &t.Spec.Containers, 4, r.container)
				}
				return fieldUnknown, true
			})
		}
		return fieldUnknown, true
	})
}

// crdNames reads a CRD's spec.names.
func (r *wireReader) crdNames(n *wireCRDNames) bool {
	return r.fields(&namesCRDNames, 2, func(k []byte) (int, bool) {
		switch string(k) {
		case "plural":
			return 0, r.string(&n.Plural)
		case "kind":
			return 1, r.string(&n.Kind)
		}
		return fieldUnknown, true
	})
}

// crdVersion reads a CRD's spec.versions entry.
func (r *wireReader) crdVersion(v *wireCRDVersion) bool {
	return r.fields(&namesCRDVersion, 3, func(k []byte) (int, bool) {
		switch string(k) {
		case "name":
			return 0, r.string(&v.Name)
		case "storage":
			return 1, r.bool(&v.Storage)
		}
		return fieldUnknown, true
	})
}

// conversion reads a CRD's spec.conversion.
func (r *wireReader) conversion(c *wireConversion) bool {
	return r.fields(&namesConversion, 2, func(k []byte) (int, bool) {
		switch string(k) {
		case "strategy":
			return 0, r.string(&c.Strategy)
		case "webhook":
			return 1, pointer(r, &c.Webhook, r.conversionHook)
		case "webhookClientConfig":
			return 2, pointer(r, &c.WebhookClientConfig, r.clientConfig)
		}
		return fieldUnknown, true
	})
}

// conversionHook reads a CRD's spec.conversion.webhook.
func (r *wireReader) conversionHook(h *wireConversionHook) bool {
	return r.fields(&namesConversionHook, 3, func(k []byte) (int, bool) {
		if string(k) == "clientConfig" {
			return 0, r.clientConfig(&h.ClientConfig)
		}
		return fieldUnknown, true
	})
}

// clientConfig reads a webhook's client config.
func (r *wireReader) clientConfig(c *wireClientConfig) bool {
	return r.fields(&namesClientConfig, 4, func(k []byte) (int, bool) {
		switch string(k) {
		case "service":
			return 0, pointer(r, &c.Service, r.serviceReference)
		case "url":
			return 1, r.string(&c.URL)
		}
		return fieldUnknown, true
	})
}

// status reads the status of any kind.
func (r *wireReader) status(s *wireStatus) bool {
	return r.fields(&namesStatus, 1, func(k []byte) (int, bool) {
		switch string(k) {
		case "phase":
			return 0, r.enum(&s.Phase)
		case "conditions":
			return 1, slice(r, &s.Conditions, 8, r.condition)
		case "containerStatuses":
			return 2, slice(r, &s.ContainerStatuses, 4, r.containerStatus)
		case "podIP":
			return 3, r.string(&s.PodIP)
		case "readyReplicas":
			return 4, r.int(&s.ReadyReplicas)
		case "nodeInfo":
			return 5, pointer(r, &s.NodeInfo, r.nodeInfo)
		}
		return fieldUnknown, true
	})
}

// condition reads a status.conditions entry.
func (r *wireReader) condition(c *wireCondition) bool {
	return r.fields(&namesCondition, 3, func(k []byte) (int, bool) {
		switch string(k) {
		case "type":
			return 0, r.enum(&c.Type)
		case "status":
			return 1, r.enum(&c.Status)
		case "reason":
			return 2, r.enum(&c.Reason)
		case "message":
			return 3, r.string(&c.Message)
		case "lastTransitionTime":
			return 4, r.string(&c.LastTransitionTime)
		}
		return fieldUnknown, true
	})
}

// containerStatus reads a Pod's status.containerStatuses entry.
func (r *wireReader) containerStatus(c *wireContainerStatus) bool {
	return r.fields(&namesContainerStatus, 3, func(k []byte) (int, bool) {
		switch string(k) {
		case "restartCount":
			return 0, r.int(&c.RestartCount)
		case "state":
			return 1, r.fields(&namesContainerState, 4, func(k []byte) (int, bool) {
				if string(k) == "waiting" {
					return 0, pointer(r, &c.State.Waiting, r.reason)
				}
				return fieldUnknown, true
			})
		case "lastState":
			return 2, r.fields(&namesLastState, 4, func(k []byte) (int, bool) {
				if string(k) == "terminated" {
					return 0, pointer(r, &c.LastState.Terminated, r.reason)
				}
				return fieldUnknown, true
			})
		}
		return fieldUnknown, true
	})
}

// reason reads a container state's reason.
func (r *wireReader) reason(s *wireReason) bool {
	return r.fields(&namesReason, 5, func(k []byte) (int, bool) {
		if string(k) == "reason" {
			return 0, r.enum(&s.Reason)
		}
		return fieldUnknown, true
	})
}

// subset reads an Endpoints' subsets entry.
func (r *wireReader) subset(s *wireSubset) bool {
	return r.fields(&namesSubset, 2, func(k []byte) (int, bool) {
		switch string(k) {
		case "addresses":
			return 0, slice(r, &s.Addresses, 4, r.address)
		case "notReadyAddresses":
			return 1, slice(r, &s.NotReadyAddresses, 4, r.address)
		case "ports":
			return 2, slice(r, &s.Ports, 4, r.portName)
		}
		return fieldUnknown, true
	})
}

// address reads an Endpoints address.
func (r *wireReader) address(a *wireAddress) bool {
	return r.fields(&namesAddress, 4, func(k []byte) (int, bool) {
		switch string(k) {
		case "ip":
			return 0, r.string(&a.IP)
		case "targetRef":
			return 1, pointer(r, &a.TargetRef, r.objectRef)
		}
		return fieldUnknown, true
	})
}

// portName reads a port of which only the name matters.
func (r *wireReader) portName(p *wirePortName) bool {
	return r.fields(&namesPortName, 4, func(k []byte) (int, bool) {
		if string(k) == "name" {
			return 0, r.string(&p.Name)
		}
		return fieldUnknown, true
	})
}

// endpoint reads an EndpointSlice's endpoints entry.
func (r *wireReader) endpoint(e *wireEndpoint) bool {
	return r.fields(&namesEndpoint, 2, func(k []byte) (int, bool) {
		switch string(k) {
		case "addresses":
			return 0, r.strings(&e.Addresses)
		case "conditions":
			return 1, r.fields(&namesEndpointConds, 3, func(k []byte) (int, bool) {
				if string(k) == "ready" {
					return 0, pointer(r, &e.Conditions.Ready, r.bool)
				}
				return fieldUnknown, true
			})
		case "targetRef":
			return 2, pointer(r, &e.TargetRef, r.objectRef)
		}
		return fieldUnknown, true
	})
}

// slicePort reads an EndpointSlice's ports entry.
func (r *wireReader) slicePort(p *wireSlicePort) bool {
	return r.fields(&namesSlicePort, 2, func(k []byte) (int, bool) {
		if string(k) == "name" {
			return 0, pointer(r, &p.Name, r.string)
		}
		return fieldUnknown, true
	})
}

// webhook reads a webhook configuration's webhooks entry.
func (r *wireReader) webhook(h *wireWebhook) bool {
	return r.fields(&namesWebhook, 2, func(k []byte) (int, bool) {
		switch string(k) {
		case "name":
			return 0, r.string(&h.Name)
		case "failurePolicy":
			return 1, r.string(&h.FailurePolicy)
		case "clientConfig":
			return 2, r.clientConfig(&h.ClientConfig)
		case "rules":
			return 3, slice(r, &h.Rules, 0, r.webhookRule)
		case "namespaceSelector":
			return 4, r.raw(&h.NamespaceSelector, 3)
		case "timeoutSeconds":
			return 5, pointer(r, &h.TimeoutSeconds, r.int)
		}
		return fieldUnknown, true
	})
}

// webhookRule reads a webhook's rules entry.
func (r *wireReader) webhookRule(w *WebhookRule) bool {
	return r.fields(&namesWebhookRule, 4, func(k []byte) (int, bool) {
		switch string(k) {
		case "operations":
			return 0, r.strings(&w.Operations)
		case "apiGroups":
			return 1, r.strings(&w.APIGroups)
		case "apiVersions":
			return 2, r.strings(&w.APIVersions)
		case "resources":
			return 3, r.strings(&w.Resources)
		}
		return fieldUnknown, true
	})
}

// objectRef reads an ObjectReference.
func (r *wireReader) objectRef(o *ObjectReference) bool {
	return r.fields(&namesObjectRef, 3, func(k []byte) (int, bool) {
		switch string(k) {
		case "apiVersion":
			return 0, r.enum(&o.APIVersion)
		case "kind":
			return 1, r.enum(&o.Kind)
		case "namespace":
			return 2, r.string(&o.Namespace)
		case "name":
			return 3, r.string(&o.Name)
		}
		return fieldUnknown, true
	})
}

// eventSource reads a core/v1 Event's source.
func (r *wireReader) eventSource(s *wireEventSource) bool {
	return r.fields(&namesEventSource, 1, func(k []byte) (int, bool) {
		if string(k) == "component" {
			return 0, r.enum(&s.Component)
		}
		return fieldUnknown, true
	})
}

// serverVersion reads the serverVersion of `kubectl version -o json`.
// nodeInfo reads a Node's status.nodeInfo.
func (r *wireReader) nodeInfo(v *wireNodeInfo) bool {
	return r.fields(&namesNodeInfo, 2, func(k []byte) (int, bool) {
		if string(k) == "kubeletVersion" {
			return 0, r.string(&v.KubeletVersion)
		}
		return fieldUnknown, true
	})
}

func (r *wireReader) serverVersion(v *wireServerVersion) bool {
	return r.fields(&namesServerVersion, 1, func(k []byte) (int, bool) {
		if string(k) == "gitVersion" {
			return 0, r.string(&v.GitVersion)
		}
		return fieldUnknown, true
	})
}
