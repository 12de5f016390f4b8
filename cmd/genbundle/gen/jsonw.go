package gen

import (
	"strconv"
)

// jw builds pretty-printed JSON the way `kubectl get -o json` writes it (4-space
// indent, keys in the order the caller writes them — callers write them sorted, as
// kubectl does). It appends to a byte slice: no reflection, no maps, so generating a
// gigabyte stays fast.
type jw struct {
	b     []byte
	depth int
	comma bool // the next value needs a leading comma
}

func (j *jw) nl() {
	j.b = append(j.b, '\n')
	for i := 0; i < j.depth; i++ {
		j.b = append(j.b, "    "...)
	}
}

// key starts a member ("" for an array element).
func (j *jw) key(k string) {
	if j.comma {
		j.b = append(j.b, ',')
	}
	if j.depth > 0 {
		j.nl()
	}
	if k != "" {
		j.b = appendJSONString(j.b, k)
		j.b = append(j.b, ": "...)
	}
	j.comma = true
}

func (j *jw) str(k, v string) {
	j.key(k)
	j.b = appendJSONString(j.b, v)
}

func (j *jw) num(k string, v int) {
	j.key(k)
	j.b = strconv.AppendInt(j.b, int64(v), 10)
}

func (j *jw) boolean(k string, v bool) {
	j.key(k)
	j.b = strconv.AppendBool(j.b, v)
}

func (j *jw) null(k string) {
	j.key(k)
	j.b = append(j.b, "null"...)
}

// obj opens an object; close it with end('}').
func (j *jw) obj(k string) {
	j.key(k)
	j.b = append(j.b, '{')
	j.depth++
	j.comma = false
}

// arr opens an array; close it with end(']').
func (j *jw) arr(k string) {
	j.key(k)
	j.b = append(j.b, '[')
	j.depth++
	j.comma = false
}

func (j *jw) end(c byte) {
	j.depth--
	if j.comma { // non-empty
		j.nl()
	}
	j.b = append(j.b, c)
	j.comma = true
}

// emptyObj writes `"k": {}`.
func (j *jw) emptyObj(k string) {
	j.key(k)
	j.b = append(j.b, "{}"...)
}

// strs writes an array of strings.
func (j *jw) strs(k string, vs ...string) {
	j.arr(k)
	for _, v := range vs {
		j.str("", v)
	}
	j.end(']')
}

// labels writes a string map whose keys are already sorted.
func (j *jw) labels(k string, kv ...string) {
	j.obj(k)
	for i := 0; i+1 < len(kv); i += 2 {
		j.str(kv[i], kv[i+1])
	}
	j.end('}')
}

// appendJSONString quotes s as encoding/json does for the ASCII text the generator
// writes (quotes, backslashes, newlines, and <>& as \u escapes like kubectl).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '<':
			b = append(b, `\u003c`...)
		case '>':
			b = append(b, `\u003e`...)
		case '&':
			b = append(b, `\u0026`...)
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
