package findings

import "reflect"

// CloneReport returns a deep copy of a report: every slice, map and pointer reachable
// through exported fields is copied, so the copy can be rewritten (redacted, scrubbed)
// without touching the original (the analysis' bookkeeping of a cause, its Ladder and
// Claimed, is copied too; the redactor leaves it out). Unlike a JSON round trip, it keeps the fields the wire does not carry
// (Problem.Headline, Link.Facts, RemediationStep.Premise, ...), so what renderers read
// from them is there in the copy too.
func CloneReport(r *Report) *Report {
	if r == nil {
		return nil
	}
	cp := new(Report)
	deepCopy(reflect.ValueOf(cp).Elem(), reflect.ValueOf(r).Elem())
	return cp
}

// deepCopy sets dst (settable, of src's type) to a deep copy of src.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Struct:
		dst.Set(src) // every field, unexported ones shared
		for i := 0; i < src.NumField(); i++ {
			if src.Type().Field(i).IsExported() {
				deepCopy(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			deepCopy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			dst.Set(src)
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			v := reflect.New(src.Type().Elem()).Elem()
			deepCopy(v, it.Value())
			m.SetMapIndex(it.Key(), v)
		}
		dst.Set(m)
	default: // strings, numbers, booleans, interfaces, funcs: values (or shared, never rewritten)
		dst.Set(src)
	}
}
