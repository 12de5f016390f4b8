package objects

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// FuzzObjectNames puts arbitrary names, label keys and times, repeated to any length,
// in an object (JSON and YAML): decoding must never catch a bug, keep every string
// within MaxStringBytes (plus its truncation note), keep times within years 0001-9999,
// and warn boundedly.
func FuzzObjectNames(f *testing.F) {
	f.Add("ns", "a", "9999-12-31T23:59:59-23:59", uint16(1))
	f.Add("kube-system", "x\x00y", "0001-01-01T00:00:00Z", uint16(70))
	f.Add("é", "&a *a", "0000-01-01T00:00:00+01:00", uint16(40000))
	f.Fuzz(func(t *testing.T, name, key, ts string, rep uint16) {
		long := strings.Repeat(name, int(rep)%(1<<17)/max(1, len(name)/8+1))
		if len(long) > 8<<20 {
			return
		}
		obj := map[string]any{"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"name": long, "namespace": name, "labels": map[string]string{key: long}, "finalizers": []string{long},
				"creationTimestamp": ts, "deletionTimestamp": ts, "managedFields": []map[string]string{{"manager": long}, {"manager": name}}},
			"status": map[string]any{"phase": "Terminating", "conditions": []map[string]string{{"type": key, "status": "True", "message": long, "lastTransitionTime": ts}}}}
		js, err := json.Marshal(obj)
		if err != nil {
			return
		}
		for _, kind := range []string{"json", "yaml"} {
			w := &diag.Sink{}
			var got []*Object
			emit := func(o *Object) { got = append(got, o) }
			if kind == "json" {
				DecodeJSON(strings.NewReader(string(js)), "ns.json", Options{}, w, emit)
			} else {
				DecodeYAML(strings.NewReader(fmt.Sprintf("%s\n---\n%s\n", js, js)), "ns.yaml", Options{}, w, emit)
			}
			for _, x := range w.List {
				if diag.IsInternal(x) {
					t.Fatalf("%s: a bug was caught: %v", kind, x)
				}
				if len(x.Message) > diag.MaxMessageBytes+64 {
					t.Fatalf("%s: warning of %d bytes", kind, len(x.Message))
				}
			}
			for _, o := range got {
				check := func(what, s string) {
					if len(s) > MaxStringBytes+64 {
						t.Fatalf("%s: %s of %d bytes kept", kind, what, len(s))
					}
				}
				check("name", o.Name)
				check("namespace", o.Namespace)
				for k, v := range o.Labels {
					check("label key", k)
					check("label", v)
				}
				for _, c := range o.Conditions {
					check("message", c.Message)
					if !c.LastTransitionTime.IsZero() && !diag.InRange(c.LastTransitionTime) {
						t.Fatalf("time %s", c.LastTransitionTime)
					}
				}
				for _, m := range o.Managers {
					check("manager", m)
				}
				for _, tm := range []any{o.CreationTimestamp, o.DeletionTimestamp} {
					if _, err := json.Marshal(tm); err != nil {
						t.Fatalf("%s: %v", kind, err)
					}
				}
			}
		}
	})
}
