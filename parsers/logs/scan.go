package logs

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/internal/work"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/stream"
)

// DefaultMaxLineBytes is the longest line that is parsed; longer lines are skipped
// with a warning (their line number still counts, so later line numbers stay right).
const DefaultMaxLineBytes = 8 << 20

const blockSize = 1 << 20

// Options tune a scan.
type Options struct {
	// Keywords: only lines that contain at least one of these literals are parsed.
	Keywords []string
	// Reference completes the year of klog times (which carry none) in Scan: the year
	// that puts the file's last year-less time at most two days after it, counting
	// year rollovers inside the file. Zero means "now". ScanFile ignores it (see ResolveYears).
	Reference time.Time
	// Location is the zone of klog times (default UTC).
	Location *time.Location
	// MaxLineBytes caps the length of a parsed line (default DefaultMaxLineBytes).
	MaxLineBytes int
	// SizeHint is the file's size when known (it bounds the first read buffer).
	SizeHint int64
	// Component, when set, is the component of the whole file (the caller knows better
	// than the path, e.g. a symlink named after it).
	Component string
	// Repaired says the text was repaired already (parsers/text): a small file is not
	// repaired as a paste again (repairPaste).
	Repaired bool
}

// FileInfo summarises one scanned log file (or one section of it).
type FileInfo struct {
	Path      string
	Component string
	Lines     int
	Matched   int
	First     time.Time // time of the first line that carries one
	Last      time.Time // time of the last line that carries one
	Format    string    // "klog", "json", "cri", "docker", "timestamp-prefix", "journald", "plain"
	Bytes     int64
	// YearInferred is true when times of this file carry no year (klog, journald short)
	// and YearBasis says how the year was chosen.
	YearInferred bool
	YearBasis    string
	// Omitted counts the matching lines not kept as entries: beyond MaxEntriesPerShape
	// lines of one shape (counted in Entry.Omitted too) or MaxEntriesPerFile in all.
	Omitted int
	// Sections splits a file that holds the logs of several containers or components
	// (`kubectl cluster-info dump` log blocks, k3s/journald logs mixing processes):
	// one FileInfo each, with the same Path. Nil for a file of one component.
	Sections []FileInfo
}

// File is the result of ScanFile: the entries of one log file, whose year-less times
// are provisional until ResolveYears runs.
type File struct {
	Info    FileInfo
	Entries []Entry
	// Mtime is the file's modification time when known (a last resort for the year).
	Mtime time.Time

	provisional bool      // some times carry the provisional year
	firstClock  time.Time // first year-less time seen (provisional year)
	lastClock   time.Time // last year-less time seen (provisional year)
	firstProv   bool      // Info.First is provisional
	lastProv    bool      // Info.Last is provisional
	anchorClock time.Time // a year-less time whose real year the file states (Trace lines)
	anchorReal  time.Time
	// sectionEntries lists, for each of Info.Sections, the indexes of its entries.
	sectionEntries [][]int
	outOfRange     int            // times dropped by ResolveYears (OutOfRange)
	loc            *time.Location // zone of the year-less wall clocks (Options.Location)
}

// Scan reads r (the log file at path, relative to the bundle root) once and calls emit
// for every line that contains one of opts.Keywords. Problems are added to warn; Scan
// returns an error only when nothing at all could be read.
func Scan(r io.Reader, path string, opts Options, warn *diag.Sink, emit func(Entry)) (FileInfo, error) {
	f, err := ScanFile(r, path, opts, warn)
	ref, basis := opts.Reference, "the reference time"
	if ref.IsZero() {
		ref, basis = time.Now(), "the current date"
	}
	ResolveYears([]*File{f}, ref, basis)
	for _, e := range f.Entries {
		emit(e)
	}
	return f.Info, err
}

// ScanFile reads r once and keeps the entries of the lines that contain a keyword.
// Year-less times are provisional: pass the file (with the older files of the same
// log, oldest first) to ResolveYears before using them.
func ScanFile(r io.Reader, path string, opts Options, warn *diag.Sink) (f *File, err error) {
	s := &scanner{
		path:     path,
		opts:     opts,
		warn:     warn,
		parser:   lineParser{location: opts.Location, provisional: true},
		info:     FileInfo{Path: path, Component: opts.Component},
		keywords: make([][]byte, len(opts.Keywords)),
		file:     &File{loc: opts.Location},
	}
	if s.info.Component == "" {
		s.info.Component = ComponentFromPath(path)
	}
	s.pathComponent = s.info.Component
	for i, k := range opts.Keywords {
		s.keywords[i] = []byte(k)
	}
	s.keywords = append(s.keywords, escapedKeywords(opts.Keywords)...)
	if s.opts.MaxLineBytes <= 0 {
		s.opts.MaxLineBytes = DefaultMaxLineBytes
	}
	defer func() {
		// a bug caught (a panic): what was read before it is kept, the rest of the
		// file is skipped with a diag.InternalError warning
		if r := recover(); r != nil {
			warn.Internal(path, r)
			s.file.Info = s.info
			f, err = s.file, nil
		}
	}()
	if data, orig, n, rest, ok := repairPasteN(r, opts); ok {
		err = scanPaste(s, data, orig, n)
	} else {
		err = s.run(rest)
	}
	s.file.Info = s.info
	return s.file, err
}

type scanner struct {
	path           string
	opts           Options
	warn           *diag.Sink
	longKept       int // bytes of values over MaxFieldBytes kept whole (LongFieldBudget)
	parser         lineParser
	info           FileInfo
	pathComponent  string
	keywords       [][]byte
	match          *matcher // finds keyword lines in one pass (built from keywords on first use)
	seen           uint8    // markers the matcher saw in the current region (seenSection)
	line           int      // lines completed before the current region
	callers        map[string]int
	pending        []Entry // entries of this file, completed at the end with the file's component
	file           *File
	section        int // index+1 in sections of the current `==== START logs for container` block (0: none)
	sections       []sectionState
	lastClock      time.Time // last provisional time seen, for year rollovers
	flagsChecked   bool
	chainWarned    bool
	shapes         map[shapeKey]*shapeState // kept entries per shape (MaxEntriesPerShape)
	fileCapWarned  bool
	shapeCapWarned bool
	rollovers      int // year rollovers seen (MaxRollovers)
	rolloverCap    bool
	badTimes       map[int]bool // lines whose out-of-range time was reported
	sectionsCapped bool
}

// MaxSections caps the `==== START logs for container` sections of one file.
const MaxSections = 10000

// sectionState is one `==== START logs for container C of pod NS/P ====` block.
type sectionState struct {
	component string
	name      string // ns/pod/container
	startLine int
	endLine   int
	matched   int
	entries   []int // indexes of its entries in pending
}

func (s *scanner) run(r io.Reader) error {
	size := blockSize
	if h := s.opts.SizeHint; h > 0 && h < blockSize {
		size = int(h) + 1
	}
	buf := make([]byte, size)
	if size == blockSize {
		// a large or unknown-size input: produce the next blocks while this one is searched
		ra := stream.NewReadAhead(r, blockSize, 2)
		defer ra.Close()
		r = ra
	}
	carry := 0
	var rerr error
	for {
		n, err := stream.ReadFull(r, buf[carry:])
		s.info.Bytes += int64(n)
		data := buf[:carry+n]
		eof := false
		if err != nil {
			if !errors.Is(err, io.EOF) {
				rerr = err
			}
			eof = true
		}
		if eof {
			if len(data) > 0 {
				s.region(data)
			}
			if rerr != nil {
				// e.g. a truncated .gz: what was read before is analysed, the rest is missing
				s.warn.Add(s.path, s.line, "read error after line %d, the rest of the file is not analysed: %v", s.line, rerr)
			}
			break
		}
		last := bytes.LastIndexByte(data, '\n')
		if last >= 0 {
			// keep a trailing chain of CRI partial (P) lines whole for the next region
			if cs := trailingPartialChain(data[:last+1]); cs > 0 {
				last = cs - 1
			} else if cs == 0 && len(buf) < s.opts.MaxLineBytes {
				last = -1 // the whole buffer is one partial chain: grow
			} else if cs == 0 && !s.chainWarned {
				s.chainWarned = true
				s.warn.Add(s.path, s.line+1, "CRI partial lines longer than %d bytes in all are not joined", s.opts.MaxLineBytes)
			}
		}
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
	return rerr
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

var sectionStart = []byte("==== START logs for container ")

// item is a record to parse: a line, or a chain of CRI partial lines.
type item struct {
	st, end int // byte range in the region (end excludes the final newline)
	chain   bool
}

// region processes complete lines (the last one may lack its newline at EOF).
func (s *scanner) region(data []byte) {
	if s.info.First.IsZero() && s.line == 0 {
		s.firstLines(data)
	}
	if !s.flagsChecked {
		s.flagsChecked = true
		s.voteFlags(data)
	}
	s.anchor(data)
	items := s.matchItems(data)
	markers := s.markers(data)
	pos, line, mi := 0, s.line, 0
	for _, it := range items {
		for mi < len(markers) && markers[mi] < it.st {
			line += bytes.Count(data[pos:markers[mi]], []byte{'\n'})
			pos = markers[mi]
			s.startSection(data, markers[mi], line+1)
			mi++
		}
		line += bytes.Count(data[pos:it.st], []byte{'\n'})
		pos = it.st
		s.parseMatch(data, it, line+1)
	}
	for ; mi < len(markers); mi++ {
		line += bytes.Count(data[pos:markers[mi]], []byte{'\n'})
		pos = markers[mi]
		s.startSection(data, markers[mi], line+1)
	}
	nl := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		nl++ // final line without newline at EOF
	}
	s.line += nl
	s.info.Lines = s.line
	s.lastTime(data)
}

// markers returns the offsets of `==== START logs for container` lines. It runs after
// matchItems, which tells whether the region holds any.
func (s *scanner) markers(data []byte) []int {
	if s.match != nil && s.seen&seenSection == 0 {
		return nil
	}
	var out []int
	off := 0
	for {
		i := bytes.Index(data[off:], sectionStart)
		if i < 0 {
			return out
		}
		abs := off + i
		if abs == 0 || data[abs-1] == '\n' {
			out = append(out, abs)
		}
		off = abs + len(sectionStart)
	}
}

// startSection opens a section at the marker line `==== START logs for container C of pod NS/P ====`.
func (s *scanner) startSection(data []byte, st, lineNo int) {
	end := bytes.IndexByte(data[st:], '\n')
	if end < 0 {
		end = len(data) - st
	}
	if len(s.sections) >= MaxSections {
		if !s.sectionsCapped {
			s.sectionsCapped = true
			s.warn.Add(s.path, lineNo, "more than %d `==== START logs for container` sections in this file; the later ones are read as part of the last", MaxSections)
		}
		return
	}
	if end > 2*diag.MaxNameBytes {
		end = 2 * diag.MaxNameBytes
	}
	l := string(data[st+len(sectionStart) : st+end])
	l = strings.TrimSuffix(strings.TrimSpace(l), "====")
	container, pod, _ := strings.Cut(strings.TrimSpace(l), " of pod ")
	pod = strings.TrimSpace(pod)
	s.closeSection(lineNo - 1)
	name := diag.CapName(pod + "/" + container)
	s.sections = append(s.sections, sectionState{component: ComponentFromPath(name), name: name, startLine: lineNo})
	s.section = len(s.sections)
}

func (s *scanner) closeSection(lastLine int) {
	if s.section > 0 {
		s.sections[s.section-1].endLine = lastLine
	}
	s.section = 0
}

// matchItems returns, in order, the records to parse: lines containing a keyword, and
// chains of CRI partial lines whose joined text contains one.
func (s *scanner) matchItems(data []byte) []item {
	starts := s.matchStarts(data)
	var chains []span
	if mayHavePartial(data) {
		chains = partialChains(data)
	}
	if len(chains) == 0 {
		out := make([]item, len(starts))
		for i, st := range starts {
			end := bytes.IndexByte(data[st:], '\n')
			if end < 0 {
				end = len(data) - st
			}
			out[i] = item{st: st, end: st + end}
		}
		return out
	}
	var out []item
	ci := 0
	hit := make([]bool, len(chains))
	for _, st := range starts {
		for ci < len(chains) && chains[ci].end < st {
			ci++
		}
		if ci < len(chains) && chains[ci].st <= st {
			hit[ci] = true
			continue
		}
		end := bytes.IndexByte(data[st:], '\n')
		if end < 0 {
			end = len(data) - st
		}
		out = append(out, item{st: st, end: st + end})
	}
	for i, c := range chains {
		if hit[i] || s.containsKeyword(joinPartial(data[c.st:c.end])) {
			out = append(out, item{st: c.st, end: c.end, chain: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].st < out[j].st })
	return out
}

// escapedKeywords returns the forms key phrases take inside JSON strings (docker
// json-file wraps every line in one; JSON logging inside it, in two): `"` → `\"`,
// `\` → `\\`, and `<`, `>`, `&` → `\u003c`, ... as docker writes them.
func escapedKeywords(keys []string) [][]byte {
	var out [][]byte
	esc := func(s string) string {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`)
		return r.Replace(s)
	}
	for _, k := range keys {
		e1 := esc(k)
		if e1 == k {
			continue
		}
		out = append(out, []byte(e1))
		if e2 := esc(e1); e2 != e1 {
			out = append(out, []byte(e2))
		}
	}
	return out
}

func (s *scanner) containsKeyword(b []byte) bool {
	s.initMatcher()
	return s.match.contains(b)
}

// Markers the matcher looks for with the keywords, so that the exact search for
// section headers runs only in regions that hold them.
const (
	seenSection uint8 = 1 << iota
)

func (s *scanner) initMatcher() {
	if s.match == nil {
		// The CRI partial tags (10 bytes) are not searched with the keywords: they would
		// shorten the matcher's window and its skips; mayHavePartial gates them instead.
		s.match = newMatcher(s.keywords, marker{sectionStart, seenSection})
	}
}

// mayHavePartial reports whether data may hold a CRI partial record: a line that
// starts like an RFC 3339 time (isPartialLine's first test). klog and JSON logs have
// none, so partialChains' substring searches are skipped for them.
func mayHavePartial(data []byte) bool {
	for pos := 0; pos < len(data); {
		if len(data)-pos >= 30 && isDigit(data[pos]) && data[pos+4] == '-' {
			return true
		}
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			return false
		}
		pos += nl + 1
	}
	return false
}

// matchStarts returns the sorted, distinct start offsets of lines containing a keyword.
// It also records in s.seen the markers the region holds.
func (s *scanner) matchStarts(data []byte) []int {
	s.initMatcher()
	starts, seen := s.match.lineStarts(data)
	s.seen = seen
	return starts
}

func (s *scanner) parseMatch(data []byte, it item, lineNo int) {
	linesParsed.Inc()
	if it.end-it.st > s.opts.MaxLineBytes {
		s.warn.Add(s.path, lineNo, "line longer than %d bytes skipped (limit: --max-line-bytes)", s.opts.MaxLineBytes)
		return
	}
	e := Entry{File: s.path, Line: lineNo}
	rec := data[it.st:it.end]
	if it.chain {
		rec = joinPartial(rec)
	}
	if !s.parser.parse(rec, &e) {
		s.inheritHeader(data, it.st, &e)
	}
	s.badTime(&e, lineNo)
	s.observe(&e.Time, e.YearInferred)
	if e.Caller != "" {
		s.vote(callerFile(e.Caller), 1)
	}
	s.info.Matched++
	if s.section > 0 {
		s.sections[s.section-1].matched++
	}
	s.capEntry(&e, lineNo)
	// bounded memory: the first MaxEntriesPerShape-1 lines of a shape, then the latest
	// one only (counting those it replaced), and MaxEntriesPerFile in all
	key := shapeKey{s.section, shapeHash(e.Text)}
	if s.shapes == nil {
		s.shapes = map[shapeKey]*shapeState{}
	}
	st := s.shapes[key]
	if st == nil {
		if len(s.pending) >= MaxEntriesPerFile {
			s.omit(lineNo)
			return
		}
		st = &shapeState{}
		if len(s.shapes) < MaxEntriesPerFile {
			s.shapes[key] = st
		}
	}
	st.n++
	if st.n > MaxEntriesPerShape && st.slot > 0 {
		if !s.shapeCapWarned {
			s.shapeCapWarned = true
			s.warn.Add(s.path, lineNo, "more than %d matching lines of the same shape; the later ones are counted, only the latest is kept", MaxEntriesPerShape)
		}
		// replace the latest kept line of this shape
		old := &s.pending[st.slot-1]
		e.Omitted = old.Omitted + 1
		e.Component = old.Component
		*old = e
		s.info.Omitted++
		return
	}
	if len(s.pending) >= MaxEntriesPerFile {
		s.omit(lineNo)
		return
	}
	if s.section > 0 {
		sec := &s.sections[s.section-1]
		e.Component = sec.component
		sec.entries = append(sec.entries, len(s.pending))
	}
	s.pending = append(s.pending, e)
	if st.n == MaxEntriesPerShape {
		st.slot = len(s.pending)
	}
}

// omit counts a matching line not kept because the file has MaxEntriesPerFile entries.
func (s *scanner) omit(lineNo int) {
	s.info.Omitted++
	if !s.fileCapWarned {
		s.fileCapWarned = true
		s.warn.Add(s.path, lineNo, "more than %d matching lines in this file; the rest are only counted", MaxEntriesPerFile)
	}
}

// MaxEntriesPerShape and MaxEntriesPerFile bound the entries kept of one log file:
// a small compressed log can hold millions of matching lines.
const (
	MaxEntriesPerShape = 1000
	MaxEntriesPerFile  = 200000
	// MaxFieldBytes caps an entry's message and each structured value, but for the
	// LongFieldBudget bytes of a file kept of values up to MaxLongFieldBytes: the
	// namespace controller's discovery error names every failing group/version in one
	// value (100 KB for a thousand of them), and what a cut value names after the cut
	// is lost. A value cut is said in a warning at its line.
	MaxFieldBytes     = 64 << 10
	MaxLongFieldBytes = 1 << 20
	LongFieldBudget   = 8 << 20
)

type shapeKey struct {
	section int
	hash    uint64
}

type shapeState struct {
	n    int // matching lines of this shape
	slot int // index+1 in pending of the entry that takes the later lines (0: none yet)
}

// shapeHash hashes a line's shape (Shape).
func shapeHash(text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(Shape(text)))
	return h.Sum64()
}

// linesParsed counts the matching lines parsed (internal/work, the linear-work tests).
var linesParsed = work.New("log lines parsed")

// capEntry caps the message and the structured values of an entry (MaxFieldBytes, or
// MaxLongFieldBytes within the file's LongFieldBudget) and warns at the line of a cut.
func (s *scanner) capEntry(e *Entry, lineNo int) {
	e.Message = s.capField(e.Message, lineNo, "message")
	var long []string // in key order: which value the budget keeps must not depend on map order
	for k, v := range e.Fields {
		if len(v) > MaxFieldBytes {
			long = append(long, k)
		}
	}
	sort.Strings(long)
	for _, k := range long {
		e.Fields[k] = s.capField(e.Fields[k], lineNo, k)
	}
}

// capField keeps a value longer than MaxFieldBytes whole while the file's budget lasts.
func (s *scanner) capField(v string, lineNo int, name string) string {
	if len(v) <= MaxFieldBytes {
		return v
	}
	if len(v) <= MaxLongFieldBytes && s.longKept+len(v) <= LongFieldBudget {
		s.longKept += len(v)
		return v
	}
	// the sink bounds the warnings of a kind and of a file
	s.warn.Add(s.path, lineNo, "%s of %d bytes cut at %d bytes (values over %d bytes, or past %d bytes of long values in one file, are cut): what it names after the cut is not read",
		name, len(v), MaxFieldBytes, MaxLongFieldBytes, LongFieldBudget)
	return capField(v)
}

func capField(s string) string {
	if len(s) <= MaxFieldBytes {
		return s
	}
	cut := MaxFieldBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…(truncated %d bytes)", len(s)-cut)
}

// badTime reports, once per line, a time outside years 0001-9999 that the line
// carried (it is treated as no time).
func (s *scanner) badTime(e *Entry, lineNo int) {
	if e.badTime == "" || s.badTimes[lineNo] {
		return
	}
	if s.badTimes == nil {
		s.badTimes = map[int]bool{}
	}
	if len(s.badTimes) < 1024 {
		s.badTimes[lineNo] = true
	}
	s.warn.Add(s.path, lineNo, "time %q is outside years 0001-9999, ignored", diag.CapName(e.badTime))
}

// MaxRollovers caps the year rollovers counted in one file: a log of year-less times
// spanning more years is not plausible, and a hostile one (Dec 31 / Jan 1 alternating)
// would otherwise push its times thousands of years back.
const MaxRollovers = 10

// isRollover reports whether a year-less time t following prev crosses a new year:
// prev in late December (from the 24th) and t in early January (up to the 7th).
func isRollover(prev, t time.Time) bool {
	return prev.Month() == time.December && prev.Day() >= 24 && t.Month() == time.January && t.Day() <= 7
}

// observe tracks year-less times in file order: a line of early January after one of
// late December means the log crossed a new year, and it and everything after it
// belong to the next year (at most MaxRollovers times per file).
func (s *scanner) observe(t *time.Time, inferred bool) {
	if !inferred || t.IsZero() || t.Year() < provisionalYear {
		return
	}
	if !s.lastClock.IsZero() && isRollover(s.lastClock, *t) {
		if s.rollovers < MaxRollovers {
			s.rollovers++
			s.parser.epoch++
			*t = t.AddDate(1, 0, 0)
		} else if !s.rolloverCap {
			s.rolloverCap = true
			s.warn.Add(s.path, s.line+1, "more than %d year rollovers (December to January) in one file; later times keep the year", MaxRollovers)
		}
	}
	s.lastClock = *t
	if s.file.firstClock.IsZero() {
		s.file.firstClock = *t
	}
	s.file.lastClock = *t
	s.file.provisional = true
}

func (s *scanner) vote(file string, n int) {
	if s.callers == nil {
		s.callers = map[string]int{}
	}
	s.callers[file] += n
}

// voteFlags recognises the component from its start-up `FLAG: --x` lines, which name
// flags only one component has.
func (s *scanner) voteFlags(data []byte) {
	for _, f := range flagComponents {
		if bytes.Contains(data, []byte(f.flag)) {
			s.vote("\x00"+f.component, 50)
		}
	}
}

// anchor looks for a year the file states itself: utiltrace's `Trace[id]: "..." ... (07-Jan-2023 04:27:30.541)`.
func (s *scanner) anchor(data []byte) {
	if !s.file.anchorClock.IsZero() {
		return
	}
	off := 0
	for tries := 0; tries < 4; tries++ {
		i := bytes.Index(data[off:], []byte("Trace["))
		if i < 0 {
			return
		}
		abs := off + i
		st := bytes.LastIndexByte(data[:abs], '\n') + 1
		end := bytes.IndexByte(data[abs:], '\n')
		if end < 0 {
			end = len(data) - abs
		}
		line := data[st : abs+end]
		off = abs + end
		if len(line) > 4096 {
			continue
		}
		var e Entry
		if !s.parser.parse(line, &e) || !e.YearInferred {
			continue
		}
		real, ok := traceTime(line)
		if !ok {
			continue
		}
		s.observe(&e.Time, true)
		s.file.anchorClock, s.file.anchorReal = e.Time, real
		return
	}
}

// traceTime reads `(02-Jan-2006 15:04:05.000)` in a utiltrace line.
func traceTime(line []byte) (time.Time, bool) {
	i := bytes.Index(line, []byte("-20"))
	for i >= 6 {
		open := bytes.LastIndexByte(line[:i], '(')
		if open >= 0 && i-open == 7 {
			cl := bytes.IndexByte(line[open:], ')')
			if cl > 0 {
				t, err := time.Parse("02-Jan-2006 15:04:05.000", string(line[open+1:open+cl]))
				if err == nil {
					return t, true
				}
			}
		}
		j := bytes.Index(line[i+1:], []byte("-20"))
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return time.Time{}, false
}

// inheritHeader gives a header-less line (a continuation of a multi-line klog record,
// e.g. an `err=<` block) the time, severity and caller of the record it belongs to.
func (s *scanner) inheritHeader(data []byte, st int, e *Entry) {
	end := st - 1
	for hops := 0; hops < 64 && end > 0; hops++ {
		ps := bytes.LastIndexByte(data[:end], '\n') + 1
		var h Entry
		if end-ps <= 64<<10 && s.parser.parse(data[ps:end], &h) {
			e.Time, e.YearInferred, e.TimeSource = h.Time, h.YearInferred, h.TimeSource
			e.Severity, e.Caller = h.Severity, h.Caller
			if e.process == "" {
				e.process = h.process
			}
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

// firstLines reads the time of the first line that has one, and votes with the
// callers of the first lines.
func (s *scanner) firstLines(data []byte) {
	pos := 0
	for i := 0; i < 50 && pos < len(data); i++ {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data) - pos
		}
		if end <= 64<<10 {
			var e Entry
			s.parser.parse(data[pos:pos+end], &e)
			s.badTime(&e, s.line+i+1)
			if e.Caller != "" {
				s.vote(callerFile(e.Caller), 1)
			}
			if !e.Time.IsZero() && s.info.First.IsZero() {
				s.observe(&e.Time, e.YearInferred)
				s.info.First = e.Time
				s.file.firstProv = e.YearInferred
				s.info.Format = e.TimeSource
				if e.TimeSource == "klog" && e.process != "" {
					s.info.Format = "journald"
				}
			}
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
		if end-st <= 64<<10 {
			var e Entry
			s.parser.parse(data[st:end], &e)
			s.badTime(&e, s.line-bytes.Count(data[end:], []byte{'\n'})+1-boolInt(end == len(data)))
			if e.Caller != "" {
				s.vote(callerFile(e.Caller), 1)
			}
			if !e.Time.IsZero() {
				s.observe(&e.Time, e.YearInferred)
				if e.Time.After(s.info.Last) || e.YearInferred {
					s.info.Last = e.Time
					s.file.lastProv = e.YearInferred
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
	s.closeSection(s.line)
	voted := s.guessedComponent()
	if s.info.Component == "" {
		s.info.Component = voted
	}
	perComponent := map[string]*sectionState{}
	for i := range s.pending {
		e := &s.pending[i]
		if e.Component == "" {
			e.Component = s.lineComponent(e, voted)
		}
		if s.pathComponent == "" && len(s.sections) == 0 && e.Component != "" {
			sec := perComponent[e.Component]
			if sec == nil {
				sec = &sectionState{component: e.Component, startLine: 1, endLine: s.info.Lines}
				perComponent[e.Component] = sec
			}
			sec.matched++
			sec.entries = append(sec.entries, i)
		}
	}
	secs := s.sections
	if len(perComponent) > 1 {
		// a log of several processes (k3s, rke2, a journal): one section per component
		for _, sec := range perComponent {
			secs = append(secs, *sec)
		}
		sort.Slice(secs, func(i, j int) bool { return secs[i].component < secs[j].component })
	}
	for _, sec := range secs {
		s.info.Sections = append(s.info.Sections, FileInfo{Path: s.path, Component: sec.component, Lines: sec.endLine - sec.startLine + 1,
			Matched: sec.matched, Format: s.info.Format})
		s.file.sectionEntries = append(s.file.sectionEntries, sec.entries)
	}
	s.info.YearInferred = s.file.provisional
	s.file.Entries = s.pending
	s.pending = nil
}

// lineComponent attributes one entry: a journald identifier naming a component wins,
// then the file's path; processes that run several components (k3s, rke2, microk8s'
// kubelite) are split by the klog caller; else the file's content vote.
func (s *scanner) lineComponent(e *Entry, voted string) string {
	if e.process != "" {
		if c := ComponentFromProcess(e.process); c != "" {
			return c
		}
	}
	if s.pathComponent != "" {
		return s.pathComponent
	}
	if c := ComponentFromCaller(e.Caller); c != "" {
		return c
	}
	return voted
}

func (s *scanner) guessedComponent() string {
	votes := map[string]int{}
	for c, n := range s.callers {
		if strings.HasPrefix(c, "\x00") {
			votes[c[1:]] += n
		} else if comp := ComponentFromCaller(c); comp != "" {
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

// String renders a FileInfo for diagnostics.
func (f FileInfo) String() string {
	return fmt.Sprintf("%s (%s, %s, %d lines, %d matched)", f.Path, f.Component, f.Format, f.Lines, f.Matched)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
