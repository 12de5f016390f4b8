package finalizers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/finalizers"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

// TestUnnamedDeletion: a namespace deleter's finalizer or content message pasted
// without its namespace (two describe rows without their header, a message in inline
// code inside a sentence) names what holds some namespace: the report says so, with
// the message as read (not the sentence around it) and how to find the namespace,
// and stays inconclusive on which. With the one namespace shown Terminating, the
// message is that namespace's and no such risk is left.
func TestUnnamedDeletion(t *testing.T) {
	rules := []*analyzer.Rule{finalizers.Rule}
	for name, c := range map[string]struct {
		text    string
		unnamed []string // substrings of the unnamed risks' summaries, in order
		quote   string   // the first risk's evidence text ends with it
	}{
		"describe rows": {"Our namespace hangs. Conditions:\n" +
			"  NamespaceContentRemaining    True    SomeResourcesRemain    Some resources are remaining: widgets.example.com has 2 resource instances\n" +
			"  NamespaceFinalizersRemaining True    SomeFinalizersRemain   Some content in the namespace has finalizers remaining: example.com/cleanup in 2 resource instances\n",
			[]string{"still holds 2 widgets.example.com", "waits for finalizer example.com/cleanup (2 resource instances)"}, "widgets.example.com has 2 resource instances"},
		"inline code": {"The condition says `Some content in the namespace has finalizers remaining: example.com/cleanup in 2 resource instances` and nothing moves.\n",
			[]string{"waits for finalizer example.com/cleanup (2 resource instances)"}, "example.com/cleanup in 2 resource instances"},
		"one namespace shown": {"$ kubectl get ns\nNAME     STATUS        AGE\nshop     Terminating   3d\n\n" +
			"The condition says `Some content in the namespace has finalizers remaining: example.com/cleanup in 2 resource instances` and nothing moves.\n",
			nil, ""},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "ticket.txt"), []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			r := analyzer.Analyze(ruletest.Load(t, rules, dir), analyzer.Options{Rules: rules})
			var got []findings.Risk
			for _, rk := range r.Risks {
				if rk.Unnamed {
					got = append(got, rk)
				}
			}
			if len(got) != len(c.unnamed) {
				t.Fatalf("%d unnamed deletions, want %d: %+v", len(got), len(c.unnamed), r.Risks)
			}
			for i, rk := range got {
				if !strings.Contains(rk.Summary, c.unnamed[i]) || rk.Type != finalizers.Name || len(rk.Fix) == 0 {
					t.Errorf("risk %d: %+v, want %q", i, rk, c.unnamed[i])
				}
				for _, s := range rk.Fix {
					if s.Risk != findings.RiskSafe || findings.CommandChanges(s.Command) != findings.ChangesNothing {
						t.Errorf("a step that is not read-only: %+v", s)
					}
				}
				if len(rk.Evidence) != 1 || rk.Evidence[0].File != "ticket.txt" || rk.Evidence[0].Line == 0 {
					t.Errorf("risk %d: evidence %+v", i, rk.Evidence)
				}
			}
			if len(got) > 0 {
				if e := got[0].Evidence[0].Text; !strings.HasSuffix(e, c.quote) {
					t.Errorf("evidence %q does not end with the message's last words %q", e, c.quote)
				}
				if r.State != findings.StateUnknown {
					t.Errorf("state %q: which namespace is not shown", r.State)
				}
				if r.NextStep == nil || r.NextStep.Seen == "" || !strings.HasPrefix(r.NextStep.Seen, got[0].Summary) ||
					len(r.NextStep.Commands) == 0 || !strings.Contains(r.NextStep.Commands[0], "status.phase=Terminating") {
					t.Errorf("the customer's note does not say what was seen and ask which namespace: %+v", r.NextStep)
				}
			}
		})
	}
}
