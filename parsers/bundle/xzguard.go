package bundle

import (
	"errors"
	"fmt"
	"io"
)

// MaxXzDictionary caps the LZMA2 dictionary an xz stream may declare (xz -9 and -9e
// use 64 MiB; the format allows 4 GiB). The xz decoder allocates the whole
// dictionary when it meets a block header, before it decodes a byte, so a 4 KB file
// declaring 1.5 GiB would cost 1.5 GiB: the guard below reads every block header as
// the decoder's input passes and refuses such a stream first. The other decoders'
// windows are fixed and small (gzip and zip's deflate 32 KiB, bzip2 900 KB blocks).
const MaxXzDictionary = 64 << 20

// ErrXzDictionary is returned (wrapped) for an xz stream whose dictionary exceeds
// MaxXzDictionary.
var ErrXzDictionary = errors.New("xz dictionary larger than the cap")

// xzGuard passes an xz file through unchanged while following its structure (stream
// header, block headers, LZMA2 chunks, padding, checks, index, footer, stream
// padding, the next stream), without decoding anything: it only needs the sizes the
// format spells out. It fails the read that brings a block header whose LZMA2
// dictionary is over the cap, so the decoder never sees it. Linear, constant memory.
type xzGuard struct {
	r     io.Reader
	max   int64
	st    xzState
	need  int    // bytes still to skip (or to collect into buf) in this state
	buf   []byte // the header being collected
	check int    // size of the stream's check field
	block int64  // bytes of the current block so far (header + data), for its padding
	index int64  // bytes of the current index so far, for its padding
	recs  uint64 // index records left
	err   error
}

type xzState int

const (
	xzStreamHeader xzState = iota // collecting 12 bytes
	xzBlockStart                  // one byte: a block header size, or 0 for the index
	xzBlockHeader                 // collecting the rest of the block header
	xzChunk                       // one LZMA2 control byte
	xzChunkHead                   // collecting the chunk's size bytes
	xzSkip                        // skipping chunk data
	xzBlockPad                    // padding to a multiple of four, then the check
	xzCheck                       // skipping the check
	xzIndex                       // index: varints, then padding and CRC
	xzFooter                      // skipping the 12-byte footer
	xzStreamPad                   // zero bytes, or the next stream's header
	xzDone                        // a structure the guard does not know: pass the rest through
)

func newXzGuard(r io.Reader, max int64) *xzGuard {
	return &xzGuard{r: r, max: max, st: xzStreamHeader, need: 12}
}

func (g *xzGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	for i := 0; i < n && g.st != xzDone; {
		k, ferr := g.feed(p[i:n])
		if ferr != nil {
			g.err = ferr
			return 0, ferr // nothing of this read reaches the decoder
		}
		i += k
	}
	return n, err
}

// feed consumes the start of b in the current state and returns how much it used.
func (g *xzGuard) feed(b []byte) (int, error) {
	switch g.st {
	case xzStreamHeader, xzBlockHeader, xzChunkHead:
		k := min(g.need-len(g.buf), len(b))
		g.buf = append(g.buf, b[:k]...)
		if len(g.buf) == g.need {
			if err := g.collected(); err != nil {
				return k, err
			}
		}
		return k, nil
	case xzBlockStart:
		if b[0] == 0 { // the index indicator
			g.st, g.index, g.buf = xzIndex, 1, g.buf[:0]
			g.recs = 1 << 63 // not yet read
			return 1, nil
		}
		g.st, g.need, g.block = xzBlockHeader, (int(b[0])+1)*4, 1
		g.buf = append(g.buf[:0], b[0])
		return 1, nil
	case xzChunk:
		g.block++
		c := b[0]
		switch {
		case c == 0:
			g.st, g.need = xzBlockPad, int((4-g.block%4)%4)
		case c == 1 || c == 2: // the control byte, then the size
			g.st, g.need, g.buf = xzChunkHead, 3, append(g.buf[:0], c)
		case c >= 0x80: // the control byte, unpacked and packed sizes, properties from 0xc0
			n := 5
			if c >= 0xc0 {
				n = 6
			}
			g.st, g.need, g.buf = xzChunkHead, n, append(g.buf[:0], c)
		default:
			g.st = xzDone // invalid: the decoder says so
		}
		return 1, nil
	case xzSkip, xzBlockPad, xzCheck, xzFooter:
		k := min(g.need, len(b))
		if g.st == xzSkip {
			g.block += int64(k)
		}
		g.need -= k
		if g.need == 0 {
			switch g.st {
			case xzSkip:
				g.st = xzChunk
			case xzBlockPad:
				g.st, g.need = xzCheck, g.check
			case xzCheck:
				g.st = xzBlockStart
			case xzFooter:
				g.st = xzStreamPad
			}
		}
		return k, nil
	case xzIndex:
		return g.indexByte(b)
	case xzStreamPad:
		if b[0] == 0 {
			return 1, nil
		}
		g.st, g.need, g.buf = xzStreamHeader, 12, g.buf[:0]
		return 0, nil
	}
	return len(b), nil
}

// collected handles a complete header in g.buf.
func (g *xzGuard) collected() error {
	b := g.buf
	switch g.st {
	case xzStreamHeader:
		if string(b[:6]) != string(magicXz) {
			g.st = xzDone
			return nil
		}
		g.check = xzCheckSize(b[7] & 0x0f)
		g.st = xzBlockStart
	case xzBlockHeader:
		g.block = int64(len(b))
		if err := g.blockHeader(b); err != nil {
			return err
		}
		if g.st != xzDone {
			g.st = xzChunk
		}
	case xzChunkHead:
		c := b[0]
		var size int
		if c == 1 || c == 2 {
			size = (int(b[1])<<8 | int(b[2])) + 1
		} else {
			size = (int(b[3])<<8 | int(b[4])) + 1
		}
		g.block += int64(len(b) - 1)
		g.st, g.need = xzSkip, size
	}
	g.buf = g.buf[:0]
	return nil
}

// blockHeader reads the filter flags of a block header and checks an LZMA2 filter's
// dictionary size.
func (g *xzGuard) blockHeader(b []byte) error {
	if len(b) < 2 {
		g.st = xzDone
		return nil
	}
	flags := b[1]
	i := 2
	skipVarint := func() bool {
		for ; i < len(b)-4; i++ {
			if b[i]&0x80 == 0 {
				i++
				return true
			}
		}
		return false
	}
	readVarint := func() (uint64, bool) {
		var v uint64
		for s := uint(0); i < len(b)-4 && s < 63; s += 7 {
			c := b[i]
			i++
			v |= uint64(c&0x7f) << s
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	if flags&0x40 != 0 && !skipVarint() || flags&0x80 != 0 && !skipVarint() {
		g.st = xzDone
		return nil
	}
	filters := int(flags&3) + 1
	for f := 0; f < filters; f++ {
		id, ok1 := readVarint()
		size, ok2 := readVarint()
		if !ok1 || !ok2 || uint64(i)+size > uint64(len(b)-4) {
			g.st = xzDone
			return nil
		}
		if id == 0x21 && size >= 1 { // LZMA2
			p := b[i] & 0x3f
			dict := uint64(0xffffffff)
			if p < 40 {
				dict = uint64(2|p&1) << (p/2 + 11)
			}
			if dict > uint64(g.max) {
				return fmt.Errorf("%w: the stream declares a %d MiB dictionary, over the %d MiB cap (a memory bomb?); the rest is not read", ErrXzDictionary, dict>>20, g.max>>20)
			}
		} else if f == filters-1 {
			g.st = xzDone // the last filter is not LZMA2: the decoder refuses it
			return nil
		}
		i += int(size)
	}
	return nil
}

// indexByte follows the index: the record count, the records (two varints each), the
// padding and the CRC32, then the stream footer.
func (g *xzGuard) indexByte(b []byte) (int, error) {
	c := b[0]
	g.index++
	if g.need > 0 { // padding and CRC
		g.need--
		if g.need == 0 {
			g.st, g.need = xzFooter, 12
		}
		return 1, nil
	}
	g.buf = append(g.buf, c)
	if c&0x80 != 0 {
		if len(g.buf) > 9 {
			g.st = xzDone
		}
		return 1, nil
	}
	var v uint64
	for k, x := range g.buf {
		v |= uint64(x&0x7f) << (7 * uint(k))
	}
	g.buf = g.buf[:0]
	switch {
	case g.recs == 1<<63: // the record count
		g.recs = v * 2
	case g.recs > 0:
		g.recs--
	}
	if g.recs == 0 {
		g.need = int((4-g.index%4)%4) + 4
	}
	return 1, nil
}

func xzCheckSize(id byte) int {
	switch {
	case id == 0:
		return 0
	case id <= 3:
		return 4
	case id <= 6:
		return 8
	case id <= 9:
		return 16
	case id <= 12:
		return 32
	}
	return 64
}
