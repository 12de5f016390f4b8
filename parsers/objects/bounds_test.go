package objects

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

func decodeOne(t *testing.T, data, path string) ([]*Object, []diag.Warning) {
	t.Helper()
	w := &diag.Sink{}
	var out []*Object
	if strings.HasSuffix(path, ".yaml") {
		DecodeYAML(strings.NewReader(data), path, Options{}, w, func(o *Object) { out = append(out, o) })
	} else {
		DecodeJSON(strings.NewReader(data), path, Options{}, w, func(o *Object) { out = append(out, o) })
	}
	return out, w.List
}

// TestObjectTimesOutsideYears: a time that is year 10000 in UTC is no time, with a
// warning naming the object; 0001-01-01T00:00:00Z is the zero time, not an error.
func TestObjectTimesOutsideYears(t *testing.T) {
	objs, ws := decodeOne(t, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a","creationTimestamp":"9999-12-31T23:59:59-23:59","deletionTimestamp":"9999-12-31T23:00:00-05:00"},"status":{"conditions":[{"type":"X","status":"True","lastTransitionTime":"0000-01-01T00:00:00+01:00"}]}}`, "ns.json")
	if len(objs) != 1 || !objs[0].CreationTimestamp.IsZero() || !objs[0].DeletionTimestamp.IsZero() || !objs[0].Conditions[0].LastTransitionTime.IsZero() {
		t.Fatalf("objects %+v", objs)
	}
	if len(ws) != 3 || ws[0].Line != 1 || !strings.Contains(ws[0].Message, "outside years 0001-9999") || !strings.Contains(ws[0].Message, "Namespace/a") {
		t.Errorf("warnings %v", ws)
	}
	objs, ws = decodeOne(t, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b","deletionTimestamp":"0001-01-01T00:00:00Z"}}`, "ns.json")
	if len(objs) != 1 || len(ws) != 0 {
		t.Errorf("zero time: %v", ws)
	}
	// a valid 9999 time is kept
	objs, _ = decodeOne(t, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"c","creationTimestamp":"9999-12-31T23:59:59Z"}}`, "ns.json")
	if objs[0].CreationTimestamp.Year() != 9999 {
		t.Errorf("9999 lost")
	}
}

// TestYAMLAliasBomb: a 1 MB scalar aliased 1,000 times (2.8 GB once converted to JSON)
// is skipped with a warning.
func TestYAMLAliasBomb(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  a: &x " + strings.Repeat("y", 1<<20) + "\n")
	for i := 0; i < 1000; i++ {
		b.WriteString("  k" + strings.Repeat("z", 3) + string(rune('0'+i%10)) + strings.Repeat("q", i/10) + ": *x\n")
	}
	b.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n  labels: {a: &l v, b: *l}\n")
	objs, ws := decodeOne(t, b.String(), "cm.yaml")
	if len(objs) != 1 || objs[0].Name != "fine" || len(ws) != 1 || !strings.Contains(ws[0].Message, "aliases expand") {
		t.Errorf("objects %d, warnings %v", len(objs), ws)
	}
}

// TestLongStringsCapped: strings kept from an object are capped at MaxStringBytes
// (a 60 MB condition message, label or name), with one warning per object.
func TestLongStringsCapped(t *testing.T) {
	long := strings.Repeat("m", 3<<20)
	objs, ws := decodeOne(t, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+long+`","labels":{"`+long+`":"`+long+`"},"finalizers":["`+long+`"]},"status":{"conditions":[{"type":"X","status":"True","message":"`+long+`"}]}}`, "ns.json")
	if len(objs) != 1 {
		t.Fatalf("%d objects", len(objs))
	}
	o := objs[0]
	for k, v := range o.Labels {
		if len(k) > MaxStringBytes+64 || len(v) > MaxStringBytes+64 {
			t.Errorf("label of %d/%d bytes", len(k), len(v))
		}
	}
	if len(o.Name) > MaxStringBytes+64 || len(o.Conditions[0].Message) > MaxStringBytes+64 || len(o.Finalizers[0]) > MaxStringBytes+64 {
		t.Errorf("strings of %d, %d, %d bytes", len(o.Name), len(o.Conditions[0].Message), len(o.Finalizers[0]))
	}
	if len(ws) != 1 || !strings.Contains(ws[0].Message, "truncated") {
		t.Errorf("warnings %v", ws)
	}
	// the head of an object not kept is capped too
	var heads []*Object
	DecodeJSON(strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"`+long+`","namespace":"`+long+`"}}`), "cm.json",
		Options{Keep: func(*Object) bool { return false }}, &diag.Sink{}, func(o *Object) { heads = append(heads, o) })
	if len(heads) != 1 || len(heads[0].Namespace) > MaxStringBytes+64 {
		t.Errorf("head not capped")
	}
}
