package index

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// Match keeps the log lines of one shape for a rule, in the single pass over the
// prefiltered lines while the index is built.
type Match struct {
	// Phrases are literal substrings of the lines (quoted from the Kubernetes source):
	// Keys runs once for a line whose detail contains any of them, never for another.
	Phrases []string
	// Keys returns the keys under which the line is kept (nil or empty: not kept);
	// detail is the line's message with its structured fields (logs.Entry.Detail). A
	// nil Keys keeps every such line under the key "".
	Keys func(e *logs.Entry, detail string) []string
}

// matches reports whether detail contains one of the match's phrases.
func (m *Match) matches(detail string) bool {
	for _, p := range m.Phrases {
		if strings.Contains(detail, p) {
			return true
		}
	}
	return false
}

// keep returns the keys under which a line is kept, when one of the phrases is in it.
func (m *Match) keep(e *logs.Entry, detail string) []string {
	if !m.matches(detail) {
		return nil
	}
	if m.Keys == nil {
		return []string{""}
	}
	return m.Keys(e, detail)
}
