// Package diag carries the warnings every parser reports about input it could not
// read completely. A warning names the file (relative to the bundle root) and, when it
// is known, the line; it never stops the analysis.
package diag

import "fmt"

// Warning is a problem with the input that the report must show.
type Warning struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
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

// Sink collects warnings; the zero value is ready to use.
type Sink struct {
	List []Warning
	// Limit caps how many warnings are kept per file (0 = 20); the rest are counted.
	Limit   int
	perFile map[string]int
}

// Add records a warning.
func (s *Sink) Add(file string, line int, format string, args ...any) {
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
	}
	if n > limit {
		return
	}
	s.List = append(s.List, Warning{File: file, Line: line, Message: fmt.Sprintf(format, args...)})
}
