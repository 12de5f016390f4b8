// Package strwalk answers, without copying or allocating per value, whether any
// string reachable from a value satisfies a predicate: the read-only first pass of
// the report's secret scrub and terminal escaping, which copy the report only when
// something in it must change (issue 22: at 50,000 objects, copying every slice of
// the report to change nothing cost more than reading the bundle).
package strwalk

import (
	"reflect"
	"sync"
	"unsafe"
)

// plan is what a walk needs of a type, computed once per type: whether a string can
// be reached from it, the exported fields of a struct that can reach one with their
// plans, and the plan of a pointer's, slice's, array's or map's element.
type plan struct {
	kind    reflect.Kind
	strings bool
	fields  []field
	elem    *plan
}

type field struct {
	index int
	p     *plan
}

var plans sync.Map // reflect.Type → *plan, for the types a walk starts from or meets in an interface

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := build(t, map[reflect.Type]*plan{})
	if v, loaded := plans.LoadOrStore(t, p); loaded {
		return v.(*plan)
	}
	return p
}

// build makes the plan of t; a type met again while its own plan is being made (a
// recursive type) gets that plan, which says it reaches strings until it is done (a
// walk may then look where there is nothing, never miss a string).
func build(t reflect.Type, building map[reflect.Type]*plan) *plan {
	if p := building[t]; p != nil {
		return p
	}
	p := &plan{kind: t.Kind(), strings: true}
	building[t] = p
	switch t.Kind() {
	case reflect.String, reflect.Interface:
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() {
				if fp := build(f.Type, building); fp.strings {
					p.fields = append(p.fields, field{i, fp})
				}
			}
		}
		p.strings = len(p.fields) > 0
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		p.elem = build(t.Elem(), building)
		p.strings = p.elem.strings
	default:
		p.strings = false
	}
	return p
}

// Any reports whether pred holds for a string reachable from v through exported
// struct fields, slices, arrays, pointers, interfaces and map values (not map keys),
// in the order of the fields. A pointer seen before is not walked again, nor is a
// string whose bytes were just asked about (the kind, namespace and finalizer of
// 50,000 objects are one string each, shared).
func Any(v any, pred func(string) bool) bool {
	w := walker{pred: pred}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return false
	}
	return w.walk(rv, planOf(rv.Type()))
}

// Count returns how many strings Any reaches when pred holds for none (asked about
// or not): the work of a walk, for tests that compare it at n and 2n.
func Count(v any) int {
	w := walker{pred: func(string) bool { return false }}
	rv := reflect.ValueOf(v)
	if rv.IsValid() {
		w.walk(rv, planOf(rv.Type()))
	}
	return w.reached
}

type walker struct {
	pred func(string) bool
	// seen holds the pointers walked, with their types: a pointer to a struct and one
	// to its first field share an address (then the second is walked too)
	seen map[uintptr]reflect.Type
	// recent holds strings pred said no to, by where their bytes are
	recent [256]struct {
		p *byte
		n int
	}
	reached int // strings reached
}

func (w *walker) walk(v reflect.Value, p *plan) bool {
	if !p.strings {
		return false
	}
	switch p.kind {
	case reflect.String:
		w.reached++
		s := v.String()
		if len(s) == 0 {
			return false
		}
		d := unsafe.StringData(s)
		slot := &w.recent[(uintptr(unsafe.Pointer(d))>>3^uintptr(len(s)))&255]
		if slot.p == d && slot.n == len(s) {
			return false
		}
		if w.pred(s) {
			return true
		}
		slot.p, slot.n = d, len(s)
	case reflect.Struct:
		for _, f := range p.fields {
			if w.walk(v.Field(f.index), f.p) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i, n := 0, v.Len(); i < n; i++ {
			if w.walk(v.Index(i), p.elem) {
				return true
			}
		}
	case reflect.Pointer:
		if v.IsNil() {
			return false
		}
		ptr, t := v.Pointer(), v.Type()
		if w.seen[ptr] == t {
			return false
		}
		if w.seen == nil {
			w.seen = map[uintptr]reflect.Type{}
		}
		w.seen[ptr] = t
		return w.walk(v.Elem(), p.elem)
	case reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			return w.walk(e, planOf(e.Type()))
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if w.walk(it.Value(), p.elem) {
				return true
			}
		}
	}
	return false
}
