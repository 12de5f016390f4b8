package objects

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestSWARStops compares the word masks with byte-by-byte definitions of the stop
// bytes, on random words drawn mostly from bytes near the stops.
func TestSWARStops(t *testing.T) {
	isStringStop := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	near := []byte{0, 1, 0x1f, 0x20, 0x21, '"', '#', '\\', '[', ']', '{', '}', '\n', 0x5a, 0x7a, 0x7c, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0xdb, 0xfb, 0xff, 'a'}
	rng := rand.New(rand.NewPCG(1, 2))
	var b [8]byte
	for n := 0; n < 2_000_000; n++ {
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = near[rng.IntN(len(near))]
			}
		}
		x := binary.LittleEndian.Uint64(b[:])
		for _, c := range []struct {
			name string
			mask func(uint64) uint64
			stop func(byte) bool
		}{{"stringStops", stringStops, isStringStop}} {
			want := -1
			for i, v := range b {
				if c.stop(v) {
					want = i
					break
				}
			}
			m := c.mask(x)
			if (m == 0) != (want < 0) || m != 0 && firstStop(m) != want {
				t.Fatalf("%s(%q) = %#x, first stop %d", c.name, b, m, want)
			}
		}
	}
}
