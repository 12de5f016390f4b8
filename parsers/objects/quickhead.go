package objects

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"reflect"
	"strings"
)

// quickHead reads, without encoding/json, the few fields of an item that say whether
// the caller wants it (Options.Keep) and that the bundle loader notes for objects it
// drops: kind, apiVersion, metadata (name, namespace, uid, creationTimestamp) and, for
// Events, type, involved object kind and times. It returns nil, so the item goes
// through the full decoder, whenever the full decoder could say anything more:
//
//   - the item is not valid JSON (it validates the whole item as encoding/json does);
//   - it has a field the full decoder reads beyond those (spec, status, subsets, ...),
//     or one of the fields above has a type the decoder would warn about;
//   - a key is escaped, non-ASCII, repeated, or differs from a field name only by case
//     (encoding/json matches keys case-insensitively);
//   - metadata.deletionTimestamp or metadata.finalizers is set, or it has neither kind
//     nor name.
//
// Most of a big bundle's bytes are ConfigMaps, Secrets and Normal events no rule reads;
// for them this costs a fraction of json.Unmarshal.
func quickHead(it item, path string, opts Options, probe func(kind string) bool) *Object {
	q := qreader{b: it.raw}
	var h qhead
	if !q.topObject(&h, probe) {
		return nil
	}
	q.ws()
	if q.i != len(q.b) {
		return nil
	}
	if h.deletion != "" || h.finalizers {
		return nil
	}
	kind, apiVersion := h.kind, h.apiVersion
	if kind == "" {
		switch {
		case strings.HasSuffix(it.listKind, "List") && it.listKind != "List":
			kind = strings.TrimSuffix(it.listKind, "List")
		case opts.KindHint != "":
			kind = opts.KindHint
		}
	}
	if apiVersion == "" && it.listAPIVer != "" && it.listKind != "List" {
		apiVersion = it.listAPIVer
	}
	if kind == "" && h.name == "" {
		return nil
	}
	for _, t := range []string{h.created, h.last, h.deprecatedLast, h.eventTime} {
		if t != "" && timeStatus(t) != timeOK {
			return nil // decoded in full, which reports it
		}
	}
	o := &Object{APIVersion: apiVersion, Kind: kind, Name: h.name, Namespace: h.namespace, UID: h.uid,
		CreationTimestamp: parseTime(h.created), Source: Source{File: path, Line: it.line}}
	if kind == "Event" {
		e := &EventInfo{Type: h.evType, Involved: ObjectReference{Kind: h.involvedKind}}
		if h.regarding {
			e.Involved.Kind = h.regardingKind
		}
		e.Last = parseTime(h.last)
		if e.Last.IsZero() {
			e.Last = parseTime(h.deprecatedLast)
		}
		if e.Last.IsZero() {
			e.Last = parseTime(h.eventTime)
		}
		o.Event = e
	}
	if len(it.raw) > MaxStringBytes {
		capStrings(o, path, it.line, noWarn{})
	}
	return o
}

type noWarn struct{}

func (noWarn) Add(string, int, string, ...any) {}

// qhead is what quickHead collects.
type qhead struct {
	kind, apiVersion, name, namespace, uid, created, deletion string
	finalizers                                                bool
	evType, last, deprecatedLast, eventTime                   string
	involvedKind, regardingKind                               string
	regarding                                                 bool
}

// wireTop and wireMeta list the keys the full decoder reads at the top level and in
// metadata (lower case), taken from the wire struct so that a field added there is
// never skipped here.
var (
	wireTop      = jsonNames(reflect.TypeOf(wire{}))
	wireMeta     = jsonNames(reflect.TypeOf(wire{}.Metadata))
	wireObjRef   = jsonNames(reflect.TypeOf(ObjectReference{}))
	wireOwnerRef = jsonNames(reflect.TypeOf(OwnerReference{}))
	wireSource   = jsonNames(reflect.TypeOf(wire{}.EventSource))
	wireManaged  = jsonNames(reflect.TypeOf(wire{}.Metadata.ManagedFields).Elem())
)

func jsonNames(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		out[jsonFieldName(t.Field(i))] = true
	}
	return out
}

// jsonFieldName is the lower-case key encoding/json matches a struct field with.
func jsonFieldName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	return strings.ToLower(name)
}

// lowerKey writes key in lower case (ASCII) into buf; false when it is longer than
// any field name.
func lowerKey(buf *[64]byte, key []byte) ([]byte, bool) {
	if len(key) > len(buf) {
		return nil, false
	}
	for i, c := range key {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return buf[:len(key)], true
}

// qreader is a strict JSON reader over one item (RFC 8259 as encoding/json checks it).
type qreader struct {
	b []byte
	i int
}

const qMaxDepth = 1000

// ws skips the whitespace at q.i.
func (q *qreader) ws() {
	if q.i < len(q.b) && q.b[q.i] > ' ' {
		return // most values and keys follow no whitespace (inlined check)
	}
	q.skipSpace()
}

// skipSpace skips the whitespace at q.i.
func (q *qreader) skipSpace() {
	b, i := q.b, q.i
	for i < len(b) {
		switch b[i] {
		case ' ':
			// indentation of pretty-printed JSON (kubectl -o json): eight bytes at a time,
			// the run's end found in the first word that is not all spaces
			for i+8 <= len(b) {
				x := binary.LittleEndian.Uint64(b[i:]) ^ 0x2020202020202020
				if x != 0 {
					i += bits.TrailingZeros64(x) / 8
					break
				}
				i += 8
			}
			if i < len(b) && b[i] == ' ' {
				i++
			}
		case '\n', '\t', '\r':
			i++
		default:
			q.i = i
			return
		}
	}
	q.i = i
}

// str reads a string at q.i and returns its raw contents; esc tells whether it holds
// escapes (then raw is not the value). Runs of plain bytes are skipped eight at a time.
func (q *qreader) str() (raw []byte, esc, ok bool) {
	b := q.b
	if q.i >= len(b) || b[q.i] != '"' {
		return nil, false, false
	}
	start := q.i + 1
	j := start
	for {
		j = skipPlainWords(b, j)
		if j >= len(b) {
			return nil, false, false
		}
		switch c := b[j]; {
		case c == '"':
			q.i = j + 1
			return b[start:j], esc, true
		case c == '\\':
			esc = true
			n := escapeLen(b[j:])
			if n == 0 {
				return nil, false, false
			}
			j += n
		case c < 0x20:
			return nil, false, false
		default:
			j++
		}
	}
}

// escapeLen returns the length of the valid escape sequence b starts with (b[0] is a
// backslash), or 0.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for k := 2; k < 6; k++ {
			if !isHex(b[k]) {
				return 0
			}
		}
		return 6
	}
	return 0
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// num reads a number and tells whether it is an integer that fits an int64.
func (q *qreader) num() (isInt, ok bool) {
	start := q.i
	if q.i < len(q.b) && q.b[q.i] == '-' {
		q.i++
	}
	if q.i >= len(q.b) {
		return false, false
	}
	switch c := q.b[q.i]; {
	case c == '0':
		q.i++
	case c >= '1' && c <= '9':
		for q.i < len(q.b) && q.b[q.i] >= '0' && q.b[q.i] <= '9' {
			q.i++
		}
	default:
		return false, false
	}
	isInt = true
	if q.i < len(q.b) && q.b[q.i] == '.' {
		isInt = false
		q.i++
		d := q.i
		for q.i < len(q.b) && q.b[q.i] >= '0' && q.b[q.i] <= '9' {
			q.i++
		}
		if q.i == d {
			return false, false
		}
	}
	if q.i < len(q.b) && (q.b[q.i] == 'e' || q.b[q.i] == 'E') {
		isInt = false
		q.i++
		if q.i < len(q.b) && (q.b[q.i] == '+' || q.b[q.i] == '-') {
			q.i++
		}
		d := q.i
		for q.i < len(q.b) && q.b[q.i] >= '0' && q.b[q.i] <= '9' {
			q.i++
		}
		if q.i == d {
			return false, false
		}
	}
	if isInt && q.i-start > 18 { // may not fit an int64: let encoding/json decide
		isInt = false
	}
	return isInt, true
}

func (q *qreader) lit(s string) bool {
	if bytes.HasPrefix(q.b[q.i:], []byte(s)) {
		q.i += len(s)
		return true
	}
	return false
}

// skip validates and skips any value (keys of skipped objects may hold escapes).
func (q *qreader) skip(depth int) bool {
	q.ws()
	if q.i >= len(q.b) || depth > qMaxDepth {
		return false
	}
	switch c := q.b[q.i]; {
	case c == '"':
		_, _, ok := q.str()
		return ok
	case c == '{':
		q.i++
		q.ws()
		if q.i < len(q.b) && q.b[q.i] == '}' {
			q.i++
			return true
		}
		for {
			q.ws()
			if _, _, ok := q.str(); !ok || !q.colon() || !q.skip(depth+1) {
				return false
			}
			if end, ok := q.next('}'); !ok || end {
				return ok
			}
		}
	case c == '[':
		q.i++
		q.ws()
		if q.i < len(q.b) && q.b[q.i] == ']' {
			q.i++
			return true
		}
		for {
			if !q.skip(depth + 1) {
				return false
			}
			if end, ok := q.next(']'); !ok || end {
				return ok
			}
		}
	case c == 't':
		return q.lit("true")
	case c == 'f':
		return q.lit("false")
	case c == 'n':
		return q.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		_, ok := q.num()
		return ok
	}
	return false
}

// colon reads the ':' after a key.
func (q *qreader) colon() bool {
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == ':' {
		q.i++
		q.ws()
		return true
	}
	return false
}

// next reads ',' (more members) or the closing byte (end).
func (q *qreader) next(closer byte) (end, ok bool) {
	q.ws()
	if q.i >= len(q.b) {
		return false, false
	}
	switch q.b[q.i] {
	case ',':
		q.i++
		return false, true
	case closer:
		q.i++
		return true, true
	}
	return false, false
}

// open reads '{' (or null: isNull) and reports whether the object is empty.
func (q *qreader) open() (isNull, empty, ok bool) {
	q.ws()
	if q.i >= len(q.b) {
		return false, false, false
	}
	if q.b[q.i] == 'n' {
		return true, true, q.lit("null")
	}
	if q.b[q.i] != '{' {
		return false, false, false
	}
	q.i++
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == '}' {
		q.i++
		return false, true, true
	}
	return false, false, true
}

// key reads a member's key (no escapes, ASCII) and its colon.
func (q *qreader) key() ([]byte, bool) {
	q.ws()
	if end, ok := plainKey(q.b, q.i); ok { // the common shape, read in one go
		start := q.i + 1
		q.i = end + 2
		q.ws()
		return q.b[start:end], true
	}
	raw, esc, ok := q.str()
	if !ok || esc || !asciiKey(raw) || !q.colon() {
		return nil, false
	}
	return raw, true
}

// plainKey finds the closing quote of the key starting at b[i] when the key is plain
// ASCII (no escape, no control character) and a colon follows it at once; ok is false
// for any other shape, which key reads by the general rules.
func plainKey(b []byte, i int) (end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	var seen uint64 // the bytes of the key, OR-ed: their high bits say if it is ASCII
	for j := i + 1; j+8 <= len(b); j += 8 {
		x := word(b, j)
		m := stringStops(x)
		if m == 0 {
			seen |= x
			continue
		}
		n := firstStop(m)
		seen |= x & (1<<(8*n) - 1)
		end = j + n
		return end, b[end] == '"' && seen&swarHighs == 0 && end+1 < len(b) && b[end+1] == ':'
	}
	return 0, false
}

// openArray reads '[' (or null) and reports whether the array is empty.
func (q *qreader) openArray() (empty, ok bool) {
	q.ws()
	if q.i >= len(q.b) {
		return false, false
	}
	if q.b[q.i] == 'n' {
		return true, q.lit("null")
	}
	if q.b[q.i] != '[' {
		return false, false
	}
	q.i++
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == ']' {
		q.i++
		return true, true
	}
	return false, true
}

// stringOrNull reads a string without escapes, or null (dst unchanged).
func (q *qreader) stringOrNull(dst *string) bool {
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == 'n' {
		return q.lit("null")
	}
	raw, esc, ok := q.str()
	if !ok || esc {
		return false
	}
	if dst != nil {
		*dst = string(raw)
	}
	return true
}

// object reads null, {} or an object, member reading the value of each key (with the
// key and its colon read): the open/key/next walk every object shape shares.
func (q *qreader) object(member func(k []byte) bool) bool {
	_, empty, ok := q.open()
	if !ok || empty {
		return ok
	}
	return q.members(member)
}

// members reads the members of an object whose '{' open() read and found non-empty.
func (q *qreader) members(member func(k []byte) bool) bool {
	for {
		k, ok := q.key()
		if !ok || !member(k) {
			return false
		}
		if end, ok := q.next('}'); !ok || end {
			return ok
		}
	}
}

// array reads null, [] or an array, elem reading each element.
func (q *qreader) array(elem func() bool) bool {
	empty, ok := q.openArray()
	if !ok || empty {
		return ok
	}
	for {
		if !elem() {
			return false
		}
		if end, ok := q.next(']'); !ok || end {
			return ok
		}
	}
}

func asciiKey(k []byte) bool {
	for _, c := range k {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// isWire reports whether key names, in any case, a field of set.
func isWire(set map[string]bool, key []byte) bool {
	var buf [64]byte
	k, ok := lowerKey(&buf, key)
	return ok && set[string(k)]
}

// once marks key bit in seen; false when the key was already seen.
func once(seen *uint32, bit uint32) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// topObject reads the item. probe, when set, is asked about the kind as soon as it is
// read: true stops the walk (the caller wants the object whole anyway).
func (q *qreader) topObject(h *qhead, probe func(kind string) bool) bool {
	isNull, empty, ok := q.open()
	if !ok || isNull {
		return false
	}
	if empty {
		return true
	}
	var seen uint32
	return q.members(func(k []byte) bool {
		switch string(k) {
		case "apiVersion":
			return once(&seen, 1<<0) && q.stringOrNull(&h.apiVersion)
		case "kind":
			return once(&seen, 1<<1) && q.stringOrNull(&h.kind) && (probe == nil || !probe(h.kind))
		case "metadata":
			return once(&seen, 1<<2) && q.metadata(h)
		case "type":
			return once(&seen, 1<<3) && q.stringOrNull(&h.evType)
		case "lastTimestamp":
			return once(&seen, 1<<4) && q.stringOrNull(&h.last)
		case "eventTime":
			return once(&seen, 1<<5) && q.stringOrNull(&h.eventTime)
		case "deprecatedLastTimestamp":
			return once(&seen, 1<<6) && q.stringOrNull(&h.deprecatedLast)
		case "reason":
			return once(&seen, 1<<7) && q.stringOrNull(nil)
		case "message":
			return once(&seen, 1<<8) && q.stringOrNull(nil)
		case "note":
			return once(&seen, 1<<9) && q.stringOrNull(nil)
		case "firstTimestamp":
			return once(&seen, 1<<10) && q.stringOrNull(nil)
		case "reportingController":
			return once(&seen, 1<<11) && q.stringOrNull(nil)
		case "count":
			return once(&seen, 1<<12) && q.intOrNull()
		case "deprecatedCount":
			return once(&seen, 1<<13) && q.intOrNull()
		case "involvedObject":
			return once(&seen, 1<<14) && q.objectRef(&h.involvedKind, nil)
		case "regarding":
			return once(&seen, 1<<15) && q.objectRef(&h.regardingKind, &h.regarding)
		case "source":
			return once(&seen, 1<<16) && q.source()
		}
		// a field the full decoder reads, or one differing from it only by case
		return !isWire(wireTop, k) && q.skip(2)
	})
}

func (q *qreader) intOrNull() bool {
	q.ws()
	if q.i < len(q.b) && q.b[q.i] == 'n' {
		return q.lit("null")
	}
	isInt, ok := q.num()
	return ok && isInt
}

func (q *qreader) metadata(h *qhead) bool {
	var seen uint32
	return q.object(func(k []byte) bool {
		switch string(k) {
		case "name":
			return once(&seen, 1<<0) && q.stringOrNull(&h.name)
		case "namespace":
			return once(&seen, 1<<1) && q.stringOrNull(&h.namespace)
		case "uid":
			return once(&seen, 1<<2) && q.stringOrNull(&h.uid)
		case "creationTimestamp":
			return once(&seen, 1<<3) && q.stringOrNull(&h.created)
		case "deletionTimestamp":
			return once(&seen, 1<<4) && q.stringOrNull(&h.deletion)
		case "finalizers":
			return once(&seen, 1<<5) && q.stringArray(&h.finalizers)
		case "labels":
			return once(&seen, 1<<6) && q.stringMap()
		case "ownerReferences":
			return once(&seen, 1<<7) && q.ownerRefs()
		case "managedFields":
			return once(&seen, 1<<8) && q.managedFields()
		}
		return !isWire(wireMeta, k) && q.skip(3)
	})
}

// stringArray reads null or an array of strings (or nulls); nonEmpty is set when it
// has elements.
func (q *qreader) stringArray(nonEmpty *bool) bool {
	return q.array(func() bool {
		*nonEmpty = true
		return q.stringOrNull(nil)
	})
}

// stringMap reads null or an object of strings (or nulls).
func (q *qreader) stringMap() bool {
	_, empty, ok := q.open()
	if !ok || empty {
		return ok
	}
	for { // keys of any text (label keys are not wire field names): not members()
		q.ws()
		if _, esc, ok := q.str(); !ok || esc || !q.colon() || !q.stringOrNull(nil) {
			return false
		}
		if end, ok := q.next('}'); !ok || end {
			return ok
		}
	}
}

// objectRef reads an ObjectReference (null or object); present is set for an object.
func (q *qreader) objectRef(kind *string, present *bool) bool {
	isNull, empty, ok := q.open()
	if !ok {
		return false
	}
	if present != nil && !isNull {
		*present = true
	}
	if empty {
		return true
	}
	var seen uint32
	return q.members(func(k []byte) bool {
		switch string(k) {
		case "kind":
			return once(&seen, 1<<0) && q.stringOrNull(kind)
		case "apiVersion":
			return once(&seen, 1<<1) && q.stringOrNull(nil)
		case "namespace":
			return once(&seen, 1<<2) && q.stringOrNull(nil)
		case "name":
			return once(&seen, 1<<3) && q.stringOrNull(nil)
		}
		return !isWire(wireObjRef, k) && q.skip(3)
	})
}

func (q *qreader) source() bool {
	var seen uint32
	return q.object(func(k []byte) bool {
		if string(k) == "component" {
			return once(&seen, 1) && q.stringOrNull(nil)
		}
		return !isWire(wireSource, k) && q.skip(3)
	})
}

func (q *qreader) ownerRefs() bool { return q.array(q.ownerRef) }

func (q *qreader) ownerRef() bool {
	var seen uint32
	return q.object(func(k []byte) bool {
		switch string(k) {
		case "apiVersion":
			return once(&seen, 1<<0) && q.stringOrNull(nil)
		case "kind":
			return once(&seen, 1<<1) && q.stringOrNull(nil)
		case "name":
			return once(&seen, 1<<2) && q.stringOrNull(nil)
		case "controller":
			return once(&seen, 1<<3) && (q.lit("true") || q.lit("false") || q.lit("null"))
		}
		return !isWire(wireOwnerRef, k) && q.skip(4)
	})
}

func (q *qreader) managedFields() bool {
	return q.array(func() bool {
		var seen uint32
		return q.object(func(k []byte) bool {
			if string(k) == "manager" {
				return once(&seen, 1) && q.stringOrNull(nil)
			}
			return !isWire(wireManaged, k) && q.skip(4)
		})
	})
}
