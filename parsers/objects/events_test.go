package objects

import (
	"slices"
	"testing"
	"time"
)

// TestEvents: every time an object records of what happened to it, in order, and a
// consumer that stops early is not called again.
func TestEvents(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	o := &Object{
		CreationTimestamp: at(0),
		DeletionTimestamp: at(1),
		Conditions:        []Condition{{Type: "A", LastTransitionTime: at(2)}, {Type: "B", LastTransitionTime: at(3)}},
		Lease:             &LeaseInfo{RenewTime: at(4)},
		Event:             &EventInfo{First: at(5), Last: at(6)},
	}
	got := slices.Collect(o.Events())
	want := []time.Time{at(1), at(2), at(3), at(4), at(5), at(6)}
	if !slices.Equal(got, want) {
		t.Fatalf("Events() = %v, want %v", got, want)
	}
	for n := 1; n <= len(want); n++ {
		var seen []time.Time
		for x := range o.Events() {
			seen = append(seen, x)
			if len(seen) == n {
				break
			}
		}
		if !slices.Equal(seen, want[:n]) {
			t.Fatalf("stopping after %d: saw %v", n, seen)
		}
	}
	if got := slices.Collect((&Object{}).Events()); len(got) != 1 || !got[0].IsZero() {
		t.Fatalf("an object with no times yields its zero deletion time only: %v", got)
	}
}
