package bundle

import (
	"fmt"
	"sort"
	"strings"
)

// FileRead says how one file of a bundle was read (Records.Reads, with
// Options.RecordReads): the layout that claims it, the parser that read it and what
// that gave, or why nothing was read from it.
type FileRead struct {
	Path   string // as reported elsewhere (wrapping directory dropped, label prefixed)
	Layout string // the layout that claims the file ("" when none does)
	// As is the parser that read it (ReadObjects, ReadLog, ...), "" when it was skipped.
	As      string
	Format  string // JSON or YAML for objects, the log format (klog, json, cri, ...) for a log
	Objects int    // objects read from it (kept or not)
	Lines   int    // log or text lines read
	Matched int    // log lines with a phrase a rule looks for
	// Listed counts the namespaces of a listing of all namespaces in a text file (a
	// `kubectl get ns` table): what tells an absent namespace from one not dumped.
	Listed int
	// Dumped counts the objects of a text rendering not taken from it because the
	// bundle also dumps them as JSON or YAML (which say more).
	Dumped int
	// Warnings counts the warnings about the file (they say what was wrong).
	Warnings int
	// Skipped says why the file was not read ("" when it was): excluded, empty, binary,
	// an extension never read, a nested archive too deep, a link.
	Skipped string
}

// Parsers of FileRead.As.
const (
	ReadObjects         = "objects"             // Kubernetes objects (parsers/objects)
	ReadLog             = "log"                 // a component log (parsers/logs)
	ReadKubectlText     = "kubectl-text"        // kubectl text: tables, describe, stderr (parsers/text)
	ReadClusterInfo     = "cluster-info-stdout" // a cluster-info dump on stdout: objects and logs
	ReadCollectorErrors = "collector-errors"    // a troubleshoot *-errors.json
	ReadArchive         = "archive"             // an archive inside the bundle: its members are listed on their own
	ReadVersion         = "version"             // a layout's version file (sonobuoy serverversion.json, troubleshoot cluster_version.json)
	ReadClock           = "capture-clock"       // a layout's record of when it ran (must-gather's timestamp)
)

// Nothing says, when the file gave nothing to the analysis, why ("" when it gave something).
func (r FileRead) Nothing() string {
	switch {
	case r.Skipped != "":
		return r.Skipped
	case r.As == ReadObjects && r.Objects == 0:
		return "no Kubernetes object in it (an empty list, or documents without kind and metadata)"
	case r.As == ReadKubectlText && r.Objects == 0 && r.Lines == 0 && r.Listed == 0 && r.Dumped > 0:
		verb := "are"
		if r.Dumped == 1 {
			verb = "is"
		}
		return fmt.Sprintf("its %s %s also dumped as JSON or YAML, which say more", plural(r.Dumped, "object"), verb)
	case r.As == ReadKubectlText && r.Objects == 0 && r.Lines == 0 && r.Listed == 0:
		return "no kubectl table, describe or error text nsanalyze reads in it"
	case (r.As == ReadLog || r.As == ReadClusterInfo) && r.Objects == 0 && r.Lines == 0:
		return "no line in it"
	}
	return ""
}

// String is the file's line of `nsanalyze -v debug`.
func (r FileRead) String() string {
	var b strings.Builder
	b.WriteString(r.Path)
	b.WriteString(": ")
	if r.Layout != "" {
		fmt.Fprintf(&b, "layout %s, ", r.Layout)
	}
	if r.As == "" {
		b.WriteString("not read: ")
		b.WriteString(r.Skipped)
		if r.Warnings > 0 {
			fmt.Fprintf(&b, " (%s)", plural(r.Warnings, "warning"))
		}
		return b.String()
	}
	b.WriteString("read as ")
	b.WriteString(r.As)
	if r.Format != "" {
		fmt.Fprintf(&b, " (%s)", r.Format)
	}
	if r.As == ReadObjects || r.As == ReadKubectlText || r.As == ReadClusterInfo || r.Objects > 0 {
		fmt.Fprintf(&b, ", %s", plural(r.Objects, "object"))
	}
	if r.Dumped > 0 {
		fmt.Fprintf(&b, " (%d more taken from JSON or YAML)", r.Dumped)
	}
	if r.Listed > 0 {
		fmt.Fprintf(&b, ", a listing of %s", plural(r.Listed, "namespace"))
	}
	if r.As == ReadLog || r.As == ReadKubectlText || r.As == ReadClusterInfo {
		fmt.Fprintf(&b, ", %s, %d matched by a rule's phrase", plural(r.Lines, "log line"), r.Matched)
	}
	if r.Warnings > 0 {
		fmt.Fprintf(&b, ", %s", plural(r.Warnings, "warning"))
	}
	if why := r.Nothing(); why != "" {
		b.WriteString(": nothing read: ")
		b.WriteString(why)
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// read is the record of the file at rel (Options.RecordReads only).
func (l *loader) read(rel string) *FileRead {
	r := l.reads[rel]
	if r == nil {
		r = &FileRead{}
		l.reads[rel] = r
	}
	return r
}

// readAs notes that the file at rel is read by parser as (no-op without RecordReads).
func (l *loader) readAs(rel, as, format string) {
	if l.reads != nil {
		r := l.read(rel)
		r.As, r.Format = as, format
	}
}

// skip notes why the file at rel is not read (no-op without RecordReads).
func (l *loader) skip(rel, format string, args ...any) {
	if l.reads != nil {
		l.read(rel).Skipped = fmt.Sprintf(format, args...)
	}
}

// finishReads completes the notes of one bundle, once it is read: every file and link
// of it, its layout, what was read from it and its warnings, under its reported path.
func (l *loader) finishReads(v *bundleView, links map[string]string, strip func(string) string) {
	if l.reads == nil {
		return
	}
	for rel, target := range links {
		if l.reads[rel] == nil {
			if target == "" {
				l.skip(rel, "a link that leaves the bundle or points nowhere")
			} else {
				l.skip(rel, "a link to %s (read there)", strip(target))
			}
		}
	}
	for _, lf := range l.logFiles {
		if r := l.reads[lf.rel]; r != nil {
			r.Lines += lf.f.Info.Lines
			r.Matched += lf.f.Info.Matched
			if r.As == ReadLog {
				r.Format = lf.f.Info.Format
			}
		}
	}
	for _, nl := range l.nsLists {
		if r := l.reads[nl.File]; r != nil && r.As == ReadKubectlText {
			r.Listed += nl.Namespaces
		}
	}
	warnings := map[string]int{}
	for _, w := range l.warn.List {
		warnings[w.File]++
	}
	start := len(l.rec.Reads)
	for rel, r := range l.reads {
		r.Path = strip(rel)
		if lay := claimant(rel, v); lay != nil {
			r.Layout = lay.Name
		}
		r.Objects = l.fileObjects[rel]
		r.Warnings = warnings[r.Path]
		l.rec.Reads = append(l.rec.Reads, *r)
	}
	added := l.rec.Reads[start:]
	sort.Slice(added, func(i, j int) bool { return added[i].Path < added[j].Path })
	l.reads = nil
}
