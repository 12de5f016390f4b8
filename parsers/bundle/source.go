package bundle

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	gzip "github.com/klauspost/compress/gzip"
	"github.com/ulikunitz/xz"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// A bundle is read as a sequence of members, each handed to the loader as a stream
// exactly once. Directories are walked; archives (tar, optionally gzip/bzip2/xz
// compressed, and zip) are read in place, never extracted: member names are data
// only and never touch the filesystem.

// member is one regular file of the bundle.
type member struct {
	rel   string    // bundle-relative slash path (cleaned; as stored in the archive)
	size  int64     // -1 when unknown
	mtime time.Time // zero when unknown
	// budget bounds what the on-disk file this member comes from may expand to, at
	// every nesting level (nil: a member read as is, e.g. in tests)
	budget *budget
}

// visitor receives every regular member with its content.
type visitor func(m member, r io.Reader)

// linkSet collects the symbolic and hard links of a bundle; they are resolved after
// the walk (an archive may hold a link before its target).
type linkSet struct {
	links map[string]string // link rel -> target rel ("" when it leaves the bundle)
	raw   map[string]string // link rel -> target as written (capped, diag.CapName)
	hard  map[string]bool   // hard links (tar), reported as such
}

func (l *linkSet) add(rel, target, raw string) {
	if l.links == nil {
		l.links, l.raw = map[string]string{}, map[string]string{}
	}
	l.links[rel], l.raw[rel] = capName(target), diag.CapName(raw)
}

func (l *linkSet) addHard(rel, target, raw string) {
	l.add(rel, target, raw)
	if l.hard == nil {
		l.hard = map[string]bool{}
	}
	l.hard[rel] = true
}

// kind names the link rel in warnings.
func (l *linkSet) kind(rel string) string {
	if l.hard[rel] {
		return "hard link"
	}
	return "symlink"
}

// Archive formats (Records.Archive).
const (
	FormatDirectory = "directory"
	FormatFile      = "file"
	FormatTar       = "tar"
	FormatTarGzip   = "tar.gz"
	FormatTarBzip2  = "tar.bz2"
	FormatTarXz     = "tar.xz"
	FormatZip       = "zip"
)

// Magic numbers of the compressions and archives read in place.
var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicBzip2 = []byte("BZh")
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicZip   = []byte("PK\x03\x04")
	magicZip0  = []byte("PK\x05\x06") // empty zip
)

func isTar(head []byte) bool {
	return len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar"))
}

// decompress returns a reader of the uncompressed stream when head starts with a
// known compression magic, the name of the compression, or r itself and "".
func decompress(r io.Reader, head []byte) (io.Reader, string, error) {
	switch {
	case bytes.HasPrefix(head, magicGzip):
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, "gzip", err
		}
		zr.Multistream(true)
		return zr, "gzip", nil
	case bytes.HasPrefix(head, magicXz):
		zr, err := xz.NewReader(newXzGuard(r, MaxXzDictionary))
		if err != nil {
			return nil, "xz", err
		}
		return zr, "xz", nil
	case bytes.HasPrefix(head, magicBzip2) && len(head) > 3 && head[3] >= '1' && head[3] <= '9':
		return bzip2.NewReader(r), "bzip2", nil
	case bytes.HasPrefix(head, magicZstd):
		return nil, "zstd", errors.New("zstd compression is not supported; recompress with gzip or xz")
	}
	return r, "", nil
}

// DefaultInflateRatio and DefaultMinInflateLimit bound how far an on-disk file may
// expand when Options.MaxDecompressedBytes is 0: to DefaultInflateRatio times its
// size on disk, and at least DefaultMinInflateLimit. Real logs and JSON compress 5 to
// 30 times; a decompression bomb (10 KB of gzip that inflate to 10 GB) is cut after 1 GiB.
const (
	DefaultInflateRatio    = 200
	DefaultMinInflateLimit = 1 << 30
)

// budget bounds what one file on disk (the bundle archive, or one file of a bundle
// directory) may expand to. Every decompressor (gzip, xz, bzip2, a zip member, at
// any nesting level) and every sparse tar member counts the bytes it produces against
// the one budget of the file they come from, so nesting cannot multiply it.
//
// The budget is of CPU time as well as bytes: a decompressor that uses more than
// maxTime of CPU in all (a bzip2 stream crafted to cost the most CPU per byte it yields, 32 s
// for 1.2 MB before the byte cap) ends there too.
type budget struct {
	max     int64
	used    atomic.Int64
	maxTime time.Duration
	busy    atomic.Int64           // CPU nanoseconds spent in the decompressors' reads
	hitAt   atomic.Pointer[string] // member being read when the budget ran out
	slow    atomic.Bool            // it was the time that ran out
	told    bool                   // the warning was given
}

// DefaultMinInflateTime and DefaultInflateTimePerMiB bound the time the
// decompressors of one file on disk may take: DefaultMinInflateTime plus
// DefaultInflateTimePerMiB per MiB of the file (real bundles decompress at 20-100 MB of
// output a second, ten and more times their size; a legitimate 100 MB .tar.bz2 gets
// 3.5 minutes, a 1.2 MB bzip2 bomb 8 s).
const (
	DefaultMinInflateTime    = 5 * time.Second
	DefaultInflateTimePerMiB = 2 * time.Second
)

// inflateLimits are Options.MaxDecompressedBytes and Options.MaxDecompressTime.
type inflateLimits struct {
	bytes int64
	time  time.Duration
}

// newBudget returns the budget of a file of onDisk bytes; explicit holds
// Options.MaxDecompressedBytes and MaxDecompressTime (0 = the defaults).
func newBudget(explicit inflateLimits, onDisk int64) *budget {
	max := explicit.bytes
	if max <= 0 {
		max = DefaultMinInflateLimit
		if onDisk > 0 && onDisk < math.MaxInt64/DefaultInflateRatio {
			max = max64(max, DefaultInflateRatio*onDisk)
		}
	}
	t := explicit.time
	if t <= 0 {
		t = DefaultMinInflateTime
		if onDisk > 0 {
			t += time.Duration(float64(DefaultInflateTimePerMiB) * float64(onDisk) / (1 << 20))
		}
		t *= raceSlowdown
	}
	return &budget{max: max, maxTime: t}
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// count returns r with every byte it yields counted against b; once b is spent, r
// ends (io.EOF) as if the stream stopped there. rel names what r reads.
func (b *budget) count(r io.Reader, rel string) io.Reader {
	if b == nil {
		return r
	}
	return &countReader{r: r, b: b, rel: rel}
}

func (b *budget) spent() bool { return b != nil && b.hitAt.Load() != nil }

type countReader struct {
	r   io.Reader
	b   *budget
	rel string
}

func (c *countReader) Read(p []byte) (int, error) {
	left := c.b.max - c.b.used.Load()
	slow := c.b.maxTime > 0 && time.Duration(c.b.busy.Load()) > c.b.maxTime
	if left <= 0 || slow {
		rel := c.rel
		if c.b.hitAt.CompareAndSwap(nil, &rel) && slow && left > 0 {
			c.b.slow.Store(true)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	// CPU time of this thread (the goroutine is locked to it for the read), so a busy
	// machine does not cut a stream early; wall time where it cannot be read
	runtime.LockOSThread()
	cpu0, cpuOK := threadCPU()
	start := time.Now()
	k, err := c.r.Read(p)
	spent := time.Since(start)
	if cpu1, ok := threadCPU(); cpuOK && ok {
		spent = cpu1 - cpu0
	}
	runtime.UnlockOSThread()
	c.b.busy.Add(int64(spent))
	c.b.used.Add(int64(k))
	return k, err
}

// guard returns r, whose errors after b is spent become io.EOF: what a cut outer
// stream does to the members inside it is part of the one budget warning.
func (b *budget) guard(r io.Reader) io.Reader {
	if b == nil {
		return r
	}
	return &guardReader{r, b}
}

type guardReader struct {
	r io.Reader
	b *budget
}

func (g *guardReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF && g.b.spent() {
		err = io.EOF
	}
	return n, err
}

// tell adds the budget's warning once, naming the member being read when it ran out.
// It must run on the goroutine that owns warn, after the readers stopped.
func (b *budget) tell(warn *diag.Sink) {
	if b == nil || b.told {
		return
	}
	at := b.hitAt.Load()
	if at == nil {
		return
	}
	b.told = true
	if b.slow.Load() {
		warn.Add(*at, 0, "decompressing took more than %s of CPU (a decompression bomb that costs CPU?); the rest is not read (the CPU time of every nested archive and compressed file of one file on disk counts: %s plus %s per MiB of its size on disk)",
			b.maxTime.Round(time.Second), DefaultMinInflateTime, DefaultInflateTimePerMiB)
		return
	}
	warn.Add(*at, 0, "decompressed data exceeds the limit of %d bytes (a decompression bomb?); the rest is not read (limit: --max-decompressed-bytes, counted over every nested archive and compressed file of one file on disk; default %d times its size on disk, at least %d)",
		b.max, DefaultInflateRatio, DefaultMinInflateLimit)
}

// walkPath reads the bundle at p (a directory, an archive or one file) and calls visit
// for every regular member. It returns the archive format.
func walkPath(p string, visit visitor, links *linkSet, warn *diag.Sink, maxInflate inflateLimits) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("cannot open bundle: %w", err)
	}
	if st.IsDir() {
		walkDir(p, visit, links, warn, maxInflate)
		return FormatDirectory, nil
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("cannot read bundle %s: not a directory or a regular file", p)
	}
	f, err := openRegular(p)
	if err != nil {
		return "", fmt.Errorf("cannot open bundle: %w", err)
	}
	defer f.Close()
	return walkFile(f, p, filepath.Base(p), st.Size(), st.ModTime(), visit, links, warn, maxInflate)
}

// walkFS reads the bundle name of fsys (a directory, "." for all of fsys, an archive
// or one file) as walkPath reads one on disk.
func walkFS(fsys fs.FS, name string, visit visitor, links *linkSet, warn *diag.Sink, maxInflate inflateLimits) (string, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return "", fmt.Errorf("cannot open bundle: %w", err)
	}
	if st.IsDir() {
		walkDirFS(fsys, name, visit, links, warn, maxInflate)
		return FormatDirectory, nil
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("cannot read bundle %s: not a directory or a regular file", name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return "", fmt.Errorf("cannot open bundle: %w", err)
	}
	defer f.Close()
	return walkFile(f, name, path.Base(name), st.Size(), st.ModTime(), visit, links, warn, maxInflate)
}

// walkFile reads one file of size bytes that is the bundle: an archive (a zip is read
// in place when f is an io.ReaderAt, else from memory) or a single file, shown as p.
func walkFile(f io.Reader, p, base string, size int64, mtime time.Time, visit visitor, links *linkSet, warn *diag.Sink, maxInflate inflateLimits) (string, error) {
	b := newBudget(maxInflate, size)
	defer b.tell(warn)
	br := bufio.NewReaderSize(f, 256<<10)
	head, _ := br.Peek(512)
	if isZip(head) {
		ra, ok := f.(io.ReaderAt)
		if !ok {
			data, err := io.ReadAll(io.LimitReader(br, maxNestedZipBytes+1))
			if err == nil && len(data) > maxNestedZipBytes {
				err = fmt.Errorf("larger than %d bytes and not seekable", maxNestedZipBytes)
			}
			if err != nil {
				return FormatZip, fmt.Errorf("cannot read zip bundle %s: %w", p, err)
			}
			ra, size = bytes.NewReader(data), int64(len(data))
		}
		if err := walkZip(ra, size, "", visit, links, warn, b); err != nil {
			return FormatZip, fmt.Errorf("cannot read zip bundle %s: %w", p, err)
		}
		return FormatZip, nil
	}
	dr, comp, err := decompress(br, head)
	if err != nil {
		return "", fmt.Errorf("cannot read bundle %s (%s): %w", p, comp, err)
	}
	var inner *bufio.Reader
	if comp == "" {
		inner = br
	} else {
		inner = bufio.NewReaderSize(b.count(dr, base), 256<<10)
	}
	ihead, _ := inner.Peek(512)
	if isTar(ihead) {
		format := FormatTar
		switch comp {
		case "gzip":
			format = FormatTarGzip
		case "xz":
			format = FormatTarXz
		case "bzip2":
			format = FormatTarBzip2
		}
		if err := walkTar(inner, "", visit, links, warn, b); err != nil && !b.spent() {
			return format, fmt.Errorf("cannot read %s bundle %s: %w", format, p, err)
		}
		return format, nil
	}
	// One file: an object dump or a log, possibly compressed (kept under its own name).
	visit(member{rel: capName(base), size: sizeIf(comp == "", size), mtime: mtime, budget: b}, b.guard(inner))
	return FormatFile, nil
}

// openRegular opens a file that was a regular file when it was listed, without
// blocking if it has been replaced by a FIFO or a device since, and checks that what
// was opened is still a regular file.
func openRegular(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is no longer a regular file (%s)", p, st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func sizeIf(known bool, n int64) int64 {
	if known {
		return n
	}
	return -1
}

// cleanName turns an archive member name into a bundle-relative path. Names that are
// absolute or climb out with `..` are kept as data (the cleaned name), never used to
// reach the filesystem; ok is false for them so the caller can say so.
func cleanName(name string) (rel string, ok bool) {
	n := strings.ReplaceAll(name, "\\", "/")
	ok = !strings.HasPrefix(n, "/") && !(len(n) > 1 && n[1] == ':')
	for _, seg := range strings.Split(n, "/") {
		if seg == ".." {
			ok = false
		}
	}
	rel = capName(strings.TrimPrefix(path.Clean("/"+n), "/"))
	return rel, ok
}

// capName caps a member name or link target at diag.MaxNameBytes: its start, then
// its length and a hash, so that distinct long names stay distinct.
func capName(s string) string {
	if len(s) <= diag.MaxNameBytes {
		return s
	}
	h := fnv.New64a()
	h.Write([]byte(s))
	cut := diag.MaxNameBytes - 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes, %016x)", s[:cut], len(s), h.Sum64())
}

func walkTar(r io.Reader, prefix string, visit visitor, links *linkSet, warn *diag.Sink, b *budget) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, ok := cleanName(h.Name)
		if rel == "" || rel == "." {
			continue
		}
		rel = prefix + rel
		if !ok {
			warn.Add(rel, 0, "archive member name %q is absolute or climbs out of the bundle; read as data under %s", diag.CapName(h.Name), rel)
		} else if len(h.Name) > diag.MaxNameBytes {
			warn.Add(rel, 0, "archive member name of %d bytes shortened", len(h.Name))
		}
		switch h.Typeflag {
		case tar.TypeReg: // archive/tar reports the old TypeRegA as TypeReg
			var mr io.Reader = tr
			if isSparse(h) {
				// its holes are produced, not stored: they count against the budget (a
				// member claiming 2^62 bytes of holes would never end)
				if b != nil && h.Size > b.max-b.used.Load() {
					warn.Add(rel, 0, "sparse archive member claims %d bytes, more than the decompression limit left (%d bytes; --max-decompressed-bytes); skipped", h.Size, b.max-b.used.Load())
					continue
				}
				mr = b.count(tr, rel)
			}
			visit(member{rel: rel, size: h.Size, mtime: h.ModTime, budget: b}, b.guard(mr))
		case tar.TypeSymlink:
			links.add(rel, resolveLink(rel, h.Linkname), h.Linkname)
		case tar.TypeLink:
			t, _ := cleanName(h.Linkname)
			links.addHard(rel, prefix+t, h.Linkname)
		case tar.TypeDir, tar.TypeXGlobalHeader, tar.TypeXHeader:
		default:
			warn.Add(rel, 0, "archive member of type %q is not a regular file, skipped", string(h.Typeflag))
		}
	}
}

// isSparse reports whether a tar member is a GNU sparse file in PAX form (the old GNU
// form keeps its own type and is skipped as not a regular file).
func isSparse(h *tar.Header) bool {
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// resolveLink resolves a symlink target written in the archive against the link's
// directory; it returns "" when the target is absolute or leaves the bundle.
func resolveLink(rel, target string) string {
	if target == "" || strings.HasPrefix(target, "/") {
		return ""
	}
	j := path.Join(path.Dir(rel), target)
	if j == ".." || strings.HasPrefix(j, "../") || j == "." {
		return ""
	}
	return j
}

// EncryptedMember is the warning of an encrypted zip member (the analysis lists the
// members in the report's coverage gaps).
const EncryptedMember = "encrypted archive member: nsanalyze does not decrypt, so it was not read; extract it with its password and give nsanalyze the extracted files"

func walkZip(ra io.ReaderAt, size int64, prefix string, visit visitor, links *linkSet, warn *diag.Sink, b *budget) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return err
	}
	overlap := zipOverlaps(zr.File, size)
	skipped, firstSkipped, firstWhy := 0, "", ""
	defer func() {
		if skipped > 0 {
			// one warning for the archive (or, for the bundle itself, its first such entry)
			at := strings.TrimSuffix(prefix, "/")
			if at == "" {
				at = firstSkipped
			}
			warn.Add(at, 0, "%d zip entries skipped: their data overlaps other entries or lies outside the archive (a zip bomb?); the first, %s: %s", skipped, firstSkipped, firstWhy)
		}
	}()
	for i, zf := range zr.File {
		if b.spent() {
			return nil
		}
		rel, ok := cleanName(zf.Name)
		if rel == "" || rel == "." || strings.HasSuffix(zf.Name, "/") {
			continue
		}
		rel = prefix + rel
		if !ok {
			warn.Add(rel, 0, "archive member name %q is absolute or climbs out of the bundle; read as data under %s", diag.CapName(zf.Name), rel)
		} else if len(zf.Name) > diag.MaxNameBytes {
			warn.Add(rel, 0, "archive member name of %d bytes shortened", len(zf.Name))
		}
		if o, bad := overlap[i]; bad {
			if skipped++; skipped == 1 {
				firstSkipped, firstWhy = rel, o
			}
			continue
		}
		if zf.Flags&0x1 != 0 { // encrypted (traditional PKWARE or AES): its data is not readable
			warn.Add(rel, 0, EncryptedMember)
			continue
		}
		mode := zf.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			rc, err := zf.Open()
			if err != nil {
				warn.Add(rel, 0, "cannot read symlink: %v", err)
				continue
			}
			t, _ := io.ReadAll(io.LimitReader(b.count(rc, rel), 4096))
			rc.Close()
			links.add(rel, resolveLink(rel, string(t)), string(t))
		case mode.IsDir():
		case !mode.IsRegular():
			warn.Add(rel, 0, "archive member is not a regular file (%s), skipped", mode.Type())
		default:
			msize := int64(zf.UncompressedSize64)
			if msize < 0 {
				msize = -1
			}
			var rc io.ReadCloser
			if msize == 0 && (zf.CRC32 != 0 || zf.Method == zip.Store && zf.CompressedSize64 > 0) {
				// the central directory says empty, the checksum says otherwise: a deflated
				// entry ends by itself, so read what it holds (unverified)
				off, err := zf.DataOffset()
				if zf.Method != zip.Deflate || err != nil {
					warn.Add(rel, 0, "zip central directory gives size 0 for an entry that is not empty (CRC %08x); its content cannot be read, skipped", zf.CRC32)
					continue
				}
				warn.Add(rel, 0, "zip central directory gives size 0 for an entry that is not empty (CRC %08x); its deflated data is read unverified", zf.CRC32)
				rc, msize = flate.NewReader(io.NewSectionReader(ra, off, size-off)), -1
			} else {
				var err error
				if rc, err = zf.Open(); err != nil {
					warn.Add(rel, 0, "cannot read: %v", err)
					continue
				}
			}
			visit(member{rel: rel, size: msize, mtime: zf.Modified, budget: b}, b.guard(b.count(rc, rel)))
			rc.Close()
		}
	}
	return nil
}

// zipOverlaps finds the entries whose data overlaps the data of an entry stored
// before them (entries quoting each other: a few MB that inflate to terabytes), or
// that lie outside the archive. It returns their indexes and why.
func zipOverlaps(files []*zip.File, size int64) map[int]string {
	type span struct {
		i       int
		st, end int64
	}
	var spans []span
	bad := map[int]string{}
	for i, zf := range files {
		if zf.CompressedSize64 == 0 || strings.HasSuffix(zf.Name, "/") {
			continue
		}
		off, err := zf.DataOffset()
		if err != nil {
			continue // Open reports it
		}
		end := off + int64(zf.CompressedSize64)
		if zf.CompressedSize64 > uint64(size) || end > size || end < off {
			bad[i] = "its data lies outside the archive"
			continue
		}
		spans = append(spans, span{i, off, end})
	}
	sort.Slice(spans, func(a, c int) bool {
		if spans[a].st != spans[c].st {
			return spans[a].st < spans[c].st
		}
		return spans[a].i < spans[c].i
	})
	var reach int64 = -1
	reachName := ""
	for _, sp := range spans {
		if sp.st < reach {
			bad[sp.i] = "overlapping " + diag.CapName(reachName)
			continue
		}
		reach, reachName = sp.end, files[sp.i].Name
	}
	return bad
}

// walkDir walks a directory in lexical order. Symbolic links are not followed while
// walking: a link to a file or directory inside the bundle names content that is read
// under its own path anyway; a link leaving the bundle, or a loop, is reported.
func walkDir(root string, visit visitor, links *linkSet, warn *diag.Sink, maxInflate inflateLimits) {
	absRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		absRoot = root
	}
	absRoot, _ = filepath.Abs(absRoot)
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = capName(filepath.ToSlash(rel))
		if err != nil {
			warn.Add(rel, 0, "cannot read: %v", err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			raw, _ := os.Readlink(p)
			if resolveLink(rel, filepath.ToSlash(raw)) == "" && !(filepath.IsAbs(raw) && within(absRoot, raw)) {
				links.add(rel, "", raw) // leaves the bundle, whether or not the target exists
				return nil
			}
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				if strings.Contains(err.Error(), "too many links") {
					links.add(rel, loopTarget, raw)
				} else {
					links.add(rel, brokenTarget, raw)
				}
				return nil
			}
			target, _ = filepath.Abs(target)
			r, err := filepath.Rel(absRoot, target)
			if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				links.add(rel, "", raw)
				return nil
			}
			links.add(rel, filepath.ToSlash(r), raw)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			warn.Add(rel, 0, "cannot stat: %v", err)
			return nil
		}
		if !info.Mode().IsRegular() {
			warn.Add(rel, 0, "not a regular file (%s), skipped", info.Mode().Type())
			return nil
		}
		if info.Size() == 0 {
			// nothing to read: not even opened (a bundle may hold a million of them)
			visit(member{rel: rel, size: 0, mtime: info.ModTime()}, strings.NewReader(""))
			return nil
		}
		f, err := openRegular(p)
		if err != nil {
			warn.Add(rel, 0, "cannot open: %v", err)
			return nil
		}
		b := newBudget(maxInflate, info.Size())
		visit(member{rel: rel, size: info.Size(), mtime: info.ModTime(), budget: b}, f)
		b.tell(warn)
		f.Close()
		return nil
	})
}

// walkDirFS walks the directory root of fsys in lexical order, as walkDir walks one on
// disk. A symbolic link is read when fsys can (fs.ReadLinkFS) and resolved after the
// walk, inside the bundle only.
func walkDirFS(fsys fs.FS, root string, visit visitor, links *linkSet, warn *diag.Sink, maxInflate inflateLimits) {
	_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		}
		rel = capName(rel)
		if err != nil {
			warn.Add(rel, 0, "cannot read: %v", err)
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			raw, err := fs.ReadLink(fsys, p)
			if err != nil {
				warn.Add(rel, 0, "cannot read symlink: %v", err)
				return nil
			}
			target := resolveLink(rel, raw)
			if target != "" {
				if _, serr := fs.Stat(fsys, p); serr != nil {
					target = brokenTarget // (or a loop: fs.FS does not say which)
				}
			}
			links.add(rel, target, raw)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			warn.Add(rel, 0, "cannot stat: %v", err)
			return nil
		}
		if !info.Mode().IsRegular() {
			warn.Add(rel, 0, "not a regular file (%s), skipped", info.Mode().Type())
			return nil
		}
		if info.Size() == 0 {
			visit(member{rel: rel, size: 0, mtime: info.ModTime()}, strings.NewReader(""))
			return nil
		}
		f, err := fsys.Open(p)
		if err != nil {
			warn.Add(rel, 0, "cannot open: %v", err)
			return nil
		}
		b := newBudget(maxInflate, info.Size())
		visit(member{rel: rel, size: info.Size(), mtime: info.ModTime(), budget: b}, f)
		b.tell(warn)
		f.Close()
		return nil
	})
}

func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// dirLookup returns whether a path is a directory of the bundle (a prefix of a file's
// path), in time linear in the path's length: deep paths (a/a/a/...) must not cost
// the square of their length, as listing every parent directory would.
func dirLookup(files map[string]bool) func(string) bool {
	var sorted []string
	return func(d string) bool {
		if sorted == nil {
			sorted = make([]string, 0, len(files))
			for f := range files {
				sorted = append(sorted, f)
			}
			sort.Strings(sorted)
		}
		if d == "" || d == "." {
			return false
		}
		p := d + "/"
		i := sort.SearchStrings(sorted, p)
		return i < len(sorted) && strings.HasPrefix(sorted[i], p)
	}
}

// Sentinels for links whose target could not be resolved while walking a directory.
const (
	loopTarget   = "\x00loop"
	brokenTarget = "\x00broken"
)

// resolveLinks checks every link once the walk is over: it follows chains of links
// inside the bundle, stops at loops, and reports links that leave the bundle or point
// at nothing. It returns, for links that reach a file of the bundle, the file.
func resolveLinks(l *linkSet, files map[string]bool, isDir func(string) bool, warn *diag.Sink) map[string]string {
	out := map[string]string{}
	names := make([]string, 0, len(l.links))
	for k := range l.links {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, rel := range names {
		cur := rel
		seen := map[string]bool{}
		for hop := 0; ; hop++ {
			t, isLink := l.links[cur]
			if !isLink {
				switch {
				case files[cur]:
					out[rel] = cur
				case isDir(cur):
					// a directory of the bundle: its files are read under their own paths
				default:
					warn.Add(rel, 0, "%s to %q points at nothing in the bundle, not followed", l.kind(rel), l.raw[rel])
				}
				break
			}
			if t == loopTarget || seen[cur] || hop > 40 {
				warn.Add(rel, 0, "%s loop (%q) not followed", l.kind(rel), l.raw[rel])
				break
			}
			if t == "" {
				warn.Add(rel, 0, "%s to %q points outside the bundle, not followed", l.kind(rel), l.raw[cur])
				break
			}
			if t == brokenTarget {
				warn.Add(rel, 0, "broken %s to %q not followed", l.kind(rel), l.raw[rel])
				break
			}
			seen[cur] = true
			cur = t
		}
	}
	return out
}

func isZip(head []byte) bool {
	return bytes.HasPrefix(head, magicZip) || bytes.HasPrefix(head, magicZip0)
}

// maxNestedZipBytes caps a zip archive inside an archive (or compressed): zip needs
// random access, so it is read into memory first.
const maxNestedZipBytes = 256 << 20

// nestedZip reads a zip archive found inside the bundle: a file of a bundle directory
// in place (orig is the open file, an io.ReaderAt), else from memory. Its members count against the
// budget of the file on disk that holds it.
func (l *loader) nestedZip(m member, orig, src io.Reader, compressed bool) {
	var (
		ra   io.ReaderAt
		size int64
	)
	if f, ok := orig.(io.ReaderAt); ok && !compressed && m.size > 0 {
		ra, size = f, m.size
	} else {
		data, err := io.ReadAll(io.LimitReader(src, maxNestedZipBytes+1))
		if err != nil && !m.budget.spent() {
			l.warn.Add(m.rel, 0, "cannot read nested archive: %v", err)
			return
		}
		if len(data) > maxNestedZipBytes {
			l.warn.Add(m.rel, 0, "zip archive inside the bundle larger than %d bytes skipped (extract it and pass its directory)", maxNestedZipBytes)
			return
		}
		ra, size = bytes.NewReader(data), int64(len(data))
	}
	if err := walkZip(ra, size, m.rel+"/", l.member, &linkSet{}, l.warn, m.budget); err != nil && !m.budget.spent() {
		l.warn.Add(m.rel, 0, "cannot read nested archive: %v", err)
	}
}
