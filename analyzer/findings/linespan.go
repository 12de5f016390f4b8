package findings

import (
	"fmt"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// LineSpan says how many log lines there are and when the first and last were written.
func LineSpan(ls []*logs.Entry) string {
	if len(ls) == 0 {
		return "no log line"
	}
	var first, last time.Time
	for _, e := range ls {
		if e.Time.IsZero() {
			continue // a pasted line (a condition message, kubectl stderr) has no time
		}
		if first.IsZero() || e.Time.Before(first) {
			first = e.Time
		}
		if e.Time.After(last) {
			last = e.Time
		}
	}
	if first.IsZero() {
		return fmt.Sprintf("%d %s, without times", len(ls), Plural(len(ls), "lines", "line")) // (not "log": a condition message, kubectl stderr)
	}
	return fmt.Sprintf("%d log %s, first %s, last %s", len(ls), Plural(len(ls), "lines", "line"), FmtTime(first), FmtTime(last))
}
