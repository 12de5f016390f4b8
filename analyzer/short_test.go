package analyzer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// TestShortOf composes the short form of problems whose parts grow until they no
// longer fit: parts go whole (the blocker's state, the blocker, the namespaces' names
// for their count), never cut, and the root is always named.
func TestShortOf(t *testing.T) {
	chain := func(blocker, root string) []findings.Link {
		return []findings.Link{
			{Component: "namespace controller (kube-controller-manager)", Fault: true},
			{Component: blocker, Fault: true, State: "missing"},
			{Component: root, Fault: true, Root: true},
		}
	}
	nss := func(names ...string) []findings.ProblemNamespace {
		var out []findings.ProblemNamespace
		for _, n := range names {
			out = append(out, findings.ProblemNamespace{Name: n})
		}
		return out
	}
	long := strings.Repeat("x", 60)
	for _, c := range []struct {
		name string
		p    findings.Problem
		want string
	}{
		{"all fits", findings.Problem{Namespaces: nss("shop"), Chain: chain("APIService v1beta1.metrics.k8s.io", "Pods kube-system k8s-app=metrics-server"),
			Fingerprint: "api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=pod-unschedulable"},
			"shop: Pods kube-system k8s-app=metrics-server, pod unschedulable → APIService v1beta1.metrics.k8s.io missing"},
		{"blocker's state goes", findings.Problem{Namespaces: nss("shop"), Chain: chain("APIService v1beta1."+long+".io", "Pods kube-system k8s-app="+long[:20])},
			"shop: Pods kube-system k8s-app=" + long[:20] + " → APIService v1beta1." + long + ".io"},
		{"blocker goes", findings.Problem{Namespaces: nss("shop"), Chain: chain("APIService v1beta1."+long+long+".io", "Pods kube-system k8s-app="+long)},
			"shop: Pods kube-system k8s-app=" + long},
		{"names go for their count", findings.Problem{Namespaces: nss(long, long+"a", long+"b"), Chain: chain("APIService a", "Pods kube-system app=x")},
			"3 namespaces: Pods kube-system app=x → APIService a missing"},
		{"undetermined", findings.Problem{Namespaces: nss("shop"), CauseType: findings.CauseUndetermined, Chain: chain("APIService a", "Pods b")},
			"shop: cause undetermined"},
		{"controller reports an APIService", findings.Problem{Namespaces: nss("a", "b"), Fingerprint: "api-discovery-failure/apiservice=v3.projectcalico.org/backend=service-unavailable",
			Chain: []findings.Link{{Component: "namespace controller (kube-controller-manager)", Fault: true}, {Component: "kube-apiserver (aggregator)", Fault: true, Root: true}, {Component: "APIService v3.projectcalico.org"}}},
			"a, b: APIService v3.projectcalico.org (per kube-apiserver), service unavailable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ShortOf(&c.p)
			if got != c.want {
				t.Errorf("ShortOf = %q\nwant      %q", got, c.want)
			}
			if utf8.RuneCountInString(got) > findings.MaxShort || strings.HasSuffix(got, "…") {
				t.Errorf("ShortOf = %q: over %d or cut", got, findings.MaxShort)
			}
		})
	}
}
