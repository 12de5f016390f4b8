package redact

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
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
	for _, d := range findings.KnownFinalizerDomains() {
		vocab[d] = true
	}
	for _, d := range findings.PublicDomains {
		vocab[d] = true
	}
}

var catalogWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*`)

// inVocab reports whether w (any case) is public vocabulary.
func inVocab(w string) bool {
	vocabOnce.Do(loadVocab)
	return vocab[strings.ToLower(w)]
}

// knownDomain reports whether a DNS name is, or is under, a public domain
// (findings.KnownDomain: Kubernetes', the finalizer catalog's projects', public
// registries and clouds) or a well-known API group: it identifies no customer.
func knownDomain(d string) bool {
	d = strings.ToLower(d)
	return kubemsg.WellKnownGroupOwner(d) != "" || findings.KnownDomain(d)
}

// WellKnownFinalizer is findings.WellKnownFinalizer (kept by --redact).
func WellKnownFinalizer(f string) bool { return findings.WellKnownFinalizer(f) }

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

// IsRedactedValue is findings.IsRedactedValue: a value the bundle already hid.
func IsRedactedValue(s string) bool { return findings.IsRedactedValue(s) }

// pathWords are the words the bundle layouts name their files and folders with (kubectl
// dumps, cluster-info dump, must-gather, troubleshoot, sosreport, sonobuoy, crashd,
// Insights): public in a path.
var pathWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`cluster clusters resources resource namespaced namespaces logs log pods pod nodes node
		host hosts events describe previous current kubectl must gather support bundle bundles dump dumps info
		analysis insights sonobuoy plugins results meta errors crashd sosreport sos commands command output
		journal journald kubelet apiserver controller manager scheduler etcd proxy containers container
		static manifests config configs versions version metrics raw files file json yaml yml txt
		stderr stdout readme expected leftover ticket tickets paste pasted from issue issues description
		comment comments attachment attachments cmd var tmp home root usr etc opt run spool inputs input
		leases lease endpoints endpointslices apiservices crds webhooks mutating validating configurations
		cluster-resources storageclasses clusterroles clusterrolebindings kube system public default`) {
		pathWords[w] = true
	}
}
