package objects

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
)

// MaxStringBytes caps every string an Object keeps (a name, a label, a condition
// message): a small compressed dump may hold objects of tens of megabytes of one
// string each. Longer strings keep their start and "…(truncated N bytes)".
const MaxStringBytes = 64 << 10

func capString(s string) string {
	if len(s) <= MaxStringBytes {
		return s
	}
	cut := MaxStringBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…(truncated %d bytes)", len(s)-cut)
}

// capStrings caps every string of o (MaxStringBytes) and reports it once.
func capStrings(o *Object, path string, line int, warn warner) {
	n, longest := 0, 0
	capValue(reflect.ValueOf(o).Elem(), &n, &longest, 0)
	if n > 0 {
		ref := o.Ref()
		if len(ref) > 200 {
			cut := 200
			for cut > 0 && !utf8.RuneStart(ref[cut]) {
				cut--
			}
			ref = ref[:cut] + "…"
		}
		warn.Add(path, line, "%d strings longer than %d bytes truncated (the longest had %d bytes) in %s", n, MaxStringBytes, longest, ref)
	}
}

func capValue(v reflect.Value, n, longest *int, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if l := v.Len(); l > MaxStringBytes {
			*n++
			*longest = max(*longest, l)
			if v.CanSet() {
				v.SetString(capString(v.String()))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			capValue(v.Elem(), n, longest, depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				capValue(v.Field(i), n, longest, depth+1)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			capValue(v.Index(i), n, longest, depth+1)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		var long []reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			if iter.Key().Len() > MaxStringBytes || iter.Value().Len() > MaxStringBytes {
				long = append(long, iter.Key())
			}
		}
		for _, k := range long {
			val := v.MapIndex(k)
			for _, l := range []int{k.Len(), val.Len()} {
				if l > MaxStringBytes {
					*n++
					*longest = max(*longest, l)
				}
			}
			v.SetMapIndex(k, reflect.Value{})
			v.SetMapIndex(reflect.ValueOf(capString(k.String())), reflect.ValueOf(capString(val.String())))
		}
	}
}

// yamlExpansion estimates the size of a YAML document with its aliases expanded (as
// its conversion to JSON writes it), stopping past limit. A scalar of 1 MB aliased a
// thousand times is 1 GB of JSON. ok is false when the estimate exceeds limit.
func yamlExpansion(doc []byte, limit int) (size int, ok bool) {
	var v any
	if err := yaml2.Unmarshal(doc, &v); err != nil {
		return 0, true // the conversion reports it
	}
	var walk func(any)
	walk = func(x any) {
		if size > limit {
			return
		}
		switch t := x.(type) {
		case string:
			size += len(t) + 2
		case map[any]any:
			for k, e := range t {
				walk(k)
				walk(e)
				size += 2
			}
		case []any:
			for _, e := range t {
				walk(e)
				size++
			}
		default:
			size += 8
		}
	}
	walk(v)
	return size, size <= limit
}
