package findings

import (
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// TestLineSpan: lines without a time (a pasted condition message, kubectl stderr) never
// show as year 1; the span is of the lines that have one.
func TestLineSpan(t *testing.T) {
	at := time.Date(2026, 3, 12, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		ls   []*logs.Entry
		want string
	}{
		{nil, "no log line"},
		{[]*logs.Entry{{}}, "1 line, without times"},
		{[]*logs.Entry{{}, {Time: at}, {Time: at.Add(time.Minute)}}, "3 log lines, first 2026-03-12 09:00:00Z, last 2026-03-12 09:01:00Z"},
	} {
		if got := LineSpan(c.ls); got != c.want {
			t.Errorf("LineSpan = %q, want %q", got, c.want)
		}
	}
}
