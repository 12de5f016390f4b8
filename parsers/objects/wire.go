// The wire structs: the union of the fields the analysis reads, across kinds, as
// encoding/json and the fast decoder fill them (bytes that are not UTF-8 kept).

package objects

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"
)

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
