package apidiscovery_test

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, apidiscovery.Rule, "testdata") }

// TestTLSCheckNote: the 1.36+ availability check's TLS verification is stated with the
// cluster's version, and never for a version that did not verify.
func TestTLSCheckNote(t *testing.T) {
	const host = "metrics-server.kube-system.svc"
	for _, tc := range []struct{ version, want string }{
		{"v1.35.8", ""},
		{"v1.26.13", ""},
		{"v1.36.3", "the cluster runs v1.36.3"},
		{"v1.37.2", "from 1.36 kube-apiserver's availability check verifies"},
		{"", "the bundle does not say which version"},
	} {
		got := apidiscovery.TLSCheckNote(tc.version, host)
		if tc.want == "" && got != "" || tc.want != "" && (!strings.Contains(got, tc.want) || !strings.Contains(got, host)) {
			t.Errorf("TLSCheckNote(%q) = %q, want %q", tc.version, got, tc.want)
		}
	}
}
