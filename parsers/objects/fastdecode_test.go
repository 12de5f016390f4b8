package objects

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
)

// decodeFastAndSlow decodes data with the fast decoder on and off and fails when the
// objects or the warnings differ in anything. It returns the number of objects.
func decodeFastAndSlow(t testing.TB, name string, data []byte, opts Options) int {
	t.Helper()
	return decodeWithAndWithout(t, name, data, opts, &disableFastDecode, "the fast decoder")
}

// dump renders an object with its kind-specific details, for failure messages.
func dump(o *Object) string {
	b, err := json.Marshal(o)
	if err != nil {
		return fmt.Sprintf("%+v", *o)
	}
	return string(b)
}

// fastShare counts the items of a JSON stream and those the fast decoder takes.
func fastShare(data []byte) (taken, total int) {
	sp := newSplitter(bytes.NewReader(data), DefaultMaxObjectBytes)
	var st splitState
	for {
		it, err := sp.next(&st)
		if err != nil {
			return taken, total
		}
		if it.raw == nil {
			continue
		}
		total++
		var w wire
		if fastDecodeWire(it.raw, &w) {
			taken++
		}
	}
}

// TestFastDecodeSameAsSlow decodes every JSON file of the fixtures (real clusters,
// real-world cases, hand-made stories, hostile inputs) and a generated bundle with the
// fast decoder on and off, with and without Keep: every object and every warning must
// be identical, and the fast decoder must take most items.
func TestFastDecodeSameAsSlow(t *testing.T) {
	gendir := t.TempDir()
	if _, err := gen.Generate(gen.Config{Out: gendir, Size: 2 << 20, Seed: 7, Mix: "objects"}); err != nil {
		t.Fatal(err)
	}
	files, objs, taken, total := 0, 0, 0, 0
	for _, root := range []string{gendir, filepath.Join("..", "..", "fixtures")} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || Sniff(b) != "json" {
				return nil
			}
			files++
			objs += decodeFastAndSlow(t, p, b, Options{})
			decodeFastAndSlow(t, p, b, Options{Keep: keepSome})
			tk, n := fastShare(b)
			taken += tk
			total += n
			return nil
		})
	}
	t.Logf("%d files, %d objects; the fast decoder took %d of %d items", files, objs, taken, total)
	if files < 100 || objs < 4000 {
		t.Fatalf("only %d files, %d objects compared: fixtures missing?", files, objs)
	}
	if taken*10 < total*9 {
		t.Fatalf("the fast decoder took only %d of %d items", taken, total)
	}
}

// fastDeclined are items the fast decoder must decline: encoding/json could read them
// differently or report something.
var fastDeclined = []string{
	`{"Kind":"Pod"}`,                                                    // a field named in another case
	`{"metadata":{"Name":"a"}}`,                                         // the same, deeper
	`{"status":{"conditions":[{"TYPE":"x"}]}}`,                          // the same, in a slice element
	`{"kind":"Pod","kind":"Node"}`,                                      // a repeated field
	`{"spec":{"containers":[]},"spec":{}}`,                              // a repeated struct field
	`{"metadata":{"labels":{"a":"1"}},"metadata":{"labels":{"b":"2"}}}`, // merged by encoding/json
	`{"k\u0069nd":"Pod"}`,                                               // an escaped key
	`{"metadata":{"ſ":1}}`,                                              // a non-ASCII key
	`{"kind":1}`,                                                        // wrong types
	`{"metadata":"x"}`,                                                  //
	`{"metadata":{"labels":{"a":1}}}`,                                   //
	`{"metadata":{"finalizers":"x"}}`,                                   //
	`{"spec":{"replicas":"3"}}`,                                         //
	`{"spec":{"replicas":1.0}}`,                                         // not an integer
	`{"spec":{"replicas":1e3}}`,                                         //
	`{"spec":{"replicas":1234567890123456789}}`,                         // may not fit an int: left to encoding/json
	`{"status":{"containerStatuses":[{"restartCount":"2"}]}}`,
	`{"kind":"Pod"} x`,        // trailing text
	`{"kind":"Pod",}`,         // invalid
	`{"kind":"Pod","x":[1,]}`, // invalid in a skipped member
	`{"kind":"P` + "\x01" + `"}`,
	`[{"kind":"Pod"}]`, // not an object
	`null`,
	`{"x":` + strings.Repeat("[", qMaxDepth+5) + strings.Repeat("]", qMaxDepth+5) + `}`,
}

// fastTaken are items the fast decoder must take, each with something encoding/json
// does in its own way (escapes, invalid UTF-8, null, empty arrays and maps, raw
// messages).
var fastTaken = []string{
	`{"kind":"Pod","metadata":{"name":"a\u00e9\n\"","labels":{"k\u0041":"v\t","n":null}}}`, // escapes in values and map keys
	`{"kind":"Pod","metadata":{"name":"` + "\xff\xfe" + `"},"status":{"phase":"\ud800"}}`,  // invalid UTF-8, lone surrogate
	`{"kind":"Pod","metadata":{"finalizers":[],"labels":{}},"spec":{"containers":null,"nodeName":null}}`,
	`{"kind":"Pod","spec":{"containers":[null,{},{"image":null}]},"status":{"conditions":[]}}`,
	`{"kind":"Service","spec":{"selector":{ "a" : "b" },"ports":[{"port":-0,"targetPort":"http"},{"targetPort":8080}]}}`,
	`{"kind":"Service","spec":{"selector":null}}`,
	`{"kind":"Deployment","spec":{"replicas":null,"template":{"spec":{"containers":[{"image":"i"}]}},"selector":{"matchLabels":{"a":"b"}}}}`,
	`{"kind":"Lease","spec":{"holderIdentity":null,"leaseDurationSeconds":-15,"renewTime":"2024-01-01T00:00:00.123456Z"}}`,
	`{"kind":"EndpointSlice","endpoints":[{"addresses":["1.2.3.4"],"conditions":{"ready":false},"targetRef":{"kind":"Pod","name":"p"}}],"ports":[{"name":null},{"name":"x"}]}`,
	`{"kind":"ValidatingWebhookConfiguration","webhooks":[{"name":"w","clientConfig":{"service":{"namespace":"n","name":"s","port":443}},"rules":[{"operations":["CREATE"]}],"namespaceSelector":{},"timeoutSeconds":5}]}`,
	` {"kind":"Namespace","metadata":{"name":"n","deletionTimestamp":"bad","creationTimestamp":"10000-01-01T00:00:00Z"},"spec":{"finalizers":["kubernetes"]}} ` + "\n",
	`{"serverVersion":{"gitVersion":"v1.30.0"},"clientVersion":{"Kind":1}}`,
	`{"kind":"Pod","unknown":{"Kind":[1,{"\u0041":"\ud83d\ude00"}]},"x":-1.5e-3}`, // unknown members are skipped whatever they hold
}

// TestFastDecodeCases: items the fast decoder must decline (encoding/json could read
// them differently or report something) and items it must take; every one decodes to
// the same wire struct as encoding/json gives and to the same object and warnings.
func TestFastDecodeCases(t *testing.T) {
	for _, js := range fastDeclined {
		var w wire
		if fastDecodeWire([]byte(js), &w) {
			t.Errorf("%s: taken by the fast decoder, want declined", js)
		}
		compareItem(t, []byte(js))
	}
	for _, js := range fastTaken {
		var w wire
		if !fastDecodeWire([]byte(js), &w) {
			t.Errorf("%s: declined by the fast decoder, want taken", js)
		}
		compareItem(t, []byte(js))
	}
}

// compareItem checks the fast decoder on one item against the slow path: when it takes
// the item, encoding/json must decode it without error to the same wire struct; and
// the item decodes to the same object and warnings whether the fast decoder is on or
// off.
func compareItem(t testing.TB, raw []byte) {
	t.Helper()
	var fast wire
	if fastDecodeWire(raw, &fast) {
		var slow wire
		if err := unmarshalWire(raw, &slow); err != nil {
			t.Fatalf("%q: taken by the fast decoder, encoding/json says %v", raw, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: wire differs:\nfast: %+v\nslow: %+v", raw, fast, slow)
		}
	}
	it := item{raw: raw, line: 3, listKind: "PodList", listAPIVer: "v1"}
	run := func(fast bool) (*Object, []pendingWarning) {
		disableFastDecode.Store(!fast)
		defer disableFastDecode.Store(false)
		var rec recorder
		o := safeDecodeJSONItem(it, "f", Options{}, &rec, newItemDecoder(nil))
		return o, rec.list
	}
	so, sw := run(false)
	fo, fw := run(true)
	if !reflect.DeepEqual(so, fo) {
		t.Fatalf("%q: object differs:\nslow: %+v\nfast: %+v", raw, so, fo)
	}
	if !reflect.DeepEqual(sw, fw) {
		t.Fatalf("%q: warnings differ:\nslow: %v\nfast: %v", raw, sw, fw)
	}
}
