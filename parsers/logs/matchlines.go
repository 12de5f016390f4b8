// The keyword prefilter of a scan: which lines (and CRI partial-line chains) are
// parsed at all, and the parse of each that is.

package logs

import (
	"bytes"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

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

func (s *scanner) initMatcher() {
	if s.match == nil {
		// The CRI partial tags (10 bytes) are not searched with the keywords: they would
		// shorten the matcher's window and its skips; mayHavePartial gates them instead.
		s.match = sharedMatcher(s.keywords, marker{sectionStart, seenSection})
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

// linesParsed counts the matching lines parsed (parsers/work, the linear-work tests).
var linesParsed = work.New("log lines parsed")
