package logs

import (
	"fmt"
	"time"
)

// ResolveYears completes the year-less times (klog headers, journald short format) of
// the files of one log, given oldest first (rotated files, then the current one): the
// files are laid on one timeline, a year is added at every rollover (December →
// January inside a file or between two files), and the whole timeline is placed
//
//   - by a year the log states itself (a utiltrace `Trace[...]` line carries a full date), else
//   - so that its last time lies at most two days after ref (the newest object or
//     timestamped log line of the bundle, or the file's modification time).
//
// basis names ref in FileInfo.YearBasis. Files without year-less times are untouched
// (their sections still get their first and last times).
func ResolveYears(chain []*File, ref time.Time, basis string) {
	offs := make([]int, len(chain))
	var prevLast time.Time
	lastIdx, anchorIdx := -1, -1
	for i, f := range chain {
		if !f.provisional {
			continue
		}
		if !prevLast.IsZero() {
			off := prevLast.Year() - f.firstClock.Year()
			if f.firstClock.AddDate(off, 0, 0).Before(prevLast.Add(-24 * time.Hour)) {
				off++
			}
			offs[i] = max(off, 0)
		}
		prevLast = f.lastClock.AddDate(offs[i], 0, 0)
		lastIdx = i
		if anchorIdx < 0 && !f.anchorClock.IsZero() {
			anchorIdx = i
		}
	}
	shift := 0
	switch {
	case lastIdx < 0:
	case anchorIdx >= 0:
		f := chain[anchorIdx]
		c := f.anchorClock.AddDate(offs[anchorIdx], 0, 0)
		shift = f.anchorReal.Year() - c.Year()
		t := c.AddDate(shift, 0, 0)
		if d := t.Sub(f.anchorReal); d > 180*24*time.Hour {
			shift--
		} else if d < -180*24*time.Hour {
			shift++
		}
		basis = fmt.Sprintf("the date of a utiltrace line of %s", f.Info.Path)
	default:
		f := chain[lastIdx]
		shift = ref.Year() - prevLast.Year()
		if f.wall(prevLast, shift).After(ref.Add(48 * time.Hour)) {
			shift--
		}
	}
	for i, f := range chain {
		if f.provisional {
			years := offs[i] + shift
			for j := range f.Entries {
				e := &f.Entries[j]
				if e.YearInferred && !e.Time.IsZero() {
					e.Time = f.inRange(f.wall(e.Time, years).UTC())
				}
			}
			if f.firstProv && !f.Info.First.IsZero() {
				f.Info.First = f.inRange(f.wall(f.Info.First, years).UTC())
			}
			if f.lastProv && !f.Info.Last.IsZero() {
				f.Info.Last = f.inRange(f.wall(f.Info.Last, years).UTC())
			}
			f.Info.YearInferred = true
			f.Info.YearBasis = basis
			f.provisional = false
		}
		for k := range f.Info.Sections {
			sec := &f.Info.Sections[k]
			sec.YearInferred, sec.YearBasis = f.Info.YearInferred, f.Info.YearBasis
			for _, idx := range f.sectionEntries[k] {
				t := f.Entries[idx].Time
				if t.IsZero() {
					continue
				}
				if sec.First.IsZero() || t.Before(sec.First) {
					sec.First = t
				}
				if t.After(sec.Last) {
					sec.Last = t
				}
			}
		}
	}
}

// DropYearless is ResolveYears when nothing dates the log: the year-less times are
// dropped (a time without its year is no time), the files say why in YearBasis.
func DropYearless(chain []*File, basis string) {
	for _, f := range chain {
		if !f.provisional {
			continue
		}
		for j := range f.Entries {
			if e := &f.Entries[j]; e.YearInferred {
				e.Time = time.Time{}
			}
		}
		if f.firstProv {
			f.Info.First = time.Time{}
		}
		if f.lastProv {
			f.Info.Last = time.Time{}
		}
		for k := range f.Info.Sections {
			f.Info.Sections[k].First, f.Info.Sections[k].Last = time.Time{}, time.Time{}
			f.Info.Sections[k].YearInferred, f.Info.Sections[k].YearBasis = true, basis
		}
		f.Info.YearInferred, f.Info.YearBasis = true, basis
		f.provisional = false
	}
}

// inRange returns t, or no time (counted in OutOfRange) when the year chosen puts it
// outside years 0001-9999.
func (f *File) inRange(t time.Time) time.Time {
	if InRange(t) {
		return t
	}
	f.outOfRange++
	return time.Time{}
}

// OutOfRange counts the year-less times that ResolveYears dropped because the year
// it chose put them outside years 0001-9999 (the caller reports them).
func (f *File) OutOfRange() int { return f.outOfRange }

// wall places a provisional wall clock (carried in UTC) years later, in the file's zone.
func (f *File) wall(t time.Time, years int) time.Time {
	loc := f.loc
	if loc == nil {
		loc = time.UTC
	}
	return time.Date(t.Year()+years, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
}
