package objects

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// decodeBoth decodes data with and without pruning (the fast decoder off, so that
// every item is pruned) and fails when the objects or the warnings differ in anything.
func decodeBoth(t *testing.T, name string, data []byte, opts Options) int {
	t.Helper()
	disableFastDecode.Store(true)
	defer disableFastDecode.Store(false)
	return decodeWithAndWithout(t, name, data, opts, &disablePrune, "pruning")
}

// decodeWithAndWithout decodes data with a decoding step off (off set) and on, and
// fails when the objects (deep-equal, nil and empty told apart) or the warnings (text
// and order) differ in anything. It returns the number of objects.
func decodeWithAndWithout(t testing.TB, name string, data []byte, opts Options, off *atomic.Bool, step string) int {
	t.Helper()
	run := func(on bool) ([]*Object, []diag.Warning) {
		off.Store(!on)
		defer off.Store(false)
		w := &diag.Sink{}
		var objs []*Object
		DecodeJSON(bytes.NewReader(data), name, opts, w, func(o *Object) { objs = append(objs, o) })
		return objs, w.List
	}
	without, ww := run(false)
	with, wi := run(true)
	if len(without) != len(with) {
		t.Fatalf("%s: %d objects decoded without %s, %d with it", name, len(without), step, len(with))
	}
	for i := range without {
		if !reflect.DeepEqual(without[i], with[i]) {
			t.Fatalf("%s: object %d differs with %s:\nwithout: %s\nwith:    %s", name, i, step, dump(without[i]), dump(with[i]))
		}
	}
	if !reflect.DeepEqual(ww, wi) {
		t.Fatalf("%s: warnings differ with %s:\nwithout: %v\nwith:    %v", name, step, ww, wi)
	}
	return len(without)
}

// keepSome is a Keep in the spirit of analyzer.KeepObject: some kinds whole, others
// only when they hold finalizers or a deletion timestamp.
func keepSome(o *Object) bool {
	switch o.Kind {
	case "Pod", "Namespace", "APIService", "Service":
		return true
	}
	return len(o.Finalizers) > 0 || !o.DeletionTimestamp.IsZero()
}

// TestPruneDecodesTheSame decodes every JSON file of the fixtures (real clusters of
// five Kubernetes versions, real-world cases, hand-made stories) with and without
// pruning: every object and every warning must be identical.
func TestPruneDecodesTheSame(t *testing.T) {
	files, objs := 0, 0
	for _, root := range []string{"../../fixtures/realdata", "../../fixtures/real", "../../fixtures/realworld", "../../fixtures/handmade"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || d.Name() == "expected.json" {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || Sniff(b) != "json" {
				return nil
			}
			files++
			objs += decodeBoth(t, p, b, Options{})
			decodeBoth(t, p, b, Options{Keep: keepSome})
			return nil
		})
	}
	if files < 50 || objs < 1000 {
		t.Fatalf("only %d files, %d objects compared: fixtures missing?", files, objs)
	}
}

// TestPruneCases: what pruning cuts and what it must keep, and the inputs it hands
// back to the whole decoder.
func TestPruneCases(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		ok             bool
	}{
		{"pod: container env, probes and volumes but their claims cut; image, nodeName, claims and status kept",
			`{"kind":"Pod","metadata":{"name":"p","resourceVersion":"1","labels":{"a":"b"}},"spec":{"containers":[{"env":[{"name":"X","value":"1"}],"image":"i:1","readinessProbe":{"httpGet":{"port":8080}}}],"nodeName":"n1","volumes":[{"name":"v","emptyDir":{}},{"name":"d","persistentVolumeClaim":{"claimName":"data","readOnly":true}}]},"status":{"phase":"Running","containerStatuses":[{"imageID":"sha","ready":true,"restartCount":2,"state":{"running":{"startedAt":"x"}}}]}}`,
			`{"kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"image":"i:1"}],"nodeName":"n1","volumes":[{},{"persistentVolumeClaim":{"claimName":"data"}}]},"status":{"phase":"Running","containerStatuses":[{"restartCount":2,"state":{}}]}}`, true},
		{"keys in another case are fields to encoding/json: kept and pruned inside",
			`{"KIND":"Pod","Spec":{"NodeName":"n","dnsPolicy":"x"}}`, `{"KIND":"Pod","Spec":{"NodeName":"n"}}`, true},
		{"an escaped key is kept whole", `{"\u006bind":"Pod","sp\u0065c":{"dnsPolicy":"x"}}`, `{"\u006bind":"Pod","sp\u0065c":{"dnsPolicy":"x"}}`, true},
		{"a non-ASCII key is kept whole (Unicode case folding)", `{"ſpec":{"dnsPolicy":"x"},"x":1}`, `{"ſpec":{"dnsPolicy":"x"}}`, true},
		{"a wrong type is kept for the decoder to report", `{"metadata":{"finalizers":"kubernetes"},"spec":[1,{"a":2}]}`, `{"metadata":{"finalizers":"kubernetes"},"spec":[1,{"a":2}]}`, true},
		{"maps and raw fields are kept whole", `{"spec":{"selector":{"app":"x","k":{"deep":[1]}}}}`, `{"spec":{"selector":{"app":"x","k":{"deep":[1]}}}}`, true},
		{"duplicate keys stay, in order", `{"kind":"A","kind":"B","x":{},"kind":"C"}`, `{"kind":"A","kind":"B","kind":"C"}`, true},
		{"empty containers", `{"metadata":{},"spec":{"containers":[]},"status":{"conditions":null}}`, `{"metadata":{},"spec":{"containers":[]},"status":{"conditions":null}}`, true},
		{"invalid JSON in a cut member: decoded whole", `{"kind":"Pod","spec":{"dnsPolicy":tru}}`, "", false},
		{"bad escape in a cut member: decoded whole", `{"kind":"Pod","x":"\q"}`, "", false},
		{"trailing garbage: decoded whole", `{"kind":"Pod"} x`, "", false},
		{"not an object", `[{"kind":"Pod"}]`, "", false},
		{"truncated", `{"kind":"Pod","spec":{`, "", false},
	} {
		got, ok := pruneItem([]byte(tc.in), nil)
		if ok != tc.ok || (ok && string(got) != tc.want) {
			t.Errorf("%s:\n got  %s (ok=%v)\n want %s (ok=%v)", tc.name, got, ok, tc.want, tc.ok)
		}
		if !tc.ok {
			continue
		}
		// the pruned text decodes to the same object
		decodeBoth(t, tc.name, []byte(tc.in), Options{})
	}
}

// TestPruneDepth: nesting beyond the reader's limit hands the item to encoding/json,
// which reports its own error.
func TestPruneDepth(t *testing.T) {
	deep := `{"kind":"Pod","x":` + strings.Repeat("[", qMaxDepth+5) + strings.Repeat("]", qMaxDepth+5) + `}`
	if _, ok := pruneItem([]byte(deep), nil); ok {
		t.Fatal("nesting beyond qMaxDepth was pruned")
	}
	decodeBoth(t, "deep", []byte(deep), Options{})
}
