// Package kubemsg recognises the messages Kubernetes itself writes about namespace
// deletion, API discovery, APIService availability and webhooks, and turns them into
// typed values. The same texts appear in namespace status conditions, in
// kube-controller-manager and kube-apiserver logs and in kubectl output, so both the
// object and the log parsers use this package.
//
// Every template matched here is quoted from the Kubernetes source (1.8 to 1.35): the
// message catalogue catalog.json (embedded, Catalog(); documented in docs/messages.md)
// lists each wording with its source file, the versions it belongs to and an example
// line that the named parser must recognise.
package kubemsg

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Namespace condition types set by the namespace controller (1.16+, the last two 1.17+).
const (
	CondDiscoveryFailure     = "NamespaceDeletionDiscoveryFailure"
	CondGVParsingFailure     = "NamespaceDeletionGroupVersionParsingFailure"
	CondContentFailure       = "NamespaceDeletionContentFailure"
	CondContentRemaining     = "NamespaceContentRemaining"
	CondFinalizersRemaining  = "NamespaceFinalizersRemaining"
	discoveryListPrefix      = "unable to retrieve the complete list of server APIs: "
	contentRemainingPrefix   = "Some resources are remaining: "
	finalizersRemainingPrefx = "Some content in the namespace has finalizers remaining: "
	contentFailurePrefix     = "Failed to delete all resource types, "
)

// ConditionMeaning explains a namespace condition type in plain words, for the state
// it is in (status "True" is the problem state for every namespace condition).
func ConditionMeaning(condType, status string) string {
	problem := status == "True"
	switch condType {
	case CondDiscoveryFailure:
		if problem {
			return "the namespace controller could not discover every API group/version, so it cannot prove the namespace is empty"
		}
		return "API discovery succeeded"
	case CondGVParsingFailure:
		if problem {
			return "a group/version string returned by discovery could not be parsed"
		}
		return "all group/versions parsed"
	case CondContentFailure:
		if problem {
			return "deleting some resource types in the namespace failed (the API returned errors)"
		}
		return "every delete call succeeded"
	case CondContentRemaining:
		if problem {
			return "objects still exist in the namespace and are waiting to be removed"
		}
		return "no objects remain"
	case CondFinalizersRemaining:
		if problem {
			return "objects in the namespace still carry finalizers that some controller must remove"
		}
		return "no object finalizers are pending"
	}
	return ""
}

// GroupVersionError is one failing group/version out of a discovery error.
type GroupVersionError struct {
	GroupVersion string // "metrics.k8s.io/v1beta1"; core is "v1"
	Err          string // "the server is currently unable to handle the request"
}

// gvAnchor matches the "<group>/<version>: " anchors of ErrGroupDiscoveryFailed and the
// "<gv>:" keys of the garbage collector's map rendering. Group names are DNS subdomains,
// versions DNS-1035 labels; a version that does not look like "v<digit>..." ("stable")
// is taken only with a dotted group (see gvAnchorOK), so words of an error text are not.
var gvAnchor = regexp.MustCompile(`(?:^|, |map\[| |\[)"?((?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?/)?[a-z](?:[-a-z0-9]*[a-z0-9])?)"?: ?`)

var usualVersion = regexp.MustCompile(`^v[0-9]`)

// gvAnchorOK reports whether an anchor's group/version is one: a valid group/version
// whose version starts "v<digit>", or whose group holds a dot (CRD and aggregated API
// groups always do).
func gvAnchorOK(groupVersion string) bool {
	gv, ok := parseGroupVersion(groupVersion)
	if !ok {
		return false
	}
	return usualVersion.MatchString(gv.Version) || strings.Contains(gv.Group, ".")
}

// ParseDiscoveryFailure extracts every failing group/version from a text that contains
// client-go's "unable to retrieve the complete list of server APIs: gv: err, gv: err"
// (entries are sorted and joined with ", "; an entry's error may itself contain ", ",
// so the text is split on group/version anchors, not on commas) or the garbage
// collector's "failed to discover some groups: map[gv:err ...]" in its 1.14-1.27 and
// 1.34 (%q) renderings. It returns nil when neither form is present.
func ParseDiscoveryFailure(text string) []GroupVersionError {
	var payload string
	gcMap := false
	if i := strings.Index(text, discoveryListPrefix); i >= 0 {
		// a structured value (err="...") is decoded, so its closing quote and the
		// following keys are not taken for error text
		payload = quotedTail(text, i+len(discoveryListPrefix))
	} else if i := strings.Index(text, "failed to discover some groups"); i >= 0 {
		j := strings.Index(text[i:], "map[")
		if j < 0 {
			return nil
		}
		// 1.32+ groups="map[\"gv\":\"err\"]" is decoded to map["gv":"err"]
		payload = quotedTail(text, i+j)
		gcMap = true
	} else {
		return nil
	}
	// An anchor whose group is not a DNS subdomain ("a..b/v1: ") is not a group/version:
	// it stays inside the previous entry's error text.
	var locs [][]int
	for _, loc := range gvAnchor.FindAllStringSubmatchIndex(payload, -1) {
		if gvAnchorOK(payload[loc[2]:loc[3]]) {
			locs = append(locs, loc)
		}
	}
	var out []GroupVersionError
	seen := map[string]bool{}
	for k, loc := range locs {
		gv := payload[loc[2]:loc[3]]
		end := len(payload)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		errText := payload[loc[1]:end]
		// An anchor inside an error text ("stale GroupVersion discovery: metrics.k8s.io/v1beta1")
		// is not followed by ": "; FindAll only returns anchors followed by ':', so an
		// entry whose error names a GV without a colon stays whole.
		errText = strings.TrimRight(strings.TrimSpace(errText), "]\"")
		errText = strings.TrimSuffix(errText, "\\")
		errText = strings.TrimSpace(errText)
		if gcMap {
			errText = strings.TrimPrefix(errText, "\"") // map["gv":"err"]
		}
		if errText == "" {
			continue
		}
		if seen[gv] {
			continue
		}
		seen[gv] = true
		out = append(out, GroupVersionError{GroupVersion: gv, Err: errText})
	}
	return out
}

// dns1035Label is apimachinery's DNS-1035 label (util/validation.IsDNS1035Label, which
// the lighter api/validate/content package does not have; that package spares the
// offline page's WebAssembly module klog and net): TestValidationAsApimachinery.
var dns1035Label = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

func isDNS1035Label(s string) bool { return len(s) <= 63 && dns1035Label.MatchString(s) }

// parseGroupVersion parses a "group/version" string ("v1" for the core group) with
// apimachinery's schema.ParseGroupVersion and accepts it only when the version is a
// DNS-1035 label and the group empty or a DNS-1123 subdomain, as the API server
// requires of every group/version it serves.
func parseGroupVersion(groupVersion string) (schema.GroupVersion, bool) {
	gv, err := schema.ParseGroupVersion(groupVersion)
	if err != nil || !isDNS1035Label(gv.Version) ||
		gv.Group != "" && len(content.IsDNS1123Subdomain(gv.Group)) > 0 {
		return schema.GroupVersion{}, false
	}
	return gv, true
}

// APIServiceName returns the name Kubernetes gives the APIService that serves a
// group/version: "<version>.<group>" ("v1beta1.metrics.k8s.io"), "v1." for the core
// group, "" for a string that is not a group/version.
func APIServiceName(groupVersion string) string {
	gv, ok := parseGroupVersion(groupVersion)
	if !ok {
		return ""
	}
	return gv.Version + "." + gv.Group
}

// GroupVersionOfAPIService is the inverse of APIServiceName: "v1beta1.metrics.k8s.io"
// is "metrics.k8s.io/v1beta1", "v1." is "v1". A name without a dot is returned as is.
func GroupVersionOfAPIService(name string) string {
	version, group, _ := strings.Cut(name, ".")
	return schema.GroupVersion{Group: group, Version: version}.String()
}

// (kcp's namespace controller keys namespaces by logical cluster: `{root foo}`)
var nsDeletionFailed = regexp.MustCompile(`deletion of namespace (?:\{[^\s{}]+ )?([^\s{}]+)\}? failed: `)

// ParseNamespaceDeletionFailed parses the namespace controller's
// "deletion of namespace %v failed: %v" (1.16+). It returns the namespace and the error.
// A capture that is not a namespace name (a DNS-1123 label) is not this message.
func ParseNamespaceDeletionFailed(text string) (namespace, err string, ok bool) {
	if m := kcpDeletion.FindStringSubmatchIndex(text); m != nil && IsNamespaceName(text[m[2]:m[3]]) {
		return text[m[2]:m[3]], strings.TrimSpace(text[m[1]:]), true // kcp: "{root NAME}"
	}
	m := nsDeletionFailed.FindStringSubmatchIndex(text)
	if m == nil || !IsNamespaceName(text[m[2]:m[3]]) {
		return "", "", false
	}
	// 1.26 JSON logging keeps printf's trailing newline inside "msg"
	return text[m[2]:m[3]], strings.TrimSpace(text[m[1]:]), true
}

// IsNamespaceName reports whether s can be the name of a namespace (a DNS-1123 label,
// as the API server validates it), so garbage captured from a log line is not taken
// for one.
func IsNamespaceName(s string) bool {
	return len(content.IsDNS1123Label(s)) == 0
}

// ResourceCount is one "<resource>.<group> has <n> resource instances" item of the
// NamespaceContentRemaining message. The core group is empty ("pods.").
type ResourceCount struct {
	Resource string
	Group    string
	Count    int
}

// GroupResource renders "resource.group" (or "resource" for the core group).
func (r ResourceCount) GroupResource() string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

var resourceItem = regexp.MustCompile(`([a-z0-9][-a-z0-9]*)\.([-a-z0-9.]*) has (\d+)( [a-z ]*)?`)

const resourceInstances = " resource instances"

// ParseContentRemaining parses "Some resources are remaining: %s".
func ParseContentRemaining(msg string) []ResourceCount {
	i := strings.Index(msg, contentRemainingPrefix)
	if i < 0 {
		return nil
	}
	var out []ResourceCount
	rest := msg[i+len(contentRemainingPrefix):]
	for _, at := range resourceItem.FindAllStringSubmatchIndex(rest, -1) {
		m := make([]string, 5)
		for k := range m {
			if at[2*k] >= 0 {
				m[k] = rest[at[2*k]:at[2*k+1]]
			}
		}
		// a message cut by the paste ends inside its last item ("has 1 resource"):
		// the count is there
		if m[4] != resourceInstances && !(at[1] == len(strings.TrimRight(rest, " '\"")) && strings.HasPrefix(resourceInstances, m[4])) {
			continue
		}
		n, _ := strconv.Atoi(m[3])
		out = append(out, ResourceCount{Resource: m[1], Group: m[2], Count: n})
	}
	return out
}

// FinalizerCount is one "<finalizer> in <n> resource instances" item.
type FinalizerCount struct {
	Finalizer string
	Count     int
}

var finalizerItem = regexp.MustCompile(`(\S+) in (\d+) resource instances`)

// ParseFinalizersRemaining parses "Some content in the namespace has finalizers remaining: %s".
func ParseFinalizersRemaining(msg string) []FinalizerCount {
	i := strings.Index(msg, finalizersRemainingPrefx)
	if i < 0 {
		// pre-release wording, never in a tagged release but cheap to accept
		const alt = "Some finalizers are remaining: "
		if i = strings.Index(msg, alt); i < 0 {
			return nil
		}
		msg = msg[i+len(alt):]
	} else {
		msg = msg[i+len(finalizersRemainingPrefx):]
	}
	var out []FinalizerCount
	for _, part := range strings.Split(msg, ", ") {
		m := finalizerItem.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		out = append(out, FinalizerCount{Finalizer: m[1], Count: n})
	}
	return out
}

var contentFailure = regexp.MustCompile(`Failed to delete all resource types, (\d+) remaining: `)

// ParseContentFailure parses "Failed to delete all resource types, %d remaining: %v"
// and returns the count and the error text.
func ParseContentFailure(msg string) (count int, errText string, ok bool) {
	m := contentFailure.FindStringSubmatchIndex(msg)
	if m == nil {
		return 0, "", false
	}
	n, _ := strconv.Atoi(msg[m[2]:m[3]])
	return n, msg[m[1]:], true
}

// WebhookFailure is a failed call to an admission webhook.
type WebhookFailure struct {
	Webhook string // the webhook's name inside its configuration, e.g. "configmap-guard.example.io"
	Detail  string // the error after the name
}

var (
	// ErrCallingWebhook: `failed calling webhook %q: %v` (1.13+), `failed calling
	// admission webhook %q: %v` (1.8-1.12), each also with "; no further details
	// available"; the quotes are escaped inside a structured value (err="...\"name\"...")
	webhookCall = regexp.MustCompile(`failed calling (?:admission )?webhook \\?"(` + reSubdomain + `)\\?"(?:: |; )`)
	// kube-apiserver's warnings: `Failed calling webhook, failing closed|open %v: %v`
	// (1.9+) and 1.8's `Failed calling webhook %v: %v`
	webhookClosed = regexp.MustCompile(`Failed calling webhook(?:, failing (?:closed|open))? (` + reSubdomain + `): `)
)

// ParseWebhookFailures finds admission webhook failures: `failed calling webhook "%s": %v`
// (1.13+; 1.8-1.12 `failed calling admission webhook "%s": %v`) and kube-apiserver's
// `Failed calling webhook, failing closed %v: %v` (1.8: `Failed calling webhook %v: %v`).
func ParseWebhookFailures(text string) []WebhookFailure {
	var out []WebhookFailure
	seen := map[string]bool{}
	for _, m := range webhookCall.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, WebhookFailure{Webhook: name, Detail: firstClause(quotedTail(text, m[1]))})
	}
	if len(out) == 0 {
		if m := webhookClosed.FindStringSubmatchIndex(text); m != nil {
			out = append(out, WebhookFailure{Webhook: text[m[2]:m[3]], Detail: firstClause(text[m[1]:])})
		}
	}
	return out
}

// ConversionFailure is a failed CRD conversion webhook call.
type ConversionFailure struct {
	GroupVersion string // "stable.example.com/v1"
	Kind         string // "CronTab"
	Detail       string
}

var (
	// 1.16+ "conversion webhook for %v failed: %v" and its variants; %v is the GVK
	// ("group/version, Kind=Kind"; "/, Kind=" for the kind-less list 1.27 passes in)
	conversionFailed = regexp.MustCompile(`conversion (?:webhook )?for ((?:` + reSubdomain + `)?/` + reVersion + `), Kind=(` + reKind + `)? ?(?:failed|returned|lacked)[:,]? ?\s*`)
	// 1.15 (and 1.16+ "failed, no objects returned"): %v of the object itself,
	// "&{map[apiVersion:stable.example.com/v1 kind:CronTab ...]}"
	// (the object's own apiVersion and kind: %v sorts the map's keys, so nothing nested
	// comes between them; an ownerReference's come later, inside brackets)
	conversionFailedObject = regexp.MustCompile(`conversion webhook for &\{map\[(?:[^\[\]]*? )?apiVersion:((?:` + reSubdomain + `/)?` + reVersion + `) (?:[^\[\]]*? )?kind:(` + reKind + `)[ \]]`)
	conversionFailed114    = regexp.MustCompile(`calling to conversion webhook failed for (` + reSubdomain + `): `)
)

// ParseConversionFailure finds a CRD conversion webhook failure and returns the
// group/version and kind it names:
//   - 1.16+ "conversion webhook for %v failed: %v" and "... returned ..." (GVK rendered
//     "group/version, Kind=Kind"); 1.27's outer "conversion for %v failed: %w" (the inner
//     1.27 text names "/, Kind=", which is skipped for a named one);
//   - 1.15 and "failed, no objects returned": %v of the object ("&{map[apiVersion:...
//     kind:...]}");
//   - 1.13-1.14 "calling to conversion webhook failed for %s: %v" (the CRD name, returned
//     as Kind with an empty GroupVersion).
//
// Kinds may hold digits and hyphens, versions any DNS-1035 label.
func ParseConversionFailure(text string) (ConversionFailure, bool) {
	for _, m := range conversionFailed.FindAllStringSubmatchIndex(text, -1) {
		if m[4] >= 0 && text[m[2]:m[3]] != "/" {
			return ConversionFailure{GroupVersion: text[m[2]:m[3]], Kind: text[m[4]:m[5]], Detail: firstClause(text[m[1]:])}, true
		}
	}
	if m := conversionFailedObject.FindStringSubmatchIndex(text); m != nil {
		d := text[m[1]:]
		if i := strings.Index(d, "failed"); i >= 0 {
			d = d[i:]
		}
		return ConversionFailure{GroupVersion: text[m[2]:m[3]], Kind: text[m[4]:m[5]], Detail: firstClause(d)}, true
	}
	if m := conversionFailed114.FindStringSubmatchIndex(text); m != nil {
		return ConversionFailure{Kind: text[m[2]:m[3]], Detail: firstClause(text[m[1]:])}, true
	}
	return ConversionFailure{}, false
}

// The APIService name is "<version>.<group>"; the version must look like "v<digit>..."
// here, because the CRD finalizer logs "<plural>.<group> failed with: %v" in the same
// shape. The name opens the message: start of text, after klog's "] ", inside err="..."
// (1.31+) or a JSON "msg"/"err" value.
var apiServiceFailed = regexp.MustCompile(`(?:^|\] |err=\\?"|"msg":"|"err":")(v[0-9][a-z0-9]*\.[-a-z0-9.]+) failed with: `)
var openAPIFailed = regexp.MustCompile(`loading OpenAPI spec for \\?"(v[0-9][a-z0-9]*\.[-a-z0-9.]*)\\?" failed with: `)
var errorResolving = regexp.MustCompile(`error resolving ([-a-z0-9.]+)/([-a-z0-9.]+): `)

// APIServiceFailure is a kube-apiserver line about an APIService it cannot reach.
type APIServiceFailure struct {
	APIService string
	Source     string // "availability" (available_controller) or "openapi" (OpenAPI aggregation)
	Detail     string
}

// ParseAPIServiceFailure matches the aggregator's "%v failed with: %v" (APIService
// availability check) and the OpenAPI aggregation's `loading OpenAPI spec for %q failed with: %v`.
func ParseAPIServiceFailure(text string) (APIServiceFailure, bool) {
	if m := openAPIFailed.FindStringSubmatchIndex(text); m != nil {
		return APIServiceFailure{APIService: text[m[2]:m[3]], Source: "openapi", Detail: firstClause(quotedTail(text, m[1]))}, true
	}
	if m := apiServiceFailed.FindStringSubmatchIndex(text); m != nil {
		return APIServiceFailure{APIService: text[m[2]:m[3]], Source: "availability", Detail: firstClause(quotedTail(text, m[1]))}, true
	}
	return APIServiceFailure{}, false
}

// ParseErrorResolving matches the aggregator proxy's "error resolving %s/%s: %v" (the
// Service's namespace and name, both DNS-1123 labels).
func ParseErrorResolving(text string) (namespace, name string, ok bool) {
	m := errorResolving.FindStringSubmatch(text)
	if m == nil || !IsNamespaceName(m[1]) || len(content.IsDNS1123Label(m[2])) > 0 {
		return "", "", false
	}
	return m[1], m[2], true
}

// firstClause trims a detail to something quotable: at most 300 bytes, no trailing quote noise.
func firstClause(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, `"`)
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never split a multi-byte character
		}
		s = s[:cut] + "…"
	}
	return s
}

// SortedUnique returns the sorted set of the given strings.
func SortedUnique(in []string) []string {
	m := map[string]bool{}
	for _, s := range in {
		if s != "" {
			m[s] = true
		}
	}
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// namespaceConditionMessages are the messages the namespace deleter writes, each with
// the condition it belongs to and its status (k8s.io/kubernetes
// pkg/controller/namespace/deletion/status_condition_utils.go, 1.16-1.35: okMessages,
// and the Sprintf formats of the True conditions).
var namespaceConditionMessages = []struct{ prefix, condType, status string }{
	{"Discovery failed for some groups, ", CondDiscoveryFailure, "True"},
	{"Failed to delete all resource types, ", CondContentFailure, "True"},
	{"Some resources are remaining: ", CondContentRemaining, "True"},
	{"Some content in the namespace has finalizers remaining: ", CondFinalizersRemaining, "True"},
	{"All resources successfully discovered", CondDiscoveryFailure, "False"},
	{"All legacy kube types successfully parsed", "NamespaceDeletionGroupVersionParsingFailure", "False"},
	{"All content successfully deleted, may be waiting on finalization", CondContentFailure, "False"},
	{"All content successfully removed", CondContentRemaining, "False"},
	{"All content-preserving finalizers finished", CondFinalizersRemaining, "False"},
}

// NamespaceConditionOfMessage returns the namespace condition type and status whose
// message msg is: the namespace deleter writes each of its messages under one type with
// one status only, so a condition a paste cut before its type and status (kubectl
// prints message before status and type) is still known.
func NamespaceConditionOfMessage(msg string) (condType, status string, ok bool) {
	for _, m := range namespaceConditionMessages {
		if strings.HasPrefix(msg, m.prefix) {
			return m.condType, m.status, true
		}
	}
	return "", "", false
}
