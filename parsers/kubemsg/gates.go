package kubemsg

import (
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
)

// FeatureGateRefusal is a component's refusal of its --feature-gates flag at start-up:
// the component exits, so it is not running, and the refusal says why.
type FeatureGateRefusal struct {
	Gate  string // "OrderedNamespaceDeletion"
	Kind  string // "locked" (the gate is locked to its default) or "unrecognized" (the gate no longer exists)
	Value string // the value asked for ("false"); "" for an unrecognized gate
	Text  string // the refusal as printed
}

var (
	gateLocked       = regexp.MustCompile(`cannot set feature gate ([A-Za-z0-9]+) to (true|false), feature is locked to (?:true|false)`)
	gateUnrecognized = regexp.MustCompile(`unrecognized feature gate: ([A-Za-z0-9]+)`)
)

// ParseFeatureGateRefusal parses component-base's refusals of a --feature-gates value
// (featuregate/feature_gate.go, unsafeSetFromMap):
//   - "cannot set feature gate %v to %v, feature is locked to %v": a GA gate locked to
//     its default (OrderedNamespaceDeletion=false on 1.34-1.36);
//   - "unrecognized feature gate: %s": a gate that was removed (OrderedNamespaceDeletion
//     on 1.37+).
//
// kube-controller-manager logs either from component-base/cli/run.go:72 as
// `E... run.go:72] "command failed" err="<refusal>"` (the flag is applied in
// PersistentPreRunE, after logging is set up) and exits with status 1.
func ParseFeatureGateRefusal(text string) (FeatureGateRefusal, bool) {
	if m := gateLocked.FindStringSubmatchIndex(text); m != nil {
		return FeatureGateRefusal{Gate: text[m[2]:m[3]], Kind: "locked", Value: text[m[4]:m[5]], Text: text[m[0]:m[1]]}, true
	}
	if m := gateUnrecognized.FindStringSubmatchIndex(text); m != nil {
		return FeatureGateRefusal{Gate: text[m[2]:m[3]], Kind: "unrecognized", Text: text[m[0]:m[1]]}, true
	}
	return FeatureGateRefusal{}, false
}

// CRDWaiting is the CRD finalizer's V(2) line: the custom resources of a CRD being
// deleted are not all gone yet.
type CRDWaiting struct {
	Resource string // plural ("widgets")
	Group    string // "example.com"
	Count    int
}

var (
	crdWaitingPrintf = regexp.MustCompile(`(` + reResource + `)\.(` + reSubdomain + `) waiting for (\d+) items to be removed`)
	jsonCount        = regexp.MustCompile(`"count":(\d+)`)
)

// ParseCRDWaiting parses apiextensions-apiserver's CRD finalizer line
// (pkg/controller/finalizer/crd_finalizer.go:245, V(2)): printf
// "%s.%s waiting for %d items to be removed" (1.8-1.35) and structured
// `"Waiting for items to be removed" resource="<plural>" group="<group>" count=<n>` (1.36+).
// The resource and the group must be names the API server accepts there (a DNS-1123
// label, a DNS-1123 subdomain): a field's value is unquoted, which turns an invalid
// byte into U+FFFD, and a key can sit inside another value (resource="\x82 group=0"
// gave resource "\uFFFD group=0", not in the text, and group `0"`).
func ParseCRDWaiting(text string) (CRDWaiting, bool) {
	if strings.Contains(text, "Waiting for items to be removed") {
		r, ok1 := fieldValue(text, "resource")
		g, ok2 := fieldValue(text, "group")
		c, ok3 := fieldValue(text, "count")
		n, err := strconv.Atoi(c)
		if ok1 && ok2 && ok3 && err == nil && crdNames(r, g) {
			return CRDWaiting{Resource: r, Group: g, Count: n}, true
		}
		if ok1 && ok2 && crdNames(r, g) {
			// JSON renders count as a number, which fieldValue does not take
			if m := jsonCount.FindStringSubmatch(text); m != nil {
				n, _ = strconv.Atoi(m[1])
				return CRDWaiting{Resource: r, Group: g, Count: n}, true
			}
		}
	}
	if m := crdWaitingPrintf.FindStringSubmatch(text); m != nil && crdNames(m[1], m[2]) {
		n, _ := strconv.Atoi(m[3])
		return CRDWaiting{Resource: m[1], Group: m[2], Count: n}, true
	}
	return CRDWaiting{}, false
}

// crdNames reports whether resource and group can be a CRD's plural and group.
func crdNames(resource, group string) bool {
	return len(content.IsDNS1123Label(resource)) == 0 && len(content.IsDNS1123Subdomain(group)) == 0
}

// CRDTerminatingRefusal is the phrase of apiextensions-apiserver's refusal to create a
// custom resource while its CRD is being deleted ("%v not allowed while custom resource
// definition is terminating", 405, 1.11-1.2x; "create not allowed while custom resource
// definition is terminating", Forbidden, forbidCreateAdmission in
// pkg/apiserver/customresource_handler.go through 1.38). An operator that keeps
// recreating its objects sees it after the CRD was deleted.
const CRDTerminatingRefusal = "not allowed while custom resource definition is terminating"

// IsCRDTerminatingRefusal reports whether text carries that refusal and returns the verb.
func IsCRDTerminatingRefusal(text string) (verb string, ok bool) {
	i := strings.Index(text, CRDTerminatingRefusal)
	if i < 0 {
		return "", false
	}
	pre := strings.TrimRight(text[:i], " ")
	if j := strings.LastIndexAny(pre, " :\"("); j >= 0 {
		pre = pre[j+1:]
	}
	return pre, true
}

// NewFinalizersForbidden is the phrase of apimachinery's ObjectMeta update validation
// refusing an update that adds finalizers to an object that has a deletionTimestamp
// (k8s.io/apimachinery pkg/api/validation/objectmeta.go, ValidateObjectMetaUpdate:
// field.Forbidden(fldPath, fmt.Sprintf("no new finalizers can be added if the object is
// being deleted, found new finalizers %#v", extra.List())), v1.8-v1.38), returned as 422
// Invalid (`%s %q is invalid: %v`) and printed by kubectl as `The KIND "NAME" is
// invalid: * metadata.finalizers: Forbidden: ...`. It proves the object is being
// deleted: a finalizer-removal patch that sends `[""]` or `[null]` meets it.
const NewFinalizersForbidden = "no new finalizers can be added if the object is being deleted"

// FinalizersRefusal is one NewFinalizersForbidden refusal: the object it names when
// the text holds NewInvalid's `KIND "NAME" is invalid` before it, and the finalizers
// the update tried to add as Go printed them (`[]string{""}`).
type FinalizersRefusal struct {
	Kind, Name string
	Finalizers string
}

// reInvalidObject is NewInvalid's `%s %q is invalid` (the kind qualified by its group
// for custom resources, `Widget.example.com`).
var reInvalidObject = regexp.MustCompile(`([A-Z][A-Za-z0-9]*(?:\.[a-z0-9][a-z0-9.-]*)?) \\?"([a-z0-9][a-z0-9.:-]*)\\?" is invalid`)

// ParseNewFinalizersForbidden reports whether text carries the NewFinalizersForbidden
// refusal, and the object and finalizers it names.
func ParseNewFinalizersForbidden(text string) (FinalizersRefusal, bool) {
	i := strings.Index(text, NewFinalizersForbidden)
	if i < 0 {
		return FinalizersRefusal{}, false
	}
	var r FinalizersRefusal
	if ms := reInvalidObject.FindAllStringSubmatch(text[:i], -1); len(ms) > 0 {
		m := ms[len(ms)-1]
		r.Kind, r.Name = m[1], m[2]
	}
	rest := text[i+len(NewFinalizersForbidden):]
	if f, ok := strings.CutPrefix(rest, ", found new finalizers "); ok {
		if j := strings.IndexAny(f, "\n"); j >= 0 {
			f = f[:j]
		}
		r.Finalizers = strings.TrimSpace(f)
	}
	return r, true
}
