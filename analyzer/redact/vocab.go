package redact

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

//go:embed vocab.txt
var vocabText string

var (
	vocabOnce sync.Once
	vocab     map[string]bool // lower case
)

// loadVocab builds the public vocabulary: vocab.txt, the words of every message
// template of Kubernetes' catalog (parsers/kubemsg), the finalizer catalog's domains
// and the public domains below.
func loadVocab() {
	vocab = map[string]bool{}
	add := func(text string) {
		for _, line := range strings.Split(text, "\n") {
			line, _, _ = strings.Cut(line, "#")
			for _, w := range strings.Fields(line) {
				vocab[strings.ToLower(w)] = true
			}
		}
	}
	add(vocabText)
	if c, err := kubemsg.Catalog(); err == nil {
		for _, m := range c.Messages {
			for _, f := range m.Forms {
				for _, w := range catalogWord.FindAllString(f.Format, -1) {
					vocab[strings.ToLower(w)] = true
				}
			}
		}
	}
	for _, d := range analyzer.KnownFinalizerDomains() {
		vocab[d] = true
	}
	for _, d := range publicDomains {
		vocab[d] = true
	}
}

var catalogWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*`)

// inVocab reports whether w (any case) is public vocabulary.
func inVocab(w string) bool {
	vocabOnce.Do(loadVocab)
	return vocab[strings.ToLower(w)]
}

// publicDomains are domains of public registries, clouds' API endpoints and other
// projects that identify no customer (customer domains are every other one, of any
// top-level domain).
var publicDomains = []string{
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

// knownDomain reports whether a DNS name is, or is under, a domain of Kubernetes, of a
// project of the finalizer catalog, a well-known API group, or a public service: it
// identifies no customer.
func knownDomain(d string) bool {
	d = strings.ToLower(d)
	if kubemsg.WellKnownGroupOwner(d) != "" {
		return true
	}
	for _, k := range analyzer.KnownFinalizerDomains() {
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

// WellKnownFinalizer reports whether a finalizer is Kubernetes' own or a well-known
// project's (kept by --redact): the finalizer catalog is the one list of them
// (analyzer.LookupFinalizer, analyzer.KnownFinalizerDomains).
func WellKnownFinalizer(f string) bool {
	if _, ok := analyzer.LookupFinalizer(f); ok {
		return true
	}
	dom, _, ok := strings.Cut(f, "/")
	return ok && knownDomainStrict(strings.ToLower(dom))
}

// knownDomainStrict is knownDomain without the well-known API groups of unknown
// owners' look-alikes: a finalizer's domain must be the catalog's or Kubernetes'.
func knownDomainStrict(d string) bool {
	for _, k := range analyzer.KnownFinalizerDomains() {
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

// wellKnownNames are system names and names of well-known projects' components: they
// identify no customer (the typed names of a bundle are tokenised unless listed).
var wellKnownPrefixes = []string{
	"kube-", "kubernetes", "metrics-server", "coredns", "kube-dns", "prometheus-adapter", "calico", "tigera",
	"cert-manager", "gatekeeper", "kyverno", "istio", "linkerd", "cilium", "flannel", "openshift", "aws-node",
	"ebs-csi", "efs-csi", "azure", "gke-", "konnectivity", "local-path", "cattle-", "rancher", "fleet-",
	"extension-apiserver-authentication", "system:", "default-token", "apiserver",
}

// commonWords are names too ordinary to identify anyone that also occur in
// Kubernetes' messages and nsanalyze's sentences: a namespace called "test" is not
// tokenised (every "test" of every message would become a token).
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

func wellKnownName(s string) bool {
	if commonWords[s] || inVocab(s) {
		return true
	}
	for _, p := range wellKnownPrefixes {
		if s == strings.TrimSuffix(p, "-") || strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// alreadyRedacted matches values a bundle was redacted with before it reached us.
var alreadyRedacted = regexp.MustCompile(`\*{2,}|^\{[A-Za-z_ -]+\}$|^<[A-Za-z_ -]+>$|(?i)^(redacted|hidden|masked|x{3,})$`)

// IsRedactedValue reports whether a value was already redacted in the bundle
// (***HIDDEN***, {PLACEHOLDER}, <redacted>): an unknown value, not a real name.
func IsRedactedValue(s string) bool { return alreadyRedacted.MatchString(s) }
