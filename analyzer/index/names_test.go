package index

import "testing"

func TestSkeleton(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tobedeleted", "tobedeleted"},
		{"t\u043ebedeleted", "tobedeleted"},
		{"ToBeDeleted", "tobedeleted"},
		{"tobe\u200bdeleted", "tobedeleted"},
		{"ｔobedeleted", "tobedeleted"},
		{"a\x1bb", "ab"},
		{"a\x7fb", "ab"},
		{"name-1.example_x ~", "name-1.example_x ~"},
	} {
		if got := Skeleton(tc.in); got != tc.want {
			t.Errorf("Skeleton(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := skeletonFold(tc.in); got != tc.want {
			t.Errorf("skeletonFold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for c := 0; c < 0x80; c++ { // the shortcut says what the whole mapping says, byte by byte
		s := "a" + string(rune(c)) + "z"
		if Skeleton(s) != skeletonFold(s) {
			t.Errorf("byte %#x: Skeleton %q, the mapping %q", c, Skeleton(s), skeletonFold(s))
		}
	}
}
