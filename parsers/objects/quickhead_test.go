package objects

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
)

// checkHead compares quickHead with the full decoder on every item of a JSON stream:
// when quickHead answers, the full decoder must agree on every field of the head and
// have nothing to warn about. It returns how many items quickHead answered.
func checkHead(t *testing.T, name string, r io.Reader, opts Options) (answered, total int) {
	t.Helper()
	sp := newSplitter(r, DefaultMaxObjectBytes)
	var st splitState
	for {
		it, err := sp.next(&st)
		if err != nil {
			return
		}
		if it.raw == nil {
			continue
		}
		total++
		h := quickHead(it, name, opts, nil)
		var rec recorder
		full := decodeItem(it, it.raw, name, 0, opts, &rec)
		if h == nil {
			continue
		}
		answered++
		if full == nil || len(rec.list) > 0 {
			t.Fatalf("%s:%d: quick head %v, but the full decoder gives %v with warnings %v", name, it.line, h, full, rec.list)
		}
		if h.Kind != full.Kind || h.APIVersion != full.APIVersion || h.Name != full.Name || h.Namespace != full.Namespace ||
			h.UID != full.UID || !h.CreationTimestamp.Equal(full.CreationTimestamp) || len(full.Finalizers) > 0 ||
			!full.DeletionTimestamp.IsZero() || len(full.Conditions) > 0 || full.Lease != nil || h.Source.File != full.Source.File || h.Source.Line != full.Source.Line {
			t.Fatalf("%s:%d: quick head %+v differs from %+v", name, it.line, h, full)
		}
		if (h.Event == nil) != (full.Event == nil) || h.Event != nil && (h.Event.Type != full.Event.Type ||
			h.Event.Involved.Kind != full.Event.Involved.Kind || !h.Event.Last.Equal(full.Event.Last)) {
			t.Fatalf("%s:%d: quick event %+v differs from %+v", name, it.line, h.Event, full.Event)
		}
	}
}

// TestQuickHeadAgreesWithDecoder runs checkHead over generated List dumps and every
// JSON file of the fixtures.
func TestQuickHeadAgreesWithDecoder(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.Generate(gen.Config{Out: dir, Size: 2 << 20, Seed: 5, Mix: "objects"}); err != nil {
		t.Fatal(err)
	}
	answered, total := 0, 0
	for _, root := range []string{dir, filepath.Join("..", "..", "fixtures")} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer f.Close()
			a, n := checkHead(t, p, f, Options{})
			answered += a
			total += n
			return nil
		})
	}
	if answered < 1000 || answered == total {
		t.Errorf("quick head answered %d of %d items", answered, total)
	}
}

// TestQuickHeadDefers lists items whose head must come from the full decoder.
func TestQuickHeadDefers(t *testing.T) {
	for _, js := range []string{
		`{"kind":"ConfigMap","metadata":{"name":"a"},"spec":{}}`,                // a field the decoder reads
		`{"Kind":"ConfigMap","metadata":{"name":"a"}}`,                          // case-insensitive match
		`{"kind":"ConfigMap","kind":"Secret","metadata":{"name":"a"}}`,          // repeated key
		`{"kind":"ConfigMap","metadata":{"name":"a","Labels":{}}}`,              // case
		`{"kind":"ConfigMap","metadata":{"name":"a","labels":"x"}}`,             // wrong type
		`{"kind":"ConfigMap","metadata":{"name":"a","labels":{"k":1}}}`,         // wrong type
		`{"kind":"ConfigMap","metadata":{"name":"a","finalizers":["f"]}}`,       // finalizers
		`{"kind":"ConfigMap","metadata":{"name":"a","deletionTimestamp":"x"}}`,  // deletion
		`{"kind":"ConfigMap","metadata":{"name":"a\u0062"}}`,                    // escaped value
		`{"kind":"ConfigMap","metadata":{"n\u0061me":"a"}}`,                     // escaped key
		`{"kind":"ConfigMap","metadata":{"name":"a",}}`,                         // invalid
		`{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"\x01"}}`,      // control character
		`{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":01}}`,          // bad number
		`{"kind":"Event","metadata":{"name":"a"},"count":1.5}`,                  // not an int
		`{"kind":"Event","metadata":{"name":"a"},"count":12345678901234567890}`, // overflow
		`{"kind":"Event","metadata":{"name":"a"},"involvedObject":{"kind":3}}`,  // wrong type
		`{"kind":"ConfigMap","metadata":{"name":"a","ownerReferences":[{"controller":"yes"}]}}`,
		`{"metadata":{}}`, // neither kind nor name
		`{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"ſpec":1}} x`, // trailing garbage
		`{"kind":"ConfigMap","metadata":{"name":"a"},"ſpec":{}}`,           // non-ASCII key
	} {
		it := item{raw: []byte(js), line: 1}
		if h := quickHead(it, "x.json", Options{}, nil); h != nil {
			t.Errorf("%s: quick head %+v, want the full decoder", js, h)
		}
	}
	for _, js := range []string{
		`{"kind":"ConfigMap","metadata":{"name":"a","labels":null,"annotations":{"x":"\u003c"}},"data":{"k":"v\n","n":-1.5e3}}`,
		`{"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"involvedObject":{"kind":"Pod"},"regarding":null,"type":"Normal","count":2,"eventTime":null}`,
	} {
		var rec recorder
		it := item{raw: []byte(js), line: 1}
		if h := quickHead(it, "x.json", Options{}, nil); h == nil {
			t.Errorf("%s: no quick head", js)
		} else if full := decodeItem(it, it.raw, "x.json", 0, Options{}, &rec); full.Kind != h.Kind || full.Name != h.Name {
			t.Errorf("%s: %+v vs %+v", js, h, full)
		}
	}
}
