package objects

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestParallelDecodeMatchesSequential: the parallel pipeline emits the same objects and
// the same warnings, in the same order, as the sequential loop, including wrong field
// types, invalid items and a truncated end, across many batches.
func TestParallelDecodeMatchesSequential(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"v1","kind":"List","items":[` + "\n")
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch {
		case i%97 == 5:
			fmt.Fprintf(&b, `{"kind":"Pod","metadata":{"name":"bad-%d","labels":"not-a-map"}}`, i)
		case i%131 == 7:
			fmt.Fprintf(&b, `{"kind":"Pod","metadata":{"name":"inv-%d",}}`, i)
		case i%59 == 3:
			fmt.Fprintf(&b, `{"kind":"Namespace","metadata":{"name":"ns-%d","deletionTimestamp":"yesterday"}}`, i)
		default:
			fmt.Fprintf(&b, "{\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"cm-%d\", \"namespace\": \"ns\"},\n  \"data\": {\"k\": %q}\n}", i, strings.Repeat("x", i%500))
		}
	}
	b.WriteString("\n, {\"kind\": \"Pod\", \"metadata\": {\"name\": \"cut\"") // truncated
	input := b.String()

	run := func(procs int) ([]string, []diag.Warning, int) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var got []string
		warn := &diag.Sink{Limit: 1000}
		n := DecodeJSON(strings.NewReader(input), "x.json", Options{}, warn, func(o *Object) {
			got = append(got, fmt.Sprintf("%s/%s@%d", o.Kind, o.Name, o.Source.Line))
		})
		return got, warn.List, n
	}
	seqObjs, seqWarn, seqN := run(1)
	parObjs, parWarn, parN := run(4)
	if seqN < 2500 || len(seqWarn) < 40 {
		t.Fatalf("test input too easy: %d objects, %d warnings", seqN, len(seqWarn))
	}
	if seqN != parN || !reflect.DeepEqual(seqObjs, parObjs) {
		t.Errorf("objects differ: sequential %d, parallel %d", seqN, parN)
	}
	if !reflect.DeepEqual(seqWarn, parWarn) {
		t.Errorf("warnings differ:\nsequential %v\nparallel   %v", seqWarn, parWarn)
	}
}
