// Package strwalk answers, without copying or allocating per value, whether any
// string reachable from a value satisfies a predicate: the read-only first pass of
// the report's secret scrub and terminal escaping, which copy the report only when
// something in it must change (issue 22: at 50,000 objects, copying every slice of
// the report to change nothing cost more than reading the bundle).
//
// The walk reads memory it reaches through pointers, slices and struct fields by the
// offsets reflection gives once per type (reflect.Value per field cost more than the
// predicate); interfaces and maps, whose contents are not addressable, are walked
// through reflection. walkReflect is the reference the tests compare it with.
package strwalk

import (
	"github.com/nsanalyze/nsanalyze/parsers/work"
	"reflect"
	"sync"
	"unsafe"
)

// plan is what a walk needs of a type, computed once per type: whether a string can
// be reached from it, the exported fields of a struct that can reach one with their
// offsets and plans, and the plan and size of a pointer's, slice's, array's or map's
// element.
type plan struct {
	t        reflect.Type
	kind     reflect.Kind
	strings  bool
	fields   []field
	elem     *plan
	elemSize uintptr
	length   int // an array's
}

type field struct {
	index  int
	offset uintptr
	p      *plan
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
	p := &plan{t: t, kind: t.Kind(), strings: true}
	building[t] = p
	switch t.Kind() {
	case reflect.String, reflect.Interface:
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() {
				if fp := build(f.Type, building); fp.strings {
					p.fields = append(p.fields, field{i, f.Offset, fp})
				}
			}
		}
		p.strings = len(p.fields) > 0
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		p.elem = build(t.Elem(), building)
		p.elemSize = t.Elem().Size()
		p.strings = p.elem.strings
		if t.Kind() == reflect.Array {
			p.length = t.Len()
		}
	default:
		p.strings = false
	}
	return p
}

// Any reports whether pred holds for a string reachable from v through exported
// struct fields, slices, arrays, pointers, interfaces and map values (not map keys).
// A pointer seen before is not walked again, nor is a string whose bytes were just
// asked about (the kind, namespace and finalizer of 50,000 objects are one string
// each, shared).
func Any(v any, pred func(string) bool) bool {
	w := walker{pred: pred}
	found := w.start(v)
	walked.Add(w.reached)
	return found
}

var walked = work.New("strings walked")

// Count returns how many strings Any reaches when pred holds for none (asked about
// or not): the work of a walk, for tests that compare it at n and 2n.
func Count(v any) int {
	w := walker{pred: func(string) bool { return false }}
	w.start(v)
	return w.reached
}

type walker struct {
	pred func(string) bool
	// seen holds the pointers walked, with their types: a pointer to a struct and one
	// to its first field share an address (then the second is walked too)
	seen map[unsafe.Pointer]reflect.Type
	// recent holds strings pred said no to, by where their bytes are
	recent [256]struct {
		p *byte
		n int
	}
	reached int  // strings reached
	reflect bool // walk through reflection only (the reference, for tests)
}

func (w *walker) start(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return false
	}
	return w.walkReflect(rv, planOf(rv.Type()))
}

func (w *walker) str(s string) bool {
	w.reached++
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
	return false
}

// first reports whether the pointer q of type t is met for the first time.
func (w *walker) first(q unsafe.Pointer, t reflect.Type) bool {
	if w.seen[q] == t {
		return false
	}
	if w.seen == nil {
		w.seen = map[unsafe.Pointer]reflect.Type{}
	}
	w.seen[q] = t
	return true
}

// walkAt walks the value of plan p stored at addr.
func (w *walker) walkAt(addr unsafe.Pointer, p *plan) bool {
	if !p.strings {
		return false
	}
	switch p.kind {
	case reflect.String:
		return w.str(*(*string)(addr))
	case reflect.Struct:
		for _, f := range p.fields {
			if w.walkAt(unsafe.Add(addr, f.offset), f.p) {
				return true
			}
		}
	case reflect.Array:
		for i := 0; i < p.length; i++ {
			if w.walkAt(unsafe.Add(addr, uintptr(i)*p.elemSize), p.elem) {
				return true
			}
		}
	case reflect.Slice:
		data, n := unsafe.SliceData(*(*[]byte)(addr)), len(*(*[]byte)(addr))
		for i := 0; i < n; i++ {
			if w.walkAt(unsafe.Add(unsafe.Pointer(data), uintptr(i)*p.elemSize), p.elem) {
				return true
			}
		}
	case reflect.Pointer:
		q := *(*unsafe.Pointer)(addr)
		if q == nil || !w.first(q, p.t) {
			return false
		}
		return w.walkAt(q, p.elem)
	case reflect.Interface, reflect.Map:
		return w.walkReflect(reflect.NewAt(p.t, addr).Elem(), p)
	}
	return false
}

// walkReflect walks v, of plan p, through reflection; what is addressable goes back
// to walkAt (unless w.reflect).
func (w *walker) walkReflect(v reflect.Value, p *plan) bool {
	if !p.strings {
		return false
	}
	if !w.reflect && v.CanAddr() && p.kind != reflect.Interface && p.kind != reflect.Map {
		return w.walkAt(v.Addr().UnsafePointer(), p)
	}
	switch p.kind {
	case reflect.String:
		return w.str(v.String())
	case reflect.Struct:
		for _, f := range p.fields {
			if w.walkReflect(v.Field(f.index), f.p) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i, n := 0, v.Len(); i < n; i++ {
			if w.walkReflect(v.Index(i), p.elem) {
				return true
			}
		}
	case reflect.Pointer:
		if v.IsNil() || !w.first(v.UnsafePointer(), p.t) {
			return false
		}
		return w.walkReflect(v.Elem(), p.elem)
	case reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			return w.walkReflect(e, planOf(e.Type()))
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if w.walkReflect(it.Value(), p.elem) {
				return true
			}
		}
	}
	return false
}
