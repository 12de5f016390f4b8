package bundle

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// buildNested interprets prog as instructions that wrap content in archives and
// compressions: a structure-aware input for the archive readers (tar, zip and gzip
// nested in any order, siblings, overlapping and lying zip entries, sparse members,
// long, absolute and climbing names, links, truncation).
func buildNested(prog, content []byte) []byte {
	cur, name := content, "kube-controller-manager.log"
	next := func(i *int) byte {
		if *i < len(prog) {
			b := prog[*i]
			*i++
			return b
		}
		return 0
	}
	names := []string{"x.log", "../up.log", "/abs/y.json", "a/" + strings.Repeat("d/", 300) + "z.log", "n.tar.gz", "n.zip", "ns.yaml",
		strings.Repeat("L", 5000), "C:\\w\\e.log", "kube-apiserver.log.1.gz"}
	for i := 0; i < len(prog) && i < 64; {
		op := next(&i)
		arg := next(&i)
		switch op % 9 {
		case 0:
			cur, name = hostile.GzipOf(cur), name+".gz"
		case 1:
			cur, name = hostile.TarWith([]*tar.Header{{Name: name, Typeflag: tar.TypeReg, Size: int64(len(cur)), Mode: 0o644, Format: tar.FormatPAX},
				{Name: names[int(arg)%len(names)], Typeflag: tar.TypeReg, Size: 2, Mode: 0o644, Format: tar.FormatPAX}}, [][]byte{cur, []byte("x\n")}), "n.tar"
		case 2:
			cur, name = hostile.ZipOf(map[string][]byte{name: cur, names[int(arg)%len(names)]: []byte("{}")}), "n.zip"
		case 3:
			cur, name = hostile.OverlappingZip(name, cur, 1+int(arg)%8), "o.zip"
		case 4:
			cur, name = hostile.LyingZip(name, cur), "l.zip"
		case 5:
			cur, name = hostile.SparseTar(name, cur, int64(len(cur))<<(arg%63)), "s.tar"
		case 6:
			cur, name = hostile.TarWith([]*tar.Header{{Name: name, Typeflag: tar.TypeReg, Size: int64(len(cur)), Mode: 0o644},
				{Name: "ln", Typeflag: [2]byte{tar.TypeLink, tar.TypeSymlink}[arg%2], Linkname: names[int(arg/2)%len(names)]}}, [][]byte{cur}), "k.tar"
		case 7:
			if len(cur) > 0 {
				cur = cur[:len(cur)*int(arg)/256]
			}
		case 8:
			if len(cur) > 0 {
				cur = append([]byte(nil), cur...)
				cur[int(arg)*len(cur)/256] ^= 0xff
			}
		}
	}
	return cur
}

// FuzzNestedArchives builds nested archives from a program and loads them under a
// small decompression budget: loading must end quickly, never catch a bug, never read
// past the budget, and keep names, warnings and times bounded.
func FuzzNestedArchives(f *testing.F) {
	kcm := []byte("E0101 00:00:00.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n9999-12-31T23:59:59-23:59 stdout F deletion of namespace z\n")
	f.Add([]byte{0, 0, 1, 3, 0, 0}, kcm)
	f.Add([]byte{2, 1, 1, 4, 0, 0}, kcm)
	f.Add([]byte{3, 5, 1, 0, 0, 0}, kcm)
	f.Add([]byte{4, 0, 1, 2}, kcm)
	f.Add([]byte{5, 40, 0, 0}, kcm)
	f.Add([]byte{6, 3, 0, 0, 7, 200}, kcm)
	f.Add([]byte{1, 7, 2, 3, 1, 2, 0, 0, 8, 100}, []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"x","creationTimestamp":"0000-01-01T00:00:00+01:00"}}`))
	f.Fuzz(func(t *testing.T, prog, content []byte) {
		if len(content) > 1<<16 {
			return
		}
		data := buildNested(prog, content)
		p := filepath.Join(t.TempDir(), "bundle.bin")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		const budget = 4 << 20
		done := make(chan *Records, 1)
		go func() {
			rec, _ := Load(p, Options{Keywords: samplePhrases, MaxDecompressedBytes: budget})
			done <- rec
		}()
		var rec *Records
		select {
		case rec = <-done:
		case <-time.After(hostile.HangCap(30 * time.Second)):
			t.Fatalf("Load hangs on %d bytes", len(data))
		}
		if rec == nil {
			return
		}
		var read int64
		for _, lf := range rec.LogFiles {
			read += lf.Bytes
		}
		if read > budget+int64(len(data)) {
			t.Fatalf("read %d bytes of logs from %d bytes with a budget of %d", read, len(data), budget)
		}
		for _, r := range rec.Files {
			if len(r) > diag.MaxNameBytes+200 {
				t.Fatalf("name of %d bytes", len(r))
			}
		}
		for _, e := range rec.Entries {
			if !e.Time.IsZero() && !diag.InRange(e.Time) {
				t.Fatalf("time %s", e.Time)
			}
		}
		for _, w := range rec.Warnings {
			if diag.IsInternal(w) {
				t.Fatalf("a bug was caught: %v", w)
			}
			if len(w.File)+len(w.Message) > 4*diag.MaxNameBytes+diag.MaxMessageBytes {
				t.Fatalf("warning of %d bytes", len(w.File)+len(w.Message))
			}
		}
	})
}

var _ = bytes.MinRead
var _ = fmt.Sprint
