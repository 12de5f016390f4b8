package objects

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"sigs.k8s.io/yaml"
)

// DefaultMaxObjectBytes caps one object; larger ones are skipped with a warning.
const DefaultMaxObjectBytes = 64 << 20

// Options tune decoding.
type Options struct {
	// KindHint is used for objects that carry no kind and sit in no typed list
	// (e.g. troubleshoot's custom-resources files); "" = none.
	KindHint string
	// MaxObjectBytes caps one object (default DefaultMaxObjectBytes).
	MaxObjectBytes int
	// Keep, when set, is asked about each JSON object before it is decoded in full, with
	// a head that holds only Kind, APIVersion, Name, Namespace, UID, CreationTimestamp,
	// Source and, for Events, Event.Type, Event.Involved.Kind and Event.Last. When it
	// returns false, the head is emitted instead of the full object (the caller drops
	// it). Objects with finalizers or a deletionTimestamp, and any object whose head
	// cannot be read cheaply and exactly, are always decoded in full. Keep is called
	// from several goroutines.
	Keep func(*Object) bool
}

// DecodeJSON reads a stream of JSON documents from r (the file at path, relative to the
// bundle root) and calls emit for every object in it. Malformed parts are reported to
// warn with their line; everything readable before them is still emitted. It returns
// the number of objects emitted. A bug caught while reading (a panic) becomes a
// diag.InternalError warning and ends the file.
func DecodeJSON(r io.Reader, path string, opts Options, warn *diag.Sink, emit func(*Object)) (n int) {
	defer warn.Catch(path)
	if opts.MaxObjectBytes <= 0 {
		opts.MaxObjectBytes = DefaultMaxObjectBytes
	}
	// A small file (most of a bundle's: a cluster-info dump holds thousands of a few KB)
	// is read whole and decoded on this goroutine, in a buffer of its size: the parallel
	// decoder's goroutines and 256 KiB buffers cost more than such a file's decoding.
	head, err := readSmall(r, smallFile)
	var sp *jsonSplitter
	switch {
	case err != nil || len(head) <= smallFile:
		sp = newSplitterSize(&errAfter{bytes.NewReader(head), err}, opts.MaxObjectBytes, len(head)+512)
	default:
		sp = newSplitter(io.MultiReader(bytes.NewReader(head), r), opts.MaxObjectBytes)
		if runtime.GOMAXPROCS(0) > 1 {
			return decodeParallel(sp, path, opts, warn, emit, &n)
		}
	}
	var st splitState
	d := newItemDecoder(opts.Keep)
	for {
		it, err := sp.next(&st)
		if err != nil {
			splitError(err, sp.line, path, warn)
			return n
		}
		if it.raw == nil {
			continue
		}
		if o := safeDecodeJSONItem(it, path, opts, warn, d); o != nil {
			emit(o)
			n++
		}
	}
}

// itemDecoder is the state one decoding goroutine keeps between items: which kinds
// opts.Keep wants whatever their content (Pods, Services, ...; those are not read
// twice), and the buffer pruned items are written to.
type itemDecoder struct {
	keep   func(*Object) bool
	kinds  map[string]bool
	pruned []byte
}

func newItemDecoder(keep func(*Object) bool) *itemDecoder {
	return &itemDecoder{keep: keep, kinds: map[string]bool{}}
}

func (d *itemDecoder) wantsAll(kind string) bool {
	if kind == "" || d.keep == nil {
		return false
	}
	v, ok := d.kinds[kind]
	if !ok {
		v = d.keep(&Object{Kind: kind})
		if len(d.kinds) < 256 { // kinds are few; a hostile stream of names is not cached
			d.kinds[kind] = v
		}
	}
	return v
}

// decodeJSONItem decodes one item of a JSON stream, or only its head when opts.Keep
// does not want it. Items decoded in full go through the fast decoder (fastdecode.go);
// those it declines are pruned (prune.go) and decoded by encoding/json.
func decodeJSONItem(it item, path string, opts Options, warn warner, d *itemDecoder) *Object {
	if it.internal {
		it.raw = externalize(it.raw)
	}
	if opts.Keep != nil {
		if h := quickHead(it, path, opts, d.wantsAll); h != nil && !opts.Keep(h) {
			return h
		}
	}
	if !disableFastDecode.Load() {
		var w wire
		if fastDecodeWire(it.raw, &w) {
			return objectFromWire(it, &w, path, 0, opts, warn)
		}
	}
	body := it.raw
	if !disablePrune.Load() {
		if pr, ok := pruneItem(it.raw, d.pruned); ok {
			body, d.pruned = pr, pr
		}
	}
	return decodeItem(it, body, path, 0, opts, warn)
}

// disablePrune makes every item decode whole (tests compare both ways).
var disablePrune atomic.Bool

// disableFastDecode sends every item through pruning and encoding/json, as if the fast
// decoder (fastdecode.go) declined it (tests compare both ways).
var disableFastDecode atomic.Bool

// DecodeYAML reads multi-document YAML (documents separated by `---` lines) and calls
// emit for every object in it.
func DecodeYAML(r io.Reader, path string, opts Options, warn *diag.Sink, emit func(*Object)) (n int) {
	defer warn.Catch(path)
	if opts.MaxObjectBytes <= 0 {
		opts.MaxObjectBytes = DefaultMaxObjectBytes
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var doc bytes.Buffer
	docLine, line := 1, 0
	tooBig := false
	flush := func() {
		defer func() { doc.Reset(); tooBig = false }()
		if tooBig {
			warn.Add(path, docLine, "YAML document larger than %d bytes skipped", opts.MaxObjectBytes)
			return
		}
		if len(bytes.TrimSpace(doc.Bytes())) == 0 {
			return
		}
		if bytes.IndexByte(doc.Bytes(), '&') >= 0 && bytes.IndexByte(doc.Bytes(), '*') >= 0 {
			// anchors and aliases: a small document may expand to gigabytes
			if size, ok := yamlExpansion(doc.Bytes(), opts.MaxObjectBytes); !ok {
				warn.Add(path, docLine, "YAML document whose aliases expand to more than %d bytes (%d bytes read so far) skipped", opts.MaxObjectBytes, size)
				return
			}
		}
		src := doc.Bytes()
		if bytes.Contains(src, redactedMarker) {
			src = quoteRedacted(src)
		}
		js, err := yaml.YAMLToJSON(src)
		if err != nil {
			warn.Add(path, docLine, "invalid YAML document: %v", err)
			return
		}
		if len(js) == 0 || js[0] != '{' && js[0] != '[' {
			return
		}
		n += decodeYAMLDoc(js, path, docLine, opts, warn, emit)
	}
	for {
		l, err := br.ReadSlice('\n')
		if len(l) > 0 {
			line++
			if bytes.HasPrefix(l, []byte("---")) && len(bytes.TrimSpace(l[3:])) == 0 {
				flush()
				docLine = line + 1
			} else if doc.Len()+len(l) > opts.MaxObjectBytes {
				tooBig = true
			} else if !tooBig {
				doc.Write(l)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			line-- // the same line continues
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				warn.Add(path, line, "read error: %v", err)
			}
			break
		}
	}
	flush()
	return n
}

func decodeYAMLDoc(js []byte, path string, line int, opts Options, warn *diag.Sink, emit func(*Object)) int {
	sp := newSplitterSize(bytes.NewReader(js), opts.MaxObjectBytes, len(js)+512)
	var st splitState
	n := 0
	for {
		it, err := sp.next(&st)
		if err != nil {
			return n
		}
		if it.raw == nil {
			continue
		}
		it.line = line
		if o := nameless(decodeItem(it, it.raw, path, line, opts, warn), it.raw, path, line, warn); o != nil {
			o.Source.Fields = nil // lines of the converted JSON say nothing about the YAML
			emit(o)
			n++
		}
	}
}

// decodeItem turns one object's JSON (body: it.raw, or it pruned) into an Object. Wrong
// field types are reported and the rest of the object is kept (the decoder fills what
// it can).
func decodeItem(it item, body []byte, path string, yamlLine int, opts Options, warn warner) *Object {
	var w wire
	var te *json.UnmarshalTypeError
	if err := unmarshalWire(body, &w); err != nil && !errors.As(err, &te) {
		warn.Add(path, it.line, "invalid object skipped: %v", err)
		return nil
	}
	typed := w.Kind != "" || w.APIVersion != "" // (before a KindHint fills the kind)
	o := objectFromWire(it, &w, path, yamlLine, opts, warn)
	if te != nil && o != nil && typed {
		// only about Kubernetes objects: a file of other JSON (healthz.json's
		// {"status":200}, Prometheus alerts, sonobuoy results) is not one, whatever its
		// types, nor is a fragment without kind and apiVersion (a condition printed by
		// `yq '.status.conditions[-1]'` has a string status)
		warn.Add(path, it.line, "object has a field of the wrong type (%s: %s), the rest of it was read", te.Field, te.Value)
	}
	return o
}

// smallFile: JSON input up to this size is read whole and decoded on the calling
// goroutine (decodeParallel's goroutines and batch buffers cost more than that).
const smallFile = 64 << 10

// readSmall reads r until EOF or until it holds more than limit bytes, in a buffer that
// grows with what it reads. err is a read error other than io.EOF.
func readSmall(r io.Reader, limit int) ([]byte, error) {
	buf := make([]byte, 0, 4<<10)
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// errAfter reads r, then ends with err instead of io.EOF (when err is set): the read
// error readSmall met, after the bytes it read.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF && e.err != nil {
		return n, e.err
	}
	return n, err
}
