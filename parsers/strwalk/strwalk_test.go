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

type node struct {
	Label    string
	Children []*node
	Extra    any
	Arr      [2]string
	M        map[string][]string
	Opt      *string
}

// strings collects the strings a walk asks about, by memory or by reflection only.
func stringsOf(v any, reflectOnly bool) []string {
	var got []string
	w := walker{pred: func(s string) bool { got = append(got, s); return false }, reflect: reflectOnly}
	w.start(v)
	return got
}

// TestMemoryWalkIsReflectWalk: reading memory by offsets reaches the strings the
// reflection walk reaches, in the same order, through every kind of value.
func TestMemoryWalkIsReflectWalk(t *testing.T) {
	opt := "optional"
	leaf := &node{Label: "leaf", Arr: [2]string{"a0", "a1"}, Opt: &opt}
	root := &node{Label: "root", Children: []*node{leaf, {Label: "second", Extra: inner{Name: "in-iface"},
		Children: []*node{leaf}}}, Extra: &outer{Title: "ptr-in-iface", Items: []inner{{Name: "x1"}}},
		M: map[string][]string{"k": {"m1", "m2"}}}
	root.Children = append(root.Children, root) // a cycle
	for _, v := range []any{root, *root, &outer{Title: "t", Items: []inner{{Name: "a"}}, Labels: map[string]string{"l": "v"}},
		[]any{"s", 3, &opt}} {
		mem, ref := stringsOf(v, false), stringsOf(v, true)
		if strings.Join(mem, "|") != strings.Join(ref, "|") {
			t.Errorf("memory walk %q\nreflect walk %q", mem, ref)
		}
		if len(mem) == 0 {
			t.Errorf("%T: no string reached", v)
		}
	}
	want := "root|leaf|a0|a1|optional|second|in-iface|ptr-in-iface|x1|m1|m2"
	if got := strings.Join(stringsOf(root, false), "|"); got != want {
		t.Errorf("walk order %s, want %s", got, want)
	}
}
