package bundle_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

var kcmDec = `E1231 23:59:50.000000       1 namespace_controller.go:157] deletion of namespace old failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request` + "\n"
var kcmJan = `E0101 00:00:10.000000       1 namespace_controller.go:157] deletion of namespace client failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request` + "\n"

const nsJSON = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"client","creationTimestamp":"2026-12-01T00:00:00Z","deletionTimestamp":"2027-01-01T00:00:05Z"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating"}}`

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func load(t *testing.T, p string) *bundle.Records {
	t.Helper()
	rec, err := bundle.Load(p, bundle.Options{Keywords: []string{"deletion of namespace"}})
	if err != nil {
		t.Fatalf("load %s: %v", p, err)
	}
	return rec
}

func hasWarning(ws []diag.Warning, file, fragment string) bool {
	for _, w := range ws {
		if strings.HasSuffix(w.File, file) && strings.Contains(w.Message, fragment) {
			return true
		}
	}
	return false
}

// TestRotatedGzipLogs: a .gz rotated log is read (decompressed in memory), before the
// current file, and the December line gets the year before the January one.
func TestRotatedGzipLogs(t *testing.T) {
	files := []bfile{
		{name: "cluster/namespaces.json", data: []byte(nsJSON)},
		{name: "logs/kube-controller-manager.log", data: []byte(kcmJan)},
		{name: "logs/kube-controller-manager.log.1.gz", data: gz(t, kcmDec)},
	}
	tmp := t.TempDir()
	for _, p := range []string{writeTree(t, filepath.Join(tmp, "d"), files), writeArchive(t, filepath.Join(tmp, "b.tgz"), "tar.gz", "x/", files),
		writeArchive(t, filepath.Join(tmp, "b.zip"), "zip", "", files)} {
		rec := load(t, p)
		if len(rec.Entries) != 2 {
			t.Fatalf("%s: %d entries", p, len(rec.Entries))
		}
		old, cur := rec.Entries[0], rec.Entries[1]
		if !strings.HasSuffix(old.File, ".log.1.gz") || old.Time.Year() != 2026 || cur.Time.Year() != 2027 {
			t.Errorf("%s: order/years wrong: %s %s / %s %s", p, old.File, old.Time, cur.File, cur.Time)
		}
		if old.Component != "kube-controller-manager" || !old.YearInferred {
			t.Errorf("%s: %+v", p, old)
		}
	}
}

// TestSymlinks: links inside the bundle are not read twice; a loop and a link leaving
// the bundle are reported and not followed; archive names with .. or / stay data.
func TestSymlinks(t *testing.T) {
	tmp := t.TempDir()
	outside := filepath.Join(tmp, "outside.log")
	if err := os.WriteFile(outside, []byte(kcmDec), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []bfile{
		{name: "cluster/namespaces.json", data: []byte(nsJSON)},
		{name: "cluster-resources/pods/logs/kube-system/kcm-0/c.log", data: []byte(kcmJan)},
		{name: "kube-controller-manager/kcm-0/c.log", link: "../../cluster-resources/pods/logs/kube-system/kcm-0/c.log"},
		{name: "loop/a.log", link: "b.log"},
		{name: "loop/b.log", link: "a.log"},
		{name: "escape/up.log", link: "../../outside.log"},
		{name: "escape/abs.log", link: outside},
	}
	for _, p := range []string{writeTree(t, filepath.Join(tmp, "b", "d"), files), writeArchive(t, filepath.Join(tmp, "b.tar"), "tar", "", files),
		writeArchive(t, filepath.Join(tmp, "b.zip"), "zip", "", files)} {
		rec := load(t, p)
		if len(rec.Entries) != 1 || rec.Entries[0].Time.Year() != 2027 {
			t.Fatalf("%s: entries %+v", p, rec.Entries)
		}
		// the symlink named after the component gives it to the target's lines
		if rec.Entries[0].Component != "kube-controller-manager" {
			t.Errorf("%s: component %q", p, rec.Entries[0].Component)
		}
		if !hasWarning(rec.Warnings, "loop/a.log", "loop") || !hasWarning(rec.Warnings, "loop/b.log", "loop") {
			t.Errorf("%s: no loop warning: %v", p, rec.Warnings)
		}
		if !hasWarning(rec.Warnings, "escape/up.log", "outside the bundle") || !hasWarning(rec.Warnings, "escape/abs.log", "outside the bundle") {
			t.Errorf("%s: no escape warning: %v", p, rec.Warnings)
		}
	}
	// member names climbing out or absolute are read as data under a cleaned name
	p := writeArchive(t, filepath.Join(tmp, "evil.tar"), "tar", "", []bfile{
		{name: "../../../etc/kube-controller-manager.log", data: []byte(kcmJan)},
		{name: "/abs/namespaces.json", data: []byte(nsJSON)},
	})
	rec := load(t, p)
	if len(rec.Entries) != 1 || rec.Entries[0].File != "etc/kube-controller-manager.log" || len(allObjects(rec)) != 1 {
		t.Fatalf("entries %+v objects %d", rec.Entries, len(allObjects(rec)))
	}
	if _, err := os.Stat(filepath.Join(tmp, "..", "..", "etc", "kube-controller-manager.log")); err == nil {
		t.Errorf("an archive member was written to disk")
	}
}

// TestMultipleBundles merges two bundles with provenance.
func TestMultipleBundles(t *testing.T) {
	tmp := t.TempDir()
	a := writeArchive(t, filepath.Join(tmp, "a.tgz"), "tar.gz", "", []bfile{{name: "namespaces.json", data: []byte(nsJSON)}})
	b := writeTree(t, filepath.Join(tmp, "b"), []bfile{{name: "logs/kube-controller-manager.log", data: []byte(kcmJan)}})
	rec, err := bundle.LoadAll([]string{a, b}, bundle.Options{Keywords: []string{"deletion of namespace"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(allObjects(rec)) != 1 || allObjects(rec)[0].Source.File != "a.tgz:namespaces.json" {
		t.Errorf("objects %+v", allObjects(rec))
	}
	if len(rec.Entries) != 1 || rec.Entries[0].File != "b:logs/kube-controller-manager.log" || rec.Entries[0].Time.Year() != 2027 {
		t.Errorf("entries %+v", rec.Entries)
	}
	if len(rec.Bundles) != 2 || rec.Bundles[0].Format != bundle.FormatTarGzip || rec.Bundles[1].Format != bundle.FormatDirectory {
		t.Errorf("bundles %+v", rec.Bundles)
	}
}

// TestSingleFiles: one JSON dump, one log, one gzipped log.
func TestSingleFiles(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		name    string
		data    []byte
		objects int
		entries int
	}{
		{"ns.json", []byte(nsJSON), 1, 0},
		{"kube-controller-manager.log", []byte(kcmJan), 0, 1},
		{"kube-controller-manager.log.gz", gz(t, kcmJan), 0, 1},
	} {
		p := filepath.Join(tmp, c.name)
		os.WriteFile(p, c.data, 0o644)
		rec := load(t, p)
		if len(allObjects(rec)) != c.objects || len(rec.Entries) != c.entries {
			t.Errorf("%s: %d objects %d entries", c.name, len(allObjects(rec)), len(rec.Entries))
		}
		if c.entries > 0 && rec.Entries[0].Component != "kube-controller-manager" {
			t.Errorf("%s: component %q", c.name, rec.Entries[0].Component)
		}
	}
}

// allObjects is every kept object of rec, whole or slim, in the order read.
func allObjects(rec *bundle.Records) []*objects.Object {
	var out []*objects.Object
	rec.EachObject(func(o *objects.Object) { out = append(out, o) })
	return out
}
