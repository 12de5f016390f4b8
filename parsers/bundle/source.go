package bundle

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

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
}

// visitor receives every regular member with its content.
type visitor func(m member, r io.Reader)

// linkSet collects the symbolic and hard links of a bundle; they are resolved after
// the walk (an archive may hold a link before its target).
type linkSet struct {
	links map[string]string // link rel -> target rel ("" when it leaves the bundle)
	raw   map[string]string // link rel -> target as written
}

func (l *linkSet) add(rel, target, raw string) {
	if l.links == nil {
		l.links, l.raw = map[string]string{}, map[string]string{}
	}
	l.links[rel], l.raw[rel] = target, raw
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
		zr, err := xz.NewReader(r)
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

// DefaultInflateRatio and DefaultMinInflateLimit bound how far a compressed stream may
// inflate when Options.MaxDecompressedBytes is 0: to DefaultInflateRatio times its
// compressed size, and at least DefaultMinInflateLimit. Real logs and JSON compress 5 to
// 30 times; a decompression bomb (10 KB of gzip that inflate to 10 GB) is cut after 1 GiB.
const (
	DefaultInflateRatio    = 200
	DefaultMinInflateLimit = 1 << 30
	unknownSizeInflate     = 64 << 30 // compressed size unknown (a member of a compressed tar)
)

// inflateLimit stops a decompressed stream after max bytes, as if it ended there.
type inflateLimit struct {
	r      io.Reader
	n, max int64
	hit    bool
}

// newInflateLimit wraps a decompressed stream. explicit is Options.MaxDecompressedBytes
// (0 = the ratio default); compressed is the stream's compressed size (<= 0 = unknown).
func newInflateLimit(r io.Reader, explicit, compressed int64) *inflateLimit {
	max := explicit
	if max <= 0 {
		max = unknownSizeInflate
		if compressed > 0 {
			max = max64(DefaultMinInflateLimit, DefaultInflateRatio*compressed)
		}
	}
	return &inflateLimit{r: r, max: max}
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func (l *inflateLimit) Read(p []byte) (int, error) {
	if l.n >= l.max {
		l.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > l.max-l.n {
		p = p[:l.max-l.n]
	}
	k, err := l.r.Read(p)
	l.n += int64(k)
	return k, err
}

// warning describes a hit limit.
func (l *inflateLimit) warning() string {
	return fmt.Sprintf("decompressed data exceeds the limit of %d bytes (a decompression bomb?); the rest is not read (limit: --max-decompressed-bytes, default %d times the compressed size, at least %d)",
		l.max, DefaultInflateRatio, DefaultMinInflateLimit)
}

// walkPath reads the bundle at p (a directory, an archive or one file) and calls visit
// for every regular member. It returns the archive format.
func walkPath(p string, visit visitor, links *linkSet, warn *diag.Sink, maxInflate int64) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("cannot open bundle: %w", err)
	}
	if st.IsDir() {
		walkDir(p, visit, links, warn)
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
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if bytes.HasPrefix(head, magicZip) || bytes.HasPrefix(head, magicZip0) {
		if err := walkZip(f, st.Size(), "", visit, links, warn); err != nil {
			return FormatZip, fmt.Errorf("cannot read zip bundle %s: %w", p, err)
		}
		return FormatZip, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	br := bufio.NewReaderSize(f, 256<<10)
	head, _ = br.Peek(512)
	dr, comp, err := decompress(br, head)
	if err != nil {
		return "", fmt.Errorf("cannot read bundle %s (%s): %w", p, comp, err)
	}
	var inner *bufio.Reader
	if comp == "" {
		inner = br
	} else {
		lim := newInflateLimit(dr, maxInflate, st.Size())
		defer func() {
			if lim.hit {
				warn.Add(filepath.Base(p), 0, "%s", lim.warning())
			}
		}()
		inner = bufio.NewReaderSize(lim, 256<<10)
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
		if err := walkTar(inner, "", visit, links, warn); err != nil {
			return format, fmt.Errorf("cannot read %s bundle %s: %w", format, p, err)
		}
		return format, nil
	}
	// One file: an object dump or a log, possibly compressed (kept under its own name).
	visit(member{rel: filepath.Base(p), size: sizeIf(comp == "", st.Size()), mtime: st.ModTime()}, inner)
	return FormatFile, nil
}

// openRegular opens a file that was a regular file when it was listed, without
// blocking if it has been replaced by a FIFO or a device since, and checks that what
// was opened is still a regular file.
func openRegular(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
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
	rel = strings.TrimPrefix(path.Clean("/"+n), "/")
	return rel, ok
}

func walkTar(r io.Reader, prefix string, visit visitor, links *linkSet, warn *diag.Sink) error {
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
			warn.Add(rel, 0, "archive member name %q is absolute or climbs out of the bundle; read as data under %s", h.Name, rel)
		}
		switch h.Typeflag {
		case tar.TypeReg: // archive/tar reports the old TypeRegA as TypeReg
			visit(member{rel: rel, size: h.Size, mtime: h.ModTime}, tr)
		case tar.TypeSymlink:
			links.add(rel, resolveLink(rel, h.Linkname), h.Linkname)
		case tar.TypeLink:
			t, _ := cleanName(h.Linkname)
			links.add(rel, prefix+t, h.Linkname)
		case tar.TypeDir, tar.TypeXGlobalHeader, tar.TypeXHeader:
		default:
			warn.Add(rel, 0, "archive member of type %q is not a regular file, skipped", string(h.Typeflag))
		}
	}
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

func walkZip(ra io.ReaderAt, size int64, prefix string, visit visitor, links *linkSet, warn *diag.Sink) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return err
	}
	for _, zf := range zr.File {
		rel, ok := cleanName(zf.Name)
		if rel == "" || rel == "." || strings.HasSuffix(zf.Name, "/") {
			continue
		}
		rel = prefix + rel
		if !ok {
			warn.Add(rel, 0, "archive member name %q is absolute or climbs out of the bundle; read as data under %s", zf.Name, rel)
		}
		mode := zf.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			rc, err := zf.Open()
			if err != nil {
				warn.Add(rel, 0, "cannot read symlink: %v", err)
				continue
			}
			t, _ := io.ReadAll(io.LimitReader(rc, 4096))
			rc.Close()
			links.add(rel, resolveLink(rel, string(t)), string(t))
		case mode.IsDir():
		case !mode.IsRegular():
			warn.Add(rel, 0, "archive member is not a regular file (%s), skipped", mode.Type())
		default:
			rc, err := zf.Open()
			if err != nil {
				warn.Add(rel, 0, "cannot read: %v", err)
				continue
			}
			visit(member{rel: rel, size: int64(zf.UncompressedSize64), mtime: zf.Modified}, rc)
			rc.Close()
		}
	}
	return nil
}

// walkDir walks a directory in lexical order. Symbolic links are not followed while
// walking: a link to a file or directory inside the bundle names content that is read
// under its own path anyway; a link leaving the bundle, or a loop, is reported.
func walkDir(root string, visit visitor, links *linkSet, warn *diag.Sink) {
	absRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		absRoot = root
	}
	absRoot, _ = filepath.Abs(absRoot)
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
		visit(member{rel: rel, size: info.Size(), mtime: info.ModTime()}, f)
		f.Close()
		return nil
	})
}

func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// Sentinels for links whose target could not be resolved while walking a directory.
const (
	loopTarget   = "\x00loop"
	brokenTarget = "\x00broken"
)

// resolveLinks checks every link once the walk is over: it follows chains of links
// inside the bundle, stops at loops, and reports links that leave the bundle or point
// at nothing. It returns, for links that reach a file of the bundle, the file.
func resolveLinks(l *linkSet, files map[string]bool, dirs map[string]bool, warn *diag.Sink) map[string]string {
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
				case dirs[cur]:
					// a directory of the bundle: its files are read under their own paths
				default:
					warn.Add(rel, 0, "symlink to %q points at nothing in the bundle, not followed", l.raw[rel])
				}
				break
			}
			if t == loopTarget || seen[cur] || hop > 40 {
				warn.Add(rel, 0, "symlink loop (%q) not followed", l.raw[rel])
				break
			}
			if t == "" {
				warn.Add(rel, 0, "symlink to %q points outside the bundle, not followed", l.raw[cur])
				break
			}
			if t == brokenTarget {
				warn.Add(rel, 0, "broken symlink to %q not followed", l.raw[rel])
				break
			}
			seen[cur] = true
			cur = t
		}
	}
	return out
}
