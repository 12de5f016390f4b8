package index

import "testing"

func TestMinorAtLeast(t *testing.T) {
	for _, c := range []struct {
		v    string
		m    int
		want bool
	}{
		{"v1.34.4", 34, true},
		{"v1.34.4", 35, false},
		{"v1.33.0", 33, true},
		{"1.29+", 29, true},
		{"1.29+", 30, false},
		{"v1.28.3-eks-4f4795d", 28, true},
		{"v1.27.6+f67aeb3", 28, false},
		{"v1.30.1-gke.1589000", 16, true},
		{"v2.1.0", 16, false},
		{"", 16, false},
		{"unknown", 0, false},
		{"v1.99999999999999999999999.0", 16, false},
	} {
		if got := MinorAtLeast(c.v, c.m); got != c.want {
			t.Errorf("MinorAtLeast(%q, %d) = %v, want %v", c.v, c.m, got, c.want)
		}
	}
}

func TestVersionLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"v1.33.9", "v1.34.0", true},
		{"v1.34.0", "v1.33.9", false},
		{"v1.34.2", "v1.34.10", true},
		{"v1.34.10-eks-1", "v1.34.2", false},
		{"v1.34.1", "v1.34.1+k3s1", false},
		{"v1.x", "v1.2.0", true},
		{"v1.2.0", "v1.x", false},
	} {
		if got := versionLess(c.a, c.b); got != c.want {
			t.Errorf("versionLess(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
