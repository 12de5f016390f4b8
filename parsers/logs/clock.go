// The clock of a scan: times outside the representable years, klog year rollovers,
// the file's first and last times and the anchors that complete year-less times.

package logs

import (
	"bytes"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

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
