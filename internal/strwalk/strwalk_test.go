package strwalk

import (
	"strings"
	"testing"
	"time"
)

type inner struct {
	Name  string
	When  *time.Time
	Count int
}

type outer struct {
	Title   string
	hidden  string
	Items   []inner
	Ptr     *inner
	Again   *inner
	Labels  map[string]string
	Any     any
	Times   []time.Time
	Nested  [][]string
	private []string
}

func TestAny(t *testing.T) {
	shared := &inner{Name: "shared"}
	v := outer{Title: "t", hidden: "bad", Items: []inner{{Name: "a"}, {Name: "b"}}, Ptr: shared, Again: shared,
		Labels: map[string]string{"k": "label"}, Any: "iface", Nested: [][]string{{"x", "deep"}}, private: []string{"bad"}}
	for _, tc := range []struct {
		want string
		hit  bool
	}{{"t", true}, {"b", true}, {"shared", true}, {"label", true}, {"iface", true}, {"deep", true},
		{"bad", false}, {"k", false}, {"nowhere", false}} {
		if got := Any(&v, func(s string) bool { return s == tc.want }); got != tc.hit {
			t.Errorf("Any(== %q) = %v, want %v", tc.want, got, tc.hit)
		}
	}
	// every exported string once: Title, Items' 2 names, the shared pointer once, the
	// label, the interface, the nested 2 (no time.Time, no unexported field)
	if n := Count(&v); n != 8 {
		t.Errorf("Count = %d, want 8", n)
	}
	if Any(&v, func(s string) bool { return strings.Contains(s, "\x1b") }) {
		t.Error("no string holds an escape")
	}
}

// TestCountLinear: the walk's work is the strings it reaches, at n and 2n.
func TestCountLinear(t *testing.T) {
	mk := func(n int) *outer {
		o := &outer{}
		for i := 0; i < n; i++ {
			o.Items = append(o.Items, inner{Name: "x"})
		}
		return o
	}
	if a, b := Count(mk(1000)), Count(mk(2000)); a != 1001 || b != 2001 {
		t.Errorf("Count: %d at 1,000 items, %d at 2,000", a, b)
	}
	// one string shared by every item is asked about once
	asked := 0
	if Any(mk(1000), func(string) bool { asked++; return false }) || asked != 1 {
		t.Errorf("pred asked %d times about one shared string, want once", asked)
	}
	// distinct strings are each asked about, and the last one's answer counts
	o := mk(0)
	for i := 0; i < 1000; i++ {
		o.Items = append(o.Items, inner{Name: strings.Repeat("y", i%7+1) + string(rune('a'+i%26))})
	}
	o.Items = append(o.Items, inner{Name: "needle"})
	asked = 0
	if !Any(o, func(s string) bool { asked++; return s == "needle" }) || asked != 1001 {
		t.Errorf("pred asked %d times, want 1,001 and the needle found", asked)
	}
}
