// Package stream holds the reading helpers the parsers share: ReadFull, and ReadAhead,
// which produces a source's bytes on another goroutine (decompression, an archive's
// stream) while the caller parses the previous block.
package stream

import (
	"errors"
	"io"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// ReadAhead reads its source in a goroutine, a few blocks ahead of the scanner, so that
// producing the bytes (gzip/xz decompression, the tar stream of an archived bundle,
// the read system calls) runs on another core while the scanner searches the previous
// block. The bytes and the final error are delivered exactly as the source gives them.
type ReadAhead struct {
	full chan chunk
	free chan []byte
	stop chan struct{}
	done chan struct{}
	cur  chunk
	off  int
}

type chunk struct {
	b   []byte
	err error
}

// NewReadAhead starts reading r in blocks of size, at most depth blocks ahead.
func NewReadAhead(r io.Reader, size, depth int) *ReadAhead {
	ra := &ReadAhead{full: make(chan chunk, depth), free: make(chan []byte, depth+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	for i := 0; i <= depth; i++ {
		ra.free <- make([]byte, size)
	}
	go func() {
		defer close(ra.done)
		for {
			var b []byte
			select {
			case b = <-ra.free:
			case <-ra.stop:
				return
			}
			n, err := safeReadFull(r, b)
			select {
			case ra.full <- chunk{b[:n], err}:
			case <-ra.stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ra
}

func (ra *ReadAhead) Read(p []byte) (int, error) {
	for ra.off == len(ra.cur.b) {
		if ra.cur.err != nil {
			return 0, ra.cur.err
		}
		if ra.cur.b != nil {
			ra.free <- ra.cur.b[:cap(ra.cur.b)]
		}
		ra.cur, ra.off = <-ra.full, 0
	}
	n := copy(p, ra.cur.b[ra.off:])
	ra.off += n
	return n, nil
}

// Close stops the goroutine and waits until it no longer reads the source.
func (ra *ReadAhead) Close() {
	close(ra.stop)
	<-ra.done
}

// safeReadFull is readFull with a bug of the source (a decompressor's panic) caught
// and returned as an error, which the scanner reports with the file; the bytes read
// before it are kept.
func safeReadFull(r io.Reader, b []byte) (int, error) {
	return ReadFull(safeReader{r}, b)
}

type safeReader struct{ r io.Reader }

func (s safeReader) Read(p []byte) (n int, err error) {
	defer func() {
		if x := recover(); x != nil {
			n, err = 0, errors.New(diag.InternalErrorText(x))
		}
	}()
	return s.r.Read(p)
}

// ReadFull reads until buf is full or r fails. Unlike io.ReadFull it returns io.EOF
// for every clean end, short or not, so that a reader's own io.ErrUnexpectedEOF (a
// truncated gzip stream) is not mistaken for the end of the file.
func ReadFull(r io.Reader, buf []byte) (int, error) {
	n, idle := 0, 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m == 0 {
			if idle++; idle > 100 {
				return n, io.ErrNoProgress
			}
		} else {
			idle = 0
		}
	}
	return n, nil
}
