package logs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

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
	// Pasted says the file was read as a paste parsers/paste repaired (lines a terminal
	// or a client wrapped, a quote, a frame): its records may be pieces of its lines.
	Pasted bool
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
