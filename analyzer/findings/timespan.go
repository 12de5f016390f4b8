package findings

import (
	"time"
)

// TimelineSpan returns the first and last time of a timeline (zero when empty).
func TimelineSpan(evs []TimelineEvent) (first, last time.Time) {
	for _, e := range evs {
		if first.IsZero() || e.Time.Before(first) {
			first = e.Time
		}
		if e.Time.After(last) {
			last = e.Time
		}
	}
	return first, last
}
