package objects

import (
	"encoding/binary"
	"math/bits"
)

// Scanning eight bytes at a time ("SIMD within a register"): each mask function flags
// the high bit of every byte of a little-endian word that the scan must stop at. A
// mask may flag some bytes after the first stop byte wrongly, never one before it, so
// the first stop is always exact: firstStop gives its index.

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// zeroBytes flags the zero bytes of x (exact up to the first one).
func zeroBytes(x uint64) uint64 { return (x - swarOnes) & ^x & swarHighs }

// stringStops flags quotes, backslashes and control characters (below 0x20): where a
// scan of a string's contents must stop.
func stringStops(x uint64) uint64 {
	below20 := (x - 0x20*swarOnes) & ^x & swarHighs
	return zeroBytes(x^('"'*swarOnes)) | zeroBytes(x^('\\'*swarOnes)) | below20
}

// spaces8 is a word of eight spaces.
const spaces8 = 0x2020202020202020

// firstDifferent is the index of the first non-zero byte of a non-zero word: for
// x = word ^ spaces8, the first byte that is not a space.
func firstDifferent(x uint64) int { return bits.TrailingZeros64(x) / 8 }

// firstStop is the index in its word of the first byte a non-zero mask flags.
func firstStop(mask uint64) int { return bits.TrailingZeros64(mask) / 8 }

// word reads the eight bytes of b at i (i+8 <= len(b)).
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }

// skipPlainWords advances i over the whole 8-byte words of b that hold no quote,
// backslash or control character: it returns the index of the first such byte, or the
// index where fewer than eight bytes remain (the caller looks at the rest byte by byte).
func skipPlainWords(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := stringStops(word(b, i)); m != 0 {
			return i + firstStop(m)
		}
		i += 8
	}
	return i
}
