package kubemsg

import (
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Parsers for the namespace controller's per-resource and KEP-5080 messages, client-go's
// cached discovery, the HPA's metrics clients and the aggregator's availability log.
// Each accepts the message alone or a whole log line in klog text, klog structured or
// JSON rendering. The templates and the versions they belong to are listed in
// catalog.json (docs/messages.md).

// GroupVersionResource is apimachinery's type; its String() is the "%v" rendering
// Kubernetes 1.13+ prints ("apps/v1, Resource=deployments", core "/v1, Resource=pods").
type GroupVersionResource = schema.GroupVersionResource

// Name patterns: what the API server accepts in each slot.
const (
	// DNS-1123 subdomain (API group, CRD group, webhook name)
	reSubdomain = `[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?`
	// DNS-1035 label (API version, CRD version)
	reVersion = `[a-z](?:[-a-z0-9]*[a-z0-9])?`
	// resource (plural) names: DNS-1123 labels
	reResource = `[a-z0-9](?:[-a-z0-9]*[a-z0-9])?`
	// Kind: CRD kinds are validated as DNS-1035 labels once lower-cased, so they hold
	// digits and hyphens (conformance tests create "E2e-test-crd-webhook-3948-crd")
	reKind = `[A-Za-z](?:[-A-Za-z0-9]*[A-Za-z0-9])?`
)

var (
	gvrString = regexp.MustCompile(`^(` + reSubdomain + `)?/(` + reVersion + `), Resource=(` + reResource + `)`)
	// 1.8-1.12: GroupVersionResource.String had a pointer receiver, so "%v" of a value
	// printed the struct: "{ v1 pods}", "{apps v1 deployments}".
	gvrStruct = regexp.MustCompile(`^\{(` + reSubdomain + `)? (` + reVersion + `) (` + reResource + `)\}`)
)

// ParseGVR parses the "%v" rendering of a GroupVersionResource at the start of s: 1.13+
// "group/version, Resource=resource" (core group: "/v1, Resource=pods") or the 1.8-1.12
// struct form "{group version resource}" ("{ v1 pods}"). The group must be empty or a
// DNS-1123 subdomain, the version a DNS-1035 label, the resource a DNS-1123 label.
func ParseGVR(s string) (GroupVersionResource, bool) {
	m := gvrString.FindStringSubmatch(s)
	if m == nil {
		m = gvrStruct.FindStringSubmatch(s)
	}
	if m == nil || len(m[1]) > 253 || len(m[2]) > 63 || len(m[3]) > 63 {
		return GroupVersionResource{}, false
	}
	if m[1] != "" && len(content.IsDNS1123Subdomain(m[1])) > 0 {
		return GroupVersionResource{}, false
	}
	return GroupVersionResource{Group: m[1], Version: m[2], Resource: m[3]}, true
}

var stillRemain = regexp.MustCompile(`unexpected items still remain in namespace: (\S+) for gvr: `)

// ParseContentStillRemains parses the namespace deleter's
// "unexpected items still remain in namespace: %s for gvr: %v" (1.8+): objects of one
// resource are still listed after their deletion, none carries a finalizer and none
// has a grace period. The text is found in the KCM "deletion of namespace ... failed"
// line (1.14-1.15: the bare error), in NamespaceDeletionContentFailure and after
// KEP-5080's "failed to delete pods for namespace" prefix.
func ParseContentStillRemains(text string) (namespace string, gvr GroupVersionResource, ok bool) {
	for _, m := range stillRemain.FindAllStringSubmatchIndex(text, -1) {
		ns := text[m[2]:m[3]]
		if !IsNamespaceName(ns) {
			continue
		}
		if g, ok := ParseGVR(text[m[1]:]); ok {
			return ns, g, true
		}
	}
	return "", GroupVersionResource{}, false
}

var memcacheFailure = regexp.MustCompile(`couldn't get resource list for ((?:` + reSubdomain + `/)?` + reVersion + `): `)

// ParseMemcacheFailure parses client-go's cached discovery error
// "couldn't get resource list for %v: %v" (discovery/cached/memcache.go 1.8-1.13,
// discovery/cached/memory/memcache.go 1.14+), logged by kube-controller-manager's
// RESTMapper and printed on kubectl's stderr ("E... memcache.go:287] couldn't get
// resource list for metrics.k8s.io/v1beta1: the server is currently unable to handle
// the request"; 1.31-1.36 `"Unhandled Error" err="couldn't get resource list for ..."`),
// and its 1.37+ structured form, where the group/version is a key of its own:
// `"Couldn't get resource list" err="..." logger="UnhandledError" groupVersion="<gv>"`
// (memcache.go:403, the refresh of every group) or `... gv="<gv>"` (memcache.go:133,
// the retry of one group) — see MemcacheFailureOf.
func ParseMemcacheFailure(text string) (GroupVersionError, bool) {
	if strings.Contains(text, MemcacheStructured) {
		if f, ok := MemcacheFailureOf(MemcacheStructured, func(k string) string { v, _ := fieldValue(text, k); return v }); ok {
			return f, true
		}
	}
	for _, m := range memcacheFailure.FindAllStringSubmatchIndex(text, -1) {
		gv := text[m[2]:m[3]]
		if _, ok := parseGroupVersion(gv); !ok {
			continue
		}
		detail := firstClause(quotedTail(text, m[1]))
		if i := strings.Index(detail, `" logger=`); i >= 0 {
			detail = detail[:i]
		}
		if detail == "" {
			continue
		}
		return GroupVersionError{GroupVersion: gv, Err: detail}, true
	}
	return GroupVersionError{}, false
}

// MemcacheStructured is the message of client-go's cached discovery failure from 1.37
// on (client-go v0.37 discovery/cached/memory/memcache.go:133 and :403,
// utilruntime.HandleErrorWithContext(ctx, err, "Couldn't get resource list",
// "groupVersion"|"gv", gv)); 1.8-1.36 wrote "couldn't get resource list for <gv>: <err>".
const MemcacheStructured = "Couldn't get resource list"

// MemcacheFailureOf reads the 1.37+ structured cached-discovery failure out of a log
// entry's message and fields (field returns a key's value, "" when absent): the
// group/version is the groupVersion key (the refresh of every group) or the gv key
// (the retry of one), the error the err key.
func MemcacheFailureOf(message string, field func(string) string) (GroupVersionError, bool) {
	if message != MemcacheStructured && !strings.HasPrefix(message, MemcacheStructured+": ") {
		return GroupVersionError{}, false
	}
	gv := field("groupVersion")
	if gv == "" {
		gv = field("gv")
	}
	if _, ok := parseGroupVersion(gv); !ok {
		return GroupVersionError{}, false
	}
	detail := firstClause(field("err"))
	if detail == "" {
		detail = firstClause(strings.TrimPrefix(message, MemcacheStructured+": "))
	}
	if detail == "" || detail == MemcacheStructured {
		return GroupVersionError{}, false
	}
	return GroupVersionError{GroupVersion: gv, Err: detail}, true
}

var orderedPodsFailed = regexp.MustCompile(`failed to delete pods for namespace: (\S+), err: `)

// ParseOrderedDeletionFailure parses KEP-5080's (ordered namespace deletion)
// "failed to delete pods for namespace: %s, err: %w": deleting the namespace's pods,
// which go first, failed, so no other content is deleted in this pass. Present in
// 1.33+ (gate OrderedNamespaceDeletion beta, on by default; GA and locked on in 1.34)
// and in the 1.30.x-1.32.x patch releases that backported it (beta, off by default).
// The text reaches the KCM "deletion of namespace ... failed" line.
func ParseOrderedDeletionFailure(text string) (namespace, errText string, ok bool) {
	for _, m := range orderedPodsFailed.FindAllStringSubmatchIndex(text, -1) {
		ns := text[m[2]:m[3]]
		if !IsNamespaceName(ns) {
			continue
		}
		return ns, strings.TrimSpace(quotedTail(text, m[1])), true
	}
	return "", "", false
}

const podsStillRemain = "pods still remain, delaying deletion of other resources"

// ParsePodsStillRemain recognises KEP-5080's V(5) line
// `"Namespace controller - pods still remain, delaying deletion of other resources" namespace="<ns>"`
// (1.33+, backported patches of 1.30-1.32): pods of the namespace are still being
// deleted (grace period or finalizers), so deletion of everything else waits. It
// returns the namespace when the line carries one ("" otherwise).
func ParsePodsStillRemain(text string) (namespace string, ok bool) {
	if !strings.Contains(text, podsStillRemain) {
		return "", false
	}
	if ns, found := fieldValue(text, "namespace"); found && IsNamespaceName(ns) {
		return ns, true
	}
	return "", true
}

var (
	nsDeletionStructured = regexp.MustCompile(`"?Deletion of namespace failed\\?"?`)
	nsDeletedPrintf      = regexp.MustCompile(`Namespace has been deleted (\S+)`)
)

// ParseNamespaceDeletionFailure parses every rendering of the namespace controller's
// deletion failure and returns the namespace and the error text (unquoted):
//   - 1.16-1.30 printf `deletion of namespace %v failed: %v` (klog E line, or JSON "msg");
//   - 1.31-1.34 `"Unhandled Error" err="deletion of namespace <ns> failed: <err>"`;
//   - 1.35 `"Deletion of namespace failed" err="<err>" ... namespace="<ns>"`.
//
// The 1.8-1.15 controller logged the bare error (namespace_controller.go:148] <err>),
// which names no namespace; see ParseDiscoveryFailure and ParseContentStillRemains.
func ParseNamespaceDeletionFailure(text string) (namespace, errText string, ok bool) {
	if m := kcpDeletion.FindStringSubmatchIndex(text); m != nil && IsNamespaceName(text[m[2]:m[3]]) {
		return text[m[2]:m[3]], strings.TrimSpace(quotedTail(text, m[1])), true // kcp: "{root NAME}"
	}
	if m := nsDeletionFailed.FindStringSubmatchIndex(text); m != nil && IsNamespaceName(text[m[2]:m[3]]) {
		errText = quotedTail(text, m[1])
		if i := strings.Index(errText, `" logger=`); i >= 0 && strings.Contains(text, `\"`) {
			errText = errText[:i]
		}
		return text[m[2]:m[3]], strings.TrimSpace(errText), true
	}
	if nsDeletionStructured.MatchString(text) {
		ns, found := fieldValue(text, "namespace")
		if !found || !IsNamespaceName(ns) {
			return "", "", false
		}
		e, _ := fieldValue(text, "err")
		return ns, strings.TrimSpace(e), true
	}
	return "", "", false
}

// ParseNamespaceDeleted parses the namespace controller's "the namespace is gone" line:
// printf `Namespace has been deleted %v` (1.8-1.26) or structured
// `"Namespace has been deleted" namespace="<ns>"` (1.27+).
func ParseNamespaceDeleted(text string) (namespace string, ok bool) {
	if !strings.Contains(text, "Namespace has been deleted") {
		return "", false
	}
	if ns, found := fieldValue(text, "namespace"); found && IsNamespaceName(ns) {
		return ns, true
	}
	if m := nsDeletedPrintf.FindStringSubmatch(text); m != nil {
		ns := strings.TrimSuffix(strings.TrimSuffix(m[1], `\n"}`), `\n`)
		if IsNamespaceName(ns) {
			return ns, true
		}
	}
	return "", false
}

// MetricsAPIFailure is the HPA controller's failure to read a metrics API.
type MetricsAPIFailure struct {
	API    string // "resource", "custom", "external"; "" for the 1.8-1.9 wording
	Group  string // the API group that failed: "metrics.k8s.io", "custom.metrics.k8s.io", ...
	Detail string
}

var (
	metricsAPIFailed = regexp.MustCompile(`unable to fetch metrics from (?:(resource|custom|external) metrics )?API: `)
	// the client error's "(get <resource>.<group>)" suffix names the group
	getSuffix = regexp.MustCompile(`\((?:get|list) (` + reResource + `)\.(` + reSubdomain + `)(?: [^)]*)?\)`)
)

var metricsAPIGroups = map[string]string{
	"resource": "metrics.k8s.io",
	"custom":   "custom.metrics.k8s.io",
	"external": "external.metrics.k8s.io",
}

// ParseMetricsAPIFailure parses the horizontal pod autoscaler's
// "unable to fetch metrics from resource|custom|external metrics API: %v" (1.10+;
// 1.8-1.9 "unable to fetch metrics from API: %v"), found in HPA conditions, events and
// KCM logs. Group is the aggregated API group behind that metrics API (from the
// request suffix "(get pods.metrics.k8s.io)" when present).
func ParseMetricsAPIFailure(text string) (MetricsAPIFailure, bool) {
	m := metricsAPIFailed.FindStringSubmatchIndex(text)
	if m == nil {
		return MetricsAPIFailure{}, false
	}
	f := MetricsAPIFailure{Detail: firstClause(quotedTail(text, m[1]))}
	if m[2] >= 0 {
		f.API = text[m[2]:m[3]]
		f.Group = metricsAPIGroups[f.API]
	}
	if s := getSuffix.FindStringSubmatch(text[m[1]:]); s != nil && strings.Contains(s[2], "metrics") {
		f.Group = s[2]
	}
	return f, true
}

// APIServiceAvailability is the aggregator's V(2) "changing APIService availability"
// line (1.22+): an APIService's Available condition changed.
type APIServiceAvailability struct {
	APIService string
	OldStatus  string
	NewStatus  string
	Reason     string
	Message    string
}

// ParseAPIServiceAvailabilityChange parses
// `"changing APIService availability" name=... oldStatus=... newStatus=... message=... reason=...`
// in klog text (statuses unquoted before 1.28, quoted since) and JSON renderings.
func ParseAPIServiceAvailabilityChange(text string) (APIServiceAvailability, bool) {
	if !strings.Contains(text, "changing APIService availability") {
		return APIServiceAvailability{}, false
	}
	name, ok := fieldValue(text, "name")
	if !ok || name == "" {
		return APIServiceAvailability{}, false
	}
	a := APIServiceAvailability{APIService: name}
	a.OldStatus, _ = fieldValue(text, "oldStatus")
	a.NewStatus, _ = fieldValue(text, "newStatus")
	a.Reason, _ = fieldValue(text, "reason")
	a.Message, _ = fieldValue(text, "message")
	a.Message = firstClause(a.Message)
	return a, true
}

var (
	// the 409 of a second DELETE (1.8-1.16; 1.17+ answers 200): NewConflict's
	// "Operation cannot be fulfilled on namespaces %q: The system is ensuring all
	// content is removed from this namespace.  Upon completion, ..." (quotes escaped
	// when the line is a JSON string or Go-quoted)
	// (also v1.2's NewConflict wording `namespaces "X" cannot be updated: ...`, and a
	// retyped line that lost the closing quote)
	nsConflict = regexp.MustCompile(`namespaces? \\?"([a-z0-9][a-z0-9.-]*)\\?"?(?: cannot be updated)?: [Tt]he system is ensuring all content is removed from this namespace`)
	// the NamespaceLifecycle admission plugin's refusal of a create (1.8+):
	// "unable to create new content in namespace %s because it is being terminated"
	// (1.8-1.10 with a final period), wrapped by NewForbidden. Runs of spaces (a
	// YAML scalar folded and pasted) and a line break are accepted between the words.
	nsLifecycle = regexp.MustCompile(`unable\s+to\s+create\s+new\s+content\s+in\s+namespace\s+([a-z0-9][a-z0-9-]*)\s+because\s+it\s+is\s+being\s+terminated`)
)

// NamespaceTerminatingPhrases are literals one of which every text ParseNamespaceTerminating
// accepts holds (a log prefilter's keywords).
var NamespaceTerminatingPhrases = []string{"ensuring all content is removed from this namespace", "is being terminated"}

// ParseNamespaceTerminating parses the API server's refusals that prove a namespace has
// a deletionTimestamp: the 409 Conflict of a DELETE of a namespace already being deleted
// (k8s.io/kubernetes pkg/registry/core/namespace/storage/storage.go, 1.8-1.16) and the
// NamespaceLifecycle admission plugin's Forbidden for content created in it
// (k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle/admission.go, 1.8-1.35:
// "unable to create new content in namespace %s because it is being terminated",
// returned only when the namespace's phase is Terminating). Both reach kubectl's stderr
// ("Error from server (Forbidden): ..."), controllers' logs and the conditions of
// objects whose controller failed to create something there.
func ParseNamespaceTerminating(text string) (namespace string, ok bool) {
	if strings.Contains(text, "ensuring all content is removed") {
		if m := nsConflict.FindStringSubmatch(text); m != nil && IsNamespaceName(m[1]) {
			return m[1], true
		}
	}
	if strings.Contains(text, "being terminated") {
		if m := nsLifecycle.FindStringSubmatch(text); m != nil && IsNamespaceName(m[1]) {
			return m[1], true
		}
	}
	return "", false
}
