package bundle

import (
	"archive/tar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

const kcmLine = "E0101 00:00:00.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n"

func writeBundleFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func limitWarnings(rec *Records) []diag.Warning {
	var out []diag.Warning
	for _, w := range rec.Warnings {
		if strings.Contains(w.Message, "exceeds the limit") {
			out = append(out, w)
		}
	}
	return out
}

func scannedBytes(rec *Records) int64 {
	var n int64
	for _, f := range rec.LogFiles {
		n += f.Bytes
	}
	return n
}

// TestBudgetNestedGzip: four .gz bombs inside a .tar.gz share the one budget of the
// file on disk (before, each got its own cap and the total was four times it).
func TestBudgetNestedGzip(t *testing.T) {
	files := map[string][]byte{"logs/kcm.log": []byte(kcmLine)}
	for _, n := range []string{"a", "b", "c", "d"} {
		files["logs/"+n+".log.gz"] = hostile.BombGz(100 << 20)
	}
	p := writeBundleFile(t, "b.tar.gz", hostile.TarGzOf(files))
	const max = 32 << 20
	rec, _, err := loadGuarded(t, p, Options{MaxDecompressedBytes: max}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if ws := limitWarnings(rec); len(ws) != 1 {
		t.Errorf("limit warnings %v, want one", ws)
	}
	if n := scannedBytes(rec); n > max {
		t.Errorf("%d bytes of logs read, budget %d", n, max)
	}
	if b := newBudget(inflateLimits{}, 98<<10); b.max != DefaultMinInflateLimit {
		t.Errorf("budget of 98 KB on disk: %d", b.max)
	}
}

// TestBudgetZipMembers: zip members are capped too (before, they were read whole).
func TestBudgetZipMembers(t *testing.T) {
	p := writeBundleFile(t, "b.zip", hostile.ZipOf(map[string][]byte{"kcm.log": []byte(kcmLine),
		"z.log": []byte(strings.Repeat("I0101 00:00:00.000000 1 x.go:1] filler line\n", 1<<20))}))
	rec, _, err := loadGuarded(t, p, Options{MaxDecompressedBytes: 8 << 20}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ws := limitWarnings(rec)
	if len(ws) != 1 || ws[0].File != "z.log" {
		t.Errorf("limit warnings %v, want one naming z.log", ws)
	}
}

// TestZipOverlappingEntries: entries sharing one data stream are read once.
func TestZipOverlappingEntries(t *testing.T) {
	p := writeBundleFile(t, "b.zip", hostile.OverlappingZip("kcm.log.", []byte(kcmLine), 50))
	rec, _, err := loadGuarded(t, p, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Entries) != 1 {
		t.Errorf("%d entries, want 1 (the data is read once)", len(rec.Entries))
	}
	ws := warningsFor(rec, "kcm.log.1")
	if len(rec.Warnings) != 1 || len(ws) != 1 || !strings.HasPrefix(ws[0].Message, "49 zip entries skipped") {
		t.Errorf("warnings %v, want one about 49 entries", rec.Warnings)
	}
}

// TestZipLyingSizes: a central directory claiming size 0 for a non-empty entry is
// reported, and the deflated data read.
func TestZipLyingSizes(t *testing.T) {
	p := writeBundleFile(t, "b.zip", hostile.LyingZip("kcm.log", []byte(kcmLine)))
	rec, _, err := loadGuarded(t, p, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ws := warningsFor(rec, "kcm.log")
	if len(ws) != 1 || !strings.Contains(ws[0].Message, "size 0") || len(rec.Entries) != 1 {
		t.Errorf("warnings %v, %d entries; want one about the size and the line read", ws, len(rec.Entries))
	}
}

// TestSparseTarMember: a sparse member claiming 2^62 bytes is skipped; one claiming
// less than the budget is read, its holes counted against it.
func TestSparseTarMember(t *testing.T) {
	p := writeBundleFile(t, "b.tar", hostile.SparseTar("logs/kcm.log", []byte(kcmLine), 1<<62))
	rec, _, _ := loadGuarded(t, p, Options{MaxDecompressedBytes: 16 << 20}, 30*time.Second) // nothing else to read: an error too
	if ws := warningsFor(rec, "logs/kcm.log"); len(ws) != 1 || !strings.Contains(ws[0].Message, "sparse") {
		t.Errorf("warnings %v, want one naming logs/kcm.log", ws)
	}
	p = writeBundleFile(t, "c.tar", hostile.SparseTar("logs/kcm.log", []byte(kcmLine), 1<<20))
	rec, _, err := loadGuarded(t, p, Options{}, 30*time.Second)
	if err != nil || len(rec.Entries) != 1 {
		t.Errorf("small sparse member: %v %v", err, rec.Warnings)
	}
}

// TestZipInsideTar: a zip inside a tar.gz is opened like a nested tar.
func TestZipInsideTar(t *testing.T) {
	inner := hostile.ZipOf(map[string][]byte{"kube-controller-manager.log": []byte(kcmLine)})
	p := writeBundleFile(t, "b.tar.gz", hostile.TarGzOf(map[string][]byte{"nodes/n1.zip": inner, "other.log": []byte("x\n")}))
	rec, _, err := loadGuarded(t, p, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Entries) != 1 || rec.Entries[0].File != "nodes/n1.zip/kube-controller-manager.log" {
		t.Errorf("entries %+v, warnings %v", rec.Entries, rec.Warnings)
	}
}

// TestTarHardLinkNamed: a dangling hard link is reported as a hard link.
func TestTarHardLinkNamed(t *testing.T) {
	p := writeBundleFile(t, "b.tar", hostile.TarWith([]*tar.Header{
		{Name: "kcm.log", Typeflag: tar.TypeReg, Size: int64(len(kcmLine)), Mode: 0o644},
		{Name: "hl.log", Typeflag: tar.TypeLink, Linkname: "missing.log"},
	}, [][]byte{[]byte(kcmLine)}))
	rec, _, err := loadGuarded(t, p, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	ws := warningsFor(rec, "hl.log")
	if len(ws) != 1 || !strings.HasPrefix(ws[0].Message, "hard link") {
		t.Errorf("warnings %v, want one about a hard link", ws)
	}
}

// TestLongNamesCapped: member names and link targets of 512 KiB are kept capped in the
// records and warnings.
func TestLongNamesCapped(t *testing.T) {
	long := strings.Repeat("a/", 1<<18)
	p := writeBundleFile(t, "b.tar", hostile.TarWith([]*tar.Header{
		{Name: "kcm.log", Typeflag: tar.TypeReg, Size: int64(len(kcmLine)), Mode: 0o644},
		{Name: long + "x.log", Typeflag: tar.TypeReg, Size: 2, Mode: 0o644, Format: tar.FormatPAX},
		{Name: "link.log", Typeflag: tar.TypeSymlink, Linkname: "/" + long, Format: tar.FormatPAX},
		{Name: "/" + long + "y.log", Typeflag: tar.TypeReg, Size: 2, Mode: 0o644, Format: tar.FormatPAX},
	}, [][]byte{[]byte(kcmLine), []byte("x\n"), nil, []byte("y\n")}))
	rec, _, err := loadGuarded(t, p, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rec.Files {
		if len(f) > diag.MaxNameBytes+64 {
			t.Errorf("file name of %d bytes kept", len(f))
		}
	}
	for _, w := range rec.Warnings {
		if len(w.File)+len(w.Message) > 3*diag.MaxNameBytes+1000 {
			t.Errorf("warning of %d bytes", len(w.File)+len(w.Message))
		}
	}
	if len(rec.Files) != 3 {
		t.Errorf("files %d", len(rec.Files))
	}
}
