package work

import "testing"

var testOps = New("test ops")

func TestMeasure(t *testing.T) {
	testOps.Add(5) // not measured
	got := Measure(func() {
		testOps.Add(3)
		testOps.Inc()
		if !Enabled() {
			t.Error("not enabled inside Measure")
		}
	})
	if got["test ops"] != 4 {
		t.Errorf("Measure = %v, want 4 test ops", got)
	}
	if Enabled() {
		t.Error("still enabled after Measure")
	}
	if got := Measure(func() {}); len(got) != 0 {
		t.Errorf("nothing counted, got %v", got)
	}
}
