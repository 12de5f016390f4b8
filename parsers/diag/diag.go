// Package diag carries the warnings every parser reports about input it could not
// read completely. A warning names the file (relative to the bundle root) and, when it
// is known, the line; it never stops the analysis.
package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Warning is a problem with the input that the report must show.
type Warning struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
	// Count and Examples are set on a warning that stands for a whole kind
	// (Sink.Grouped): how many there were, and other files' warnings of the kind.
	Count    int      `json:"count,omitempty"`
	Examples []string `json:"examples,omitempty"`
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Message)
	}
	if w.File == "" {
		return w.Message
	}
	return fmt.Sprintf("%s: %s", w.File, w.Message)
}

// DefaultKindLimit is how many warnings of one kind (one message format) a Sink keeps
// when Sink.KindLimit is 0; the rest are counted in one summary warning.
const DefaultKindLimit = 1000

// MaxNameBytes caps a name (an archive member, a link target, an object name) kept in
// records and warnings; see CapName.
const MaxNameBytes = 4 << 10

// MaxMessageBytes caps the text of one warning.
const MaxMessageBytes = 16 << 10

// Sink collects warnings; the zero value is ready to use.
type Sink struct {
	List []Warning
	// Limit caps how many warnings are kept per file (0 = 20); the rest are counted.
	Limit int
	// KindLimit caps how many warnings of one kind (one format string) are kept
	// (0 = DefaultKindLimit); the rest are counted in a final summary warning
	// "N more warnings of this kind suppressed", kept up to date in List.
	KindLimit int
	perFile   map[string]int
	perKind   map[string]*kindCount
	kinds     []string // kind of each warning of List ("" = not counted)
}

type kindCount struct {
	n       int
	summary int // index in List of the summary warning (-1 until needed)
	first   string
}

// Add records a warning. The file name and the message are capped (CapName,
// MaxMessageBytes).
func (s *Sink) Add(file string, line int, format string, args ...any) {
	s.add(format, CapName(file), line, true, func() string { return fmt.Sprintf(format, args...) })
}

// add records a warning of the given kind; perFile applies Limit.
func (s *Sink) add(kind, file string, line int, perFile bool, msg func() string) {
	klimit := s.KindLimit
	if klimit == 0 {
		klimit = DefaultKindLimit
	}
	if s.perKind == nil {
		s.perKind = map[string]*kindCount{}
	}
	k := s.perKind[kind]
	if k == nil {
		k = &kindCount{summary: -1}
		s.perKind[kind] = k
	}
	k.n++
	if k.n > klimit {
		if k.summary < 0 {
			k.summary = len(s.List)
			s.List = append(s.List, Warning{})
			s.kinds = append(s.kinds, kind)
		}
		s.List[k.summary].Message = fmt.Sprintf("%d more warnings of this kind suppressed (the first was %s)", k.n-klimit, k.first)
		return
	}
	if perFile {
		limit := s.Limit
		if limit == 0 {
			limit = 20
		}
		if s.perFile == nil {
			s.perFile = map[string]int{}
		}
		s.perFile[file]++
		n := s.perFile[file]
		if n == limit+1 {
			s.List = append(s.List, Warning{File: file, Message: "further warnings for this file suppressed"})
			s.kinds = append(s.kinds, "")
		}
		if n > limit {
			return
		}
	}
	w := Warning{File: file, Line: line, Message: capBytes(msg(), MaxMessageBytes)}
	if k.n == 1 {
		k.first = capBytes(w.String(), 512)
	}
	s.List = append(s.List, w)
	s.kinds = append(s.kinds, kind)
}

// Merge adds the warnings of another sink (already limited per file there), keeping
// their kinds.
func (s *Sink) Merge(o *Sink) {
	for i, w := range o.List {
		kind := ""
		if i < len(o.kinds) {
			kind = o.kinds[i]
		}
		if kind == "" || IsInternal(w) {
			s.List = append(s.List, w)
			s.kinds = append(s.kinds, "")
			continue
		}
		w := w
		s.add(kind, w.File, w.Line, false, func() string { return w.Message })
	}
}

// CapName returns s, or when it is longer than MaxNameBytes its start followed by
// "…(N more bytes)", so that a hostile name costs bounded memory wherever it is kept.
func CapName(s string) string {
	return capBytes(s, MaxNameBytes)
}

func capBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d more bytes)", s[:cut], len(s)-cut)
}

// GroupMin is how many warnings of one kind Grouped folds into one line.
const GroupMin = 3

// maxGroupExamples is how many other files a grouped warning names.
const maxGroupExamples = 3

// Grouped returns the sink's warnings with each kind (format string) seen GroupMin
// times or more folded into one warning, in the place of its first: its file, line and
// message, the number of warnings of the kind (those over KindLimit included) and a few
// other files as examples. 873 "empty file" warnings become one line; kinds seen less
// often, and warnings without a kind, are kept as they are.
func (s *Sink) Grouped() []Warning {
	if len(s.kinds) != len(s.List) {
		return append([]Warning(nil), s.List...)
	}
	type group struct {
		at       int // index in out
		n        int // warnings of the kind, kept or not
		kept     int
		files    map[string]bool
		examples []string
	}
	count := map[string]int{}
	for i, k := range s.kinds {
		if k != "" && (s.perKind[k] == nil || s.perKind[k].summary != i) {
			count[k]++
		}
	}
	groups := map[string]*group{}
	var out []Warning
	for i, w := range s.List {
		k := s.kinds[i]
		pk := s.perKind[k]
		if k == "" || count[k] < GroupMin || pk == nil {
			out = append(out, w)
			continue
		}
		if pk.summary == i {
			continue // the "N more suppressed" line: counted in the group
		}
		g := groups[k]
		if g == nil {
			g = &group{at: len(out), n: pk.n, kept: 1, files: map[string]bool{w.File: true}}
			groups[k] = g
			out = append(out, w)
			continue
		}
		g.kept++
		if !g.files[w.File] {
			g.files[w.File] = true
			if len(g.examples) < maxGroupExamples && w.File != "" {
				g.examples = append(g.examples, w.String())
			}
		}
	}
	for _, g := range groups {
		w := &out[g.at]
		w.Count = g.n
		w.Examples = g.examples
		more := fmt.Sprintf(" (%d warnings of this kind", g.n)
		if len(g.files) > 1 && g.kept == g.n {
			more += fmt.Sprintf(", in %d files", len(g.files))
		}
		if len(g.examples) > 0 {
			more += "; also " + strings.Join(g.examples, "; ")
		}
		w.Message = capBytes(w.Message+more+")", MaxMessageBytes)
	}
	return out
}
