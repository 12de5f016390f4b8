package kubemsg

import (
	"fmt"
	"math/rand"
	"regexp/syntax"
	"sort"
	"strings"
	"testing"
)

// TestAfterBreakFirstBytes: the first-byte prefilter of tailBounds (keyFirst,
// otherFirst) is exactly the set of bytes keyAfterBreak's keys and otherAfterBreak can
// begin with, computed from the expressions themselves: a byte left out would let a
// boundary go unseen, one too many only costs time.
func TestAfterBreakFirstBytes(t *testing.T) {
	const keyPrefix = `^-?"?`
	src := keyAfterBreak.String()
	if !strings.HasPrefix(src, keyPrefix) {
		t.Fatalf("keyAfterBreak no longer starts with %s: mayStartAfterBreak skips exactly that", keyPrefix)
	}
	for _, c := range []struct {
		name, expr, set string
	}{
		{"keyAfterBreak's keys", "^" + strings.TrimPrefix(src, keyPrefix), keyFirst},
		{"otherAfterBreak", otherAfterBreak.String(), otherFirst},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, empty := firstBytes(t, re.Simplify())
		if empty {
			t.Errorf("%s can match the empty string: no first byte rules it out", c.name)
		}
		if want := sortedBytes(c.set); got != want {
			t.Errorf("%s begins with the bytes %q; the prefilter has %q", c.name, got, want)
		}
	}
	// and the prefilter itself on lines
	for _, tc := range []struct {
		w          string
		key, other bool
	}{
		{`"reason":`, true, false}, {`-"type":`, true, false}, {`-type:`, true, false}, {`status:`, true, false},
		{`"name":"x"`, false, false}, {`I0102 00:00`, false, true}, {`kubectlget`, true, true}, {`{"level"`, false, true},
		{``, false, false}, {`-`, false, false}, {`"`, false, false}, {`2026-01-01T0`, false, true},
	} {
		if key, other := mayStartAfterBreak(tc.w); key != tc.key || other != tc.other {
			t.Errorf("mayStartAfterBreak(%q) = %v, %v; want %v, %v", tc.w, key, other, tc.key, tc.other)
		}
	}
}

// firstBytes returns the sorted set of bytes a match of re can begin with, and whether
// re can match the empty string (then what follows re begins the match too: the
// caller's concern). Only the operators the two expressions use are known.
func firstBytes(t *testing.T, re *syntax.Regexp) (string, bool) {
	t.Helper()
	switch re.Op {
	case syntax.OpBeginText, syntax.OpBeginLine, syntax.OpEmptyMatch:
		return "", true
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return "", true
		}
		if re.Flags&syntax.FoldCase != 0 || re.Rune[0] > 0x7f {
			t.Fatalf("literal %q: not handled", string(re.Rune))
		}
		return string(rune(re.Rune[0])), false
	case syntax.OpCharClass:
		var b []byte
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] > 0x7f {
				t.Fatalf("class %v: not handled", re.Rune)
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				b = append(b, byte(r))
			}
		}
		return sortedBytes(string(b)), false
	case syntax.OpCapture, syntax.OpPlus:
		return firstBytes(t, re.Sub[0])
	case syntax.OpQuest, syntax.OpStar:
		s, _ := firstBytes(t, re.Sub[0])
		return s, true
	case syntax.OpRepeat:
		s, empty := firstBytes(t, re.Sub[0])
		return s, empty || re.Min == 0
	case syntax.OpAlternate:
		var all string
		empty := false
		for _, sub := range re.Sub {
			s, e := firstBytes(t, sub)
			all += s
			empty = empty || e
		}
		return sortedBytes(all), empty
	case syntax.OpConcat:
		var all string
		for _, sub := range re.Sub {
			s, e := firstBytes(t, sub)
			all += s
			if !e {
				return sortedBytes(all), false
			}
		}
		return sortedBytes(all), true
	}
	t.Fatalf("operator %v in %s: not handled", re.Op, re)
	return "", false
}

func sortedBytes(s string) string {
	b := []byte(s)
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	out := b[:0]
	for i, c := range b {
		if i == 0 || c != b[i-1] {
			out = append(out, c)
		}
	}
	return string(out)
}

// TestAnchorIndex: the one-pass search finds every occurrence of every anchor, the
// overlapping ones too, exactly where searching for each anchor on its own does, in
// texts made of anchors, their beginnings and ends, and noise.
func TestAnchorIndex(t *testing.T) {
	compileTemplates()
	x := anchorSet
	if x == nil || len(x.anchors) == 0 {
		t.Fatal("no anchors")
	}
	rnd := rand.New(rand.NewSource(1))
	noise := []string{"a", "e", "\"", "de", "del", "namespace", ":", "x", "\n", "{", "0"}
	for n := 0; n < 300; n++ {
		var b strings.Builder
		for b.Len() < 2000 {
			a := x.anchors[rnd.Intn(len(x.anchors))]
			switch rnd.Intn(4) {
			case 0:
				b.WriteString(a)
			case 1:
				b.WriteString(a[:rnd.Intn(len(a))])
			case 2:
				b.WriteString(a[rnd.Intn(len(a)):])
			default:
				b.WriteString(noise[rnd.Intn(len(noise))])
			}
		}
		vs := b.String()
		got := x.find(vs)
		for k, a := range x.anchors {
			var want []int
			for from := 0; from < len(vs); {
				i := strings.Index(vs[from:], a)
				if i < 0 {
					break
				}
				want = append(want, from+i)
				from += i + 1
			}
			var g []int
			if got != nil {
				g = got[k]
			}
			if fmt.Sprint(g) != fmt.Sprint(want) {
				t.Fatalf("anchor %q in text %d: found at %v, occurs at %v", a, n, g, want)
			}
		}
	}
}
