package text

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// TestNamespaceNamesAreLabels pastes real renderings followed or interleaved by prose
// bullets ("- something"), and by placeholders a customer types ("-n <ns>", "-n $NS"):
// every object read is in a namespace whose name is a DNS-1123 label (never "-"), the
// objects the rendering does show are still read, and each refused row is warned
// about with its line.
func TestNamespaceNamesAreLabels(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string // kind/namespace/name of every object read
		cmdNS    string   // the namespace of the first command, when one
		warnLine int      // a warning at this line (0: none expected)
	}{
		{"bullet under get ns",
			"$ kubectl get ns\nNAME          STATUS        AGE\nshop          Terminating   3d\n- something broke after the upgrade\n",
			[]string{"Namespace//shop"}, "", 4},
		{"bullet under get pods -A",
			"$ kubectl get pods -A\nNAMESPACE   NAME    READY   STATUS        RESTARTS   AGE\n- something here ok 1 2\nshop        web-0   0/1     Terminating   0          3d\n",
			[]string{"Pod/shop/web-0"}, "", 3},
		{"dash namespace cell",
			"$ kubectl get pods -A\nNAMESPACE   NAME    READY   STATUS    RESTARTS   AGE\n-           web-0   0/1     Pending   0          3d\n",
			nil, "", 3},
		{"describe with a dash name",
			"$ kubectl describe ns\nName:         -\nStatus:       Terminating\n",
			nil, "", 0},
		{"-n -", "$ kubectl -n - get pods\n", nil, "", 0},
		{"-n <ns>", "$ kubectl get pods -n <ns>\n", nil, "", 0},
		{"-n $NS", "$ kubectl get pods -n $NS\n", nil, "", 0},
		{"--namespace=-", "$ kubectl get pods --namespace=-\n", nil, "", 0},
		{"-n shop", "$ kubectl -n shop get pods\n", nil, "shop", 0},
		{"valid table",
			"$ kubectl get ns\nNAME          STATUS        AGE\ncattle-system Terminating   3d\nkube-system   Active        9d\n",
			[]string{"Namespace//cattle-system", "Namespace//kube-system"}, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var w diag.Sink
			r := Parse(strings.NewReader(c.in), "ticket.txt", Options{}, &w)
			var got []string
			for _, o := range r.Objects {
				got = append(got, o.Kind+"/"+o.Namespace+"/"+o.Name)
				if o.Kind == "Namespace" && !kubemsg.IsNamespaceName(o.Name) || o.Namespace != "" && !kubemsg.IsNamespaceName(o.Namespace) {
					t.Errorf("line %d: %s read in no namespace a cluster can hold", o.Source.Line, got[len(got)-1])
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("read %v, want %v", got, c.want)
			}
			for _, cmd := range r.Commands {
				if cmd.Namespace != c.cmdNS {
					t.Errorf("command %q: namespace %q, want %q", cmd.Text, cmd.Namespace, c.cmdNS)
				}
			}
			if c.warnLine > 0 {
				found := false
				for _, x := range w.List {
					found = found || x.Line == c.warnLine
				}
				if !found {
					t.Errorf("no warning at line %d: %v", c.warnLine, w.List)
				}
			}
		})
	}
}
