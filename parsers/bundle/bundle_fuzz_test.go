package bundle

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// archiveNames are the names a fuzzed bundle file is given: the name decides nothing
// (formats are sniffed) but exercises the extension rules.
var archiveNames = []string{"bundle.tar.gz", "bundle.zip", "bundle.tar", "bundle.tgz", "namespaces.json", "kube-apiserver.log", "x.yaml", "b.tar.xz"}

// FuzzLoadArchive feeds arbitrary bytes to the loader as a single-file bundle (tar,
// compressed tar, zip, object dump or log). It must never panic or hang, never create
// anything next to the bundle (members are data, never extracted), and never report a
// path that is absolute or climbs out of the bundle.
func FuzzLoadArchive(f *testing.F) {
	small := filepath.Join("..", "..", "fixtures", "handmade", "operator-deleted-before-cr")
	if tgz, err := hostile.TarGz(small, "bundle/"); err == nil {
		f.Add(tgz, uint8(0))
		f.Add(tgz[:len(tgz)/2], uint8(0))
		if zr, err := gzip.NewReader(bytes.NewReader(tgz)); err == nil {
			var plain bytes.Buffer
			plain.ReadFrom(zr)
			f.Add(plain.Bytes(), uint8(2))
			f.Add(plain.Bytes()[:plain.Len()/3], uint8(2))
		}
	} else {
		f.Logf("no fixture seed: %v", err)
	}
	f.Add(hostileTar(), uint8(2))
	f.Add(hostileZip(), uint8(1))
	f.Add(hostileZip()[:200], uint8(1))
	f.Add(hostile.NestedTarGz("kcm.log", []byte("E0101 00:00:00.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n"), 4), uint8(0))
	// kubectl text, read by content whatever the name
	f.Add([]byte("[root@n tmp]# kubectl get ns\nNAME   STATUS   AGE\ndefault   Active   1d\nx   Terminating   1h\nerror: unable to retrieve the complete list of server APIs: m.k8s.io/v1: x\n"), uint8(4))
	f.Add([]byte("Name:         x\nStatus:       Terminating\nConditions:\n  Type  Status  LastTransitionTime  Reason  Message\n  ----\n  NamespaceDeletionDiscoveryFailure  True  Wed, 15 Jan 2014 00:00:00 +0000  R  M\n"), uint8(5))
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{0x1f, 0x8b}, uint8(0))
	f.Add([]byte("PK\x05\x06"+strings.Repeat("\x00", 18)), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		dir := t.TempDir()
		p := filepath.Join(dir, archiveNames[int(kind)%len(archiveNames)])
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan *Records, 1)
		go func() {
			rec, _ := Load(p, Options{Keywords: samplePhrases, RecordReads: kind%2 == 0})
			done <- rec
		}()
		var rec *Records
		select {
		case rec = <-done:
		case <-time.After(hostile.HangCap(30 * time.Second)):
			t.Fatalf("Load hangs on %d bytes", len(data))
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Fatalf("the bundle's directory holds %d entries after Load", len(ents))
		}
		if rec == nil {
			return
		}
		check := func(what, rel string) {
			if strings.HasPrefix(rel, "/") || rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "/../") {
				t.Fatalf("%s path %q leaves the bundle", what, rel)
			}
		}
		for _, r := range rec.Files {
			check("file", r)
		}
		if kind%2 == 0 && len(rec.Files) > 0 {
			// -v debug: one record per file of the bundle, none twice
			reads := map[string]bool{}
			for _, r := range rec.Reads {
				check("read record", r.Path)
				if reads[r.Path] {
					t.Fatalf("%s recorded twice", r.Path)
				}
				reads[r.Path] = true
				_ = r.String()
			}
			for _, r := range rec.Files {
				if !reads[r] {
					t.Fatalf("file %s has no read record (%d records)", r, len(rec.Reads))
				}
			}
		}
		for _, o := range allObjects(rec) {
			check("object", o.Source.File)
		}
		for _, e := range rec.Entries {
			check("log entry", e.File)
		}
		for _, w := range rec.Warnings {
			check("warning", w.File)
			if diag.IsInternal(w) {
				t.Fatalf("a bug was caught: %v", w)
			}
		}
	})
}

// hostileTar holds members whose names and types try to escape or confuse the reader.
func hostileTar() []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	add := func(h *tar.Header, body string) {
		h.Size = int64(len(body))
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		tw.WriteHeader(h)
		tw.Write([]byte(body))
	}
	ns := `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"x","deletionTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Terminating"}}`
	add(&tar.Header{Name: "../../../../tmp/evil.json", Typeflag: tar.TypeReg}, ns)
	add(&tar.Header{Name: "/etc/evil.json", Typeflag: tar.TypeReg}, ns)
	add(&tar.Header{Name: "ok/namespace.json", Typeflag: tar.TypeReg}, ns)
	add(&tar.Header{Name: "ok/link.json", Typeflag: tar.TypeSymlink, Linkname: "../../../etc/passwd"}, "")
	add(&tar.Header{Name: "ok/loop.json", Typeflag: tar.TypeSymlink, Linkname: "loop.json"}, "")
	add(&tar.Header{Name: "ok/hard.json", Typeflag: tar.TypeLink, Linkname: "ok/namespace.json"}, "")
	add(&tar.Header{Name: "ok/dev", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 5}, "")
	add(&tar.Header{Name: "ok/fifo", Typeflag: tar.TypeFifo}, "")
	add(&tar.Header{Name: "C:\\windows\\evil.log", Typeflag: tar.TypeReg}, "E0101 00:00:00.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n")
	tw.Close()
	return b.Bytes()
}

func hostileZip() []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range []string{"../evil.json", "/abs.json", "ok/namespace.json", "ok/"} {
		w, _ := zw.Create(name)
		w.Write([]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"x"}}`))
	}
	zw.Close()
	return b.Bytes()
}
