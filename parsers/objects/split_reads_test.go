package objects

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// chunkReader returns at most n bytes per Read, as tar and gzip readers do at their
// block boundaries.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

func decodeFrom(r io.Reader) ([]*Object, []diag.Warning) {
	w := &diag.Sink{}
	var objs []*Object
	DecodeJSON(r, "f.json", Options{}, w, func(o *Object) { objs = append(objs, o) })
	return objs, w.List
}

// TestSplitterReadBoundaries: whatever sizes the reads come in, the objects and the
// warnings are those of one big read. An escaped quote split from its backslash by a
// read boundary once ended the string early, and the objects after it in an archived
// bundle were lost ("invalid object skipped").
func TestSplitterReadBoundaries(t *testing.T) {
	var doc strings.Builder
	doc.WriteString(`{"kind":"EventList","apiVersion":"v1","items":[`)
	msgs := []string{`a \"quoted\" word`, `ends with a backslash \\`, `\\\"`, `\\\\\\\"x\"`, `\\`, `\u0022\"\\`}
	for i, m := range msgs {
		if i > 0 {
			doc.WriteString(",\n")
		}
		doc.WriteString(`{"kind":"Event","metadata":{"name":"e` + string(rune('a'+i)) + `","namespace":"ns"},"type":"Warning","message":"` + m + `","reason":"R"}`)
	}
	doc.WriteString("]}\n")
	list := doc.String()
	// the same List after another document (cluster-info dump's stdout): the list's
	// keys are then read while fill moves the kept bytes (a key's offset once went
	// stale there and the splitter panicked)
	for _, data := range [][]byte{[]byte(list), []byte(`{"kind":"Namespace","metadata":{"name":"first"}}` + "\n" + list)} {
		want, ww := decodeFrom(bytes.NewReader(data))
		if len(want) < len(msgs) || len(ww) != 0 || want[len(want)-1].Kind != "Event" {
			t.Fatalf("one read: %d objects, warnings %v", len(want), ww)
		}
		for n := 1; n <= 9; n++ {
			got, gw := decodeFrom(chunkReader{bytes.NewReader(data), n})
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gw, ww) {
				t.Fatalf("reads of %d bytes: %d objects (want %d), warnings %v", n, len(got), len(want), gw)
			}
		}
	}
	// and real files, through the standard library's awkward readers
	checked := 0
	_ = filepath.WalkDir("../../fixtures/realdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || d.Name() == "expected.json" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 512<<10 || !bytes.Contains(b, []byte(`\"`)) {
			return nil
		}
		want, ww := decodeFrom(bytes.NewReader(b))
		for name, r := range map[string]io.Reader{
			"one byte": iotest.OneByteReader(bytes.NewReader(b)),
			"half":     iotest.HalfReader(bytes.NewReader(b)),
			"3 bytes":  chunkReader{bytes.NewReader(b), 3},
		} {
			got, gw := decodeFrom(r)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gw, ww) {
				t.Fatalf("%s, %s reads: %d objects (want %d), warnings %v (want %v)", p, name, len(got), len(want), gw, ww)
			}
		}
		checked++
		return nil
	})
	if checked == 0 {
		t.Fatal("no fixture with escaped quotes found")
	}
}
