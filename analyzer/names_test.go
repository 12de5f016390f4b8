package analyzer

import (
	"strings"
	"testing"
	"unicode"
)

// skeletonSlow is Skeleton without its ASCII shortcut.
func skeletonSlow(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0xff01 && r <= 0xff5e:
			r -= 0xfee0
		case Unsafe(r) || unicode.Is(unicode.Mn, r):
			continue
		}
		if c, ok := confusables[r]; ok {
			r = c
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

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
		if got := skeletonSlow(tc.in); got != tc.want {
			t.Errorf("skeletonSlow(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for c := 0; c < 0x80; c++ { // the shortcut says what the whole mapping says, byte by byte
		s := "a" + string(rune(c)) + "z"
		if Skeleton(s) != skeletonSlow(s) {
			t.Errorf("byte %#x: Skeleton %q, the mapping %q", c, Skeleton(s), skeletonSlow(s))
		}
	}
}
