package web

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"sync"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// memFS is the dropped files held in memory as an fs.FS: each file by its clean slash
// path, the folders implied by the paths. It is what testing/fstest.MapFS does for a
// bundle, without bringing a testing package into the browser's module
// (TestMemFS runs fstest.TestFS on it), and its folders are listed once, when the
// first is opened: a walk over the bundle is linear in its files (MapFS scans every
// file for each folder it opens).
type memFS struct {
	files map[string]*memFile
	dirs  map[string][]fs.DirEntry // each folder's entries, sorted (listDirs)
	once  sync.Once                // listDirs, on the first folder opened: Open is safe for concurrent use
}

// memFile is one file's bytes and time.
type memFile struct {
	data    []byte
	modTime time.Time
}

// Open opens a file, or a folder that holds some file's path.
func (m *memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if f, ok := m.files[name]; ok {
		return &openFile{info: memInfo{name: path.Base(name), size: int64(len(f.data)), modTime: f.modTime}, Reader: bytes.NewReader(f.data)}, nil
	}
	m.once.Do(m.listDirs)
	entries, ok := m.dirs[name]
	if !ok && name != "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &openDir{info: memInfo{name: path.Base(name), dir: true}, entries: entries}, nil
}

// listDirs lists every folder's entries in one pass over the files: each file in its
// folder, each folder in its parent the first time a path goes through it (its own
// parents were listed then).
func (m *memFS) listDirs() {
	m.dirs = map[string][]fs.DirEntry{".": nil}
	seen := map[string]bool{}
	for p, f := range m.files {
		child := memInfo{name: path.Base(p), size: int64(len(f.data)), modTime: f.modTime}
		for dir := path.Dir(p); ; dir = path.Dir(dir) {
			listOps.Inc()
			m.dirs[dir] = append(m.dirs[dir], fs.FileInfoToDirEntry(child))
			if dir == "." || seen[dir] {
				break
			}
			seen[dir] = true
			child = memInfo{name: path.Base(dir), dir: true}
		}
	}
	for _, es := range m.dirs {
		sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	}
}

// listOps counts the folder entries listDirs looks at (parsers/work: counted only in
// TestMemFSLinear).
var listOps = work.New("memFS folder entries listed")

// memInfo is the fs.FileInfo of a file or folder of a memFS.
type memInfo struct {
	name    string
	size    int64
	modTime time.Time
	dir     bool
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) ModTime() time.Time { return i.modTime }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o644
}

// openFile is an open file: read, read at, seek (an archive is read in place).
type openFile struct {
	*bytes.Reader
	info memInfo
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *openFile) Close() error               { return nil }

// openDir is an open folder: its entries, read in turns.
type openDir struct {
	info    memInfo
	entries []fs.DirEntry
	next    int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: errors.New("is a directory")}
}

// ReadDir returns the next n entries (all that are left when n <= 0).
func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	left := d.entries[d.next:]
	if n <= 0 {
		d.next = len(d.entries)
		return append([]fs.DirEntry(nil), left...), nil
	}
	if len(left) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(left))
	d.next += n
	return append([]fs.DirEntry(nil), left[:n]...), nil
}
