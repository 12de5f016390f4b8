// The bounds of a scan: entries kept per line shape and per file, and the bytes kept of
// a message or a structured value (each cut said in a warning).

package logs

import (
	"fmt"
	"hash/fnv"
	"sort"
	"unicode/utf8"
)

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
