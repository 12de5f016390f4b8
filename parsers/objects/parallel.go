package objects

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// warner receives warnings: a *diag.Sink, or a recorder replayed later in order.
type warner interface {
	Add(file string, line int, format string, args ...any)
}

// pendingWarning is a warning recorded by a decoding worker, replayed in input order.
type pendingWarning struct {
	file   string
	line   int
	format string
	args   []any
}

// recorder collects the warnings of one item.
type recorder struct{ list []pendingWarning }

func (r *recorder) Add(file string, line int, format string, args ...any) {
	r.list = append(r.list, pendingWarning{file, line, format, args})
}

// batch is a run of consecutive items of one file, decoded by one worker.
type batch struct {
	buf   []byte // the items' text, copied out of the splitter's buffer
	items []item // raw slices point into buf
	objs  []*Object
	warns [][]pendingWarning
	err   error // the splitter's final error (io.EOF at a clean end), after these items
	errLn int   // the splitter's line at err
	done  chan struct{}
}

const (
	batchBytes = 256 << 10 // text per batch
	batchItems = 256
)

// decodeParallel is DecodeJSON on several cores: the splitter (this goroutine's
// helper) cuts the stream into batches of items, workers decode batches, and this
// goroutine emits the objects and replays the warnings in input order, so callers see
// exactly what the sequential loop gives them.
func decodeParallel(sp *jsonSplitter, path string, opts Options, warn *diag.Sink, emit func(*Object), n *int) int {
	workers := runtime.GOMAXPROCS(0)
	work := make(chan *batch, workers)
	order := make(chan *batch, 2*workers+2) // bounds the batches in flight
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := newItemDecoder(opts.Keep)
			for b := range work {
				b.objs = make([]*Object, len(b.items))
				b.warns = make([][]pendingWarning, len(b.items))
				for i, it := range b.items {
					var rec recorder
					b.objs[i] = safeDecodeJSONItem(it, path, opts, &rec, d)
					b.warns[i] = rec.list
				}
				close(b.done)
			}
		}()
	}
	// Batch buffers are recycled once their objects are emitted (the decoded objects
	// copy what they keep), so the input is not copied into fresh memory batch by batch.
	free := make(chan []byte, cap(order)+workers+1)
	newBuf := func() []byte {
		select {
		case buf := <-free:
			return buf[:0]
		default:
			return make([]byte, 0, batchBytes+batchBytes/4)
		}
	}
	stop := make(chan struct{})
	go func() { // the splitter
		defer close(order)
		defer close(work)
		var st splitState
		b := &batch{buf: newBuf(), done: make(chan struct{})}
		send := func() bool {
			select {
			case order <- b:
			case <-stop:
				return false
			}
			work <- b
			return true
		}
		for {
			it, err := safeNext(sp, &st)
			if err != nil {
				b.err, b.errLn = err, sp.line
				send()
				return
			}
			if it.raw == nil {
				continue
			}
			start := len(b.buf)
			b.buf = append(b.buf, it.raw...)
			it.raw = b.buf[start:len(b.buf):len(b.buf)]
			b.items = append(b.items, it)
			if len(b.buf) >= batchBytes || len(b.items) >= batchItems {
				if !send() {
					return
				}
				b = &batch{buf: newBuf(), done: make(chan struct{})}
			}
		}
	}()
	defer func() { // also when emit panics: stop the splitter, let the workers drain
		close(stop)
		wg.Wait()
	}()
	for b := range order {
		<-b.done
		for i, o := range b.objs {
			for _, w := range b.warns[i] {
				warn.Add(w.file, w.line, w.format, w.args...)
			}
			if o != nil {
				emit(o)
				*n++
			}
		}
		if b.err != nil {
			splitError(b.err, b.errLn, path, warn)
		}
		if cap(b.buf) <= 4*batchBytes { // one huge item's buffer is left to the GC
			select {
			case free <- b.buf:
			default:
			}
		}
		b.buf, b.items = nil, nil
	}
	return *n
}

// safeNext is sp.next with a bug caught: a panic ends the file with an InternalError.
func safeNext(sp *jsonSplitter, st *splitState) (it item, err error) {
	defer func() {
		if r := recover(); r != nil {
			it, err = item{}, &errSplit{sp.line, diag.InternalErrorText(r) + "; the rest of this file is skipped"}
		}
	}()
	return sp.next(st)
}

// safeDecodeJSONItem is decodeJSONItem with a bug caught: a panic skips the object
// with an InternalError warning.
func safeDecodeJSONItem(it item, path string, opts Options, warn warner, d *itemDecoder) (o *Object) {
	defer func() {
		if r := recover(); r != nil {
			o = nil
			warn.Add(path, it.line, "%s; this object is skipped", diag.InternalErrorText(r))
		}
	}()
	o = nameless(decodeJSONItem(it, path, opts, warn, d), it.raw, path, it.line, warn)
	if o != nil && it.truncated && (o.Name == "" || strings.HasSuffix(o.Kind, "List")) {
		return nil // cut before its name (or a list cut before its items): nothing it says can be placed
	}
	return o
}

// nameless gives an object without metadata.name (a paste cut before it: kubectl sorts
// the keys, so annotations, finalizers and labels come first) the name the API server or
// kubectl wrote elsewhere in it (nameOfCut), with a warning that says where the name
// came from. An object that stays without a name is returned as it is (a paste's
// reader may name it from the kubectl command before it; the analyzer never reports a
// name nobody gave). A cut object, or a cut list, is dropped by its caller.
func nameless(o *Object, raw []byte, path string, line int, warn warner) *Object {
	if o == nil || o.Name != "" || o.Kind == KindVersionInfo || strings.HasSuffix(o.Kind, "List") {
		return o
	}
	var from string
	o.Name, o.Namespace, from = nameOfCut(raw, o.Kind, o.Namespace)
	if o.Name == "" {
		return o // a paste's reader may still name it from the command before it
	}
	warn.Add(path, line, "%s without metadata.name (cut before it?): named %q from %s", o.Kind, o.Name, from)
	return o
}

// splitError reports the splitter's final error (nothing at a clean end).
func splitError(err error, line int, path string, warn warner) {
	if errors.Is(err, io.EOF) {
		return
	}
	var se *errSplit
	if errors.As(err, &se) && se.msg == truncatedMsg {
		warn.Add(path, se.line, "%s", se.msg)
	} else if errors.As(err, &se) {
		warn.Add(path, se.line, "%s; objects before it were read", se.msg)
	} else {
		warn.Add(path, line, "read error: %v", err)
	}
}
