package findings

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// entrySortOps counts the comparisons of sorting log lines (parsers/work: counted only in
// the tests that hold the analysis linear).
var entrySortOps = work.New("sort comparisons (timeline, evidence)") // one count with the timeline's (analyzer)

// TimePtr returns a pointer to t, or nil for the zero time (JSON null).
func TimePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// FieldEvidence quotes a field of an object.
func FieldEvidence(o *objects.Object, field, text string) Evidence {
	return Evidence{File: o.Source.File, Line: o.Source.LineOf(field), Object: o.Ref(), Field: field, Text: text}
}

// ConditionEvidence quotes a status condition.
func ConditionEvidence(o *objects.Object, c *objects.Condition) Evidence {
	line := c.Line
	if line == 0 {
		line = o.Source.Line
	}
	text := fmt.Sprintf("%s=%s", c.Type, c.Status)
	if c.Reason != "" {
		text += " reason=" + c.Reason
	}
	if c.Message != "" {
		text += " message=" + c.Message
	}
	return Evidence{File: o.Source.File, Line: line, Time: TimePtr(c.LastTransitionTime), Object: o.Ref(),
		Field: "status.conditions[type=" + c.Type + "]", Text: text}
}

// LogEvidence quotes a log line.
func LogEvidence(e *logs.Entry) Evidence {
	return Evidence{File: e.File, Line: e.Line, Time: TimePtr(e.Time), TimeInferred: e.YearInferred && !e.Time.IsZero(),
		Component: e.Component, Text: e.Text}
}

// Correlation describes a set of log lines relative to a deletion time.
type Correlation struct {
	firstAfter, lastAfter time.Time
	countAfter            int
	before                bool
	firstOverall          time.Time
	untimed               int
	total                 int
}

// Correlate times log lines against a deletion: first and last seen, occurrences,
// whether they began before the deletion.
func Correlate(entries []*logs.Entry, deletion time.Time) Correlation {
	var c Correlation
	for _, e := range entries {
		c.total++
		if e.Time.IsZero() {
			c.untimed++
			continue
		}
		if c.firstOverall.IsZero() || e.Time.Before(c.firstOverall) {
			c.firstOverall = e.Time
		}
		if !deletion.IsZero() && e.Time.Before(deletion) {
			c.before = true
			continue
		}
		c.countAfter++
		if c.firstAfter.IsZero() || e.Time.Before(c.firstAfter) {
			c.firstAfter = e.Time
		}
		if e.Time.After(c.lastAfter) {
			c.lastAfter = e.Time
		}
	}
	return c
}

// Apply copies the Correlation into a cause and writes its plain-words sentence.
func (c Correlation) Apply(cause *Cause, deletion time.Time, what string) {
	cause.FirstSeen = TimePtr(c.firstAfter)
	cause.LastSeen = TimePtr(c.lastAfter)
	cause.Occurrences = c.countAfter
	cause.SeenBeforeDeletion = c.before
	if c.before {
		cause.FirstSeenOverall = TimePtr(c.firstOverall)
	}
	if c.total == 0 {
		cause.Correlation = "no log line in the bundle shows " + what
		return
	}
	var s string
	switch {
	case deletion.IsZero():
		s = fmt.Sprintf("%d log %s %s (deletion time unknown)", c.total-c.untimed, Plural(c.total-c.untimed, "lines show", "line shows"), what)
		if !c.firstOverall.IsZero() {
			s += fmt.Sprintf(", first at %s", FmtTime(c.firstOverall))
		}
	case c.countAfter > 0:
		s = fmt.Sprintf("%d log %s %s after the deletion at %s: first %s (+%s), last %s", c.countAfter, Plural(c.countAfter, "lines show", "line shows"), what,
			FmtTime(deletion), FmtTime(c.firstAfter), FmtDuration(c.firstAfter.Sub(deletion)), FmtTime(c.lastAfter))
	default:
		s = fmt.Sprintf("no log line after the deletion at %s shows %s", FmtTime(deletion), what)
	}
	if c.before {
		s += fmt.Sprintf("; the same error was already logged before the deletion (first at %s): the cluster was broken before the namespace was deleted", FmtTime(c.firstOverall))
	} else if !deletion.IsZero() && c.countAfter > 0 {
		s += "; it was not logged before the deletion"
	}
	if c.untimed > 0 {
		s += fmt.Sprintf("; %d more lines carry no time", c.untimed)
	}
	cause.Correlation = s
}

// SampleLines picks evidence from many log lines: for each file and line shape, the
// first and the last line, with the number of lines of that shape.
func SampleLines(entries []*logs.Entry, max int) []Evidence {
	type group struct {
		first, last *logs.Entry
		n           int
	}
	var order []string
	groups := map[string]*group{}
	for _, e := range entries {
		key := e.File + "\x00" + logs.Shape(e.Text)
		g, ok := groups[key]
		if !ok {
			g = &group{first: e}
			groups[key] = g
			order = append(order, key)
		}
		g.last = e
		g.n++
	}
	var out []Evidence
	for _, k := range order {
		g := groups[k]
		ev := LogEvidence(g.first)
		ev.Count = g.n
		out = append(out, ev)
		if g.last != g.first {
			ev2 := LogEvidence(g.last)
			ev2.Count = g.n
			out = append(out, ev2)
		}
		if len(out) >= max {
			break
		}
	}
	return out
}

// SortEntries orders log lines by time (lines without a time first), then file and line.
func SortEntries(es []*logs.Entry) {
	sort.SliceStable(es, func(i, j int) bool {
		entrySortOps.Inc()
		if !es[i].Time.Equal(es[j].Time) {
			return es[i].Time.Before(es[j].Time)
		}
		if es[i].File != es[j].File {
			return es[i].File < es[j].File
		}
		return es[i].Line < es[j].Line
	})
}

// FmtTime renders a time in UTC to the second, as every report does.
func FmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

// FmtDuration renders a duration the way an engineer says it: 3d4h, 2h5m, 1m40s.
func FmtDuration(d time.Duration) string {
	if d < 0 {
		return "-" + FmtDuration(-d)
	}
	d = d.Round(time.Second)
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	h := d / time.Hour
	d -= h * time.Hour
	m := d / time.Minute
	d -= m * time.Minute
	s := d / time.Second
	switch {
	case days > 0:
		return fmt.Sprintf("%dd%dh", days, h)
	case h > 0:
		return fmt.Sprintf("%dh%dm", h, m)
	case m > 0:
		return fmt.Sprintf("%dm%ds", m, s)
	default:
		return fmt.Sprintf("%ds", s)
	}
}

// SetTimes sets the link's first and last times from its evidence.
func (l *Link) SetTimes() {
	for _, e := range l.Evidence {
		if e.Time == nil {
			continue
		}
		if l.FirstSeen == nil || e.Time.Before(*l.FirstSeen) {
			l.FirstSeen = e.Time
		}
		if l.LastSeen == nil || e.Time.After(*l.LastSeen) {
			l.LastSeen = e.Time
		}
	}
}

// AttachLines makes the log lines that support a cause its evidence (a sample of at
// most max lines, grouped by shape, after the evidence it already has), its time
// correlation with the deletion ("what" names them in the sentence) and its related
// lines (every one, for the timeline).
func (c *Cause) AttachLines(lines []*logs.Entry, deletion time.Time, what string, max int) {
	SortEntries(lines)
	c.Evidence = append(c.Evidence, SampleLines(lines, max)...)
	Correlate(lines, deletion).Apply(c, deletion, what)
	c.Related = lines
}

// MaxQuote is the longest evidence text a cause keeps whole. A longer one (a discovery
// condition naming hundreds of group/versions, a log line listing them) is quoted in
// part: its start and, for each of the first few names the cause is about, the words
// around it. Every cause of a namespace may quote the same long text, so quoting it
// whole would make the report grow with causes × text; the whole text stays in the
// bundle at file:line (and a condition's in namespaces[].conditions[].message).
const MaxQuote = 1024

// focusNames is how many of a cause's names a partial quote shows.
const focusNames = 3

// FocusEvidence quotes a cause's long evidence texts in part, around its names.
func FocusEvidence(c *Cause) {
	var names []string
	for _, xs := range [][]string{c.GroupVersions, c.APIServices, c.Webhooks, c.Finalizers} {
		for _, x := range xs {
			if len(names) < focusNames && x != "" {
				names = append(names, x)
			}
		}
	}
	focus := func(evs []Evidence) {
		for i := range evs {
			if len(evs[i].Text) > MaxQuote {
				evs[i].Text = FocusQuote(evs[i].Text, names)
			}
		}
	}
	focus(c.Evidence)
	for i := range c.Chain {
		focus(c.Chain[i].Evidence)
	}
}

// FocusQuote quotes a long text in part: its first 300 bytes and up to 300 bytes
// around the first occurrence of each name, joined by " … ", then how long the whole
// text is. A text of at most MaxQuote bytes is returned as it is.
func FocusQuote(text string, names []string) string {
	if len(text) <= MaxQuote {
		return text
	}
	const head, before, after = 300, 100, 200
	cut := func(i int) int { // back to a rune start
		for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
			i--
		}
		return i
	}
	end := cut(head)
	parts := []string{text[:end]}
	for _, n := range names {
		i := strings.Index(text[end:], n)
		if i < 0 {
			continue
		}
		i += end
		from, to := cut(max(end, i-before)), cut(min(len(text), i+len(n)+after))
		if to <= from {
			continue
		}
		parts = append(parts, text[from:to])
		end = to
	}
	return strings.Join(parts, " … ") + fmt.Sprintf(" … (quoted in part: %s bytes in all)", Count(len(text)))
}

// CondState renders a condition's state for a sentence: "Type is Status (Reason)", or
// "Type is Status" when the bundle shows no reason (a jsonpath paste of type and status).
func CondState(c *objects.Condition) string {
	if c.Reason == "" {
		return fmt.Sprintf("%s is %s", c.Type, c.Status)
	}
	return fmt.Sprintf("%s is %s (%s)", c.Type, c.Status, c.Reason)
}
