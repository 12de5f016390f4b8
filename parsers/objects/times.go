// The times of an object: RFC3339 parsing, and warnings for times that are not
// RFC3339 or lie outside the representable years.

package objects

import (
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// parseTime reads RFC3339 (metav1.Time) and RFC3339 with fractions (metav1.MicroTime).
// A time outside years 0001-9999 once in UTC (which JSON cannot carry) is no time;
// 0001-01-01T00:00:00Z, Go's zero time, is no time too.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	t = t.UTC()
	if !diag.InRange(t) {
		return time.Time{}
	}
	return t
}

const (
	timeOK = iota
	timeInvalid
	timeOutOfRange
)

// timeStatus tells a valid time from one that is not RFC3339 and from one outside
// years 0001-9999 in UTC.
func timeStatus(s string) int {
	t, err := time.Parse(time.RFC3339Nano, s)
	switch {
	case err != nil:
		return timeInvalid
	case !diag.InRange(t.UTC()):
		return timeOutOfRange
	}
	return timeOK
}

// checkTimes reports the times of an object that lie outside years 0001-9999 (they
// were read as no time).
func checkTimes(o *Object, w *wire, path string, line int, warn warner) {
	check := func(field, v string) {
		if v != "" && timeStatus(v) == timeOutOfRange {
			warn.Add(path, line, "%s: %s %q is outside years 0001-9999, ignored", o.Ref(), field, capString(v))
		}
	}
	check("metadata.creationTimestamp", w.Metadata.CreationTimestamp)
	check("metadata.deletionTimestamp", w.Metadata.DeletionTimestamp)
	for _, c := range w.Status.Conditions {
		check("status.conditions[].lastTransitionTime", c.LastTransitionTime)
	}
	if o.Event != nil {
		check("firstTimestamp", w.FirstTimestamp)
		check("lastTimestamp", w.LastTimestamp)
		check("deprecatedLastTimestamp", w.DeprecatedLastTimestamp)
		check("eventTime", w.EventTime)
	}
	if o.Lease != nil {
		check("spec.renewTime", w.Spec.RenewTime)
		check("spec.acquireTime", w.Spec.AcquireTime)
	}
}
