// Package bundle opens a support bundle read-only, finds the object dumps and the
// component logs in it, and runs the object and log parsers over them.
//
// Objects are read first: their timestamps give the year that klog lines lack. Logs
// are then read once each, streaming, with the caller's key phrases as a prefilter.
// Nothing is ever written into the bundle.
package bundle

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Options tune loading.
type Options struct {
	Keywords     []string       // log lines to parse (see logs.Options.Keywords)
	LogLocation  *time.Location // zone of klog times (default UTC)
	MaxLineBytes int            // see logs.Options
	// Exclude skips files whose bundle-relative path equals or lies under one of these.
	Exclude []string
	// KeepObject, when set, decides which objects are kept in Records.Objects
	// (the others are only counted), so memory grows with what the analysis needs.
	KeepObject func(*objects.Object) bool
}

// Records is everything the parsers extracted from a bundle.
type Records struct {
	Path     string // as given
	Objects  []*objects.Object
	Entries  []logs.Entry
	LogFiles []logs.FileInfo
	// Files lists every file of the bundle (relative paths), read or not.
	Files []string
	// ObjectFiles lists the files objects were read from.
	ObjectFiles []string
	ObjectCount int // all objects seen, kept or not
	Warnings    []diag.Warning
	// NewestObjectTime is the newest timestamp found in any object: the best estimate of
	// when the bundle was collected when nothing better says so.
	NewestObjectTime time.Time
}

// file is one regular file of the bundle.
type file struct {
	rel  string
	full string
	size int64
}

// Load reads the bundle at root (a directory or a single file).
func Load(root string, opts Options) (*Records, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("cannot open bundle: %w", err)
	}
	rec := &Records{Path: root}
	warn := &diag.Sink{}
	var files []file
	if st.IsDir() {
		files = walk(root, opts, warn)
	} else if st.Mode().IsRegular() {
		files = []file{{rel: filepath.Base(root), full: root, size: st.Size()}}
	} else {
		return nil, fmt.Errorf("cannot read bundle %s: not a directory or a regular file", root)
	}
	if len(files) == 0 {
		rec.Warnings = warn.List
		return rec, fmt.Errorf("bundle %s holds no readable file", root)
	}

	var logFiles []file
	readable := 0
	for _, f := range files {
		rec.Files = append(rec.Files, f.rel)
		kind, ok := sniffFile(f, warn)
		if !ok {
			continue
		}
		readable++
		switch kind {
		case "json", "yaml":
			rec.loadObjects(f, kind, opts, warn)
		case "jsonlog", "text":
			logFiles = append(logFiles, f)
		}
	}
	for _, f := range logFiles {
		rec.loadLog(f, opts, warn)
	}
	rec.Warnings = warn.List
	if readable == 0 {
		return rec, fmt.Errorf("no file of bundle %s could be read", root)
	}
	return rec, nil
}

// skippedExt are files that are never objects or logs.
var skippedExt = map[string]bool{".md": true, ".cmdline": true, ".pem": true, ".crt": true, ".key": true,
	".png": true, ".jpg": true, ".html": true, ".svg": true, ".pdf": true}

func walk(root string, opts Options, warn *diag.Sink) []file {
	var files []file
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			warn.Add(rel, 0, "cannot read: %v", err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if excluded(rel, opts.Exclude) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if skippedExt[strings.ToLower(path.Ext(rel))] {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			warn.Add(rel, 0, "cannot stat: %v", err)
			return nil
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				warn.Add(rel, 0, "broken or looping symlink not followed: %v", err)
				return nil
			}
			absRoot, _ := filepath.EvalSymlinks(root)
			if r, err := filepath.Rel(absRoot, target); err != nil || strings.HasPrefix(r, "..") {
				warn.Add(rel, 0, "symlink pointing outside the bundle not followed")
				return nil
			}
			ti, err := os.Stat(target)
			if err != nil || !ti.Mode().IsRegular() {
				return nil
			}
			files = append(files, file{rel: rel, full: target, size: ti.Size()})
			return nil
		}
		if !info.Mode().IsRegular() {
			warn.Add(rel, 0, "not a regular file (%s), skipped", info.Mode().Type())
			return nil
		}
		files = append(files, file{rel: rel, full: p, size: info.Size()})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	return files
}

func excluded(rel string, ex []string) bool {
	for _, e := range ex {
		e = strings.Trim(filepath.ToSlash(e), "/")
		if e != "" && (rel == e || strings.HasPrefix(rel, e+"/")) {
			return true
		}
	}
	return false
}

// sniffFile reads the head of a file and classifies it.
func sniffFile(f file, warn *diag.Sink) (string, bool) {
	if f.size == 0 {
		return "", false
	}
	fh, err := os.Open(f.full)
	if err != nil {
		warn.Add(f.rel, 0, "cannot open: %v", err)
		return "", false
	}
	defer fh.Close()
	head := make([]byte, 8192)
	n, err := io.ReadFull(fh, head)
	if n == 0 && err != nil {
		warn.Add(f.rel, 0, "cannot read: %v", err)
		return "", false
	}
	kind := objects.Sniff(head[:n])
	if kind == "binary" {
		warn.Add(f.rel, 0, "binary file skipped")
		return "", false
	}
	ext := strings.ToLower(path.Ext(f.rel))
	if kind == "text" && (ext == ".yaml" || ext == ".yml") {
		return "yaml", true // YAML may start with comments
	}
	if kind == "text" && ext == ".json" {
		warn.Add(f.rel, 1, "%s file does not start like JSON or YAML; read as a log", ext)
	}
	return kind, true
}

func (rec *Records) loadObjects(f file, kind string, opts Options, warn *diag.Sink) {
	fh, err := os.Open(f.full)
	if err != nil {
		warn.Add(f.rel, 0, "cannot open: %v", err)
		return
	}
	defer fh.Close()
	emit := func(o *objects.Object) {
		rec.ObjectCount++
		rec.noteTimes(o)
		if opts.KeepObject == nil || opts.KeepObject(o) {
			rec.Objects = append(rec.Objects, o)
		}
	}
	var n int
	oo := objects.Options{KindHint: kindHintFromPath(f.rel)}
	if kind == "yaml" {
		n = objects.DecodeYAML(fh, f.rel, oo, warn, emit)
	} else {
		n = objects.DecodeJSON(fh, f.rel, oo, warn, emit)
	}
	if n > 0 {
		rec.ObjectFiles = append(rec.ObjectFiles, f.rel)
	}
}

func (rec *Records) noteTimes(o *objects.Object) {
	note := func(t time.Time) {
		if t.After(rec.NewestObjectTime) {
			rec.NewestObjectTime = t
		}
	}
	note(o.CreationTimestamp)
	note(o.DeletionTimestamp)
	for _, c := range o.Conditions {
		note(c.LastTransitionTime)
	}
	if o.Event != nil {
		note(o.Event.Last)
	}
	if o.Lease != nil {
		note(o.Lease.RenewTime)
	}
}

func (rec *Records) loadLog(f file, opts Options, warn *diag.Sink) {
	fh, err := os.Open(f.full)
	if err != nil {
		warn.Add(f.rel, 0, "cannot open: %v", err)
		return
	}
	defer fh.Close()
	lo := logs.Options{Keywords: opts.Keywords, Reference: rec.NewestObjectTime, Location: opts.LogLocation, MaxLineBytes: opts.MaxLineBytes}
	info, err := logs.Scan(fh, f.rel, lo, warn, func(e logs.Entry) { rec.Entries = append(rec.Entries, e) })
	if err != nil {
		warn.Add(f.rel, 0, "%v", err)
	}
	rec.LogFiles = append(rec.LogFiles, info)
}

// kindHintFromPath names the kind of kind-less objects from well-known file names
// (`namespaces/<ns>/namespace.json`, `apiservices.json`, ...).
func kindHintFromPath(rel string) string {
	base := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	switch base {
	case "namespace", "namespaces":
		return "Namespace"
	case "apiservices":
		return "APIService"
	}
	return ""
}
