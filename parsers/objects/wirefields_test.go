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
		raw := nestJSON(path, sampleJSON(leaf))
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

// sampleJSON is a non-zero JSON value of a leaf type.
func sampleJSON(t reflect.Type) string {
	switch {
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
