package findings

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestPodsCode: the pods' code is the most telling of their states, read from their
// fields (never from PodState's words).
func TestPodsCode(t *testing.T) {
	pod := func(node string, ready bool, waiting ...string) *objects.Object {
		return &objects.Object{Kind: "Pod", Pod: &objects.PodInfo{NodeName: node, Ready: ready, Waiting: waiting}}
	}
	for _, tc := range []struct {
		name string
		pods []*objects.Object
		want string
	}{
		{"all ready", []*objects.Object{pod("n1", true)}, ""},
		{"not ready", []*objects.Object{pod("n1", false)}, CodeNotReady},
		{"not scheduled", []*objects.Object{pod("", false)}, CodeUnschedulable},
		{"crash loop beats not ready", []*objects.Object{pod("n1", false), pod("n1", false, "CrashLoopBackOff")}, CodeCrashLoop},
		{"image pull", []*objects.Object{pod("n1", false, "ErrImagePull")}, CodeImagePull},
		{"not scheduled beats crash loop", []*objects.Object{pod("n1", false, "CrashLoopBackOff"), pod("", false)}, CodeUnschedulable},
		{"no pod record", []*objects.Object{{Kind: "Pod"}}, ""},
	} {
		if got := PodsCode(tc.pods); got != tc.want {
			t.Errorf("%s: PodsCode = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := FirstCode("", CodeRunning, CodeInTerminatingNamespace, "connection-refused"); got != CodeInTerminatingNamespace {
		t.Errorf("FirstCode = %q, want %q", got, CodeInTerminatingNamespace)
	}
	if got := FirstCode("connection-refused", ""); got != "connection-refused" {
		t.Errorf("FirstCode of an error class alone = %q", got)
	}
	if got := ErrorCode("x509: certificate signed by unknown authority"); got != "tls-certificate" {
		t.Errorf("ErrorCode(x509) = %q, want tls-certificate", got)
	}
}
