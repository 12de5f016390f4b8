package objects

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestEveryWireFieldHasAFastPath: the fast decoder (fastdecode.go) reads the wire
// struct by hand and declines a key it does not read. A field added to a wire struct
// without a fast path would silently send every object that carries it down the slow
// path (the share check of TestFastDecodeSameAsSlow does not see a field the fixtures
// lack). So every leaf field of the wire struct, reached through every path from the
// root, is set alone in an item, which the fast decoder must take and decode exactly
// as encoding/json does.
func TestEveryWireFieldHasAFastPath(t *testing.T) {
	n := 0
	walkWireLeaves(reflect.TypeOf(wire{}), nil, 0, func(path []string, leaf reflect.Type) {
		n++
		raw := nestJSON(path, sampleJSON(path, leaf))
		var w wire
		if !fastDecodeWire([]byte(raw), &w) {
			t.Errorf("%s: declined by the fast decoder (give the field a fast path in fastdecode.go): %s", strings.Join(path, "."), raw)
			return
		}
		compareItem(t, []byte(raw))
		if reflect.ValueOf(w).IsZero() {
			t.Errorf("%s: taken, but nothing was read: %s", strings.Join(path, "."), raw)
		}
	})
	if n < 100 {
		t.Fatalf("only %d leaf fields walked: the walk is broken", n)
	}
}

// walkWireLeaves calls leaf for every field of t that holds no struct, with its JSON path
// (slices and pointers are looked through; a json.RawMessage is a leaf). depth stops a
// recursive type.
func walkWireLeaves(t reflect.Type, path []string, depth int, leaf func([]string, reflect.Type)) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice && t != rawMessage {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || depth > 8 {
		leaf(path, t)
		return
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		p := append(append([]string{}, path...), name+sliceMark(f.Type))
		walkWireLeaves(f.Type, p, depth+1, leaf)
	}
}

var rawMessage = reflect.TypeOf(json.RawMessage{})

// sliceMark marks a path element whose value is a list ("[]"), so nestJSON writes one.
func sliceMark(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Slice && t != rawMessage {
		return "[]"
	}
	return ""
}

// sampleJSON is a non-zero JSON value of a leaf type, valid for the field it fills
// (times, versions and URLs in their forms).
func sampleJSON(path []string, t reflect.Type) string {
	last := strings.TrimSuffix(path[len(path)-1], "[]")
	switch {
	case t.Kind() == reflect.String && (strings.HasSuffix(last, "Timestamp") || strings.HasSuffix(last, "Time")):
		return `"2026-01-02T03:04:05Z"`
	case t.Kind() == reflect.String && last == "gitVersion":
		return `"v1.30.1"`
	case t.Kind() == reflect.String && last == "url":
		return `"https://hook.example.com/convert"`
	case t.Kind() == reflect.String && last == "kind":
		return `"Pod"`
	case t == rawMessage:
		return `{"matchLabels":{"app":"x"}}`
	case t.Kind() == reflect.String:
		return `"x-1"`
	case t.Kind() == reflect.Bool:
		return `true`
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return `7`
	case t.Kind() == reflect.Map:
		return `{"k":"v"}`
	}
	return `null`
}

// nestJSON writes value at path as an item: {"a":{"b":[{"c":value}]}}.
func nestJSON(path []string, value string) string {
	s := value
	for i := len(path) - 1; i >= 0; i-- {
		name, list := strings.CutSuffix(path[i], "[]")
		if list {
			s = "[" + s + "]"
		}
		s = `{"` + name + `":` + s + `}`
	}
	return s
}

// TestEveryWireFieldIsRead: every field of the wire structs changes the decoded Object
// of at least one kind somewhere it appears (fill.go reads it): a field decoded but never
// read is a mirror that drifted, or dead weight on the hot path. A field of a type the
// wire shares (ObjectReference) counts as read when one of its paths reads it.
func TestEveryWireFieldIsRead(t *testing.T) {
	decode := func(raw string) *Object {
		var rec recorder
		return safeDecodeJSONItem(item{raw: []byte(raw), line: 3, listKind: "List", listAPIVer: "v1"}, "f", Options{}, &rec, newItemDecoder(nil))
	}
	read := map[string]bool{}
	var fields []string
	walkWireFields(reflect.TypeOf(wire{}), nil, 0, func(path []string, owner reflect.Type, field string, leaf reflect.Type) {
		key := owner.Name() + "." + field
		if _, seen := read[key]; !seen {
			read[key] = false
			fields = append(fields, key)
		}
		if read[key] || path[0] == "kind" || path[0] == "apiVersion" {
			read[key] = true
			return
		}
		for _, v := range samplesJSON(path, leaf) {
			bare := nestJSON(path, v)
			if c, ok := companions[strings.TrimSuffix(path[0], "[]")]; ok {
				bare = strings.Replace(bare, c[0], c[1], 1)
			}
			if a, b := decode(`{}`), decode(bare); !reflect.DeepEqual(a, b) {
				read[key] = true
				return
			}
			for _, k := range wireKinds {
				meta := `"metadata":{"name":"a","namespace":"b"}`
				base := `{"apiVersion":"v1","kind":"` + k + `",` + meta + `}`
				with := `{"apiVersion":"v1","kind":"` + k + `",` + strings.TrimPrefix(bare, "{")
				if path[0] != "metadata" {
					with = strings.Replace(with, `"kind":"`+k+`",`, `"kind":"`+k+`",`+meta+`,`, 1)
				} else {
					with = strings.Replace(with, `"metadata":{`, `"metadata":{"name":"a","namespace":"b",`, 1)
				}
				if a, b := decode(base), decode(with); a != nil && b != nil && !reflect.DeepEqual(a, b) {
					read[key] = true
					return
				}
			}
		}
	})
	for _, f := range fields {
		if !read[f] {
			t.Errorf("%s: no kind's Object changes when it is set (fill.go never reads it)", f)
		}
	}
}

// walkWireFields is walkWireLeaves with the struct type and field name of each leaf.
func walkWireFields(t reflect.Type, path []string, depth int, leaf func(path []string, owner reflect.Type, field string, typ reflect.Type)) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice && t != rawMessage {
		t = t.Elem()
	}
	for i := 0; i < t.NumField() && depth <= 8; i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		p := append(append([]string{}, path...), name+sliceMark(f.Type))
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice && ft != rawMessage {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			walkWireFields(ft, p, depth+1, leaf)
		} else {
			leaf(p, t, f.Name, ft)
		}
	}
}

// samplesJSON are the values tried for a leaf: its sample, and for a bool both values
// (a *bool that defaults to true is read only when false).
func samplesJSON(path []string, t reflect.Type) []string {
	if t.Kind() == reflect.Bool {
		return []string{`true`, `false`}
	}
	return []string{sampleJSON(path, t)}
}

// companions are fields read only together with another: the start of an item whose
// path begins with the key is rewritten to hold the companion too.
var companions = map[string][2]string{
	// an EndpointSlice endpoint's conditions and targetRef count its addresses
	"endpoints": {`{"endpoints":[{`, `{"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"],`},
}

// wireKinds are the kinds whose objects fill.go fills from the wire struct.
var wireKinds = []string{"Namespace", "Pod", "Service", "Endpoints", "EndpointSlice", "APIService", "CustomResourceDefinition",
	"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "Event", "Lease", "Deployment", "StatefulSet",
	"DaemonSet", "ReplicaSet", "Node"}
