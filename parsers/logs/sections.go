// The regions of a log file a scan reads, and the container sections of a
// `kubectl cluster-info dump` file ("==== START logs for container ...") in them.

package logs

import (
	"bytes"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

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
	// the lines up to pos are counted already (line - s.line): one pass over the data
	nl := line - s.line + bytes.Count(data[pos:], []byte{'\n'})
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

// Markers the matcher looks for with the keywords, so that the exact search for
// section headers runs only in regions that hold them.
const (
	seenSection uint8 = 1 << iota
)

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
