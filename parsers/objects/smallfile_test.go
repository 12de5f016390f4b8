package objects

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// failingReader gives its text in small reads, then err instead of io.EOF.
type failingReader struct {
	text string
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.text == "" {
		return 0, f.err
	}
	n := copy(p[:min(len(p), 700)], f.text)
	f.text = f.text[n:]
	return n, nil
}

// TestSmallAndLargeFilesDecodeAlike: a file at most smallFile long (decoded whole on the
// calling goroutine) and the same items in a longer file (the parallel decoder) give the
// same objects and warnings, and a read error after some items, in either, keeps the
// items before it and is said as a warning at the line it broke off.
func TestSmallAndLargeFilesDecodeAlike(t *testing.T) {
	item := func(i int) string {
		if i%7 == 3 {
			return fmt.Sprintf(`{"kind":"Pod","metadata":{"name":"bad-%d","labels":"not-a-map"}}`, i)
		}
		return fmt.Sprintf(`{"kind":"Namespace","metadata":{"name":"ns-%d"},"status":{"phase":"Active"}}`, i)
	}
	stream := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(item(i) + "\n")
		}
		return b.String()
	}
	decode := func(r io.Reader) ([]string, []diag.Warning) {
		var got []string
		warn := &diag.Sink{Limit: 100000}
		DecodeJSON(r, "x.json", Options{}, warn, func(o *Object) {
			got = append(got, fmt.Sprintf("%s/%s@%d", o.Kind, o.Name, o.Source.Line))
		})
		return got, warn.List
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	small, large := stream(40), stream(4000)
	if len(small) > smallFile || len(large) <= smallFile {
		t.Fatalf("inputs of %d and %d bytes do not straddle smallFile (%d)", len(small), len(large), smallFile)
	}
	so, sw := decode(strings.NewReader(small))
	lo, lw := decode(strings.NewReader(large))
	if len(so) != 40 || !reflect.DeepEqual(so, lo[:40]) || len(sw) == 0 || !reflect.DeepEqual(sw, lw[:len(sw)]) {
		t.Errorf("the small file's %d objects and %d warnings are not the large file's first ones", len(so), len(sw))
	}
	for _, n := range []int{40, 4000} {
		broken := errors.New("disk on fire")
		got, warns := decode(&failingReader{text: stream(n), err: broken})
		if len(got) != n {
			t.Errorf("%d items then a read error: %d objects", n, len(got))
		}
		last := warns[len(warns)-1]
		if !strings.Contains(last.Message, "read error: disk on fire") || last.Line < n {
			t.Errorf("%d items then a read error: last warning %v", n, last)
		}
	}
}
