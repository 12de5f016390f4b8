// Package web is the analysis behind nsanalyze's offline page (cmd/nsanalyze-web): the
// files a user dropped or the text they pasted, held in memory, are read by the same
// bundle reader (bundle.LoadFS) and analysed by the same pipeline as the command
// (internal/pipeline), and the report is rendered by the same renderers. It holds no
// browser code, so it is tested like any package; Page builds the page.
package web

import (
	"bytes"
	"fmt"
	"path"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/knownissues"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/cmd/internal/pipeline"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// File is one file the user gave: its path as the browser gives it (a dropped folder's
// files are under the folder's name) and its bytes.
type File struct {
	Name    string
	Data    []byte
	ModTime time.Time // when the file was last modified (zero: now), as on disk
}

// PasteName is the name a pasted text is read under (`nsanalyze pasted.txt` reads the
// same text saved to a file the same way).
const PasteName = "pasted.txt"

// MaxInputBytes caps what the page reads in all: the page holds the files in the
// browser's memory, where the command streams them from disk.
const MaxInputBytes = 512 << 20

// Options are the page's switches.
type Options struct {
	Redact     bool     // --redact
	Namespaces []string // -n
}

// Result is what the page shows.
type Result struct {
	Name           string // what was read, as the report names it
	State, Summary string
	// ExitCode is the code `nsanalyze NAME` would exit with (0 none stuck, 1 stuck,
	// 2 nothing readable, 3 inconclusive).
	ExitCode int
	// HTML is the report the page shows; the others are written on demand (Render),
	// when the page downloads them: the JSON report of a large bundle takes a second
	// to write in a browser.
	HTML    []byte
	Error   string   // why there is no report
	Notes   []string // what of the input was not read, and why
	Elapsed time.Duration
	// of which reading the bundle (bundle.LoadFS), analysing it and writing the HTML
	// report (BenchmarkPage reports them)
	ReadTime, AnalysisTime, RenderTime time.Duration

	report *findings.Report
}

// Formats are the formats of the reports the page offers (Render).
var Formats = []string{"html", "json", "markdown", "text"}

// Render writes the report in format (one of Formats), as `nsanalyze -o FORMAT` does.
func (r *Result) Render(format string) ([]byte, error) {
	if r.report == nil {
		return nil, fmt.Errorf("no report: %s", r.Error)
	}
	if format == "html" && r.HTML != nil {
		return r.HTML, nil
	}
	var b bytes.Buffer
	if err := render.RenderWith(&b, r.report, format, render.Options{}); err != nil {
		return nil, fmt.Errorf("the %s report could not be written: %v", format, err)
	}
	return b.Bytes(), nil
}

// Analyze reads files as one bundle and returns its report: one file is read as
// `nsanalyze FILE` reads it (an archive, a dump, a log, a ticket); several, or a
// dropped folder, as `nsanalyze DIR` reads a directory.
func Analyze(files []File, o Options) (res Result) {
	start := time.Now()
	fsys, name, notes := bundleFS(files)
	res = Result{Name: name, Notes: notes, ExitCode: 2}
	defer func() { res.Elapsed = time.Since(start) }()
	if name == "" {
		res.Error = "nothing to read: drop a bundle (a folder, a .tar.gz or .zip archive, files) or paste a ticket"
		if len(notes) > 0 {
			res.Error += " (" + strings.Join(notes, "; ") + ")"
		}
		return res
	}
	rd := pipelineRedactor(o, name)
	rec, err := bundle.LoadFS(fsys, name, pipeline.BundleOptions())
	res.ReadTime = time.Since(start)
	if rec != nil {
		rec.Path = name
	}
	if err == nil && !pipeline.Readable(rec) {
		err = fmt.Errorf("nothing in %s could be read as a Kubernetes support bundle (%d files looked at: no Kubernetes object, component log or kubectl output)", name, len(rec.Files))
	}
	if err != nil {
		if rec != nil {
			res.Notes = append(res.Notes, refused(rec, rd)...)
		}
		msg := err.Error()
		for _, w := range warnings(rec) {
			msg += "\n" + w
		}
		if rd != nil {
			rd.Records(rec)
			rd.Text(msg)
			msg = rd.String(msg)
		}
		res.Error = shellsafe.EscapeLine(msg)
		return res
	}
	cat, err := builtinCatalog()
	if err != nil {
		res.Error = fmt.Sprintf("the shipped known-issue catalog: %v", err)
		return res
	}
	report := pipeline.Analyze(rec, pipeline.Options{Namespaces: o.Namespaces, Catalog: cat, Redactor: rd})
	res.Notes = append(res.Notes, refused(rec, rd)...)
	report.Generator = generator()
	res.AnalysisTime = time.Since(start) - res.ReadTime
	res.State, res.Summary, res.ExitCode = report.State, report.Summary, exitCode(report)
	res.report = report
	html, err := res.Render("html")
	if err != nil {
		res.Notes = append(res.Notes, err.Error())
	}
	res.HTML = html
	res.RenderTime = time.Since(start) - res.ReadTime - res.AnalysisTime
	return res
}

func pipelineRedactor(o Options, name string) *redact.Redactor {
	if !o.Redact {
		return nil
	}
	return pipeline.NewRedactor([]string{name}, o.Namespaces)
}

// warnings are the first warnings of the reading, one line each.
func warnings(rec *bundle.Records) []string {
	var out []string
	if rec == nil {
		return nil
	}
	for i, w := range rec.Warnings {
		if i == 20 {
			out = append(out, fmt.Sprintf("… and %d more warnings", len(rec.Warnings)-i))
			break
		}
		at := w.File
		if w.Line > 0 {
			at += fmt.Sprintf(":%d", w.Line)
		}
		if at != "" {
			at += ": "
		}
		out = append(out, "warning: "+at+w.Message)
	}
	return out
}

// builtinCatalog is the shipped known-issue catalog, parsed once for every input.
var builtinCatalog = sync.OnceValues(knownissues.Builtin)

// refused are the reader's warnings of input it stopped reading as hostile (the
// decompression budget of parsers/bundle: a bomb), said above the report too.
func refused(rec *bundle.Records, rd *redact.Redactor) []string {
	var out []string
	for _, w := range rec.Warnings {
		if strings.Contains(w.Message, "decompression bomb") {
			msg := "refused: " + w.File + ": " + w.Message
			if rd != nil {
				msg = rd.String(msg)
			}
			out = append(out, shellsafe.EscapeLine(msg))
		}
	}
	return out
}

// exitCode is the code nsanalyze exits with for the report (--fail-on stuck).
func exitCode(r *findings.Report) int {
	switch {
	case len(r.Namespaces) > 0:
		return 1
	case r.State == findings.StateUnknown:
		return 3
	}
	return 0
}

// bundleFS holds the files in memory and names the bundle to read in it: the one file,
// the one folder all files are in, or "." for several. Names that are not paths
// inside the bundle (absolute, climbing out with ..) are kept as data under a clean
// name; an empty or repeated name, and what goes beyond MaxInputBytes, is left out
// with a note.
func bundleFS(files []File) (*memFS, string, []string) {
	fsys := &memFS{files: map[string]*memFile{}}
	var notes []string
	var total int64
	now := time.Now()
	for _, f := range files {
		n := strings.ToValidUTF8(strings.ReplaceAll(f.Name, "\\", "/"), "\uFFFD")
		n = strings.TrimPrefix(path.Clean("/"+n), "/")
		if n == "" || n == "." {
			notes = append(notes, fmt.Sprintf("a file without a name (%d bytes) was left out", len(f.Data)))
			continue
		}
		if _, dup := fsys.files[n]; dup {
			notes = append(notes, fmt.Sprintf("%s was given twice; the first is read", n))
			continue
		}
		if total+int64(len(f.Data)) > MaxInputBytes {
			notes = append(notes, fmt.Sprintf("%s left out: the page reads at most %d MiB in all (run nsanalyze on the command line for larger bundles)", n, MaxInputBytes>>20))
			continue
		}
		total += int64(len(f.Data))
		mt := f.ModTime
		if mt.IsZero() {
			mt = now
		}
		fsys.files[n] = &memFile{data: f.Data, modTime: mt}
	}
	for n := range fsys.files {
		// a file that is also a folder of another (a/b and a/b/c): the folder wins
		for d := path.Dir(n); d != "." && d != "/"; d = path.Dir(d) {
			if _, clash := fsys.files[d]; clash {
				delete(fsys.files, d)
				notes = append(notes, fmt.Sprintf("%s is both a file and a folder; the file was left out", d))
			}
		}
	}
	if len(fsys.files) == 0 {
		return fsys, "", notes
	}
	names := make([]string, 0, len(fsys.files))
	for n := range fsys.files {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 1 && !strings.Contains(names[0], "/") {
		return fsys, names[0], notes
	}
	top, _, _ := strings.Cut(names[0], "/")
	for _, n := range names {
		if !strings.HasPrefix(n, top+"/") {
			return fsys, ".", notes
		}
	}
	return fsys, top, notes
}

// generator identifies this nsanalyze in the reports it writes, as the command does.
func generator() *findings.Generator {
	g := &findings.Generator{Name: "nsanalyze", Version: "(devel)"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return g
	}
	if v := info.Main.Version; v != "" {
		g.Version = v
	}
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			g.Revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if g.Revision != "" && modified {
		g.Revision += "-dirty"
	}
	return g
}
