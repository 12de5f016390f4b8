package diag

import "time"

// MinTime and MaxTime bound the times the parsers accept: years 0001 to 9999 in UTC,
// what RFC 3339 and the JSON report can carry. A time outside is reported with its
// file and line and treated as no time.
var (
	MinTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// InRange reports whether t lies in [MinTime, MaxTime].
func InRange(t time.Time) bool { return !t.Before(MinTime) && !t.After(MaxTime) }
