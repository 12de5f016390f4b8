package stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAheadDeliversExactly: the bytes and the source's final error come through
// unchanged, whatever the block size and the source's read sizes.
func TestReadAheadDeliversExactly(t *testing.T) {
	data := []byte(strings.Repeat("0123456789abcdef\n", 5000))
	boom := errors.New("unexpected EOF in gzip stream")
	for _, size := range []int{1, 7, 4096, 1 << 20} {
		for name, src := range map[string]io.Reader{
			"whole":    bytes.NewReader(data),
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"half":     iotest.HalfReader(bytes.NewReader(data)),
			"error":    io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)),
		} {
			ra := NewReadAhead(src, size, 2)
			got, err := io.ReadAll(ra)
			ra.Close()
			if !bytes.Equal(got, data) {
				t.Fatalf("size %d, %s: %d bytes, want %d", size, name, len(got), len(data))
			}
			if wantErr := name == "error"; (err != nil) != wantErr || (wantErr && !errors.Is(err, boom)) {
				t.Fatalf("size %d, %s: error %v", size, name, err)
			}
		}
	}
}

// TestReadAheadCloseEarly: closing before the end stops the goroutine without
// reading the rest.
func TestReadAheadCloseEarly(t *testing.T) {
	ra := NewReadAhead(iotest.OneByteReader(strings.NewReader(strings.Repeat("x", 1<<20))), 1024, 2)
	buf := make([]byte, 10)
	if _, err := io.ReadFull(ra, buf); err != nil {
		t.Fatal(err)
	}
	ra.Close() // must return
}
