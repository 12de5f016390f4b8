package objects

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// checkSlimNamespaces adds every Namespace of data (YAML or JSON by name) to a table
// and checks that each row it takes gives the namespace back exactly (but for UID and
// Managers), and that it refuses those it must keep whole.
func checkSlimNamespaces(t testing.TB, name string, data []byte) (rows int) {
	var nss []*Object
	keep := func(o *Object) {
		if o.Kind == "Namespace" {
			nss = append(nss, o)
		}
	}
	if strings.HasSuffix(name, ".yaml") {
		DecodeYAML(bytes.NewReader(data), name, Options{}, &diag.Sink{}, keep)
	} else {
		DecodeJSON(bytes.NewReader(data), name, Options{}, &diag.Sink{}, keep)
	}
	tab := NewSlimNamespaces()
	for i, o := range nss {
		want := *o
		want.UID, want.Managers = "", nil
		if !tab.Add(o, i, 2*i) {
			continue
		}
		if !SlimmableNamespace(o) || o.Phase != "Active" || !o.DeletionTimestamp.IsZero() || len(o.Finalizers) > 0 || len(o.Conditions) > 0 ||
			o.Name == "default" || o.Name == "kube-system" || o.Source.Rendering != "" {
			t.Errorf("%s: %s taken, though it is not an Active namespace holding nothing else", name, o.Ref())
		}
		r := tab.Len() - 1
		if got := tab.Namespace(r); !reflect.DeepEqual(got, &want) {
			t.Errorf("%s: %s does not come back as read:\n got  %+v\n want %+v", name, o.Ref(), got, &want)
		}
		head := &Object{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Phase: o.Phase, SpecFinalizers: o.SpecFinalizers,
			Source: Source{File: o.Source.File, Line: o.Source.Line}}
		if got := tab.Head(r); !reflect.DeepEqual(got, head) {
			t.Errorf("%s: %s: head %+v, want %+v", name, o.Ref(), got, head)
		}
		if tab.Name(r) != o.Name || tab.Before(r) != i || tab.Pods(r) != 2*i {
			t.Errorf("%s: %s: row accessors disagree with the namespace", name, o.Ref())
		}
	}
	return tab.Len()
}

// TestSlimNamespacesRoundTrip runs every Namespace of the fixtures (and hand-made edge
// cases) through a SlimNamespaces table.
func TestSlimNamespacesRoundTrip(t *testing.T) {
	rows := 0
	err := filepath.WalkDir("../../fixtures", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "expected.json" || !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("Namespace")) {
			rows += checkSlimNamespaces(t, p, b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	edge := []byte(`{"kind":"List","items":[
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"plain"},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"empty","labels":{}},"spec":{"finalizers":[]},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube","creationTimestamp":"2026-11-30T10:00:00Z","labels":{"kubernetes.io/metadata.name":"kube"}},
	  "spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"label","labels":{"team":"a"}},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"other-name-label","labels":{"kubernetes.io/metadata.name":"x"}},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"spec","uid":"u"},"spec":{"finalizers":["kubernetes","x.io/y"]},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"fraction","creationTimestamp":"2026-11-30T10:00:00.5Z"},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"fin","finalizers":["x/y"]},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"del","deletionTimestamp":"2026-11-30T10:00:00Z"},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"cond"},"status":{"phase":"Active","conditions":[{"type":"X","status":"True"}]}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"terminating"},"status":{"phase":"Terminating"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"no-phase"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"owned","ownerReferences":[{"kind":"X","name":"y"}]},"status":{"phase":"Active"}},
	 {"apiVersion":"v1","kind":"Namespace","metadata":{},"status":{"phase":"Active"}}
	]}`)
	n := checkSlimNamespaces(t, "edge.json", edge)
	if n != 3 {
		t.Errorf("%d edge namespaces taken, want 3 (plain, empty, kube)", n)
	}
	// kubectl's indented List: the field lines come back too
	indented := []byte(`{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {
                "labels": {
                    "kubernetes.io/metadata.name": "lines"
                },
                "name": "lines"
            },
            "spec": {
                "finalizers": [
                    "kubernetes"
                ]
            },
            "status": {
                "phase": "Active"
            }
        }
    ],
    "kind": "List"
}
`)
	if checkSlimNamespaces(t, "indented.json", indented) != 1 {
		t.Errorf("the indented namespace was not taken")
	}
	rows += n
	t.Logf("%d namespaces went through a table", rows)
	if rows < 20 {
		t.Fatalf("only %d namespaces went through a table", rows)
	}
}

// FuzzSlimNamespaces: any Namespace the decoders make from any bytes either stays
// whole or comes back from its row exactly.
func FuzzSlimNamespaces(f *testing.F) {
	for _, s := range fixtureSeeds(f, ".json") {
		if bytes.Contains(s, []byte(`"Namespace"`)) && len(s) < 16<<10 {
			f.Add(s)
		}
	}
	f.Add([]byte(`{"kind":"Namespace","metadata":{"name":"a","labels":{"kubernetes.io/metadata.name":"a"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSlimNamespaces(t, "fuzz.json", data)
	})
}
