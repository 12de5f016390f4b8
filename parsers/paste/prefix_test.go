package paste

import (
	"strings"
	"testing"
)

// TestPrefixes: what a paste puts before and between its lines, on real lines (the
// kubectl output of fixtures/realworld cases, numbered by a code viewer, quoted by a mail
// reply, stamped by a chat export, double-spaced, with a web page's entities), and what
// must stay (a log's clock, a prompt, a Markdown table, paths).
func TestPrefixes(t *testing.T) {
	cases := []struct {
		name string
		in   string
		cont func(Cut) bool
		want []string
		orig []int
	}{
		{"gutter, padded, ' | '", " 9 | NAME          STATUS        AGE\n10 | cert-manager  Terminating   3d\n11 | default       Active        90d", never,
			[]string{"NAME          STATUS        AGE", "cert-manager  Terminating   3d", "default       Active        90d"}, []int{1, 2, 3}},
		{"gutter, tab, blank line numbered", "41\tstatus:\n42\n43\t  phase: Terminating", never,
			[]string{"status:", "", "  phase: Terminating"}, []int{1, 2, 3}},
		{"a log's clock is no gutter", "10:59:01 reconcile failed\n11:00:02 reconcile failed", never,
			[]string{"10:59:01 reconcile failed", "11:00:02 reconcile failed"}, []int{1, 2}},
		{"numbers that do not go up one by one", "3 pods\n7 pods", never, []string{"3 pods", "7 pods"}, []int{1, 2}},
		{"chat stamp", "[10:42 AM] Jane Doe: NAME   STATUS\nx      Terminating", never, []string{"NAME   STATUS", "x      Terminating"}, []int{1, 2}},
		{"a log's bracketed clock stays", "[10:42:01] controller: sync failed", never, []string{"[10:42:01] controller: sync failed"}, []int{1}},
		{"nested quote, empty quoted line", "> > NAME   STATUS\n> >\n> > x      Terminating", never,
			[]string{"NAME   STATUS", "", "x      Terminating"}, []int{1, 2, 3}},
		{"tight nested quote", ">> a: b\n>> c: d", never, []string{"a: b", "c: d"}, []int{1, 2}},
		{"comment prefix", "# apiVersion: v1\n# kind: Namespace", never, []string{"apiVersion: v1", "kind: Namespace"}, []int{1, 2}},
		{"frame side before a quote", "║ > a: b\n║ > c: d", never, []string{"a: b", "c: d"}, []int{1, 2}},
		{"paths stay", "/var/log/a.log\n/var/log/b.log", never, []string{"/var/log/a.log", "/var/log/b.log"}, []int{1, 2}},
		{"a root prompt alone stays", "# kubectl get ns\nNAME   STATUS", never, []string{"# kubectl get ns", "NAME   STATUS"}, []int{1, 2}},
		{"double-spaced", "NAME   STATUS\n\nx      Terminating\n\n\n\ny      Active", never,
			[]string{"NAME   STATUS", "x      Terminating", "", "y      Active"}, []int{1, 3, 4, 7}},
		{"entities", "message: &quot;Discovery failed&quot;&nbsp;&nbsp;it&#39;s a &amp;quot;", never,
			[]string{`message: "Discovery failed"  it's a &quot;`}, []int{1}},
		{"word wrap at 72, a mail reply", "> Error from server (Conflict): Operation cannot be fulfilled on\n> namespaces \"cattle-system\": The system is ensuring all content is\n> removed from this namespace.  Upon completion, this namespace will\n> automatically be purged by the system. Discovery failed for some groups,\n> 1 failing: unable to retrieve the complete list of server APIs:\n> metrics.k8s.io/v1beta1: the server is currently unable to handle the\n> request", always,
			[]string{`Error from server (Conflict): Operation cannot be fulfilled on namespaces "cattle-system": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system. Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request`}, []int{1}},
		{"word wrap: a table's rows are not joined", "NAME                      STATUS        AGE\nkube-system               Active        300d\nkubevirt-hyperconverged   Terminating   2d", always,
			[]string{"NAME                      STATUS        AGE", "kube-system               Active        300d", "kubevirt-hyperconverged   Terminating   2d"}, []int{1, 2, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, orig := Lines(strings.Split(c.in, "\n"), Options{Continues: c.cont})
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(orig) != len(c.orig) {
				t.Fatalf("got %q %v, want %q %v", got, orig, c.want, c.orig)
			}
			for i := range orig {
				if orig[i] != c.orig[i] {
					t.Fatalf("orig %v, want %v", orig, c.orig)
				}
			}
		})
	}
}
