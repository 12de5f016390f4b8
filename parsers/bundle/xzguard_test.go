package bundle

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/ulikunitz/xz"
)

// xzOf compresses data with the given block size (several blocks when small) into
// streams xz streams, concatenated.
func xzOf(t testing.TB, data []byte, blockSize int64, streams int) []byte {
	t.Helper()
	var out bytes.Buffer
	for i := 0; i < streams; i++ {
		w, err := xz.WriterConfig{DictCap: 1 << 16, BlockSize: blockSize}.NewWriter(&out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}

// withDict rewrites the LZMA2 dictionary of the first block header of an xz stream
// (its CRC32 recomputed): a small file that declares a huge dictionary.
func withDict(t testing.TB, x []byte, prop byte) []byte {
	t.Helper()
	x = append([]byte(nil), x...)
	h := x[12:]
	size := (int(h[0]) + 1) * 4
	i := 2
	for _, f := range []byte{0x40, 0x80} {
		if h[1]&f != 0 {
			for h[i]&0x80 != 0 {
				i++
			}
			i++
		}
	}
	if h[i] != 0x21 || h[i+1] != 1 {
		t.Fatalf("first filter is %#x with %d property bytes, want LZMA2", h[i], h[i+1])
	}
	h[i+2] = prop
	crc := crc32.ChecksumIEEE(h[:size-4])
	h[size-4], h[size-3], h[size-2], h[size-1] = byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24)
	return x
}

// TestXzGuardPassesValidStreams: the guard follows one block, many blocks and
// concatenated streams (the library's and, when installed, xz(1)'s) without changing
// a byte or refusing anything.
func TestXzGuardPassesValidStreams(t *testing.T) {
	data := []byte(strings.Repeat("I0101 00:00:00.000000 1 x.go:1] a line of a log that compresses\n", 5000))
	cases := map[string][]byte{
		"one block":         xzOf(t, data, 1<<30, 1),
		"blocks of 4 KiB":   xzOf(t, data, 4096, 1),
		"three streams":     xzOf(t, data, 10000, 3),
		"empty":             xzOf(t, nil, 1<<20, 1),
		"uncompressible":    xzOf(t, randomish(200000), 50000, 1),
		"stream and zeroes": append(xzOf(t, data, 1<<20, 1), make([]byte, 8)...),
	}
	if _, err := exec.LookPath("xz"); err == nil {
		for _, args := range [][]string{{"-6"}, {"-9e", "--check=sha256"}, {"--block-size=3000", "--check=none"}, {"--check=crc32", "-0"}} {
			cmd := exec.Command("xz", append(args, "-c")...)
			cmd.Stdin = bytes.NewReader(data)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("xz %v: %v", args, err)
			}
			cases["xz "+strings.Join(args, " ")] = out
		}
	} else {
		t.Log("xz(1) not installed: only the library's streams are checked")
	}
	for name, x := range cases {
		g := newXzGuard(bytes.NewReader(x), MaxXzDictionary)
		got, err := io.ReadAll(g)
		if err != nil || !bytes.Equal(got, x) {
			t.Errorf("%s: guard changed the stream (err %v)", name, err)
		}
		if g.st == xzDone {
			t.Errorf("%s: the guard lost the stream's structure", name)
		}
		zr, err := xz.NewReader(newXzGuard(bytes.NewReader(x), MaxXzDictionary))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			t.Errorf("%s: decoding through the guard: %v", name, err)
		}
	}
}

func randomish(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// TestXzDictionaryCap: a 4 KB .log.xz declaring a 1.5 GiB dictionary (and one of
// 4 GiB) is refused before the decoder allocates it: one warning naming the file, and
// the heap does not grow by the dictionary. A dictionary at the cap is read.
func TestXzDictionaryCap(t *testing.T) {
	x := xzOf(t, []byte(kcmLine), 1<<20, 1)
	for _, c := range []struct {
		name string
		prop byte
		ok   bool
	}{{"1.5 GiB", 37, false}, {"4 GiB", 40, false}, {"64 MiB", 28, true}} {
		bomb := withDict(t, x, c.prop)
		_, err := io.ReadAll(newXzGuard(bytes.NewReader(bomb), MaxXzDictionary))
		if c.ok != (err == nil) || err != nil && !errors.Is(err, ErrXzDictionary) {
			t.Errorf("%s: guard says %v", c.name, err)
		}
		if c.ok {
			continue
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "kube-controller-manager.log.xz"), bomb, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "kube-apiserver.log"), []byte(kcmLine), 0o644); err != nil {
			t.Fatal(err)
		}
		rec, grew, err := loadGuarded(t, dir, Options{}, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if grew > 256<<20 {
			t.Errorf("%s: heap grew by %d MB", c.name, grew>>20)
		}
		found := false
		for _, w := range rec.Warnings {
			found = found || strings.Contains(w.Message, "dictionary") && strings.Contains(w.File+w.Message, "kube-controller-manager.log.xz")
		}
		if !found {
			t.Errorf("%s: no warning names the file and its dictionary: %v", c.name, rec.Warnings)
		}
	}
}

// TestDecompressTimeBudget: every decompressor stops at the time budget as well as the
// byte cap, with one warning that says so (a budget of a nanosecond cuts each at once).
func TestDecompressTimeBudget(t *testing.T) {
	data := []byte(kcmLine + strings.Repeat("I0101 00:00:00.000000 1 x.go:1] filler line\n", 20000))
	streams := map[string][]byte{"k.log.gz": hostile.GzipOf(data), "k.log.xz": xzOf(t, data, 1<<20, 1)}
	if _, err := exec.LookPath("bzip2"); err == nil {
		cmd := exec.Command("bzip2", "-c")
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		streams["k.log.bz2"] = out
	} else {
		t.Log("bzip2(1) not installed: bzip2 not checked")
	}
	for name, z := range streams {
		p := writeBundleFile(t, name, z)
		rec, _, err := loadGuarded(t, p, Options{MaxDecompressTime: time.Nanosecond}, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range rec.Warnings {
			if strings.Contains(w.Message, "decompressing took more than") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d time-budget warnings, want 1: %v", name, n, rec.Warnings)
		}
		full, _, err := loadGuarded(t, p, Options{}, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Warnings) != 0 {
			t.Errorf("%s with the default budget: %v", name, full.Warnings)
		}
	}
}

// FuzzXzGuard: on any input the guard never panics, passes every byte through
// unchanged until it refuses, refuses only with ErrXzDictionary, and whatever it lets
// through the decoder reads (or rejects) with no dictionary over the cap.
func FuzzXzGuard(f *testing.F) {
	data := []byte(strings.Repeat("I0101 00:00:00.000000 1 x.go:1] line\n", 200))
	f.Add(xzOf(f, data, 1<<20, 1))
	f.Add(xzOf(f, data, 1000, 2))
	f.Add(withDict(f, xzOf(f, data, 1<<20, 1), 37))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		g := newXzGuard(bytes.NewReader(in), MaxXzDictionary)
		_, err := io.CopyBuffer(&out, g, make([]byte, 7)) // small reads: every state split
		if err != nil && !errors.Is(err, ErrXzDictionary) {
			t.Fatalf("guard error %v", err)
		}
		if !bytes.HasPrefix(in, out.Bytes()) {
			t.Fatal("guard changed the bytes it passed")
		}
		if err == nil && !bytes.Equal(in, out.Bytes()) {
			t.Fatal("guard dropped bytes")
		}
		if err == nil {
			if zr, zerr := xz.NewReader(newXzGuard(bytes.NewReader(in), MaxXzDictionary)); zerr == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(zr, 1<<20))
			}
		}
	})
}
