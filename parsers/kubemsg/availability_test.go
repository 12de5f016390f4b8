package kubemsg

import (
	"strings"
	"testing"
)

// TestParseAvailabilityCheck: the real condition messages of tickets, with and without
// the reason before them, and what is not one.
func TestParseAvailabilityCheck(t *testing.T) {
	cases := []struct{ in, want string }{
		{`FailedDiscoveryCheck: failing or missing response from https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1: Get "https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1": context deadline exceeded`, "v1alpha1.tap.linkerd.io"},
		{`failing or missing response from https://KEDA_METRICS_SERVER_IP:6443/apis/external.metrics.k8s.io/v1beta1: Get "https://KEDA_METRICS_SERVER_IP:6443/apis/external.metrics.k8s.io/v1beta1": net/http: request canceled`, "v1beta1.external.metrics.k8s.io"},
		{`failing or missing response from https://localhost:443/apis/metrics.k8s.io/v1beta1: Get "https://localhost:443/apis/metrics.k8s.io/v1beta1": dial tcp 127.0.0.1:443: connect: connection refused`, "v1beta1.metrics.k8s.io"},
		{`message="failing or missing response from https://10.0.0.1:443/apis/projectcalico.org/v3: bad status from https://10.0.0.1:443/apis/projectcalico.org/v3: 503"`, "v3.projectcalico.org"},
		{`failing or missing response from https://10.96.0.1:443/apis/metrics.k8s.io/v1beta1`, "v1beta1.metrics.k8s.io"},
		{`timed out waiting for https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1`, ""},                // the inner error alone names no check
		{`failing or missing response from https://10.96.0.20:443/api/v1: x`, ""},                       // no group
		{`failing or missing response from https://10.96.0.20:443/apis/metrics.k8s.io/v1beta1x: x`, ""}, // no version
		{`failing or missing response from https://10.96.0.20:443/apis/Metrics.k8s.io/v1beta1: x`, ""},  // no group name
		{`failing or missing response from the metrics server: connection refused`, ""},
	}
	for _, c := range cases {
		got, ok := ParseAvailabilityCheck(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%q: got %q %v, want %q", c.in, got, ok, c.want)
		}
	}
}

// TestParseAvailabilityCheckAnyURL: for any group (DNS subdomain) and version, any
// address (IP, name, placeholder, with or without a port) and any error after it, the
// message names VERSION.GROUP; its GroupVersion is GROUP/VERSION (the same APIService
// the rules read from an object).
func TestParseAvailabilityCheckAnyURL(t *testing.T) {
	groups := []string{"metrics.k8s.io", "tap.linkerd.io", "external.metrics.k8s.io", "a", "projectcalico.org", "x-y.z-1.io"}
	versions := []string{"v1", "v1beta1", "v2alpha3", "v10"}
	hosts := []string{"10.96.0.1:443", "localhost", "KEDA_METRICS_SERVER_IP:6443", "metrics-server.kube-system.svc:443", "[::1]:443"}
	tails := []string{"", ": context deadline exceeded", `: Get "https://h/apis/g/v1": EOF`, ` (Client.Timeout exceeded)`}
	for _, g := range groups {
		for _, v := range versions {
			for _, h := range hosts {
				for _, tail := range tails {
					for _, pre := range []string{"", "FailedDiscoveryCheck: ", "    ", `message: '`} {
						msg := pre + "failing or missing response from https://" + h + "/apis/" + g + "/" + v + tail
						got, ok := ParseAvailabilityCheck(msg)
						if !ok || got != v+"."+g || GroupVersionOfAPIService(got) != g+"/"+v {
							t.Fatalf("%q: got %q %v", msg, got, ok)
						}
						if _, ok := ParseAvailabilityCheck(strings.Replace(msg, "failing or missing", "failing and missing", 1)); ok {
							t.Fatalf("%q: read without the aggregator's words", msg)
						}
					}
				}
			}
		}
	}
}

// FuzzParseAvailabilityCheck: any text: no panic; a name read is VERSION.GROUP with
// both in the text's URL.
func FuzzParseAvailabilityCheck(f *testing.F) {
	f.Add(`FailedDiscoveryCheck: failing or missing response from https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1: x`)
	f.Fuzz(func(t *testing.T, s string) {
		name, ok := ParseAvailabilityCheck(s)
		if !ok {
			return
		}
		v, g, _ := strings.Cut(name, ".")
		if !strings.Contains(s, "/apis/"+g+"/"+v) || !strings.HasPrefix(v, "v") {
			t.Fatalf("%q: read %q", s, name)
		}
	})
}
