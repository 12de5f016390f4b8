package objects

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	genbundle "github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// withoutDroppedFields is o as a SlimPods row gives it back: the fields it does not
// keep (see SlimPods) cleared.
func withoutDroppedFields(o *Object) *Object {
	c := *o
	c.UID, c.CreationTimestamp, c.OwnerReferences, c.Managers = "", time.Time{}, nil, nil
	p := *o.Pod
	p.PodIP = ""
	c.Pod = &p
	return &c
}

// checkSlimRoundTrip adds every pod of data to a table and checks that each row it
// takes gives the pod back exactly (but for the dropped fields), and that it refuses
// the pods it must keep whole.
func checkSlimRoundTrip(t testing.TB, name string, data []byte) (rows int) {
	var pods []*Object
	DecodeJSON(bytes.NewReader(data), name, Options{}, &diag.Sink{}, func(o *Object) {
		if o.Kind == "Pod" {
			pods = append(pods, o)
		}
	})
	tab := NewSlimPods()
	for i, o := range pods {
		want := withoutDroppedFields(o)
		if !tab.Add(o, i) {
			if slimmable(o) && o.Pod != nil && len(o.Conditions) < 1000 && len(o.Labels) < 1000 {
				ok := true
				for _, c := range o.Conditions {
					ok = ok && c.LastTransitionTime.Nanosecond() == 0 && c.Line == 0
				}
				if ok {
					t.Errorf("%s: %s refused, though it holds nothing a row cannot", name, o.Ref())
				}
			}
			continue
		}
		if len(o.Finalizers) > 0 || !o.DeletionTimestamp.IsZero() || o.Source.Fields != nil {
			t.Errorf("%s: %s taken, though it has finalizers, a deletion timestamp or field lines", name, o.Ref())
		}
		got := tab.Pod(tab.Len() - 1)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s does not come back as read:\n got  %+v %+v\n want %+v %+v", name, o.Ref(), got, got.Pod, want, want.Pod)
		}
		head := tab.Head(tab.Len() - 1)
		if wantHead := (&Object{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, Source: o.Source,
			Pod: &PodInfo{NodeName: o.Pod.NodeName}}); !reflect.DeepEqual(head, wantHead) {
			t.Errorf("%s: %s: head %+v, want %+v", name, o.Ref(), head, wantHead)
		}
		if tab.Before(tab.Len()-1) != i || tab.Name(tab.Len()-1) != o.Name || tab.Namespace(tab.Len()-1) != o.Namespace ||
			tab.File(tab.Len()-1) != o.Source.File || tab.ConditionCount(tab.Len()-1) != len(o.Conditions) {
			t.Errorf("%s: %s: row accessors disagree with the pod", name, o.Ref())
		}
	}
	return tab.Len()
}

// TestSlimPodsRoundTrip runs every pod of the fixtures (and hand-made edge cases)
// through a SlimPods table.
func TestSlimPodsRoundTrip(t *testing.T) {
	rows := 0
	err := filepath.WalkDir("../../fixtures", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || d.Name() == "expected.json" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(`"Pod"`)) {
			rows += checkSlimRoundTrip(t, p, b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rows += checkSlimRoundTrip(t, "edge.json", []byte(`{"kind":"List","items":[
	 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"no-labels","namespace":"a"},"spec":{},"status":{}},
	 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"empty-labels","namespace":"a","labels":{}},"spec":{"containers":[]},"status":{"conditions":[]}},
	 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"two","namespace":"a","labels":{"x":"1","y":""}},"spec":{"nodeName":"n","containers":[{"image":"a"},{"image":"b"}]},
	  "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/3 nodes","lastTransitionTime":"2026-11-30T10:00:00Z"},{"type":"Ready","status":"True"}],
	  "containerStatuses":[{"ready":false,"restartCount":7,"state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"reason":"Error"}}}]}},
	 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"fraction","namespace":"a"},"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T10:00:00.5Z"}]}},
	 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"fin","namespace":"a","finalizers":["x/y"]}},
	 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"del","namespace":"a","deletionTimestamp":"2026-11-30T10:00:00Z"}},
	 {"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"a"}}
	]}`))
	gen := t.TempDir()
	if _, err := genbundle.Generate(genbundle.Config{Out: gen, Size: 4 << 20, Seed: 5, Mix: "objects"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(gen, "cluster", "pods.json"))
	if err != nil {
		t.Fatal(err)
	}
	rows += checkSlimRoundTrip(t, "cluster/pods.json", b)
	if rows < 200 {
		t.Fatalf("only %d pods went through a table", rows)
	}
}

// FuzzSlimPods: any pod the decoders make from any bytes either stays whole or comes
// back from its row exactly.
func FuzzSlimPods(f *testing.F) {
	for _, s := range fixtureSeeds(f, ".json") {
		if bytes.Contains(s, []byte(`"Pod"`)) && len(s) < 16<<10 {
			f.Add(s)
		}
	}
	f.Add([]byte(`{"kind":"Pod","metadata":{"name":"a","labels":{"k":"v"}},"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"0001-01-01T00:00:00Z"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSlimRoundTrip(t, "fuzz.json", data)
	})
}
