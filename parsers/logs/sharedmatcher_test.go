package logs

import (
	"reflect"
	"testing"
)

// TestSharedMatcher: files scanned for the same literals share one matcher, which finds
// what a matcher of their own finds; other literals get another.
func TestSharedMatcher(t *testing.T) {
	a := [][]byte{[]byte("failed calling webhook"), []byte("unable to retrieve the complete list")}
	b := [][]byte{[]byte("failed calling webhook"), []byte("unable to retrieve the complete list")}
	mk := marker{sectionStart, seenSection}
	m1, m2 := sharedMatcher(a, mk), sharedMatcher(b, mk)
	if m1 != m2 {
		t.Error("the same literals built two matchers")
	}
	if m3 := sharedMatcher(a[:1], mk); m3 == m1 {
		t.Error("other literals share a matcher")
	}
	if m4 := sharedMatcher(a); m4 == m1 {
		t.Error("the same phrases without the marker share a matcher")
	}
	data := []byte("x\nE0101 failed calling webhook \"a\"\nnothing\nunable to retrieve the complete list of server APIs\n")
	got, gs := m1.lineStarts(data)
	want, ws := newMatcher(a, mk).lineStarts(data)
	if !reflect.DeepEqual(got, want) || gs != ws || len(got) != 2 {
		t.Errorf("shared matcher: %v %v, own: %v %v", got, gs, want, ws)
	}
}
