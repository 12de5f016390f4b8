package logs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// DefaultMaxLineBytes is the longest line that is parsed; longer lines are skipped
// with a warning (their line number still counts, so later line numbers stay right).
const DefaultMaxLineBytes = 8 << 20

const blockSize = 1 << 20

// Options tune a scan.
type Options struct {
	// Keywords: only lines that contain at least one of these literals are parsed.
	Keywords []string
	// Reference completes the year of klog times (which carry none): the year of the
	// reference, or the one before when the time would lie more than two days after it.
	// Zero means "now".
	Reference time.Time
	// Location is the zone of klog times (default UTC).
	Location *time.Location
	// MaxLineBytes caps the length of a parsed line (default DefaultMaxLineBytes).
	MaxLineBytes int
}

// FileInfo summarises one scanned log file.
type FileInfo struct {
	Path      string
	Component string
	Lines     int
	Matched   int
	First     time.Time // time of the first line that carries one
	Last      time.Time // time of the last line that carries one
	Format    string    // "klog", "json", "cri", "docker", "timestamp-prefix", "plain"
	Bytes     int64
}

// Scan reads r (the log file at path, relative to the bundle root) once and calls emit
// for every line that contains one of opts.Keywords. Problems are added to warn; Scan
// returns an error only when nothing at all could be read.
func Scan(r io.Reader, path string, opts Options, warn *diag.Sink, emit func(Entry)) (FileInfo, error) {
	s := &scanner{
		path:     path,
		opts:     opts,
		warn:     warn,
		emit:     emit,
		parser:   lineParser{reference: opts.Reference, location: opts.Location},
		info:     FileInfo{Path: path, Component: ComponentFromPath(path)},
		keywords: make([][]byte, len(opts.Keywords)),
	}
	for i, k := range opts.Keywords {
		s.keywords[i] = []byte(k)
	}
	if s.opts.MaxLineBytes <= 0 {
		s.opts.MaxLineBytes = DefaultMaxLineBytes
	}
	err := s.run(r)
	if s.info.Component == "" {
		s.info.Component = s.guessedComponent()
	}
	return s.info, err
}

type scanner struct {
	path     string
	opts     Options
	warn     *diag.Sink
	emit     func(Entry)
	parser   lineParser
	info     FileInfo
	keywords [][]byte
	line     int // lines completed before the current region
	callers  map[string]int
	pending  []Entry // entries of this file, emitted at the end with the file's component
}

func (s *scanner) run(r io.Reader) error {
	buf := make([]byte, blockSize)
	carry := 0
	for {
		n, err := io.ReadFull(r, buf[carry:])
		s.info.Bytes += int64(n)
		data := buf[:carry+n]
		eof := false
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				s.warn.Add(s.path, s.line+1, "read error, the rest of the file is not analysed: %v", err)
			}
			eof = true
		}
		if eof {
			if len(data) > 0 {
				s.region(data)
			}
			break
		}
		last := bytes.LastIndexByte(data, '\n')
		if last < 0 {
			// One line fills the whole buffer.
			if len(buf) < s.opts.MaxLineBytes {
				nb := make([]byte, min(len(buf)*2, s.opts.MaxLineBytes))
				copy(nb, data)
				buf, carry = nb, len(data)
				continue
			}
			rest, serr := s.skipLongLine(r, len(data))
			if serr != nil {
				break
			}
			carry = copy(buf, rest)
			continue
		}
		s.region(data[:last+1])
		carry = copy(buf, data[last+1:])
	}
	s.flush()
	if s.info.Bytes == 0 {
		return nil
	}
	return nil
}

// skipLongLine discards the rest of a line longer than MaxLineBytes and returns the
// bytes after its newline.
func (s *scanner) skipLongLine(r io.Reader, already int) ([]byte, error) {
	s.line++
	s.warn.Add(s.path, s.line, "line longer than %d bytes skipped (limit: --max-line-bytes)", s.opts.MaxLineBytes)
	tmp := make([]byte, 64<<10)
	total := already
	for {
		n, err := r.Read(tmp)
		total += n
		s.info.Bytes += int64(n)
		if i := bytes.IndexByte(tmp[:n], '\n'); i >= 0 {
			return tmp[i+1 : n], nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// region processes complete lines (the last one may lack its newline at EOF).
func (s *scanner) region(data []byte) {
	if s.info.First.IsZero() {
		s.firstTime(data)
	}
	starts := s.matchStarts(data)
	pos, line := 0, s.line
	for _, st := range starts {
		line += bytes.Count(data[pos:st], []byte{'\n'})
		pos = st
		end := bytes.IndexByte(data[st:], '\n')
		if end < 0 {
			end = len(data) - st
		}
		s.parseMatch(data, st, st+end, line+1)
	}
	nl := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		nl++ // final line without newline at EOF
	}
	s.line += nl
	s.info.Lines = s.line
	s.lastTime(data)
}

// matchStarts returns the sorted, distinct start offsets of lines containing a keyword.
func (s *scanner) matchStarts(data []byte) []int {
	var starts []int
	for _, k := range s.keywords {
		off := 0
		for {
			i := bytes.Index(data[off:], k)
			if i < 0 {
				break
			}
			abs := off + i
			st := bytes.LastIndexByte(data[:abs], '\n') + 1
			starts = append(starts, st)
			nl := bytes.IndexByte(data[abs:], '\n')
			if nl < 0 {
				break
			}
			off = abs + nl + 1
		}
	}
	if len(starts) == 0 {
		return nil
	}
	sort.Ints(starts)
	out := starts[:1]
	for _, v := range starts[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

func (s *scanner) parseMatch(data []byte, st, end, lineNo int) {
	if end-st > s.opts.MaxLineBytes {
		s.warn.Add(s.path, lineNo, "line longer than %d bytes skipped (limit: --max-line-bytes)", s.opts.MaxLineBytes)
		return
	}
	e := Entry{File: s.path, Line: lineNo}
	if !s.parser.parse(data[st:end], &e) {
		s.inheritHeader(data, st, &e)
	}
	if e.Caller != "" {
		if s.callers == nil {
			s.callers = map[string]int{}
		}
		s.callers[callerFile(e.Caller)]++
	}
	s.info.Matched++
	s.pending = append(s.pending, e)
}

// inheritHeader gives a header-less line (a continuation of a multi-line klog record,
// e.g. an `err=<` block) the time, severity and caller of the record it belongs to.
func (s *scanner) inheritHeader(data []byte, st int, e *Entry) {
	end := st - 1
	for hops := 0; hops < 64 && end > 0; hops++ {
		ps := bytes.LastIndexByte(data[:end], '\n') + 1
		var h Entry
		if s.parser.parse(data[ps:end], &h) {
			e.Time, e.YearInferred, e.TimeSource = h.Time, h.YearInferred, h.TimeSource
			e.Severity, e.Caller = h.Severity, h.Caller
			if h.Fields != nil {
				e.Fields = map[string]string{}
				for k, v := range h.Fields {
					if v != "" {
						e.Fields[k] = v
					}
				}
			}
			return
		}
		end = ps - 1
	}
}

func (s *scanner) firstTime(data []byte) {
	pos := 0
	for i := 0; i < 50 && pos < len(data); i++ {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data) - pos
		}
		var e Entry
		if len(data[pos:pos+end]) <= s.opts.MaxLineBytes {
			s.parser.parse(data[pos:pos+end], &e)
		}
		if !e.Time.IsZero() {
			s.info.First = e.Time
			s.info.Format = e.TimeSource
			return
		}
		pos += end + 1
	}
}

func (s *scanner) lastTime(data []byte) {
	end := len(data)
	for i := 0; i < 50 && end > 0; i++ {
		for end > 0 && (data[end-1] == '\n' || data[end-1] == '\r') {
			end--
		}
		st := bytes.LastIndexByte(data[:end], '\n') + 1
		if end-st <= s.opts.MaxLineBytes {
			var e Entry
			s.parser.parse(data[st:end], &e)
			if !e.Time.IsZero() {
				if e.Time.After(s.info.Last) {
					s.info.Last = e.Time
				}
				return
			}
		}
		end = st
	}
}

func (s *scanner) flush() {
	if s.info.Format == "" {
		s.info.Format = "plain"
	}
	comp := s.info.Component
	if comp == "" {
		comp = s.guessedComponent()
	}
	for i := range s.pending {
		e := s.pending[i]
		e.Component = comp
		if comp == "" {
			e.Component = ComponentFromCaller(e.Caller)
		}
		s.emit(e)
	}
	s.pending = nil
}

func (s *scanner) guessedComponent() string {
	votes := map[string]int{}
	for c, n := range s.callers {
		if comp := ComponentFromCaller(c); comp != "" {
			votes[comp] += n
		}
	}
	best, bestN := "", 0
	for c, n := range votes {
		if n > bestN || (n == bestN && c < best) {
			best, bestN = c, n
		}
	}
	return best
}

func callerFile(caller string) string {
	if i := strings.LastIndexByte(caller, ':'); i >= 0 {
		return caller[:i]
	}
	return caller
}

// componentPatterns map path fragments to components, most specific first.
var componentPatterns = []struct{ fragment, component string }{
	{"kube-controller-manager", "kube-controller-manager"},
	{"controller-manager", "kube-controller-manager"},
	{"cloud-controller-manager", "cloud-controller-manager"},
	{"kube-apiserver", "kube-apiserver"},
	{"metrics-server", "metrics-server"},
	{"kube-scheduler", "kube-scheduler"},
	{"etcd", "etcd"},
	{"kubelet", "kubelet"},
	{"kubectl", "kubectl"},
}

// ComponentFromPath guesses the component from a log's path ("logs/kube-apiserver.log",
// "kube-system/kube-apiserver-node1/logs.txt", ...). It returns "" when the path says nothing.
func ComponentFromPath(p string) string {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	dir := path.Dir(lp)
	for _, c := range componentPatterns {
		if strings.Contains(base, c.fragment) {
			return fixCloud(base, c.component)
		}
	}
	for _, c := range componentPatterns {
		if strings.Contains(dir, c.fragment) {
			return fixCloud(dir, c.component)
		}
	}
	return ""
}

func fixCloud(s, comp string) string {
	if comp == "kube-controller-manager" && strings.Contains(s, "cloud-controller-manager") {
		return "cloud-controller-manager"
	}
	return comp
}

// callerComponents map klog source files to the component that logs them.
var callerComponents = map[string]string{
	"namespace_controller.go":         "kube-controller-manager",
	"namespaced_resources_deleter.go": "kube-controller-manager",
	"garbagecollector.go":             "kube-controller-manager",
	"resource_quota_controller.go":    "kube-controller-manager",
	"controllermanager.go":            "kube-controller-manager",
	"horizontal.go":                   "kube-controller-manager",
	"available_controller.go":         "kube-apiserver",
	"remote_available_controller.go":  "kube-apiserver",
	"handler_proxy.go":                "kube-apiserver",
	"dispatcher.go":                   "kube-apiserver",
	"webhook_converter.go":            "kube-apiserver",
	"crd_finalizer.go":                "kube-apiserver",
	"status.go":                       "kube-apiserver",
}

// ComponentFromCaller guesses the component from a klog caller ("namespace_controller.go:164").
func ComponentFromCaller(caller string) string {
	return callerComponents[callerFile(caller)]
}

// String renders a FileInfo for diagnostics.
func (f FileInfo) String() string {
	return fmt.Sprintf("%s (%s, %s, %d lines, %d matched)", f.Path, f.Component, f.Format, f.Lines, f.Matched)
}
