package index

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// TestLineHolds: the indexed look-up says what strings.Contains says, on a long
// discovery line and on short ones, for names at its start, end, inside others
// ("metrics.k8s.io/v1beta1" in "custom.metrics.k8s.io/v1beta1") and absent; and an
// entry whose text changes length is indexed again.
func TestLineHolds(t *testing.T) {
	var parts []string
	for i := 0; i < 1000; i++ {
		parts = append(parts, fmt.Sprintf("g%04d.custom.metrics.k8s.io/v1beta1: stale GroupVersion discovery", i))
	}
	long := strings.Join(parts, ", ")
	e := &logs.Entry{}
	for _, sub := range []string{"g0000.custom", "g0999.custom.metrics.k8s.io/v1beta1: stale GroupVersion discovery",
		"metrics.k8s.io/v1beta1", "g1000.custom", "", "discovery, g0500", "x"} {
		if got, want := LineHolds(e, long, sub), strings.Contains(long, sub); got != want {
			t.Errorf("LineHolds(long, %q) = %v, want %v", sub, got, want)
		}
		if got, want := LineHolds(e, "short g0000.custom", sub), strings.Contains("short g0000.custom", sub); got != want {
			t.Errorf("LineHolds(short, %q) = %v, want %v", sub, got, want)
		}
	}
	longer := long + ", zz.example/v1"
	if !LineHolds(e, longer, "zz.example/v1") {
		t.Error("the entry's longer text was not indexed again")
	}
}
