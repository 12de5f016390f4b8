package analyzer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Redaction replaces customer identifiers in a report with stable tokens, so a report
// can be attached to a public ticket:
//
//   - namespace names become ns-N, other object names name-N, webhook names webhook-N,
//     finalizers of unknown owners finalizer-N;
//   - IPv4/IPv6 addresses become ip-N, UIDs uid-N, host names (FQDNs) host-N;
//   - customer domains become domain-N wherever they occur, the structure around them
//     kept: in API groups (widgets.acme-corp.io -> widgets.domain-1), APIService and CRD
//     names, finalizers' prefixes and host names under them; well-known domains
//     (Kubernetes', the finalizer catalog's projects', public registries and clouds')
//     stay;
//   - AWS ARNs become arn-N and account ids account-N; AWS and Alibaba resource ids
//     (vpc-..., subnet-..., i-...) cloudid-N; GCP projects project-N and Azure
//     subscriptions subscription-N, resource groups rg-N and the resource names of
//     their paths cloud-N; e-mail addresses and user@host email-N.
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
	rec.EachObjectHead(func(o *objects.Object) {
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
	})
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

// WellKnownFinalizer reports whether a finalizer is Kubernetes' own or a well-known
// project's (kept by --redact): the finalizer catalog is the one list of them
// (LookupFinalizer, KnownFinalizerDomains).
func WellKnownFinalizer(f string) bool {
	if _, ok := LookupFinalizer(f); ok {
		return true
	}
	dom, _, ok := strings.Cut(f, "/")
	return ok && knownDomain(strings.ToLower(dom))
}

// knownDomain reports whether a DNS name is, or is under, a domain of Kubernetes, of a
// project of the finalizer catalog, or of a public service (registries, clouds' own
// API endpoints), or a reserved example domain: it identifies no customer.
func knownDomain(d string) bool {
	for _, k := range KnownFinalizerDomains() {
		if d == k || strings.HasSuffix(d, "."+k) {
			return true
		}
	}
	for _, k := range publicDomains {
		if d == k || strings.HasSuffix(d, "."+k) {
			return true
		}
	}
	return false
}

// publicDomains are domains of public registries, clouds' API endpoints and other
// projects that identify no customer (customer domains are the others).
var publicDomains = []string{
	"cluster.local", "svc", "localhost", "example.com", "example.org", "example.net", "in-addr.arpa",
	"docker.io", "docker.com", "quay.io", "gcr.io", "ghcr.io", "pkg.dev", "mcr.microsoft.com", "registry.k8s.io",
	"amazonaws.com", "aws", "googleapis.com", "google.com", "azure.com", "windows.net", "microsoft.com", "azurecr.io",
	"aliyuncs.com", "github.com", "githubusercontent.com", "golang.org", "helm.sh", "coreos.com", "redhat.com",
	"openshift.com", "rancher.com", "rancher.io", "cncf.io", "jetstack.io", "bitnami.com", "grafana.com", "prometheus.io",
}

// registrable returns the part of a DNS name a customer registers ("acme-corp.io" of
// "widgets.acme-corp.io", "acme.co.uk" of "api.acme.co.uk"), or "" when it is not a
// DNS name of at least two labels.
func registrable(d string) string {
	d = strings.ToLower(strings.Trim(d, "."))
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return ""
	}
	for _, l := range labels {
		if l == "" || !dnsLabel.MatchString(l) {
			return ""
		}
	}
	if allDigits(labels[len(labels)-1]) {
		return "" // an IP address, a version
	}
	n := 2
	if len(labels) >= 3 && len(labels[len(labels)-1]) == 2 {
		switch labels[len(labels)-2] {
		case "co", "com", "org", "net", "gov", "ac", "edu", "ne", "or":
			n = 3
		}
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
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
	fqdnRE = regexp.MustCompile(`(?i)\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.(?:com|net|org|internal|local|corp|lan|cloud|intra|intranet|private|home|site|company|example|test|io|dev|co|ai|app|biz|info|de|uk|eu|us|fr|nl|cn|jp)\b`)
	// arnRE: an AWS ARN, whole ("arn:aws:iam::123456789012:role/foo").
	arnRE = regexp.MustCompile(`\barn:aws(?:-cn|-us-gov)?:[A-Za-z0-9-]*:[A-Za-z0-9-]*:[0-9]*:[^\s"',;()\[\]{}<>]+`)
	// accountRE: a 12-digit AWS account id (only where the text speaks of AWS).
	accountRE      = regexp.MustCompile(`(?:^|[^0-9A-Za-z])([0-9]{12})(?:[^0-9A-Za-z]|$)`)
	accountContext = regexp.MustCompile(`(?i)aws|amazon|account|arn:|ecr|owner`)
	// awsIDRE: AWS resource ids (vpc-0a1b2c3d, i-0123456789abcdef0, ...); aliIDRE:
	// Alibaba Cloud's (vpc-bp1..., vsw-..., i-bp1...).
	awsIDRE = regexp.MustCompile(`\b(?:vpc|subnet|rtb|sg|i|eni|vol|igw|nat|snap|ami|eipalloc|eipassoc|tgw|tgw-attach|pcx|acl|vpce|lt|fs|fsmt)-(?:[0-9a-f]{17}|[0-9a-f]{8})\b`)
	aliIDRE = regexp.MustCompile(`\b(?:vpc|vsw|sg|i|eni|lb|alb|nlb|eip|d|nat|rtb|cr|ngw)-[a-z0-9]{2}[0-9][a-z0-9]{14,}\b`)
	// gcpPathRE: a GCP resource path (projects/P/zones/Z/instances/I); azurePathRE: an
	// Azure one (/subscriptions/S/resourceGroups/G/providers/NS.Type/T/N).
	gcpPathRE   = regexp.MustCompile(`\bprojects/([a-z][a-z0-9-]{4,28}[a-z0-9])((?:/[A-Za-z0-9._-]+)*)`)
	azurePathRE = regexp.MustCompile(`(?i)/subscriptions/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})((?:/[A-Za-z0-9._()-]+)*)`)
	// emailRE: an e-mail address or user@host (not an image digest, image@sha256:...).
	emailRE = regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\b`)
)

// cloudIDs adds the cloud identifiers of s: ARNs, AWS account ids, AWS and Alibaba
// resource ids, GCP projects and resource names, Azure subscriptions, resource groups
// and resource names, e-mail addresses.
func (rd *redactor) cloudIDs(s string) {
	for _, m := range arnRE.FindAllString(s, -1) {
		rd.add(m, "arn")
	}
	if accountContext.MatchString(s) {
		for _, m := range accountRE.FindAllStringSubmatch(s, -1) {
			rd.add(m[1], "account")
		}
	}
	for _, m := range awsIDRE.FindAllString(s, -1) {
		rd.add(m, "cloudid")
	}
	for _, m := range aliIDRE.FindAllString(s, -1) {
		rd.add(m, "cloudid")
	}
	for _, m := range gcpPathRE.FindAllStringSubmatch(s, -1) {
		rd.add(m[1], "project")
		segs := strings.Split(strings.TrimPrefix(m[2], "/"), "/")
		for i := 0; i+1 < len(segs); i++ {
			switch segs[i] {
			case "global", "":
				continue
			case "zones", "regions", "locations":
				i++ // a public zone name
				continue
			}
			rd.add(segs[i+1], "cloud")
			i++
		}
	}
	for _, m := range azurePathRE.FindAllStringSubmatch(s, -1) {
		rd.add(m[1], "subscription")
		segs := strings.Split(strings.TrimPrefix(m[2], "/"), "/")
		for i := 0; i+1 < len(segs); i++ {
			switch strings.ToLower(segs[i]) {
			case "resourcegroups":
				rd.add(segs[i+1], "rg")
				i++
			case "providers":
				i++ // the provider namespace (Microsoft.Network)
			default:
				rd.add(segs[i+1], "cloud")
				i++
			}
		}
	}
	for _, m := range emailRE.FindAllString(s, -1) {
		if _, host, _ := strings.Cut(m, "@"); strings.HasPrefix(strings.ToLower(host), "sha") {
			continue // an image digest
		}
		rd.add(m, "email")
	}
}

// domain adds the customer domain of a DNS name (an API group, a finalizer's prefix, a
// host name): its registrable part, unless a well-known one.
func (rd *redactor) domain(name string) {
	if reg := registrable(name); reg != "" && !knownDomain(reg) {
		rd.add(reg, "domain")
	}
}

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
	for _, ns := range cp.Namespaces {
		for _, f := range append(append([]string{}, ns.MetadataFinalizers...), ns.SpecFinalizers...) {
			if !WellKnownFinalizer(f) {
				rd.add(f, "finalizer")
			}
		}
	}
	// customer domains, wherever they occur: in API groups (and the APIService, CRD and
	// resource names made of them), finalizers' prefixes, host names
	for p := range rd.protected {
		rd.domain(p)
	}
	for f := range rd.finalizerSet(&cp) {
		if dom, _, ok := strings.Cut(f, "/"); ok {
			rd.domain(dom)
		}
	}
	// host names under those domains keep their structure (crontabs.acme-corp.io ->
	// crontabs.domain-1); other host names become host-N
	groupDomains := map[string]bool{}
	for s, k := range rd.kinds {
		if k == "domain" {
			groupDomains[s] = true
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
			rd.domain(m)
			if !rd.isProtected(m) && !knownDomain(strings.ToLower(m)) && !groupDomains[registrable(m)] {
				rd.add(m, "host")
			}
		}
		rd.cloudIDs(s)
		return s
	})
	rd.assign()
	// fingerprints hold only public vocabulary and hashed placeholders (fingerprint.go),
	// and known issues are the catalog's words: both are kept as they are, so a
	// fingerprint reads the same with and without --redact
	kept := make([]Problem, len(cp.Problems))
	for i, p := range cp.Problems {
		kept[i] = Problem{Fingerprint: p.Fingerprint, KnownIssues: p.KnownIssues}
		cp.Problems[i].Fingerprint, cp.Problems[i].KnownIssues = "", nil
	}
	walkStrings(reflect.ValueOf(&cp).Elem(), rd.replace)
	for i := range cp.Problems {
		cp.Problems[i].Fingerprint, cp.Problems[i].KnownIssues = kept[i].Fingerprint, kept[i].KnownIssues
	}
	cp.Bundle.Path = "(redacted)"
	summarize(&cp) // the summary clips the root: write it again from the redacted values
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

var categoryRank = map[string]int{"arn": 0, "email": 1, "uid": 2, "subscription": 3, "account": 4, "project": 5, "rg": 6,
	"cloudid": 7, "domain": 8, "ip": 9, "host": 10, "webhook": 11, "finalizer": 12, "ns": 13, "name": 14, "cloud": 15}

// overridesProtection: tokens of these kinds are replaced inside protected strings too
// (a customer's domain inside its API group: widgets.acme-corp.io -> widgets.domain-1).
var overridesProtection = map[string]bool{"domain": true, "arn": true, "email": true, "account": true,
	"cloudid": true, "project": true, "subscription": true, "rg": true, "uid": true, "ip": true, "host": true}

// finalizerSet lists every finalizer of a report.
func (rd *redactor) finalizerSet(r *Report) map[string]bool {
	out := map[string]bool{}
	for _, ns := range r.Namespaces {
		for _, f := range append(append([]string{}, ns.MetadataFinalizers...), ns.SpecFinalizers...) {
			out[f] = true
		}
		for _, c := range ns.Causes {
			for _, f := range c.Finalizers {
				out[f] = true
			}
			for _, o := range c.Objects {
				for _, f := range o.Finalizers {
					out[f] = true
				}
			}
		}
	}
	return out
}

func (rd *redactor) add(s, kind string) {
	if s == "" || IsRedactedValue(s) || rd.protected[s] && !overridesProtection[kind] {
		return
	}
	switch kind {
	case "ns", "name":
		if wellKnownName(s) || len(s) < 3 {
			return
		}
	case "cloud", "rg":
		if commonWords[strings.ToLower(s)] || len(s) < 3 {
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
			if overridesProtection[rd.kinds[s[start:end]]] {
				break
			}
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
