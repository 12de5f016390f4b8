package bundle

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

var (
	markStart  = []byte("==== START logs for container ")
	markEnd    = []byte("==== END logs for container ")
	markDumped = []byte("Cluster info dumped to ")
)

// clusterInfoStdout reads `kubectl cluster-info dump` saved from stdout: JSON lists
// (NodeList, then per namespace EventList, ReplicationControllerList, ..., PodList)
// interleaved with `==== START logs for container C of pod NS/P ====` ... `==== END ...`
// blocks. The stream is read once and split by line into the object decoder and the
// log scanner, each seeing the other's lines as empty lines, so line numbers stay
// those of the file.
func (l *loader) clusterInfoStdout(m member, r io.Reader) {
	jr, jw := io.Pipe()
	lr, lw := io.Pipe()
	var (
		wg       sync.WaitGroup
		objs     []*objects.Object
		objWarn  = &diag.Sink{}
		logWarn  = &diag.Sink{}
		lf       *logs.File
		nObjects int
	)
	h := pathHint(m.rel)
	wg.Add(2)
	go func() {
		defer wg.Done()
		nObjects = objects.DecodeJSON(jr, m.rel, objects.Options{KindHint: h.Kind, Keep: l.opts.KeepObject}, objWarn, func(o *objects.Object) { objs = append(objs, o) })
		_, _ = io.Copy(io.Discard, jr)
	}()
	go func() {
		defer wg.Done()
		lf, _ = logs.ScanFile(lr, m.rel, l.logOptions(m.rel), logWarn)
		_, _ = io.Copy(io.Discard, lr)
	}()
	jb, lb := bufio.NewWriterSize(jw, 64<<10), bufio.NewWriterSize(lw, 64<<10)
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	inLog, lineStart := false, true
	var rerr error
	for {
		b, err := br.ReadSlice('\n')
		if len(b) > 0 {
			if lineStart {
				switch {
				case bytes.HasPrefix(b, markStart):
					inLog = true
				case bytes.HasPrefix(b, markDumped) && !inLog:
					b = b[:0]
				}
			}
			isEnd := lineStart && bytes.HasPrefix(b, markEnd)
			full := b[len(b)-1] == '\n'
			if inLog || isEnd {
				lb.Write(b)
				if lineStart && full {
					jb.WriteByte('\n')
				}
			} else {
				jb.Write(b)
				if lineStart && full {
					lb.WriteByte('\n')
				}
			}
			if len(b) == 0 {
				jb.WriteByte('\n')
				lb.WriteByte('\n')
			}
			if isEnd {
				inLog = false
			}
			lineStart = full
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				rerr = err
			}
			break
		}
	}
	jb.Flush()
	lb.Flush()
	jw.CloseWithError(rerr)
	lw.CloseWithError(rerr)
	wg.Wait()
	emit := l.emitter(h.GroupVersion, h.CRD)
	for _, o := range objs {
		emit(o)
	}
	if nObjects > 0 {
		l.objFiles[m.rel] = true
	}
	l.warn.Merge(objWarn)
	l.warn.Merge(logWarn)
	// by content: container log blocks, or the dump's sequence of lists (nodes first,
	// then other kinds); a file of JSON only is objects, not a log
	if lf != nil && (len(lf.Info.Sections) > 0 || len(lf.Entries) > 0) {
		lf.Mtime = m.mtime
		l.logFiles = append(l.logFiles, &logFile{f: lf, rel: m.rel})
		if len(lf.Info.Sections) > 0 {
			l.stdoutFiles[m.rel] = true
		}
	}
	if nodesThenOthers(objs) {
		l.stdoutFiles[m.rel] = true
	}
}

// nodesThenOthers: the objects of a cluster-info dump: Nodes first, then other kinds.
func nodesThenOthers(objs []*objects.Object) bool {
	if len(objs) < 2 || objs[0].Kind != "Node" {
		return false
	}
	for _, o := range objs[1:] {
		if o.Kind != "Node" {
			return true
		}
	}
	return false
}
