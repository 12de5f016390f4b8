package findings

import (
	"regexp"
	"strings"
)

// Public names: what identifies no customer, for fingerprints (hashed otherwise) and
// for --redact (analyzer/redact, tokenised otherwise). One list for both.

// PublicDomains are domains of Kubernetes, of public registries, clouds' API endpoints
// and other projects that identify no customer (customer domains are every other one,
// of any top-level domain); the finalizer catalog's domains are added by KnownDomain.
var PublicDomains = []string{
	"cluster.local", "svc", "localhost", "example.com", "example.org", "example.net", "in-addr.arpa", "ip6.arpa",
	"docker.io", "docker.com", "quay.io", "gcr.io", "ghcr.io", "pkg.dev", "mcr.microsoft.com", "registry.k8s.io",
	"amazonaws.com", "amazonaws.com.cn", "aws", "googleapis.com", "google.com", "azure.com", "windows.net", "microsoft.com", "azurecr.io",
	"aliyuncs.com", "github.com", "githubusercontent.com", "golang.org", "go.dev", "helm.sh", "coreos.com", "redhat.com",
	"openshift.com", "openshift.io", "rancher.com", "rancher.io", "cncf.io", "jetstack.io", "bitnami.com", "grafana.com", "prometheus.io",
	"compute.internal", "ec2.internal", "k8s.io", "kubernetes.io", "x-k8s.io", "sigs.k8s.io", "cattle.io", "projectcalico.org",
	"tigera.io", "istio.io", "linkerd.io", "cilium.io", "argoproj.io", "fluxcd.io", "crossplane.io", "knative.dev", "kubevirt.io",
	"cert-manager.io", "acme.cert-manager.io", "keda.sh", "velero.io", "open-cluster-management.io", "operators.coreos.com",
	"monitoring.coreos.com", "no-color.org",
	// Kubernetes' built-in API groups without a dot ("deployments.apps", "jobs.batch")
	"apps", "batch", "policy", "autoscaling", "extensions",
}

// KnownDomain reports whether a DNS name is, or is under, a domain of Kubernetes, of a
// project of the finalizer catalog, or of PublicDomains: it identifies no customer.
func KnownDomain(d string) bool {
	d = strings.ToLower(d)
	for _, k := range KnownFinalizerDomains() {
		if d == k || strings.HasSuffix(d, "."+k) {
			return true
		}
	}
	for _, k := range PublicDomains {
		if d == k || strings.HasSuffix(d, "."+k) {
			return true
		}
	}
	return false
}

// WellKnownFinalizer reports whether a finalizer is Kubernetes' own or a well-known
// project's: the finalizer catalog is the one list of them (LookupFinalizer,
// KnownFinalizerDomains).
func WellKnownFinalizer(f string) bool {
	if _, ok := LookupFinalizer(f); ok {
		return true
	}
	dom, _, ok := strings.Cut(f, "/")
	return ok && KnownDomain(strings.ToLower(dom))
}

// alreadyRedacted matches values a bundle was redacted with before it reached us.
var alreadyRedacted = regexp.MustCompile(`\*{2,}|^\{[A-Za-z_ -]+\}$|^<[A-Za-z_ -]+>$|(?i)^(redacted|hidden|masked|x{3,})$`)

// IsRedactedValue reports whether a value was already redacted in the bundle
// (***HIDDEN***, {PLACEHOLDER}, <redacted>): an unknown value, not a real name.
func IsRedactedValue(s string) bool { return alreadyRedacted.MatchString(s) }

// DNSName reports whether w is a lower-case DNS name of at least two labels whose last
// label is alphabetic (any top-level domain).
func DNSName(w string) bool {
	labels := strings.Split(w, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || !dnsLabel.MatchString(l) {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	return true
}

var (
	dnsLabel  = regexp.MustCompile(`^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$`)
	hostLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)
)

// Registrable returns the part of a DNS name a customer registers ("acme-corp.io" of
// "widgets.acme-corp.io", "acme.co.uk" of "api.acme.co.uk"), or "" when it is not a
// DNS name of at least two labels (an IP address, a version).
func Registrable(d string) string {
	d = strings.ToLower(strings.Trim(d, "."))
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return ""
	}
	for _, l := range labels {
		if l == "" || !hostLabel.MatchString(l) {
			return ""
		}
	}
	if last := labels[len(labels)-1]; strings.Trim(last, "0123456789") == "" {
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
