package analyzer

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestPremiseChecked holds the premise check: a rung relying on a fact the chain does not
// establish (or excluding one it does) is left out with an internal-error warning; one
// whose premise holds is kept.
func TestPremiseChecked(t *testing.T) {
	ref := &objects.ServiceReference{Namespace: "kubevirt", Name: "virt-api"}
	missing := []findings.Link{{Component: "APIService v1.x.io"}, mechanism.ServiceMissingLink(ref, "APIService v1.x.io reports ServiceNotFound", nil)}
	ready := []findings.Link{{Component: findings.ServiceSubject(ref), Facts: []findings.Fact{findings.F(findings.ServiceSubject(ref), findings.FactServiceExists), findings.F(findings.ServiceSubject(ref), findings.FactPodsReady)}}}
	podsReady := findings.RemediationStep{Risk: findings.RiskSafe, Command: "kubectl get pods", Premise: []findings.Fact{findings.F(findings.ServiceSubject(ref), findings.FactPodsReady)}}
	fixBackend := findings.RemediationStep{Risk: findings.RiskSafe, Command: "kubectl get svc", Premise: []findings.Fact{findings.NotF(findings.ServiceSubject(ref), findings.FactServiceMissing)}}
	plain := findings.RemediationStep{Risk: findings.RiskSafe, Command: "kubectl get apiservice"}
	for _, tt := range []struct {
		name  string
		chain []findings.Link
		steps []findings.RemediationStep
		kept  []string
		warns int
	}{
		{"pods Ready asserted on a missing Service", missing, []findings.RemediationStep{podsReady, plain}, []string{"kubectl get apiservice"}, 1},
		{"fix the backend when the Service is missing", missing, []findings.RemediationStep{fixBackend}, nil, 1},
		{"pods Ready when they are", ready, []findings.RemediationStep{podsReady, fixBackend, plain}, []string{"kubectl get pods", "kubectl get svc", "kubectl get apiservice"}, 0},
		{"no chain at all", nil, []findings.RemediationStep{podsReady}, nil, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := &warnings{}
			c := &findings.Cause{Type: "api-discovery-failure", Chain: tt.chain}
			got := checkPremises(w, "ns", c, tt.steps)
			var cmds []string
			for _, s := range got {
				cmds = append(cmds, s.Command)
			}
			if strings.Join(cmds, "|") != strings.Join(tt.kept, "|") {
				t.Errorf("kept %q, want %q", cmds, tt.kept)
			}
			if len(w.premise) != tt.warns {
				t.Errorf("%d warnings, want %d: %v", len(w.premise), tt.warns, w.premise)
			}
			for _, w := range w.premise {
				if !strings.Contains(w.Message, "internal error") || !strings.Contains(w.Message, "pods-ready") && !strings.Contains(w.Message, "service-missing") {
					t.Errorf("warning %q does not say which fact failed", w.Message)
				}
			}
		})
	}
}

// TestCutSummary holds the summary cut: at most n characters, at a word, no open quote,
// no dangling separator or small word, parentheses closed.
func TestCutSummary(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short enough", 20, "short enough"},
		{"failed to call webhook: Post https://hook.ns.svc:443/x: dial tcp 10.96.0.1:443: i/o timeout", 70, "failed to call webhook: Post https://hook.ns.svc:443/x: dial tcp…"},
		{`webhook "vnbroutingpeer-v1.netbird.io" rejects the call: failed to call webhook`, 30, "webhook…"},
		{"No namespace is stuck (the 56 namespaces in the bundle (default, kube-system) are fine)", 60, "No namespace is stuck (the 56 namespaces in the bundle…)"},
		{"root: the controller of the thing", 30, "root: the controller…"},
		{"averyveryverylongwordwithoutanyspace", 10, "averyvery…"},
	} {
		got := findings.CutSummary(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("CutSummary(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if n := len([]rune(got)); n > tt.n {
			t.Errorf("CutSummary(%q, %d) has %d characters", tt.in, tt.n, n)
		}
	}
}
