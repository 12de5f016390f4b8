package text

import (
	"os"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

func TestDebugFile(t *testing.T) {
	f := os.Getenv("TEXTFILE")
	if f == "" {
		t.Skip()
	}
	fh, _ := os.Open(f)
	defer fh.Close()
	w := &diag.Sink{}
	head := make([]byte, 8192)
	n, _ := fh.ReadAt(head, 0)
	t.Logf("sniff=%v", Sniff(head[:n]))
	r := Parse(fh, f, Options{}, w)
	for _, o := range r.Objects {
		t.Logf("%d %s %s/%s ns=%q phase=%q conds=%+v rend=%s api=%+v pod=%+v crd=%+v", o.Source.Line, o.APIVersion, o.Kind, o.Name, o.Namespace, o.Phase, o.Conditions, o.Source.Rendering, o.APIService, o.Pod, o.CRD)
		if o.APIService != nil && o.APIService.Service != nil {
			t.Logf("   svc %+v", *o.APIService.Service)
		}
	}
	if r.Log != nil {
		for _, e := range r.Log.Entries {
			t.Logf("entry %d %s %q sev=%s caller=%s", e.Line, e.Component, e.Message, e.Severity, e.Caller)
		}
	}
	t.Logf("lists %+v", r.NamespaceLists)
	for _, c := range r.Commands {
		t.Logf("cmd %+v", c)
	}
	for _, x := range w.List {
		t.Logf("warn %s", x)
	}
}
