package objects

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// TestBugsBecomeWarnings: a panic while one object is decoded skips that object with
// an InternalError warning and the others are still read; a panic in the caller's
// emit ends the file with a warning, without leaking the decoding goroutines.
func TestBugsBecomeWarnings(t *testing.T) {
	list := []byte(`{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Boom","metadata":{"name":"b"}},{"kind":"Pod","metadata":{"name":"c"}}]}`)
	keep := func(o *Object) bool {
		if o.Kind == "Boom" {
			panic("keep exploded")
		}
		return true
	}
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		w := &diag.Sink{}
		var names []string
		n := DecodeJSON(bytes.NewReader(list), "f.json", Options{Keep: keep}, w, func(o *Object) { names = append(names, o.Name) })
		runtime.GOMAXPROCS(old)
		if n != 2 || strings.Join(names, ",") != "a,c" {
			t.Errorf("GOMAXPROCS=%d: %d objects %v, want a,c", procs, n, names)
		}
		if len(w.List) != 1 || !diag.IsInternal(w.List[0]) || !strings.Contains(w.List[0].Message, "keep exploded") || w.List[0].File != "f.json" {
			t.Errorf("GOMAXPROCS=%d: warnings %v", procs, w.List)
		}
	}

	before := runtime.NumGoroutine()
	w := &diag.Sink{Limit: 1}
	w.Add("f.json", 1, "an earlier warning uses up the limit")
	DecodeJSON(bytes.NewReader(list), "f.json", Options{}, w, func(o *Object) { panic("emit exploded") })
	if got := w.List[len(w.List)-1]; !diag.IsInternal(got) || !strings.Contains(got.Message, "emit exploded") {
		t.Errorf("a panic in emit: warnings %v", w.List)
	}
	for end := time.Now().Add(hostile.HangCap(time.Second)); time.Now().Before(end) && runtime.NumGoroutine() > before; {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the panic, %d before", n, before)
	}
}
