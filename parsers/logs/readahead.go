package logs

import (
	"errors"
	"io"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// readAhead reads its source in a goroutine, a few blocks ahead of the scanner, so that
// producing the bytes (gzip/xz decompression, the tar stream of an archived bundle,
// the read system calls) runs on another core while the scanner searches the previous
// block. The bytes and the final error are delivered exactly as the source gives them.
type readAhead struct {
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

func newReadAhead(r io.Reader, size, depth int) *readAhead {
	ra := &readAhead{full: make(chan chunk, depth), free: make(chan []byte, depth+1),
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

func (ra *readAhead) Read(p []byte) (int, error) {
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

// close stops the goroutine and waits until it no longer reads the source.
func (ra *readAhead) close() {
	close(ra.stop)
	<-ra.done
}

// safeReadFull is readFull with a bug of the source (a decompressor's panic) caught
// and returned as an error, which the scanner reports with the file; the bytes read
// before it are kept.
func safeReadFull(r io.Reader, b []byte) (int, error) {
	return readFull(safeReader{r}, b)
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
