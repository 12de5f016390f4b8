package bundle

import (
	"time"
)

// yearReference is the newest dated evidence of the bundle, which completes the
// year of year-less log times (klog headers, journald short format): a dumped
// object's timestamps, a table's AGE or describe's "lasts" added to the dumped
// object's timestamp (CaptureBounds), the collector's own clock, the Date of an
// e-mail the bundle is or holds; else a log line with a full date; else the objects
// of the other bundles read together. zero when nothing in
// the bundle is dated (then the caller falls back to a file's modification time, and
// never to the clock of the machine running the analysis).
func (l *loader) yearReference() (time.Time, string) {
	var ref time.Time
	basis := ""
	consider := func(t time.Time, why string) {
		if t.After(ref) {
			ref, basis = t, why
		}
	}
	consider(l.newest, "the newest object timestamp of the bundle")
	for _, b := range l.rec.CaptureBounds[l.boundStart:] {
		consider(b.Time, b.Why())
	}
	if !l.rec.CaptureClock.IsZero() {
		consider(l.rec.CaptureClock, "the collector's clock ("+l.rec.CaptureClockSource+")")
	}
	consider(l.mailClock, "the Date of the e-mail "+l.mailClockFile)
	if ref.IsZero() {
		for _, lf := range l.logFiles {
			if !lf.f.Info.YearInferred {
				consider(lf.f.Info.Last, "the newest timestamped log line of the bundle")
			}
		}
	}
	if ref.IsZero() {
		consider(l.rec.NewestObjectTime, "the newest object timestamp of the bundles read together")
	}
	return ref, basis
}
