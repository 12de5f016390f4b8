package bundle_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// digest is what a reading of a bundle gives, but its path as given.
func digest(rec *bundle.Records) string {
	var ws []string
	for _, w := range rec.Warnings {
		ws = append(ws, fmt.Sprintf("%s:%d %s", w.File, w.Line, w.Message))
	}
	var bs []string
	for _, b := range rec.Bundles {
		bs = append(bs, b.Format+" root="+b.Root+fmt.Sprint(b.Layouts))
	}
	var es []string
	for _, e := range rec.Entries {
		es = append(es, fmt.Sprintf("%s:%d %s", e.File, e.Line, e.Time.Format(time.RFC3339Nano)))
	}
	var os []string
	for _, o := range rec.Objects {
		os = append(os, fmt.Sprintf("%s %s/%s %s:%d", o.Kind, o.Namespace, o.Name, o.Source.File, o.Source.Line))
	}
	return fmt.Sprintf("files=%q\nobjectFiles=%q\nobjects=%d %q\nentries=%q\nlinks=%v\nlayouts=%q\nbundles=%q\ntext=%q\nwarnings=%q\n",
		rec.Files, rec.ObjectFiles, rec.ObjectCount, os, es, rec.Links, rec.Layouts, bs, rec.TextFiles, ws)
}

// mapFS holds files in memory as a page in a browser does, with the given mtime.
func mapFS(files []bfile, prefix string, mt time.Time) fstest.MapFS {
	m := fstest.MapFS{}
	for _, f := range files {
		if f.link != "" {
			m[prefix+f.name] = &fstest.MapFile{Data: []byte(f.link), Mode: fs.ModeSymlink | 0o777, ModTime: mt}
			continue
		}
		m[prefix+f.name] = &fstest.MapFile{Data: f.data, Mode: 0o644, ModTime: mt}
	}
	return m
}

// noReaderAt hides the io.ReaderAt of its files (a stream that cannot seek).
type noReaderAt struct{ fs.FS }

func (n noReaderAt) Open(name string) (fs.File, error) {
	f, err := n.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return struct{ fs.File }{f}, nil
}

// TestLoadFSSameAsLoad: a bundle held in an fs.FS (a directory of it, an archive, one
// file; a zip that can be read in place or only as a stream) reads exactly as the
// same bundle on disk, file for file, object for object, warning for warning.
func TestLoadFSSameAsLoad(t *testing.T) {
	opts := bundle.Options{Keywords: []string{"deletion of namespace"}}
	mt := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)
	for _, fixture := range []string{"a-discovery-failure", "b-finalizer-remaining-json-clusterinfo", "c-webhook-content-failure"} {
		files := readTree(t, filepath.Join("..", "..", "fixtures", "realdata", fixture))
		files = append(files, bfile{name: "link", link: files[0].name}, bfile{name: "broken", link: "nothing"},
			bfile{name: "outside", link: "../../etc/passwd"})
		tmp := t.TempDir()
		dir := writeTree(t, filepath.Join(tmp, "d"), files)
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Type()&fs.ModeSymlink == 0 {
				_ = os.Chtimes(p, mt, mt)
			}
			return nil
		})
		type variant struct {
			name       string
			fsys       fs.FS
			fsName     string
			onDisk     string
			wantFormat string
		}
		var vs []variant
		vs = append(vs, variant{"dir", mapFS(files, "", mt), ".", dir, bundle.FormatDirectory},
			variant{"subdir", mapFS(files, "x/y/", mt), "x/y", dir, bundle.FormatDirectory})
		for _, format := range []string{"tar.gz", "zip"} {
			p := writeArchive(t, filepath.Join(tmp, "b."+format), format, "wrap/", files)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			m := fstest.MapFS{"b." + format: {Data: data, Mode: 0o644, ModTime: mt}}
			vs = append(vs, variant{format, m, "b." + format, p, format},
				variant{format + "-stream", noReaderAt{m}, "b." + format, p, format})
		}
		one := filepath.Join(tmp, "ns.json")
		data, err := os.ReadFile(filepath.Join(dir, "namespaces", "tobedeleted.json"))
		if err == nil {
			if err := os.WriteFile(one, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_ = os.Chtimes(one, mt, mt)
			vs = append(vs, variant{"file", fstest.MapFS{"ns.json": {Data: data, ModTime: mt}}, "ns.json", one, bundle.FormatFile})
		}
		for _, v := range vs {
			t.Run(fixture+"/"+v.name, func(t *testing.T) {
				want, err := bundle.Load(v.onDisk, opts)
				if err != nil {
					t.Fatal(err)
				}
				got, err := bundle.LoadFS(v.fsys, v.fsName, opts)
				if err != nil {
					t.Fatal(err)
				}
				if got.Bundles[0].Format != v.wantFormat {
					t.Errorf("format %s, want %s", got.Bundles[0].Format, v.wantFormat)
				}
				if g, w := digest(got), digest(want); g != w {
					t.Errorf("LoadFS(%s) differs from Load(%s):\n got %s\nwant %s", v.fsName, v.onDisk, g, w)
				}
				if !reflect.DeepEqual(got.ObjectCount, want.ObjectCount) || got.ObjectCount == 0 {
					t.Errorf("%d objects, want %d (> 0)", got.ObjectCount, want.ObjectCount)
				}
			})
		}
	}
}

// TestLoadFSMissing: a name fsys does not hold is an error, as a path that does not exist.
func TestLoadFSMissing(t *testing.T) {
	if _, err := bundle.LoadFS(fstest.MapFS{}, "nope.tgz", bundle.Options{}); err == nil {
		t.Fatal("no error for a missing bundle")
	}
}
