package objects

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// Fuzz targets for the object decoders. Seeds are the object files of the real
// fixtures (fixtures/realdata, fixtures/realworld) plus hand-written hostile shapes;
// crashers found by `go test -fuzz` are committed under testdata/fuzz/<Target>/ and
// run by every plain `go test`.

// maxSeedBytes keeps seeds small enough for the fuzzer to mutate usefully.
const maxSeedBytes = 64 << 10

// fixtureSeeds returns the contents of the fixture files whose names end in one of exts.
func fixtureSeeds(f *testing.F, exts ...string) [][]byte {
	f.Helper()
	var out [][]byte
	for _, root := range []string{"../../fixtures/realdata", "../../fixtures/realworld", "../../fixtures/handmade"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			ok := false
			for _, e := range exts {
				ok = ok || strings.HasSuffix(p, e)
			}
			if !ok || d.Name() == "expected.json" {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) == 0 {
				return nil
			}
			if len(b) > maxSeedBytes {
				b = b[:maxSeedBytes] // a truncated file is a good seed too
			}
			out = append(out, b)
			return nil
		})
	}
	if len(out) == 0 {
		f.Logf("no fixture seeds for %v found; fuzzing from the hand-written seeds only", exts)
	}
	return out
}

var jsonSeeds = []string{
	// kubectl 1.13 internal types (externalize), a Node with its kubelet version
	`{"selfLink":"/api/v1/namespaces/kube-system/pods","Items":[{"name":"etcd-minikube","namespace":"kube-system","creationTimestamp":"2019-03-08T08:49:27Z","Spec":{"NodeName":"minikube"},"Status":{"Phase":"Running"}},{"metadata":{"name":"x"}},3]}`,
	`{"Items":[{"name":"a","spec":{},"Spec":{}}]}{"Items":null}`,
	`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"nodeInfo":{"kubeletVersion":"v1.16.7"}}}`,
	`{"status":200}`,
	`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a","deletionTimestamp":"2026-01-01T00:00:00Z"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"True","message":"x"}]}}`,
	`{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Pod","metadata":{"na`,
	`{"kind":"Namespace","metadata":{"name":"a","finalizers":"kubernetes","deletionTimestamp":12}}`,
	`{"kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"\x\u12"}}`,
	"{\"kind\":\"PodList\",\"items\":[{\"metadata\":{\"name\":\"p\"}}]}\r\n{\"kind\":\"EventList\",\"items\":null}",
	`[{"kind":"Namespace","metadata":{"name":"a"}},1,"x",null,[{}],{"kind":"Namespace","metadata":{"name":"b"}}]`,
	`{"items":[` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `]}`,
	"\xef\xbb\xbf{\"kind\":\"Namespace\",\"metadata\":{\"name\":\"\xff\xfe\"}}",
	`}{][`,
	``,
}

var yamlSeeds = []string{
	// troubleshoot's unquoted redaction marker (quoteRedacted)
	"kind: List\nitems:\n- kind: Secret\n  metadata:\n    name: s\n  data:\n    a: ***HIDDEN***\n    b: ***HIDDEN***:10000\n    c:\n    - ***HIDDEN***\n    d: x ***HIDDEN***\n    e: '***HIDDEN***'\n",
	"***HIDDEN***\n- ***HIDDEN***'x\n:***HIDDEN***\r\n",
	"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  deletionTimestamp: \"2026-01-01T00:00:00Z\"\n---\n# c\nkind: List\nitems:\n- kind: Pod\n  metadata: {name: p, finalizers: [x/y]}\n",
	"kind: Namespace\r\nmetadata:\r\n  name: a\r\n  finalizers: kubernetes\r\n",
	"a: &a [x, x]\nb: &b [*a, *a]\nkind: Namespace\n",
	"---\n---\n- [1, 2]\n- {kind: Pod}\n",
	"kind: Namespace\nmetadata:\n  name: [\n",
	"kind: !!binary AAAA\n",
}

// FuzzDecodeJSON checks that DecodeJSON never panics or hangs, that everything it
// reports names the file and a line inside it, and that truncating the input never
// changes or adds objects: a truncated file yields a prefix of the full file's objects.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s), uint16(0))
	}
	for _, b := range fixtureSeeds(f, ".json") {
		f.Add(b, uint16(len(b)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		full, fw := decodeAll(t, data, false)
		checkWarnings(t, data, fw)
		// pruning (prune.go) never changes an object or a warning
		decodeBoth(t, "f", data, Options{})
		decodeBoth(t, "f", data, Options{Keep: keepSome})
		// read sizes never change what is decoded (tar and gzip give short reads)
		if len(data) < 64<<10 {
			want, ww := decodeFrom(bytes.NewReader(data))
			got, gw := decodeFrom(chunkReader{bytes.NewReader(data), 1 + int(cut)%7})
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gw, ww) {
				t.Fatalf("reads of %d bytes: %d objects, warnings %v; one read: %d objects, warnings %v", 1+int(cut)%7, len(got), gw, len(want), ww)
			}
		}
		if int(cut) >= len(data) {
			return
		}
		part, pw := decodeAll(t, data[:cut], false)
		checkWarnings(t, data[:cut], pw)
		closed := false // the last object, which the cut is inside, read as far as it goes
		for _, w := range pw {
			closed = closed || w.Message == truncatedMsg
		}
		// the full input may drop that object as invalid (a syntax error after the cut,
		// said in a warning): then the cut input holds it, read up to the cut, and one
		// more object than the full input
		extra := 0
		if closed && len(fw) > 0 {
			extra = 1
		}
		if len(part) > len(full)+extra {
			t.Fatalf("truncated input yields %d objects, the full one %d (warnings %v)", len(part), len(full), fw)
		}
		for i := range part {
			if i == len(full) {
				break // the extra object above
			}
			if part[i] != full[i] && !(closed && i == len(part)-1) {
				t.Fatalf("object %d differs after truncation at %d: %s vs %s", i, cut, part[i], full[i])
			}
		}
	})
}

// FuzzDecodeYAML checks that DecodeYAML never panics or hangs and that everything it
// reports names the file and a line inside it.
func FuzzDecodeYAML(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	for _, b := range fixtureSeeds(f, ".yaml", ".yml") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, w := decodeAll(t, data, true)
		checkWarnings(t, data, w)
	})
}

// FuzzSniff checks that Sniff never panics and always returns a known kind; a head
// holding a NUL byte is always binary.
func FuzzSniff(f *testing.F) {
	for _, s := range append(append([]string{}, jsonSeeds...), yamlSeeds...) {
		f.Add([]byte(s))
	}
	f.Add([]byte("\x1b[31mE0101 00:00:00.000000 1 x.go:1] red\x1b[0m"))
	f.Fuzz(func(t *testing.T, head []byte) {
		k := Sniff(head)
		switch k {
		case "json", "yaml", "jsonlog", "text", "binary":
		default:
			t.Fatalf("Sniff returned %q", k)
		}
		if len(head) > 0 && len(bytes.Trim(head, "\x00")) == 0 && k != "binary" {
			t.Fatalf("a head of NUL bytes only sniffed as %q", k)
		}
		// NUL bytes never change what the rest of a text file is
		if k != "binary" {
			if k2 := Sniff(bytes.ReplaceAll(head, []byte{0}, nil)); k2 != k && len(bytes.ReplaceAll(head, []byte{0}, nil)) > 0 {
				t.Fatalf("NUL bytes changed the kind from %q to %q", k2, k)
			}
		}
	})
}

// decodeAll decodes data and returns a stable rendering of every object.
func decodeAll(t *testing.T, data []byte, yaml bool) ([]string, []diag.Warning) {
	t.Helper()
	w := &diag.Sink{}
	var out []string
	emit := func(o *Object) {
		if o == nil {
			t.Fatal("emit(nil)")
		}
		if o.Source.File != "f" {
			t.Fatalf("object source file %q", o.Source.File)
		}
		out = append(out, fmt.Sprintf("%s@%d dt=%s ph=%q fin=%q sfin=%q conds=%d", o.Ref(), o.Source.Line,
			o.DeletionTimestamp, o.Phase, o.Finalizers, o.SpecFinalizers, len(o.Conditions)))
	}
	var n int
	if yaml {
		n = DecodeYAML(bytes.NewReader(data), "f", Options{}, w, emit)
	} else {
		n = DecodeJSON(bytes.NewReader(data), "f", Options{}, w, emit)
	}
	if n != len(out) {
		t.Fatalf("returned %d, emitted %d", n, len(out))
	}
	return out, w.List
}

func checkWarnings(t *testing.T, data []byte, ws []diag.Warning) {
	t.Helper()
	lines := bytes.Count(data, []byte{'\n'}) + 1
	for _, w := range ws {
		if w.File != "f" {
			t.Fatalf("warning names file %q: %v", w.File, w)
		}
		if w.Line < 0 || w.Line > lines {
			t.Fatalf("warning line %d outside the input's %d lines: %v", w.Line, lines, w)
		}
		if w.Message == "" {
			t.Fatalf("empty warning %v", w)
		}
		if diag.IsInternal(w) {
			t.Fatalf("a bug was caught: %v", w)
		}
	}
}

// TestSniffNULPaddedText: a log with NUL bytes (a node that crashed while writing it)
// is still read as text; random data and NULs alone are binary.
func TestSniffNULPaddedText(t *testing.T) {
	log := "E0101 00:00:10.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n"
	for in, want := range map[string]string{
		strings.Repeat("\x00", 4096) + log:              "text",
		log + strings.Repeat("\x00", 100) + log:         "text",
		"\x00" + `{"kind":"Namespace"}`:                 "json",
		strings.Repeat("\x00", 8192):                    "binary",
		string(bytes.Repeat([]byte{0x7f, 0, 1, 2}, 64)): "binary",
	} {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%.40q) = %s, want %s", in, got, want)
		}
	}
}
