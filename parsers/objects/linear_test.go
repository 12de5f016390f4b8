package objects

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

func checkLinear(t *testing.T, what string, run func(n int) int64, n int) {
	t.Helper()
	hostile.CheckLinear(t, what, run, n)
}

// TestManagersLinear: an object with n distinct managedFields managers (a 4 MB object
// took 35 s: each manager was compared with every other).
func TestManagersLinear(t *testing.T) {
	obj := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"d","managedFields":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"manager":"m%d"}`, i)
		}
		b.WriteString(`]}}`)
		return b.Bytes()
	}
	checkLinear(t, "managers", func(n int) int64 {
		in := obj(n) // built outside the count
		var got *Object
		c0 := managerCompares.Load()
		DecodeJSON(bytes.NewReader(in), "cm.json", Options{}, &diag.Sink{}, func(o *Object) { got = o })
		if got == nil || len(got.Managers) != n {
			t.Fatalf("managers lost")
		}
		return managerCompares.Load() - c0
	}, 20000)
}

// TestTinyYAMLDocumentsLinear: a million tiny YAML documents (14 MB took 51 s).
func TestTinyYAMLDocumentsLinear(t *testing.T) {
	docs := func(n int) []byte {
		return []byte(strings.Repeat("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n", n))
	}
	checkLinear(t, "tiny YAML documents", func(n int) int64 {
		k := DecodeYAML(bytes.NewReader(docs(n)), "cm.yaml", Options{}, &diag.Sink{}, func(*Object) {})
		if k != n {
			t.Fatalf("%d of %d documents", k, n)
		}
		return 0 // its bug was allocation (a 256 KiB buffer per document): counted by CheckLinear
	}, 5000)
	// and the work per document is small: no 256 KiB buffer each
	var m0, m1 runtime.MemStats
	in := docs(10000)
	runtime.ReadMemStats(&m0)
	DecodeYAML(bytes.NewReader(in), "cm.yaml", Options{}, &diag.Sink{}, func(*Object) {})
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / 10000; per > 32<<10 {
		t.Errorf("%d bytes allocated per tiny document", per)
	}
}
