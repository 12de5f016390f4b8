package analyzer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// Redaction replaces customer identifiers in a report with stable tokens, so a report
// can be attached to a public ticket:
//
//   - namespace names become ns-N, other object names name-N, webhook names webhook-N,
//     finalizers of unknown owners finalizer-N;
//   - IPv4/IPv6 addresses become ip-N, UIDs uid-N, host names (FQDNs) host-N.
//
// The same value always maps to the same token within a report, so the report stays
// coherent (the namespace in the verdict is the one in the commands). Never touched:
// API group names (and the APIService and CRD names made of them), finalizers of
// well-known projects, well-known system namespaces and objects (kube-system, default,
// metrics-server, coredns, ...), loopback addresses, and Kubernetes' own words (names
// that are ordinary words such as "test" or "controller" are left, as they identify no
// one and would otherwise corrupt the messages). Values a bundle was already redacted
// with (***HIDDEN***, {PLACEHOLDER}, <redacted>) are unknown values: left as they are,
// never given a token.

// Redaction is the mapping a redaction applied (original -> token).
type Redaction struct {
	Tokens map[string]string
	// Protected lists strings that were deliberately kept although a name inside them
	// was redacted elsewhere (API groups, well-known finalizers).
	Protected []string
}

// BundleNames lists the namespace and object names of a bundle's kept objects, so
// names quoted only in free text (pods, nodes, services) are redacted too.
func BundleNames(rec *bundle.Records) (namespaces, names []string) {
	for _, o := range rec.Objects {
		switch o.Kind {
		case "APIService", "CustomResourceDefinition", "Event":
			// APIService and CRD names are API group names; events are named after their object
		case "Namespace":
			namespaces = append(namespaces, o.Name)
		default:
			names = append(names, o.Name)
		}
		if o.Namespace != "" {
			namespaces = append(namespaces, o.Namespace)
		}
		if o.Pod != nil && o.Pod.NodeName != "" {
			names = append(names, o.Pod.NodeName)
		}
	}
	return namespaces, names
}

// wellKnownNamespaces are never redacted.
var wellKnownNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true}

// wellKnownPrefixes are the names (and name prefixes, before a "-") of system
// namespaces and components of well-known projects: they identify no customer.
var wellKnownPrefixes = []string{
	"kube-", "kubernetes", "metrics-server", "coredns", "kube-dns", "prometheus-adapter", "calico", "tigera",
	"cert-manager", "gatekeeper", "kyverno", "istio", "linkerd", "cilium", "flannel", "openshift", "aws-node",
	"ebs-csi", "efs-csi", "azure", "gke-", "konnectivity", "local-path", "cattle-", "rancher", "fleet-",
	"extension-apiserver-authentication", "system:", "default-token", "apiserver",
}

// wellKnownFinalizerDomains are finalizer domains of well-known projects.
var wellKnownFinalizerDomains = []string{
	"kubernetes.io", "k8s.io", "x-k8s.io", "openshift.io", "kubevirt.io", "cattle.io", "istio.io", "tigera.io",
	"projectcalico.org", "cert-manager.io", "velero.io", "ceph.rook.io", "rook.io", "crossplane.io", "argoproj.io",
	"fluxcd.io", "knative.dev", "keda.sh", "longhorn.io", "cluster.x-k8s.io", "gatekeeper.sh", "kyverno.io",
	"metallb.io", "cilium.io", "elastic.co", "strimzi.io", "operators.coreos.com", "monitoring.coreos.com",
	"objectbucket.io", "kubeflow.org", "tekton.dev", "litmuschaos.io", "external-secrets.io",
}

// WellKnownFinalizer reports whether a finalizer is Kubernetes' own or a well-known
// project's (kept by --redact).
func WellKnownFinalizer(f string) bool {
	if !strings.Contains(f, "/") {
		return true // "kubernetes", "orphan", "foregroundDeletion"
	}
	domain := f[:strings.Index(f, "/")]
	for _, d := range wellKnownFinalizerDomains {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return true
		}
	}
	return false
}

// commonWords are names too ordinary to identify anyone that also occur in
// Kubernetes' messages; they are never redacted.
var commonWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`test tests demo app apps web api apis data config configs default server servers client
		controller controllers manager operator webhook webhooks service services namespace namespaces node nodes pod pods
		admin system public internal error errors failed delete deletion list watch get create update patch status true
		false unknown ready https http metrics discovery finalizer finalizers kubernetes cluster local main master worker
		backend frontend db database cache proxy gateway ingress egress storage volume volumes secret secrets token auth
		example sample dev prod staging stage qa monitoring logging network default-token content resource resources
		group version v1 v1beta1 v2 user users job jobs cron batch debug info warning events event lease leases`) {
		commonWords[w] = true
	}
}

// alreadyRedacted matches values a bundle was redacted with before it reached us.
var alreadyRedacted = regexp.MustCompile(`\*{2,}|^\{[A-Za-z_ -]+\}$|^<[A-Za-z_ -]+>$|(?i)^(redacted|hidden|masked|x{3,})$`)

// IsRedactedValue reports whether a value was already redacted in the bundle
// (***HIDDEN***, {PLACEHOLDER}, <redacted>): an unknown value, not a real name.
func IsRedactedValue(s string) bool { return alreadyRedacted.MatchString(s) }

func wellKnownName(s string) bool {
	if wellKnownNamespaces[s] || commonWords[s] {
		return true
	}
	for _, p := range wellKnownPrefixes {
		if s == strings.TrimSuffix(p, "-") || strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

var (
	ipv4RE = regexp.MustCompile(`\b(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}\b`)
	ipv6RE = regexp.MustCompile(`(?i)(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4}`)
	uidRE  = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	fqdnRE = regexp.MustCompile(`(?i)\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.(?:com|net|org|internal|local|corp|lan|cloud|intra|intranet|private|home|site|company|example|test)\b`)
)

// Redact returns a redacted deep copy of the report and the mapping it applied.
// namespaces and names are extra identifiers to redact (see BundleNames).
func Redact(r *Report, namespaces, names []string) (*Report, *Redaction) {
	var cp Report
	raw, err := json.Marshal(r)
	if err == nil {
		err = json.Unmarshal(raw, &cp)
	}
	if err != nil {
		panic(fmt.Sprintf("redact: copying the report: %v", err)) // the report is plain data
	}
	rd := newRedactor()

	// protected strings: API groups and the names made of them, well-known finalizers
	protect := func(s string) {
		if s != "" && strings.Contains(s, ".") {
			rd.protected[s] = true
		}
	}
	for _, ns := range cp.Namespaces {
		for _, c := range ns.Causes {
			for _, gv := range c.GroupVersions {
				protect(gv[:max(0, strings.LastIndex(gv, "/"))])
				protect(gv)
			}
			for _, a := range c.APIServices {
				protect(a)
				if i := strings.Index(a, "."); i > 0 {
					protect(a[i+1:])
				}
			}
			for _, f := range c.Finalizers {
				if WellKnownFinalizer(f) {
					protect(f)
				}
			}
			for _, o := range c.Objects {
				if i := strings.LastIndex(o.APIVersion, "/"); i > 0 {
					protect(o.APIVersion[:i])
				}
				protect(o.Resource)
				if i := strings.Index(o.Resource, "."); i > 0 {
					protect(o.Resource[i+1:])
				}
				if o.Kind == "APIService" || o.Kind == "CustomResourceDefinition" {
					protect(o.Name)
				}
				for _, f := range o.Finalizers {
					if WellKnownFinalizer(f) {
						protect(f)
					}
				}
			}
		}
	}
	for _, rk := range cp.Risks {
		if g, ok := strings.CutPrefix(rk.Object, "group "); ok {
			protect(g)
		}
		if a, ok := strings.CutPrefix(rk.Object, "APIService/"); ok {
			protect(a)
		}
	}
	protect("cluster.local")
	protect("svc.cluster.local")

	// identifiers from the report's structure, then from the bundle
	for _, ns := range cp.Namespaces {
		rd.add(ns.Name, "ns")
		for _, c := range ns.Causes {
			for _, w := range c.Webhooks {
				rd.add(w, "webhook")
			}
			for _, f := range c.Finalizers {
				if !WellKnownFinalizer(f) {
					rd.add(f, "finalizer")
				}
			}
			for _, o := range c.Objects {
				rd.add(o.Namespace, "ns")
				if o.Kind != "APIService" && o.Kind != "CustomResourceDefinition" {
					rd.add(o.Name, "name")
				}
				for _, f := range o.Finalizers {
					if !WellKnownFinalizer(f) {
						rd.add(f, "finalizer")
					}
				}
			}
		}
	}
	for _, n := range namespaces {
		rd.add(n, "ns")
	}
	for _, n := range names {
		rd.add(n, "name")
	}
	// addresses, UIDs and host names found in any string
	walkStrings(reflect.ValueOf(&cp).Elem(), func(s string) string {
		for _, m := range uidRE.FindAllString(s, -1) {
			rd.add(m, "uid")
		}
		for _, m := range ipv4RE.FindAllString(s, -1) {
			if m != "127.0.0.1" && m != "0.0.0.0" && !strings.HasPrefix(m, "255.") {
				rd.add(m, "ip")
			}
		}
		for _, m := range ipv6RE.FindAllString(s, -1) {
			if m != "::1" {
				rd.add(m, "ip")
			}
		}
		for _, m := range fqdnRE.FindAllString(s, -1) {
			if !rd.isProtected(m) && !strings.HasSuffix(m, ".cluster.local") && !strings.HasSuffix(strings.ToLower(m), ".example") {
				rd.add(m, "host")
			}
		}
		return s
	})
	rd.assign()
	walkStrings(reflect.ValueOf(&cp).Elem(), rd.replace)
	cp.Bundle.Path = "(redacted)"
	out := &Redaction{Tokens: rd.tokens}
	for p := range rd.protected {
		out.Protected = append(out.Protected, p)
	}
	sort.Strings(out.Protected)
	return &cp, out
}

type redactor struct {
	kinds     map[string]string // original -> category
	tokens    map[string]string // original -> token
	protected map[string]bool
	re        *regexp.Regexp
}

func newRedactor() *redactor {
	return &redactor{kinds: map[string]string{}, tokens: map[string]string{}, protected: map[string]bool{}}
}

var categoryRank = map[string]int{"uid": 0, "ip": 1, "host": 2, "webhook": 3, "finalizer": 4, "ns": 5, "name": 6}

func (rd *redactor) add(s, kind string) {
	if s == "" || IsRedactedValue(s) || rd.protected[s] {
		return
	}
	switch kind {
	case "ns", "name":
		if wellKnownName(s) || len(s) < 3 {
			return
		}
	}
	if prev, ok := rd.kinds[s]; ok && categoryRank[prev] <= categoryRank[kind] {
		return
	}
	rd.kinds[s] = kind
}

func (rd *redactor) isProtected(s string) bool {
	if rd.protected[s] {
		return true
	}
	for p := range rd.protected {
		if strings.HasSuffix(s, "."+p) && !strings.Contains(strings.TrimSuffix(s, "."+p), ".") {
			return true // "kubevirts.example.io": a resource of a protected group
		}
	}
	return false
}

// assign gives tokens in a deterministic order (category, then value) and builds the
// matcher: longest originals first, so "team-a-db" wins over "team-a".
func (rd *redactor) assign() {
	var all []string
	for s := range rd.kinds {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if rd.kinds[a] != rd.kinds[b] {
			return categoryRank[rd.kinds[a]] < categoryRank[rd.kinds[b]]
		}
		return a < b
	})
	n := map[string]int{}
	for _, s := range all {
		k := rd.kinds[s]
		n[k]++
		rd.tokens[s] = fmt.Sprintf("%s-%d", k, n[k])
	}
	if len(all) == 0 {
		return
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	var alts []string
	for _, s := range all {
		alts = append(alts, regexp.QuoteMeta(s))
	}
	rd.re = regexp.MustCompile(strings.Join(alts, "|"))
}

func isIdent(b byte) bool {
	return b == '-' || b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// protectedSpans returns the byte ranges of protected strings in s (with identifier boundaries).
func (rd *redactor) protectedSpans(s string) [][2]int {
	var spans [][2]int
	for p := range rd.protected {
		for off := 0; ; {
			i := strings.Index(s[off:], p)
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(p)
			off = start + 1
			if start > 0 && isIdent(s[start-1]) && s[start-1] != '-' {
				continue
			}
			spans = append(spans, [2]int{start, end})
		}
	}
	return spans
}

// replace substitutes every identifier in s that stands as a whole word (not inside a
// longer name) and not inside a protected string that is longer than it.
func (rd *redactor) replace(s string) string {
	if rd.re == nil || s == "" {
		return s
	}
	var spans [][2]int
	spansDone := false
	var b strings.Builder
	last := 0
	for pos := 0; pos < len(s); {
		loc := rd.re.FindStringIndex(s[pos:])
		if loc == nil {
			break
		}
		start, end := pos+loc[0], pos+loc[1]
		if (start > 0 && isIdent(s[start-1])) || (end < len(s) && isIdent(s[end])) {
			pos = start + 1
			continue
		}
		if !spansDone {
			spans, spansDone = rd.protectedSpans(s), true
		}
		inside := false
		for _, sp := range spans {
			if sp[0] <= start && end <= sp[1] && sp[1]-sp[0] > end-start {
				inside = true
				break
			}
		}
		if inside {
			pos = start + 1
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(rd.tokens[s[start:end]])
		last, pos = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// walkStrings applies f to every string reachable from v (struct fields, slices,
// pointers, maps' values), in place.
func walkStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(f(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			walkStrings(e, f)
			v.SetMapIndex(k, e)
		}
	}
}
