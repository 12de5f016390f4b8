package text

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/damage"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// digest is what a text file tells the analysis, independent of how the text looks:
// the objects with the fields the rules read, and the facts Kubernetes' messages carry
// (namespaces, group/versions, webhooks), in the file's own lines' order.
func digest(r *Result) []string {
	var out []string
	facts := func(msg string) string {
		var f []string
		for _, g := range kubemsg.ParseDiscoveryFailure(msg) {
			f = append(f, "gv="+g.GroupVersion)
		}
		if g, ok := kubemsg.ParseMemcacheFailure(msg); ok {
			f = append(f, "gv="+g.GroupVersion)
		}
		if ns, _, ok := kubemsg.ParseNamespaceDeletionFailure(msg); ok {
			f = append(f, "ns="+ns)
		}
		for _, w := range kubemsg.ParseWebhookFailures(msg) {
			f = append(f, "webhook="+w.Webhook)
		}
		for _, d := range kubemsg.ParseAdmissionDenials(msg) {
			f = append(f, "denied="+d.Webhook+"/"+d.Policy)
		}
		if c, ok := kubemsg.ParseConversionFailure(msg); ok {
			f = append(f, "conversion="+c.GroupVersion+","+c.Kind)
		}
		sort.Strings(f)
		return strings.Join(f, " ")
	}
	for _, o := range r.Objects {
		s := fmt.Sprintf("%s %s/%s phase=%s deleting=%v", o.Kind, o.Namespace, o.Name, o.Phase, o.Deleting())
		if a := o.APIService; a != nil && a.Service != nil {
			s += " service=" + a.Service.Namespace + "/" + a.Service.Name
		}
		if p := o.Pod; p != nil {
			s += fmt.Sprintf(" node=%s ready=%v", p.NodeName, p.Ready)
		}
		s += fmt.Sprintf(" finalizers=%v spec.finalizers=%v", o.Finalizers, o.SpecFinalizers)
		for _, c := range o.Conditions {
			s += fmt.Sprintf(" [%s=%s %s %s]", c.Type, c.Status, c.Reason, facts(c.Message))
		}
		out = append(out, s)
	}
	sort.Strings(out) // a block read at another line may come in another order
	if r.Log != nil {
		for _, e := range r.Log.Entries {
			if f := facts(e.Message); f != "" {
				out = append(out, fmt.Sprintf("entry %s %s %s", e.Component, e.Severity, f))
			}
		}
	}
	out = append(out, fmt.Sprintf("namespace-lists=%d", len(r.NamespaceLists)))
	return out
}

// textKept lists, per transformation, the testdata files whose digest it cannot keep,
// and why. The test fails when such a file's digest is kept after all (remove the entry).
var textKept = map[string]map[string]string{
	"collapse-spaces": {"k8s-106218-describe-ns.txt": "its condition's Reason is two words (\"example reason\", kubectl's own test data; " +
		"real reasons are one CamelCase word): once the padding is collapsed, where the Reason ends and the Message begins is lost"},
}

// TestMetamorphic runs every paste of testdata through every transformation tickets
// apply (fixtures/damage) and requires the same digest, and every record at a line of
// the damaged file that holds its text.
func TestMetamorphic(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	sample, _ := os.ReadFile(files[0])
	if err := damage.Check(string(sample) + "\n  x: \"y\"\n10.0.0.1 2024-01-02T03:04:05Z *_\\ '\n" + strings.Repeat("w", 201) + "\n"); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w := &diag.Sink{}
		want := digest(Parse(strings.NewReader(string(data)), "t.txt", Options{}, w))
		for _, tr := range damage.All() {
			name := filepath.Base(f)
			t.Run(tr.Name+"/"+name, func(t *testing.T) {
				in := tr.Apply(string(data))
				w := &diag.Sink{}
				r := Parse(strings.NewReader(in), "t.txt", Options{}, w)
				got := digest(r)
				for _, x := range w.List {
					if diag.IsInternal(x) {
						t.Fatalf("internal error: %s", x)
					}
				}
				same := strings.Join(got, "\n") == strings.Join(want, "\n")
				why, known := textKept[tr.Name][name]
				switch {
				case known && same:
					t.Errorf("%s now keeps the digest of %s: remove it from textKept (%s)", tr.Name, name, why)
				case !known && !same:
					t.Errorf("%s changes what %s says:\n got:\n  %s\nwant:\n  %s\ninput:\n%s", tr.Name, name,
						strings.Join(got, "\n  "), strings.Join(want, "\n  "), in)
				}
				lines := strings.Split(in, "\n")
				for _, o := range r.Objects {
					if o.Source.Line < 1 || o.Source.Line > len(lines) {
						t.Errorf("%s at line %d of %d", o.Ref(), o.Source.Line, len(lines))
					}
				}
			})
		}
	}
}
