package logs

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// naiveLineStarts is the reference: one substring search per phrase.
func naiveLineStarts(data []byte, pats [][]byte) []int {
	seen := map[int]bool{}
	for _, p := range pats {
		for off := 0; ; {
			i := bytes.Index(data[off:], p)
			if i < 0 {
				break
			}
			seen[bytes.LastIndexByte(data[:off+i], '\n')+1] = true
			off += i + 1
		}
	}
	var out []int
	for k := range seen {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// TestMatcherAgreesWithNaive compares the one-pass matcher with one bytes.Index pass
// per phrase on random text salted with phrases, fragments of phrases and markers,
// for blocks small (one goroutine) and large (two), and for short phrases (fallback).
func TestMatcherAgreesWithNaive(t *testing.T) {
	kw := make([][]byte, len(samplePhrases))
	for i, k := range samplePhrases {
		kw[i] = []byte(k)
	}
	short := [][]byte{[]byte("ab"), []byte("failed"), []byte("xyz1")}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("abcdefghijklmnopqrstuvwxyz     :\"=.-_/ABCDEF0123456789\n")
	gen := func(n int, pats [][]byte) []byte {
		var b []byte
		for len(b) < n {
			switch r.IntN(20) {
			case 0:
				b = append(b, pats[r.IntN(len(pats))]...)
			case 1:
				p := pats[r.IntN(len(pats))]
				b = append(b, p[:r.IntN(len(p))]...) // a prefix only
			case 2:
				p := pats[r.IntN(len(pats))]
				b = append(b, p[r.IntN(len(p)):]...) // a suffix only
			case 3:
				b = append(b, "\n==== START logs for container c of pod ns/p ====\n"...)
			default:
				for k := r.IntN(40); k > 0; k-- {
					b = append(b, alphabet[r.IntN(len(alphabet))])
				}
			}
		}
		return b
	}
	for _, tc := range []struct {
		name string
		pats [][]byte
		size int
	}{
		{"keywords-small", kw, 50 << 10},
		{"keywords-large", kw, parallelMin * 3},
		{"short-fallback", short, 50 << 10},
		{"short-fallback-large", short, parallelMin * 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for iter := 0; iter < 20; iter++ {
				data := gen(tc.size+r.IntN(1000), tc.pats)
				if iter%2 == 1 {
					data = append(data, '\n')
				}
				mt := newMatcher(tc.pats, marker{sectionStart, seenSection}, marker{criPartialOut, 2})
				got, seen := mt.lineStarts(data)
				want := naiveLineStarts(data, tc.pats)
				if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Fatalf("iteration %d: matcher found %d lines, naive %d", iter, len(got), len(want))
				}
				if seen&seenSection == 0 {
					t.Fatalf("iteration %d: section marker not seen", iter)
				}
				if seen&2 != 0 && !bytes.Contains(data, criPartialOut) {
					t.Fatalf("iteration %d: partial marker reported but absent", iter)
				}
				for _, st := range want {
					end := bytes.IndexByte(data[st:], '\n')
					if end < 0 {
						end = len(data) - st
					}
					if !mt.contains(data[st : st+end]) {
						t.Fatalf("contains() misses line %q", data[st:st+end])
					}
				}
			}
		})
	}
	if newMatcher(nil).contains([]byte("anything")) {
		t.Error("empty matcher matched")
	}
	if got, _ := newMatcher(nil).lineStarts([]byte("x\n")); got != nil {
		t.Error("empty matcher returned lines")
	}
}
