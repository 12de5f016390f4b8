package index

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestSlimIndexFoldsDuplicatesAsWhole builds the same records twice, every pod whole
// and slim where possible, with duplicates in every order (slim then slim, slim then
// whole, whole then slim, with and without more conditions): the index must show the
// rules the same objects, in the same order, with the same content.
func TestSlimIndexFoldsDuplicatesAsWhole(t *testing.T) {
	at := func(min int) time.Time { return time.Date(2026, 11, 30, 10, min, 0, 0, time.UTC) }
	pod := func(ns, name string, conds int, file string, line int) *objects.Object {
		o := &objects.Object{APIVersion: "v1", Kind: "Pod", Namespace: ns, Name: name, Phase: "Running",
			Labels: map[string]string{"app": name[:1]}, Source: objects.Source{File: file, Line: line},
			Pod: &objects.PodInfo{NodeName: "node-1", Ready: conds%2 == 0, Restarts: conds, Images: []string{"img:" + name}}}
		for i := 0; i < conds; i++ {
			o.Conditions = append(o.Conditions, objects.Condition{Type: fmt.Sprint("C", i), Status: "True", LastTransitionTime: at(line + i)})
		}
		return o
	}
	withFinalizer := func(o *objects.Object) *objects.Object { o.Finalizers = []string{"example.com/f"}; return o }
	deleted := func(o *objects.Object) *objects.Object { o.DeletionTimestamp = at(50); return o }
	svc := &objects.Object{APIVersion: "v1", Kind: "Service", Namespace: "x", Name: "s", Source: objects.Source{File: "svc.json", Line: 1}}
	seq := []*objects.Object{
		pod("x", "a1", 2, "all.json", 1),
		withFinalizer(pod("x", "b1", 1, "all.json", 2)),
		svc,
		pod("x", "a1", 3, "x.json", 1), // slim, then a slim copy that says more
		pod("y", "c1", 1, "all.json", 3),
		deleted(pod("y", "c1", 1, "y.json", 1)), // slim, then a whole copy that says more
		pod("x", "b1", 0, "x.json", 2),          // whole, then a slim copy that says less
		withFinalizer(pod("y", "d1", 1, "all.json", 4)),
		pod("y", "d1", 5, "y.json", 2), // whole, then a slim copy that says more
		pod("y", "e1", 2, "all.json", 5),
		pod("y", "e1", 1, "y.json", 3), // slim, then a slim copy that says less
		pod("z", "f1", 4, "z.json", 1),
	}
	build := func(slim bool) *Index {
		rec := &bundle.Records{}
		if slim {
			rec.SlimPods = objects.NewSlimPods()
		}
		for _, o := range seq {
			c := *o
			c.Conditions = append([]objects.Condition(nil), o.Conditions...)
			if o.Pod != nil {
				p := *o.Pod
				c.Pod = &p
			}
			if slim && rec.SlimPods.Add(&c, len(rec.Objects)) {
				continue
			}
			rec.Objects = append(rec.Objects, &c)
		}
		if slim && rec.SlimPods.Len() != 8 {
			t.Fatalf("%d pods slim, want 8", rec.SlimPods.Len())
		}
		return New(rec, nil)
	}
	whole, slim := build(false), build(true)
	view := func(ix *Index) map[string]any {
		v := map[string]any{}
		for _, ns := range []string{"x", "y", "z", "w"} {
			v["in "+ns] = ix.InNamespace(ns, "")
			v["pods "+ns] = ix.InNamespace(ns, "Pod")
			v["dumped "+ns] = ix.KindDumped(ns, "Pod")
			v["has "+ns] = ix.hasObjectsIn(ns)
		}
		var all []*objects.Object
		ix.EachOfKind("Pod", func(o *objects.Object) bool { all = append(all, o); return true })
		v["each"] = all
		v["find"] = []*objects.Object{ix.Find("Pod", "y", "c1"), ix.Find("Pod", "y", "d1"), ix.Find("Pod", "x", "nope")}
		v["has"] = ix.Has("Pod")
		v["newest"] = ix.newestPlausibleObjectTime(at(52))
		return v
	}
	wv, sv := view(whole), view(slim)
	for k := range wv {
		if !reflect.DeepEqual(wv[k], sv[k]) {
			t.Errorf("%s differs:\n whole: %s\n slim:  %s", k, dump(wv[k]), dump(sv[k]))
		}
	}
	if got := len(wv["each"].([]*objects.Object)); got != 6 {
		t.Errorf("%d pods after folding duplicates, want 6", got)
	}
}

func dump(v any) string {
	if l, ok := v.([]*objects.Object); ok {
		s := ""
		for _, o := range l {
			s += fmt.Sprintf("%s@%s:%d(%d conds, deleted %v) ", o.Ref(), o.Source.File, o.Source.Line, len(o.Conditions), !o.DeletionTimestamp.IsZero())
		}
		return s
	}
	return fmt.Sprint(v)
}
