package shellsafe

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
)

// NameKind says which Kubernetes naming rule a name from the bundle must follow.
type NameKind int

const (
	// NamespaceName: a namespace, a DNS-1123 label ("team-a").
	NamespaceName NameKind = iota
	// ObjectName: the name of most objects (Deployments, Services, ConfigMaps,
	// APIServices, webhook configurations, CRDs, webhooks), a DNS-1123 subdomain.
	ObjectName
	// GroupName: an API group or a resource.group ("widgets.example.com"), a DNS-1123
	// subdomain.
	GroupName
	// FinalizerName: a finalizer, a qualified name ("kubernetes", "example.com/cleanup").
	FinalizerName
	// APIServiceName: an APIService, "<version>.<group>" ("v1beta1.metrics.k8s.io"; the
	// core group's is "v1.").
	APIServiceName
)

// String names the kind in words, for messages.
func (k NameKind) String() string {
	switch k {
	case NamespaceName:
		return "namespace"
	case GroupName:
		return "API group"
	case FinalizerName:
		return "finalizer"
	case APIServiceName:
		return "APIService"
	}
	return "object"
}

// ValidName reports whether name is a valid Kubernetes name of its kind, exactly as
// apimachinery's validation decides (IsDNS1123Label, IsDNS1123Subdomain,
// IsQualifiedName), in one pass over the name and without allocating. Such a name
// holds only [A-Za-z0-9._/-], never starts with "-" (it cannot be read as a flag) and
// is safe in a command.
func ValidName(kind NameKind, name string) bool {
	validations.Inc()
	switch kind {
	case NamespaceName:
		return isLabel(name)
	case ObjectName, GroupName:
		return isSubdomain(name)
	case FinalizerName:
		return isQualified(name)
	case APIServiceName:
		return isSubdomain(strings.TrimSuffix(name, "."))
	}
	return false
}

func lowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// isLabel is IsDNS1123Label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 bytes.
func isLabel(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !lowerAlnum(c) && (c != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// isSubdomain is IsDNS1123Subdomain: labels joined by dots, at most 253 bytes.
func isSubdomain(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isLabelAnyLength(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// isLabelAnyLength is the label pattern without the length limit (a subdomain's labels
// are only bounded by its total length in apimachinery's rule).
func isLabelAnyLength(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !lowerAlnum(c) && (c != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// isQualified is IsQualifiedName: an optional DNS-1123 subdomain prefix and "/", then
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 bytes.
func isQualified(s string) bool {
	name := s
	if i := strings.IndexByte(s, '/'); i >= 0 {
		if !isSubdomain(s[:i]) {
			return false
		}
		name = s[i+1:]
	}
	if name == "" || len(name) > 63 {
		return false
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	for i := 0; i < len(name); i++ {
		c := name[i]
		if alnum(c) {
			continue
		}
		if i == 0 || i == len(name)-1 || (c != '-' && c != '_' && c != '.') {
			return false
		}
	}
	return true
}

// NameProblem returns why name is not a valid Kubernetes name of its kind ("" when it
// is valid), in apimachinery's words. A name that Kubernetes itself would have refused
// can only come from a damaged or hostile bundle: nsanalyze shows it quoted
// (QuoteName) and never puts it into a command.
func NameProblem(kind NameKind, name string) string {
	if ValidName(kind, name) {
		return ""
	}
	var errs []string
	switch kind {
	case NamespaceName:
		errs = content.IsDNS1123Label(name)
	case ObjectName, GroupName:
		errs = content.IsDNS1123Subdomain(name)
	case FinalizerName:
		errs = content.IsLabelKey(name)
	case APIServiceName:
		errs = content.IsDNS1123Subdomain(strings.TrimSuffix(name, "."))
	default:
		errs = []string{"unknown name kind"}
	}
	if len(errs) == 0 {
		return "not a valid name"
	}
	return strings.Join(errs, "; ")
}

// NotRun is the rung a ladder gives instead of a command that would have used an
// invalid name: a shell comment that shows the name escaped and says why.
func NotRun(kind NameKind, name string) string {
	return Comment(fmt.Sprintf("no command: %s", HostileName(kind, name)))
}

// HostileName is the warning for a name Kubernetes would not have accepted, e.g.
// `namespace name "x$(id)" is not a valid Kubernetes name: the bundle may be hostile;
// no command uses it`.
func HostileName(kind NameKind, name string) string {
	return fmt.Sprintf("%s name %s is not a valid Kubernetes name: the bundle may be damaged or hostile; no command uses it",
		kind, QuoteName(name))
}
