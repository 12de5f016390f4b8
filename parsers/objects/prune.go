package objects

import (
	"encoding"
	"encoding/json"
	"reflect"
)

// Pruning: before json.Unmarshal decodes a kept object into the wire struct, the
// members no wire field can receive (a Pod's container env, probes, volumes,
// tolerations, image IDs, ...) are cut out by the strict reader of quickhead.go,
// which validates them as encoding/json would and costs a fraction of its scanner.
// encoding/json would read and drop those members anyway, so the decoded object, its
// type errors and its warnings are the same; most of a Pod's bytes never reach the
// reflective decoder.
//
// What is kept verbatim, never judged: any member whose key is escaped or not ASCII
// (encoding/json folds keys with Unicode rules), every value of a field whose type is
// not a struct or a slice of structs, and every value whose JSON type does not match
// the field (the decoder reports those). When the reader finds anything it does not
// accept (invalid JSON, nesting deeper than qMaxDepth), the caller decodes the item
// whole, so encoding/json's own error is reported.

// pruneNode lists, for a struct type, the fields (lower-case JSON names) that matter
// and what to keep inside each. A nil *pruneNode keeps the value whole.
type pruneNode struct {
	fields  map[string]*pruneNode
	isSlice bool // the field is a slice of structs: prune each element
}

// wirePrune is the tree of the wire struct.
var wirePrune = buildPrune(reflect.TypeOf(wire{}), 0)

var (
	jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

func buildPrune(t reflect.Type, depth int) *pruneNode {
	if depth > 20 {
		return nil
	}
	isSlice := false
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Slice && t != reflect.TypeOf(json.RawMessage{}) {
		isSlice = true
		t = t.Elem()
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	n := &pruneNode{fields: map[string]*pruneNode{}, isSlice: isSlice}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous || !f.IsExported() {
			return nil // embedded fields change how keys are matched: keep the value whole
		}
		if name := jsonFieldName(f); name != "-" {
			n.fields[name] = buildPrune(f.Type, depth+1)
		}
	}
	return n
}

// pruneItem returns raw without the members the wire struct cannot receive, appended
// to dst[:0]; ok is false when raw is not an object the reader accepts.
func pruneItem(raw, dst []byte) (out []byte, ok bool) {
	q := qreader{b: raw}
	q.ws()
	if q.i >= len(q.b) || q.b[q.i] != '{' {
		return nil, false
	}
	out, ok = q.pruneValue(wirePrune, dst[:0], 0)
	if !ok {
		return nil, false
	}
	q.ws()
	return out, q.i == len(q.b)
}

// pruneValue copies the value at q.i into out, cutting what n does not want.
func (q *qreader) pruneValue(n *pruneNode, out []byte, depth int) ([]byte, bool) {
	q.ws()
	if q.i >= len(q.b) || depth > qMaxDepth {
		return out, false
	}
	c := q.b[q.i]
	switch {
	case n != nil && !n.isSlice && c == '{':
		return q.pruneObject(n, out, depth)
	case n != nil && n.isSlice && c == '[':
		elem := &pruneNode{fields: n.fields}
		q.i++
		out = append(out, '[')
		q.ws()
		if q.i < len(q.b) && q.b[q.i] == ']' {
			q.i++
			return append(out, ']'), true
		}
		for {
			var ok bool
			if out, ok = q.pruneValue(elem, out, depth+1); !ok {
				return out, false
			}
			end, ok := q.next(']')
			if !ok {
				return out, false
			}
			if end {
				return append(out, ']'), true
			}
			out = append(out, ',')
		}
	}
	start := q.i
	if !q.skip(depth) {
		return out, false
	}
	return append(out, q.b[start:q.i]...), true
}

// pruneObject copies an object member by member, dropping the members whose key
// names no field of n (after validating them).
func (q *qreader) pruneObject(n *pruneNode, out []byte, depth int) ([]byte, bool) {
	q.i++ // '{'
	out = append(out, '{')
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == '}' {
		q.i++
		return append(out, '}'), true
	}
	first := true
	for {
		q.ws()
		kstart := q.i
		raw, esc, ok := q.str()
		if !ok {
			return out, false
		}
		kend := q.i
		if !q.colon() {
			return out, false
		}
		child, known := (*pruneNode)(nil), true
		if !esc && asciiKey(raw) {
			child, known = fieldOf(n, raw)
		}
		if known {
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(out, q.b[kstart:kend]...)
			out = append(out, ':')
			if out, ok = q.pruneValue(child, out, depth+1); !ok {
				return out, false
			}
		} else if !q.skip(depth + 1) {
			return out, false
		}
		end, ok := q.next('}')
		if !ok {
			return out, false
		}
		if end {
			return append(out, '}'), true
		}
	}
}

// fieldOf looks key up in n case-insensitively (ASCII keys only).
func fieldOf(n *pruneNode, key []byte) (*pruneNode, bool) {
	var buf [64]byte
	k, ok := lowerKey(&buf, key)
	if !ok {
		return nil, false // longer than any field name
	}
	child, ok := n.fields[string(k)]
	return child, ok
}
