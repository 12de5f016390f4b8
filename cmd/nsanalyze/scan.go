package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	redactpkg "github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// ScanSchemaVersion identifies the shape of a scan result line (docs/scan.schema.json).
const ScanSchemaVersion = "nsanalyze-scan/v1"

const scanUsage = `nsanalyze scan analyses many bundles, each on its own, and counts their problems by
fingerprint: which faults recur, in how many bundles, and which ones no known issue
explains yet (those first).

Usage:
  nsanalyze scan [flags] DIR|BUNDLE...

A DIR that is not itself a bundle is searched for bundles: archives, and directories
that directly hold bundle files (.json, .yaml, .log, .txt, ...). Each bundle gets one
JSON line (docs/scan.md, schema docs/scan.schema.json) in --results FILE, to which
lines are appended; bundles already in it are skipped, so an interrupted scan resumes
where it stopped. Without bundles, the table of the --results file is printed.

Examples:
  # Count the faults of every ticket's bundle, resumable
  nsanalyze scan --results scan.jsonl /srv/tickets/

  # The JSON lines on stdout instead of the table
  nsanalyze scan -o jsonl bundles/*.tar.gz > scan.jsonl

  # Merge the results of a batch job's tasks and print their table
  cat results-*.jsonl > all.jsonl && nsanalyze scan --results all.jsonl

Each bundle goes through the pipeline of "nsanalyze BUNDLE": one that nsanalyze BUNDLE
refuses (nothing in it reads as a bundle, bundles of several clusters) gets state
"error" with its exit code and why.

Exit codes: 0 when every bundle was analysed (whatever it shows), 2 for a usage error
or when at least one bundle could not be analysed (state "error": what nsanalyze
BUNDLE exits with for it), 4 when stdout or --results could not be written in full.

Flags:
`

// ScanResult is one bundle's line in the results.
type ScanResult struct {
	SchemaVersion string              `json:"schemaVersion"`
	Path          string              `json:"path"`
	State         string              `json:"state"` // stuck, none-stuck, unknown (as the report) or error
	Error         string              `json:"error,omitempty"`
	Summary       string              `json:"summary,omitempty"`
	ExitCode      int                 `json:"exitCode"`
	Kubernetes    string              `json:"kubernetesVersion,omitempty"`
	Namespaces    int                 `json:"stuckNamespaces"`
	Problems      []ScanProblem       `json:"problems"`
	Risks         int                 `json:"risks"`
	Warnings      int                 `json:"warnings"`
	Timings       ScanTimings         `json:"timings"`
	Generator     *findings.Generator `json:"generator,omitempty"`
}

// ScanProblem is a problem of a bundle, as the scan keeps it.
type ScanProblem struct {
	ID          string   `json:"id"`
	CauseType   string   `json:"causeType"`
	Fingerprint string   `json:"fingerprint"`
	KnownIssues []string `json:"knownIssues"`
	Namespaces  int      `json:"namespaces"`
}

// ScanTimings are a bundle's durations, in milliseconds.
type ScanTimings struct {
	ReadMs    int64 `json:"readMs"`
	AnalyzeMs int64 `json:"analyzeMs"`
	TotalMs   int64 `json:"totalMs"`
}

// memoryPerWorker is the soft heap budget of one scan worker: the soft limit of the
// process is the workers times this, unless GOMEMLIMIT says otherwise.
const memoryPerWorker = memoryTarget

// scanOptions are the flags of nsanalyze scan, and what Complete makes of them.
type scanOptions struct {
	output, results *string
	jobs            *int
	memory          *int64
	redact, quiet   *bool
	load            *loadFlags

	args []string
	opts bundle.Options
}

// scanFlags declares the flags of nsanalyze scan.
func scanFlags(fs *pflag.FlagSet) runFunc {
	o := &scanOptions{
		output:  enumFlag(fs, "output", "o", "table", []string{"table", "jsonl"}, "what stdout gets: table (counts by fingerprint, at the end) or jsonl (one result line per bundle)"),
		results: fs.String("results", "", "append each bundle's result line to this file and skip the bundles already in it (resume)"),
		jobs:    fs.IntP("jobs", "j", runtime.GOMAXPROCS(0), "bundles analysed at once (default: the cores)"),
		memory:  fs.Int64("memory-per-worker", memoryPerWorker, "soft heap budget of each worker in bytes: the process's soft limit is jobs times this (GOMEMLIMIT overrides)"),
		redact:  fs.Bool("redact", false, "redact the result lines: summaries, errors and each bundle's path (written bundle-<hash of the path>); fingerprints never hold customer names"),
		quiet:   fs.BoolP("quiet", "q", false, "no progress line on stderr (it only appears when stderr is a terminal)"),
	}
	fileFlag(fs, "results")
	o.load = addLoadFlags(fs)
	return runOptions(o)
}

// Complete fills in what the flags and arguments imply.
func (o *scanOptions) Complete(fs *pflag.FlagSet, _ IOStreams) error {
	o.args = fs.Args()
	var err error
	o.opts, err = o.load.options()
	return err
}

// Validate checks the options before anything is read.
func (o *scanOptions) Validate() error {
	if *o.jobs < 1 {
		return fmt.Errorf("--jobs must be at least 1, got %d", *o.jobs)
	}
	if len(o.args) == 0 && *o.results == "" {
		return usageError{errors.New("expected at least one DIR or BUNDLE (or --results FILE to print its table)")}
	}
	return nil
}

// Run scans the bundles: each through the pipeline, its line to --results and (-o
// jsonl) Out as it is done, the table at the end. A line that cannot be written to
// --results ends the run with exitWrite once the scan is done.
func (o *scanOptions) Run(s IOStreams) int {
	stdout, stderr := s.Out, s.ErrOut
	if os.Getenv("GOMEMLIMIT") == "" && *o.memory > 0 {
		debug.SetMemoryLimit(int64(*o.jobs) * *o.memory)
	}
	var bundles []string
	for _, a := range o.args {
		found, err := findBundles(a)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		bundles = append(bundles, found...)
	}
	var done []ScanResult
	var out *os.File
	if *o.results != "" {
		var err error
		done, err = readResults(*o.results, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "error: --results: %v\n", err)
			return exitUsage
		}
		out, err = openResults(*o.results)
		if err != nil {
			fmt.Fprintf(stderr, "error: --results: %v\n", err)
			return exitUsage
		}
		defer out.Close()
	}
	seen := map[string]bool{}
	for _, r := range done {
		seen[r.Path] = true
	}
	var todo []string
	for _, b := range bundles {
		if k := scanPath(b, *o.redact); !seen[k] {
			seen[k] = true // also drops a bundle named twice
			todo = append(todo, b)
		}
	}
	skipped := len(bundles) - len(todo)

	var lines io.Writer = io.Discard
	if *o.output == "jsonl" {
		lines = stdout // a failed write is the dispatcher's to report
	}
	var resultsErr error
	results := &errWriter{w: io.Discard}
	if out != nil {
		results = &errWriter{w: out}
	}
	prog := newScanProgress(stderr, len(todo), !*o.quiet && isTerminal(stderr))
	all := append([]ScanResult{}, done...)
	failed := 0
	scanBundles(todo, *o.jobs, func(path string) ScanResult {
		return scanOne(path, o.opts, o.load, *o.redact)
	}, func(r ScanResult) {
		line, _ := json.Marshal(r)
		line = append(line, '\n')
		_, _ = results.Write(line)
		_, _ = lines.Write(line)
		if r.State == "error" {
			failed++
		}
		all = append(all, r)
		prog.done(r)
	})
	prog.stop()
	resultsErr = results.err
	if out != nil {
		if err := out.Close(); resultsErr == nil && err != nil && !errors.Is(err, os.ErrClosed) {
			resultsErr = err
		}
	}
	if *o.output == "table" {
		writeScanTable(stdout, all, skipped)
	}
	if resultsErr != nil {
		return writeFailure(stderr, "--results "+*o.results, resultsErr)
	}
	if failed > 0 {
		return exitUsage // as nsanalyze BUNDLE exits for a bundle it cannot analyse
	}
	return exitNotStuck
}

// scanBundles analyses the bundles on jobs workers and hands each result to emit, on
// one goroutine, in completion order. A worker holds one bundle at a time.
func scanBundles(paths []string, jobs int, analyse func(string) ScanResult, emit func(ScanResult)) {
	work := make(chan string)
	res := make(chan ScanResult, jobs)
	var wg sync.WaitGroup
	for i := 0; i < min(jobs, max(1, len(paths))); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				res <- analyse(p)
			}
		}()
	}
	go func() {
		for _, p := range paths {
			work <- p
		}
		close(work)
		wg.Wait()
		close(res)
	}()
	for r := range res {
		emit(r)
	}
}

// scanOne analyses one bundle as `nsanalyze -o json BUNDLE` would. Nothing it meets
// stops the scan: an unreadable bundle or a bug (a panic) is the bundle's state "error".
func scanOne(path string, opts bundle.Options, load *loadFlags, redact bool) (r ScanResult) {
	start := time.Now()
	shown := scanPath(path, redact)
	r = ScanResult{SchemaVersion: ScanSchemaVersion, Path: shown, Problems: []ScanProblem{}, Generator: generator()}
	defer func() {
		if v := recover(); v != nil {
			r = ScanResult{SchemaVersion: ScanSchemaVersion, Path: shown, State: "error", ExitCode: exitUsage, Problems: []ScanProblem{},
				Error: fmt.Sprintf("internal error (a bug in nsanalyze; please report it): %v", v), Generator: generator()}
		}
		r.Timings.TotalMs = time.Since(start).Milliseconds()
	}()
	if scanTestHook != nil {
		scanTestHook(path)
	}
	sd := newSide([]string{path}, []string{path})
	p := &pipeline{opts: opts, load: load, redact: redact, args: []string{path}}
	err := p.run(sd)
	r.Timings.ReadMs = sd.read.Milliseconds()
	var pe *pipelineError
	if errors.As(err, &pe) && pe.unreadable {
		err = errors.New("nothing in it could be read as a Kubernetes support bundle")
	}
	if err != nil {
		msg := err.Error()
		if redact {
			msg = redactScanError(msg, path, shown, p.rd)
		}
		r.State, r.ExitCode, r.Error = "error", exitUsage, shellsafe.EscapeLine(msg)
		return r
	}
	report := sd.report
	r.Timings.AnalyzeMs = sd.analysed.Milliseconds()
	r.State, r.Summary = report.State, report.Summary
	r.ExitCode, _ = exitCodeFor(report, "stuck")
	r.Kubernetes = report.Bundle.KubernetesVersion
	r.Namespaces, r.Risks, r.Warnings = len(report.Namespaces), len(report.Risks), len(report.Warnings)
	for _, p := range report.Problems {
		sp := ScanProblem{ID: p.ID, CauseType: p.CauseType, Fingerprint: p.Fingerprint, KnownIssues: []string{}, Namespaces: len(p.Namespaces)}
		for _, k := range p.KnownIssues {
			sp.KnownIssues = append(sp.KnownIssues, k.ID)
		}
		r.Problems = append(r.Problems, sp)
	}
	return r
}

// scanPath is how a bundle's path is written in scan's lines, table and errors: as it
// is, or under --redact "bundle-" and 16 hex digits of the SHA-256 of its absolute path
// (a bundle's path often names the customer or the ticket). The same bundle gets the
// same name in every run, so --results resumes under --redact too.
func scanPath(path string, redact bool) string {
	if !redact {
		return path
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	h := sha256.Sum256([]byte(path))
	return "bundle-" + hex.EncodeToString(h[:8])
}

// redactScanError writes an error of one bundle without its path and the names the
// redactor learned.
func redactScanError(msg, path, shown string, rd *redactpkg.Redactor) string {
	msg = strings.ReplaceAll(msg, path, shown)
	if abs, err := filepath.Abs(path); err == nil {
		msg = strings.ReplaceAll(msg, abs, shown)
	}
	if rd != nil {
		msg = rd.String(msg)
	}
	return msg
}

// scanTestHook, when set (by tests), runs at the start of each bundle's analysis.
var scanTestHook func(path string)

// bundleExts are the file name endings that make a directory holding them a bundle.
var bundleExts = []string{".json", ".yaml", ".yml", ".log", ".txt", ".out", ".gz", ".log.1"}

// archiveExts are the archives a bundle may be.
var archiveExts = []string{".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".zip"}

func hasSuffix(name string, exts []string) bool {
	l := strings.ToLower(name)
	for _, e := range exts {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// maxScanDepth bounds how deep a DIR is searched for bundles.
const maxScanDepth = 8

// findBundles turns an argument into bundles: a file is one; a directory that directly
// holds bundle files is one; any other directory is searched (hidden entries skipped,
// symlinks not followed, at most maxScanDepth levels) for archives and such directories.
func findBundles(arg string) ([]string, error) {
	st, err := os.Stat(arg)
	if err != nil {
		return nil, err
	}
	arg = filepath.Clean(arg)
	if !st.IsDir() {
		return []string{arg}, nil
	}
	var out []string
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && hasSuffix(e.Name(), bundleExts) && !hasSuffix(e.Name(), archiveExts) {
				out = append(out, dir)
				return nil
			}
		}
		if depth >= maxScanDepth {
			return nil
		}
		for _, e := range entries { // sorted by name
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			p := filepath.Join(dir, name)
			switch {
			case e.IsDir():
				if err := walk(p, depth+1); err != nil {
					return err
				}
			case e.Type().IsRegular() && hasSuffix(name, archiveExts):
				out = append(out, p)
			}
		}
		return nil
	}
	if err := walk(arg, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// maxResultLine bounds one line of a results file (a result line is small).
const maxResultLine = 16 << 20

// readResults reads the result lines already in a results file (none when it does not
// exist). A line that is not a result (a cut last line after a crash) is skipped with
// a warning naming its line; its bundle is analysed again.
func readResults(path string, stderr io.Writer) ([]ScanResult, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, nil // a device or a pipe holds no results to resume from
	}
	var out []ScanResult
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxResultLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r ScanResult
		if err := json.Unmarshal(line, &r); err != nil || r.SchemaVersion != ScanSchemaVersion || r.Path == "" {
			fmt.Fprintf(stderr, "warning: %s:%d: not a scan result line, ignored (its bundle is analysed again)\n", shellsafe.EscapeLine(path), n)
			continue
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", path, n+1, err)
	}
	return out, nil
}

// openResults opens a results file for appending, starting on a new line when the
// file ends in a cut line.
func openResults(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			if _, err := f.Write([]byte("\n")); err != nil {
				f.Close()
				return nil, err
			}
		}
	}
	return f, nil
}

// fpRow is one fingerprint of the table.
type fpRow struct {
	fp       string
	known    string // the first known issue, "" when none fits
	problems int
	bundles  int
	example  string
}

// writeScanTable prints the fingerprints by count: those no known issue explains
// first, then by bundles, problems and fingerprint; then the bundles' states.
func writeScanTable(w io.Writer, all []ScanResult, skipped int) {
	rows := map[string]*fpRow{}
	states := map[string]int{}
	for _, r := range all {
		states[r.State]++
		inBundle := map[string]bool{}
		for _, p := range r.Problems {
			row := rows[p.Fingerprint]
			if row == nil {
				row = &fpRow{fp: p.Fingerprint, example: r.Path}
				if len(p.KnownIssues) > 0 {
					row.known = p.KnownIssues[0]
				}
				rows[p.Fingerprint] = row
			}
			row.problems++
			if !inBundle[p.Fingerprint] {
				inBundle[p.Fingerprint] = true
				row.bundles++
			}
		}
	}
	var list []*fpRow
	for _, r := range rows {
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if (a.known == "") != (b.known == "") {
			return a.known == ""
		}
		if a.bundles != b.bundles {
			return a.bundles > b.bundles
		}
		if a.problems != b.problems {
			return a.problems > b.problems
		}
		return a.fp < b.fp
	})
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, "%d bundles: %d stuck, %d none stuck, %d unknown, %d could not be analysed", len(all),
		states[findings.StateStuck], states[findings.StateNoneStuck], states[findings.StateUnknown], states["error"])
	if skipped > 0 {
		fmt.Fprintf(bw, " (%d already in the results, not analysed again)", skipped)
	}
	fmt.Fprintf(bw, "; %d distinct fingerprints.\n", len(list))
	defer writeScanErrors(bw, all, states["error"])
	if len(list) == 0 {
		return
	}
	width := len("- (none fits)")
	for _, r := range list {
		width = max(width, len(r.known))
	}
	fmt.Fprintf(bw, "\n%7s %8s  %-*s  %s\n", "BUNDLES", "PROBLEMS", width, "KNOWN ISSUE", "FINGERPRINT (first bundle)")
	for _, r := range list {
		known := r.known
		if known == "" {
			known = "- (none fits)"
		}
		fmt.Fprintf(bw, "%7d %8d  %-*s  %s  (%s)\n", r.bundles, r.problems, width, shellsafe.EscapeLine(known), r.fp, shellsafe.EscapeLine(r.example))
	}
}

// writeScanErrors lists, after the table, the bundles that could not be analysed and why.
func writeScanErrors(w io.Writer, all []ScanResult, errs int) {
	for _, r := range all {
		if r.State == "error" {
			fmt.Fprintf(w, "\ncould not be analysed: %s: %s", shellsafe.EscapeLine(r.Path), shellsafe.EscapeLine(r.Error))
		}
	}
	if errs > 0 {
		fmt.Fprintln(w)
	}
}

// scanProgress is one line on a terminal's stderr: bundles done of all, errors, the
// mean time per bundle and the estimated time left.
type scanProgress struct {
	w       io.Writer
	on      bool
	total   int
	n, errs int
	start   time.Time
}

func newScanProgress(w io.Writer, total int, on bool) *scanProgress {
	return &scanProgress{w: w, on: on && total > 0, total: total, start: time.Now()}
}

func (p *scanProgress) done(r ScanResult) {
	if !p.on {
		return
	}
	p.n++
	if r.State == "error" {
		p.errs++
	}
	el := time.Since(p.start)
	left := time.Duration(0)
	if p.n > 0 {
		left = el / time.Duration(p.n) * time.Duration(p.total-p.n)
	}
	fmt.Fprintf(p.w, "\r\x1b[Kscan: %d/%d bundles, %d errors, %s elapsed, about %s left", p.n, p.total, p.errs,
		el.Round(time.Second), left.Round(time.Second))
}

func (p *scanProgress) stop() {
	if p.on {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
