package redact

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// TestFinalizerDomainsOneList: --redact keeps exactly the finalizers the catalog (and
// Kubernetes) knows; the catalog is the one list.
func TestFinalizerDomainsOneList(t *testing.T) {
	for _, d := range findings.KnownFinalizerDomains() {
		if !WellKnownFinalizer(d + "/x") {
			t.Errorf("catalog domain %s is not kept by --redact", d)
		}
	}
	for _, f := range []string{"kubernetes", "orphan", "foregroundDeletion", "kubernetes.io/pvc-protection", "wrangler.cattle.io/x",
		"projectcalico.org/x", "noobaa.io/finalizer", "kapp.k14s.io/delete-wait", "cluster.x-k8s.io/machine"} {
		if !WellKnownFinalizer(f) {
			t.Errorf("%s: not well known", f)
		}
	}
	for _, f := range []string{"customer.example/cleanup", "acme-corp.io/x", "my-cleanup", "evilk8s.io/x"} {
		if WellKnownFinalizer(f) {
			t.Errorf("%s: kept by --redact", f)
		}
	}
}

func TestRegistrableDomain(t *testing.T) {
	for in, want := range map[string]string{
		"widgets.acme-corp.io": "acme-corp.io", "v1.api.customer.example": "customer.example", "api.acme.co.uk": "acme.co.uk",
		"apps": "", "10.96.0.1": "", "v1.": "", "Foo.Example.COM": "example.com",
	} {
		if got := registrable(in); got != want {
			t.Errorf("registrable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactDomainsAndCloudIDs: customer domains are replaced wherever they occur,
// keeping the structure, with one token per domain; cloud ids, ARNs and addresses go.
func TestRedactDomainsAndCloudIDs(t *testing.T) {
	r := &findings.Report{Namespaces: []findings.NamespaceReport{{Name: "shop", MetadataFinalizers: []string{"acme-corp.io/cleanup"},
		Verdict: "crontabs.acme-corp.io and v1beta1.metrics.k8s.io; widgets.acme-corp.io; arn:aws:iam::123456789012:role/foo; vpc-0a1b2c3d; ops@acme-corp.io",
		Causes: []findings.Cause{{GroupVersions: []string{"widgets.acme-corp.io/v1", "metrics.k8s.io/v1beta1"}, APIServices: []string{"v1.widgets.acme-corp.io", "v1beta1.metrics.k8s.io"},
			Finalizers: []string{"acme-corp.io/cleanup"}}}}}}
	rd := New()
	rd.Report(r)
	red := rd.Apply(r)
	want := "crontabs.domain-1 and v1beta1.metrics.k8s.io; widgets.domain-1; arn-1; cloudid-1; email-1"
	if got := red.Namespaces[0].Verdict; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := red.Namespaces[0].Causes[0].APIServices; got[0] != "v1.widgets.domain-1" || got[1] != "v1beta1.metrics.k8s.io" {
		t.Errorf("APIServices %v", got)
	}
	if f := red.Namespaces[0].MetadataFinalizers[0]; f != "finalizer-1" && f != "domain-1/cleanup" {
		t.Errorf("namespace finalizer %q", f)
	}
}
