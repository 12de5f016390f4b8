// Package bundle opens a support bundle read-only, finds the object dumps and the
// component logs in it, and runs the object and log parsers over them.
//
// A bundle is a directory, a tar archive (plain, gzip, bzip2 or xz compressed), a zip
// archive or a single file. Archives are read in place as streams: nothing is
// extracted, nothing is written anywhere, and member names are only data. Every
// member is read once, in the order the bundle stores it; a single directory wrapping
// the whole bundle is dropped from the reported paths. Symbolic links are never
// followed outside the bundle and never loop: a link to a file of the bundle names
// content that is read under its own path.
//
// Objects and logs may come in any order, so the years of year-less log times (klog,
// journald short format) are chosen once the whole bundle is read, from the rest of
// the bundle (see logs.ResolveYears).
package bundle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/stream"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// Options tune loading.
type Options struct {
	Keywords     []string       // log lines to parse (see logs.Options.Keywords)
	LogLocation  *time.Location // zone of klog times (default UTC)
	MaxLineBytes int            // see logs.Options
	// Exclude skips files whose bundle-relative path equals or lies under one of these.
	Exclude []string
	// MaxDecompressedBytes caps what one file on disk (the bundle archive, or one file
	// of a bundle directory) may expand to, counted over every decompressor and archive
	// nested in it (gzip/xz/bzip2 streams, zip members, sparse tar members, at any
	// depth); the rest is skipped with one warning. 0 = DefaultInflateRatio times its
	// size on disk, at least DefaultMinInflateLimit.
	MaxDecompressedBytes int64
	// MaxDecompressTime caps the time the decompressors of one file on disk may take
	// in all (0 = DefaultMinInflateTime plus DefaultInflateTimePerMiB per MiB of it).
	MaxDecompressTime time.Duration
	// MaxArchiveNesting caps how deep archives inside the bundle are opened
	// (0 = DefaultMaxArchiveNesting).
	MaxArchiveNesting int
	// KeepObject, when set, decides which objects are kept in Records.Objects
	// (the others are only counted), so memory grows with what the analysis needs.
	KeepObject func(*objects.Object) bool
	// RecordReads fills Records.Reads: how each file was read (nsanalyze -v debug).
	RecordReads bool
	// WholePods keeps every kept Pod as a whole *objects.Object in Records.Objects;
	// by default those without finalizers or deletion timestamp go to Records.SlimPods
	// (tests compare the two).
	WholePods bool
	// WholeNamespaces keeps every kept Namespace as a whole *objects.Object; by default
	// the Active ones that hold nothing else go to Records.SlimNamespaces (tests compare
	// the two).
	WholeNamespaces bool
}

// CollectorError is one error text a bundle collector saved.
type CollectorError struct {
	File string
	Line int
	Text string
	// Namespace is the namespace the error is about, when the collector keeps its
	// errors per namespace (troubleshoot's `{"<ns>": "<error>"}` maps).
	Namespace string
}

// DefaultMaxArchiveNesting is how many levels of archives inside the bundle are opened.
const DefaultMaxArchiveNesting = 2

// Records is everything the parsers extracted from a bundle (or several, merged).
type Records struct {
	Path    string // as given (several bundles: joined with ", ")
	Objects []*objects.Object
	// SlimPods holds the kept Pods without finalizers or deletion timestamp, compactly
	// (nil when there are none, or with Options.WholePods); each row knows its place
	// among Objects. EachObject walks both in the order they were read.
	SlimPods *objects.SlimPods
	// SlimNamespaces holds the kept Namespaces that are Active and hold nothing a rule
	// reads but their name (objects.SlimNamespaces), compactly (nil when there are none,
	// or with Options.WholeNamespaces); each row knows its place among Objects and
	// SlimPods. EachObject walks all three in the order they were read.
	SlimNamespaces *objects.SlimNamespaces
	Entries        []logs.Entry
	LogFiles       []logs.FileInfo
	// Files lists every file of the bundle (relative paths), read or not.
	Files []string
	// ObjectFiles lists the files objects were read from.
	ObjectFiles []string
	ObjectCount int // all objects seen, kept or not
	// CollectorErrors are the errors a collector recorded instead of data
	// (troubleshoot's *-errors.json: RBAC denials, discovery errors).
	CollectorErrors []CollectorError
	// FileObjects counts the objects read from each file (kept or not); a dump file
	// absent from it held none (an empty list).
	FileObjects map[string]int
	// Dropped counts the namespaced objects that KeepObject did not keep, by namespace
	// and kind, so rules still know what a namespace contains.
	Dropped  map[string]map[string]int
	Warnings []diag.Warning
	// NewestObjectTime is the newest timestamp found in any object: the best estimate of
	// when the bundle was collected when nothing better says so.
	NewestObjectTime time.Time
	// Layouts names the layouts recognised (LayoutTroubleshoot, LayoutClusterInfo, ...), sorted.
	Layouts []string
	// Bundles describes each bundle read; with several, every path in the records
	// starts with the bundle's Label and a colon ("b.tgz:cluster/namespaces.json").
	Bundles []Source
	// Links maps symbolic links of the bundle that reach a file to that file.
	Links map[string]string
	// NamespaceLists are the listings of every namespace of the cluster the bundle
	// holds: a `kubectl get ns` / `oc get projects` table (text), or a file of Namespace
	// objects that holds several, default or kube-system among them (a NamespaceList,
	// troubleshoot's namespaces.json). NamespaceListSeen is true when there is one: only
	// then does a namespace absent from the records not exist, and "no namespace is
	// stuck" mean it.
	NamespaceLists    []NamespaceList
	NamespaceListSeen bool
	// TextFiles lists the files read as kubectl text renderings (parsers/text): their
	// objects carry Source.Rendering, their stderr lines are entries of component "kubectl".
	TextFiles []string
	// Messages are the catalogued messages found in text files (whatever their names
	// and shapes: prose, pastes, YAML no reader could decode) that no structured reader
	// read from the same lines (parsers/text.Messages). Those that are no condition of a
	// namespace their context names are also log entries of their file.
	Messages []text.Message
	// ServerVersion is the Kubernetes server version a layout's version file holds
	// (sonobuoy serverversion.json, troubleshoot cluster-info/cluster_version.json),
	// ServerVersionFile that file ("" when none).
	ServerVersion, ServerVersionFile string
	// CaptureClock is when the bundle's collector says it finished (must-gather's
	// timestamp file, sonobuoy's meta/run.log), CaptureClockSource the file; zero when
	// the layout keeps no clock.
	CaptureClock       time.Time
	CaptureClockSource string
	// CaptureBounds are lower bounds of the capture time that kubectl renderings give:
	// an object's AGE in a table (or "Terminating (lasts 2d)" in describe) added to its
	// creation (deletion) timestamp from a dump of the same object.
	CaptureBounds []CaptureBound
	// Reads says, with Options.RecordReads, how each file and link of the bundle was
	// read, or why it was not; by bundle, then path.
	Reads []FileRead
}

// CaptureBound is one lower bound of the capture time: the rendering at File:Line was
// printed at Time or later, since it gives Object (dumped in ObjectFile) an age of Age
// since its Field (metadata.creationTimestamp or metadata.deletionTimestamp).
type CaptureBound struct {
	Time               time.Time
	File               string
	Line               int
	Object, ObjectFile string
	Field              string
	Age                time.Duration
}

// Why says how the bound is known.
func (b CaptureBound) Why() string {
	what := "its AGE"
	if b.Field == "metadata.deletionTimestamp" {
		what = "Terminating for"
	}
	return fmt.Sprintf("%s of %s (%s) + %s %s at %s:%d", b.Field, b.Object, b.ObjectFile, what, objects.FmtAge(b.Age), b.File, b.Line)
}

// Source is one bundle read into Records.
type Source struct {
	Path    string   // as given
	Label   string   // prefix of its paths when several bundles are merged ("" for one)
	Format  string   // FormatDirectory, FormatTarGzip, FormatZip, ...
	Root    string   // wrapping directory dropped from paths ("" when none)
	Layouts []string // layouts recognised in it
}

// Load reads the bundle at root (a directory, an archive or a single file).
func Load(root string, opts Options) (*Records, error) {
	return LoadAll([]string{root}, opts)
}

// LoadAll reads several bundles into one view (`nsanalyze a.tgz b/`). Each object and
// log line keeps its provenance: with more than one bundle, paths are prefixed with the
// bundle's label (its base name).
func LoadAll(paths []string, opts Options) (*Records, error) {
	rec := &Records{Path: strings.Join(paths, ", "), Links: map[string]string{}}
	if len(paths) == 0 {
		return rec, fmt.Errorf("no bundle given")
	}
	labels := map[string]int{}
	readable := 0
	var loaders []*loader
	var errs []string
	for _, p := range paths {
		label := ""
		if len(paths) > 1 {
			label = filepath.Base(filepath.Clean(p))
			labels[label]++
			if n := labels[label]; n > 1 {
				label = fmt.Sprintf("%s#%d", label, n)
			}
		}
		l := newLoader(rec, opts, label)
		n, err := l.load(p, func(visit visitor, links *linkSet, warn *diag.Sink, limits inflateLimits) (string, error) {
			return walkPath(p, visit, links, warn, limits)
		})
		readable += n
		if err != nil {
			errs = append(errs, err.Error())
		}
		loaders = append(loaders, l)
	}
	return finishLoad(rec, loaders, readable, errs)
}

// LoadFS reads the bundle name of fsys, as Load reads one on disk: a directory ("."
// for all of fsys), an archive or a single file. The same reader serves a bundle held
// in memory (a page in a browser: dropped files, a dropped archive, a pasted ticket).
func LoadFS(fsys fs.FS, name string, opts Options) (*Records, error) {
	rec := &Records{Path: name, Links: map[string]string{}}
	l := newLoader(rec, opts, "")
	n, err := l.load(name, func(visit visitor, links *linkSet, warn *diag.Sink, limits inflateLimits) (string, error) {
		return walkFS(fsys, name, visit, links, warn, limits)
	})
	var errs []string
	if err != nil {
		errs = append(errs, err.Error())
	}
	return finishLoad(rec, []*loader{l}, n, errs)
}

// finishLoad ends the reading of the bundles of loaders into rec.
func finishLoad(rec *Records, loaders []*loader, readable int, errs []string) (*Records, error) {
	// logs last: a bundle without objects takes the year of its klog lines from the others
	for _, l := range loaders {
		l.finishLogs()
	}
	seen := map[string]bool{}
	for _, b := range rec.Bundles {
		for _, l := range b.Layouts {
			if !seen[l] {
				seen[l] = true
				rec.Layouts = append(rec.Layouts, l)
			}
		}
	}
	sort.Strings(rec.Layouts)
	if len(errs) > 0 && readable == 0 {
		return rec, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	if readable == 0 {
		return rec, fmt.Errorf("no file of bundle %s could be read", rec.Path)
	}
	for _, e := range errs {
		rec.Warnings = append(rec.Warnings, diag.Warning{Message: e})
	}
	return rec, nil
}

// loader reads one bundle into the shared Records.
type loader struct {
	rec      *Records
	opts     Options
	label    string
	warn     *diag.Sink
	br       *bufio.Reader
	rels     []string // every member and link, full paths
	objFiles map[string]bool
	// fileObjects counts the objects of each file of this bundle (unstripped paths)
	fileObjects map[string]int
	errStart    int // index of this bundle's first collector error
	logFiles    []*logFile
	// mailClock is the newest Date of the e-mails read (mailClockFile): the text they
	// quote was captured before it
	mailClock     time.Time
	mailClockFile string
	crs           []crRef         // custom resources waiting for their CRD's kind
	stdoutFiles   map[string]bool // files read as cluster-info dump stdout streams
	textFiles     map[string]bool // files read as kubectl text renderings
	nsFiles       map[string]*nsCount
	nsLists       []NamespaceList
	textObjs      []*objects.Object // objects of text renderings, emitted last
	newest        time.Time
	objStart      int // index of this bundle's first object in rec.Objects
	podStart      int // index of this bundle's first row in rec.SlimPods
	nsStart       int // index of this bundle's first row in rec.SlimNamespaces
	readable      int
	depth         int
	empty         int                  // empty files seen
	strip         func(string) string  // bundle path → reported path
	links         map[string]string    // resolved symlinks (full paths)
	reads         map[string]*FileRead // how each file was read (Options.RecordReads), by full path
	clockRel      string               // the file of the bundle's capture clock (full path)
	boundStart    int                  // index of this bundle's first capture bound
	clockLogs     map[string]bool      // logs whose last line is the collector's clock (RoleLogClock)
	// serverVersionHere: Records.ServerVersionFile is a path of this bundle, not yet stripped
	serverVersionHere bool
}

type logFile struct {
	f   *logs.File
	rel string
}

type crRef struct {
	o   *objects.Object
	crd string
}

func newLoader(rec *Records, opts Options, label string) *loader {
	l := &loader{rec: rec, opts: opts, label: label, warn: &diag.Sink{}, br: bufio.NewReaderSize(nil, 64<<10),
		objFiles: map[string]bool{}, fileObjects: map[string]int{},
		stdoutFiles: map[string]bool{}, textFiles: map[string]bool{}, clockLogs: map[string]bool{}, nsFiles: map[string]*nsCount{}, objStart: len(rec.Objects), boundStart: len(rec.CaptureBounds), podStart: rec.SlimPods.Len(), nsStart: rec.SlimNamespaces.Len(), errStart: len(rec.CollectorErrors)}
	if opts.RecordReads {
		l.reads = map[string]*FileRead{}
	}
	return l
}

// walker reads one bundle, calling visit for every regular member (walkPath, walkFS).
type walker func(visit visitor, links *linkSet, warn *diag.Sink, limits inflateLimits) (format string, err error)

// load reads the bundle p with walk.
func (l *loader) load(p string, walk walker) (int, error) {
	links := &linkSet{}
	format, err := walk(l.member, links, l.warn, inflateLimits{l.opts.MaxDecompressedBytes, l.opts.MaxDecompressTime})
	if err != nil && format == "" {
		return 0, err
	}
	// links: resolve now that every member is known
	files := map[string]bool{}
	for _, r := range l.rels {
		files[r] = true
	}
	for r := range links.links {
		l.rels = append(l.rels, r)
	}
	resolved := resolveLinks(links, files, dirLookup(files), l.warn)
	l.emitTextObjects()
	l.fixCRKinds()
	view := &bundleView{files: l.rels, objectFiles: l.objFiles, textFiles: l.textFiles, stdoutFiles: l.stdoutFiles}
	layouts := detectLayouts(view, format)
	root := wrapperRoot(l.rels)
	strip := func(s string) string {
		s = strings.TrimPrefix(s, root)
		if l.label != "" {
			s = l.label + ":" + s
		}
		return s
	}
	if root != "" || l.label != "" {
		for _, o := range l.rec.Objects[l.objStart:] {
			o.Source.File = strip(o.Source.File)
			if o.Ages != nil {
				a := *o.Ages // a text object and its dump share one
				a.File = strip(a.File)
				o.Ages = &a
			}
		}
		for i := range l.rec.CaptureBounds[l.boundStart:] {
			b := &l.rec.CaptureBounds[l.boundStart+i]
			b.File, b.ObjectFile = strip(b.File), strip(b.ObjectFile)
		}
		if l.rec.SlimPods != nil {
			l.rec.SlimPods.RenameFiles(l.podStart, strip)
		}
		if l.rec.SlimNamespaces != nil {
			l.rec.SlimNamespaces.RenameFiles(l.nsStart, strip)
		}
		for i := l.errStart; i < len(l.rec.CollectorErrors); i++ {
			l.rec.CollectorErrors[i].File = strip(l.rec.CollectorErrors[i].File)
		}
		for i := range l.warn.List {
			if l.warn.List[i].File != "" {
				l.warn.List[i].File = strip(l.warn.List[i].File)
			}
		}
	}
	for _, r := range l.rels {
		if files[r] {
			l.rec.Files = append(l.rec.Files, strip(r))
		}
	}
	sort.Strings(l.rec.Files)
	for _, r := range sortedKeys(l.objFiles) {
		l.rec.ObjectFiles = append(l.rec.ObjectFiles, strip(r))
	}
	if l.rec.FileObjects == nil {
		l.rec.FileObjects = map[string]int{}
	}
	for f, n := range l.fileObjects {
		l.rec.FileObjects[strip(f)] += n
	}
	for k, v := range resolved {
		l.rec.Links[strip(k)] = strip(v)
	}
	l.namespaceLists(strip)
	if l.clockRel != "" && l.rec.CaptureClockSource == l.clockRel {
		l.rec.CaptureClockSource = strip(l.clockRel)
	}
	if l.rec.ServerVersionFile != "" && l.serverVersionHere {
		l.rec.ServerVersionFile = strip(l.rec.ServerVersionFile)
		l.serverVersionHere = false
	}
	l.finishReads(view, resolved, strip)
	l.strip, l.links = strip, resolved
	l.rec.Warnings = append(l.rec.Warnings, l.warn.Grouped()...)
	l.rec.Bundles = append(l.rec.Bundles, Source{Path: p, Label: l.label, Format: format, Root: strings.TrimSuffix(root, "/"), Layouts: layouts})
	if err != nil {
		return l.readable, err
	}
	if len(files) == 0 {
		return 0, fmt.Errorf("bundle %s holds no readable file", p)
	}
	return l.readable, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// skippedExt are files that are never objects or logs: a process's argument vector
// (NUL-separated). Every other file is judged by its content (document, filekind).
var skippedExt = map[string]bool{".cmdline": true}

func excluded(rel string, ex []string) bool {
	alt := rel
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		alt = rel[i+1:] // the same path under a wrapping directory
	}
	for _, e := range ex {
		e = strings.Trim(filepath.ToSlash(e), "/")
		if e == "" {
			continue
		}
		for _, r := range []string{rel, alt} {
			if r == e || strings.HasPrefix(r, e+"/") {
				return true
			}
		}
	}
	return false
}

// noteEmpty reports an empty file: a dump or log that holds nothing, often cut by an
// upload limit or a collector that failed. A bundle may hold a million of them: the
// sink keeps DefaultKindLimit and Grouped folds them into one line with their count.
func (l *loader) noteEmpty(rel string) {
	l.empty++
	l.warn.Add(rel, 0, "empty file")
}

// compressedExt are the suffixes of compressed members, dropped to sniff the content.
var compressedExt = []string{".gz", ".xz", ".bz2"}

// member reads one regular file of the bundle, once, as a stream.
func (l *loader) member(m member, r io.Reader) {
	defer l.warn.Catch(m.rel) // a bug reading one file never ends the run
	l.rels = append(l.rels, m.rel)
	if excluded(m.rel, l.opts.Exclude) {
		l.skip(m.rel, "excluded (--exclude)")
		return
	}
	if ext := strings.ToLower(path.Ext(m.rel)); skippedExt[ext] {
		l.skip(m.rel, "%s files are never objects or logs", ext)
		return
	}
	if pathHint(m.rel).Role == RoleNotLog {
		// (before the empty check: an empty ConfigMap value is no cut dump)
		l.skip(m.rel, "a file the layout keeps beside logs and objects that is neither (a debug dump, a ConfigMap value)")
		return
	}
	if m.size == 0 {
		l.skip(m.rel, "empty")
		l.noteEmpty(m.rel)
		return
	}
	br := l.br
	if l.depth > 0 {
		// a member of a nested archive: the outer member is still being read through
		// l.br, so resetting it here would make the archive read from itself
		br = bufio.NewReaderSize(nil, 64<<10)
	}
	br.Reset(r)
	head, _ := br.Peek(8192)
	if len(head) == 0 {
		l.skip(m.rel, "empty")
		l.noteEmpty(m.rel)
		return
	}
	var src io.Reader = br
	name := m.rel
	dr, comp, err := decompress(br, head)
	if err != nil {
		l.warn.Add(m.rel, 0, "cannot read %s member: %v", comp, err)
		l.skip(m.rel, "cannot decompress it (%s)", comp)
		return
	}
	if comp != "" {
		defer m.budget.tell(l.warn)
		nb := bufio.NewReaderSize(m.budget.guard(m.budget.count(dr, m.rel)), 64<<10)
		src = nb
		head, _ = nb.Peek(8192)
		for _, ext := range compressedExt {
			name = strings.TrimSuffix(name, ext)
		}
		if c, ok := dr.(io.Closer); ok {
			defer c.Close()
		}
		m.size = -1 // the uncompressed size is unknown
	}
	if len(head) >= 1024 && len(bytes.Trim(head, "\x00")) == 0 && strings.HasSuffix(strings.ToLower(name), ".tar") {
		// a tar archive of nothing: only its two end-of-archive blocks of zeros
		l.warn.Add(m.rel, 0, "empty tar archive (it holds no file)")
		l.skip(m.rel, "an empty tar archive")
		return
	}
	if nested := isTar(head); nested || isZip(head) {
		maxDepth := l.opts.MaxArchiveNesting
		if maxDepth <= 0 {
			maxDepth = DefaultMaxArchiveNesting
		}
		if l.depth >= maxDepth {
			l.warn.Add(m.rel, 0, "archive nested more than %d levels deep, skipped (limit: --max-archive-nesting)", maxDepth)
			l.skip(m.rel, "an archive nested more than %d levels deep (--max-archive-nesting)", maxDepth)
			return
		}
		l.readAs(m.rel, ReadArchive, map[bool]string{true: "tar", false: "zip"}[nested])
		l.depth++
		defer func() { l.depth-- }()
		// an archive inside the bundle (sonobuoy results, a node's logs): its members
		// get paths under the archive's own path, and count against the budget of the
		// file on disk that holds them
		if nested {
			if err := walkTar(src, m.rel+"/", l.member, &linkSet{}, l.warn, m.budget); err != nil && !m.budget.spent() {
				l.warn.Add(m.rel, 0, "cannot read nested archive: %v", err)
			}
			return
		}
		l.nestedZip(m, r, src, comp != "")
		return
	}
	if l.document(m, name, head, src) {
		return
	}
	kind := objects.Sniff(head)
	ext := strings.ToLower(path.Ext(name))
	role := pathHint(name).Role
	switch role {
	case RoleNotLog:
		l.skip(m.rel, "a file the layout keeps beside logs and objects that is neither (a debug dump, a ConfigMap value)")
		return
	case RoleClock:
		l.readAs(m.rel, ReadClock, "")
		l.clockFile(m.rel, src)
		return
	case RoleVersion:
		if kind == "json" {
			l.readAs(m.rel, ReadVersion, "json")
			if l.versionFile(m.rel, src) {
				return
			}
		}
	case RoleContainerLog, RoleLogClock:
		if kind != "binary" {
			kind = "text" // a container's log: its lines are the container's, whatever they look like
			if role == RoleLogClock {
				l.clockLogs[m.rel] = true
			}
		}
	}
	if role != RoleContainerLog && role != RoleLogClock &&
		(kind == "text" || kind == "json" && bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("["))) && text.Sniff(head) {
		// ("[root@node1 tmp]# kubectl get ns" starts like a JSON array)
		// kubectl text (tables, describe, stderr, pasted YAML), recognised by content
		// whatever the file is called
		kind = "kubectl-text"
	}
	switch {
	case kind == "binary":
		l.warn.Add(m.rel, 0, "binary file skipped")
		l.skip(m.rel, "binary")
		return
	case kind == "text" && (ext == ".yaml" || ext == ".yml"):
		kind = "yaml" // YAML may start with comments
	case kind == "text" && ext == ".json":
		l.warn.Add(m.rel, 1, "%s file does not start like JSON or YAML; read as a log", ext)
	case bytes.IndexByte(head, 0) >= 0:
		l.warn.Add(m.rel, 0, "text with NUL bytes (written during a crash?); read as text")
	}
	l.readable++
	// a small text, JSON or YAML file of no component's log role is also scanned for
	// catalogued messages (text.Messages), whatever its readers make of it
	var msgData []byte
	objStart, logStart, nsStart := len(l.rec.Objects), len(l.logFiles), l.rec.SlimNamespaces.Len()
	if kind != "kubectl-text" && (kind == "text" || kind == "json" || kind == "yaml") && role != RoleContainerLog && role != RoleLogClock &&
		m.size >= 0 && m.size <= text.MaxMessageScanBytes && !strings.HasSuffix(path.Base(name), "-errors.json") &&
		!(isClusterInfoStdout(head, kind, ext) && (bytes.Contains(head, nodeListKind) || bytes.Contains(head, []byte("==== START logs for container")))) {
		// (head is a view of the reader's buffer, which reading on overwrites)
		n := len(head)
		if data, err := io.ReadAll(io.LimitReader(src, text.MaxMessageScanBytes+1)); err == nil && len(data) <= text.MaxMessageScanBytes {
			msgData = data
			src = bytes.NewReader(data)
			head = data[:min(n, len(data))]
		} else {
			src = io.MultiReader(bytes.NewReader(data), src)
			head = data[:min(n, len(data))]
		}
	}
	if msgData != nil {
		defer l.messages(m.rel, msgData, objStart, logStart, nsStart)
	}
	switch {
	case kind == "kubectl-text":
		l.readAs(m.rel, ReadKubectlText, "")
		l.text(m, name, src)
	case isClusterInfoStdout(head, kind, ext):
		l.readAs(m.rel, ReadClusterInfo, "")
		l.clusterInfoStdout(m, src)
	case kind == "json" && strings.HasSuffix(path.Base(name), "-errors.json"):
		l.readAs(m.rel, ReadCollectorErrors, "json")
		l.collectorErrors(m.rel, src)
	case kind == "json" || kind == "yaml":
		l.readAs(m.rel, ReadObjects, kind)
		l.objects(m, name, kind, src)
	default:
		l.readAs(m.rel, ReadLog, "")
		l.log(m, src)
	}
}

// messages records the catalogued messages of a file that its readers did not read
// (text.Messages): their objects are those from objStart on (and the slim namespaces
// from nsStart on), its log the one from logStart on, if any.
func (l *loader) messages(rel string, data []byte, objStart, logStart, nsStart int) {
	var read []*objects.Object
	if objStart <= len(l.rec.Objects) {
		read = l.rec.Objects[objStart:]
	}
	if n := l.rec.SlimNamespaces.Len(); nsStart < n {
		read = append(read[:len(read):len(read)], make([]*objects.Object, 0, n-nsStart)...)
		for i := nsStart; i < n; i++ {
			read = append(read, l.rec.SlimNamespaces.Namespace(i))
		}
	}
	var lf *logFile
	var entries []logs.Entry
	understood := false
	if logStart < len(l.logFiles) {
		lf = l.logFiles[logStart]
		entries = lf.f.Entries
		if f := lf.f.Info.Format; f != "" && f != "plain" && !lf.f.Info.Pasted {
			return // a log its reader understood (klog, JSON, CRI, ...): its lines are read as such
		}
		understood = lf.f.Info.Format != "" && lf.f.Info.Format != "plain"
	}
	ms := text.Messages(data, rel, read, entries)
	if understood {
		// a pasted log its reader understood: the scan adds only the messages no
		// entry holds whole (a paste wrapped, prefixed or re-flowed split a record,
		// and its reader kept a piece of it)
		kept := ms[:0]
		for _, m := range ms {
			if !m.Logged {
				kept = append(kept, m)
			}
		}
		ms = kept
	}
	if l.fileObjects[rel] > 0 {
		// a file of objects: their structured reading is the evidence (an HPA's or an
		// APIService's condition, kept or not); only what shows a namespace being
		// deleted is added (a deleter's condition message, the NamespaceLifecycle
		// refusal quoted in another object's condition)
		kept := ms[:0]
		for _, m := range ms {
			if m.CondType != "" || m.Deleting && m.Namespace != "" {
				kept = append(kept, m)
			}
		}
		ms = kept
	}
	if len(ms) == 0 {
		return
	}
	l.rec.Messages = append(l.rec.Messages, ms...)
	if lf != nil {
		lf.f = text.AddMessageEntries(lf.f, rel, ms)
	} else if f := text.AddMessageEntries(nil, rel, ms); f != nil {
		l.logFiles = append(l.logFiles, &logFile{f: f, rel: rel})
	}
}

// collectorScanned counts the bytes collectorErrors looks through
// (TestCollectorErrorsLinear: work is counted, not timed).
var collectorScanned atomic.Int64

// maxCollectorErrorsBytes caps a troubleshoot *-errors.json file.
const maxCollectorErrorsBytes = 4 << 20

// collectorErrors reads a troubleshoot `*-errors.json` file: a JSON array of the error
// texts the collector got (RBAC denials, and in groups-resources-errors.json the API
// discovery error itself).
func (l *loader) collectorErrors(rel string, r io.Reader) {
	data, err := io.ReadAll(io.LimitReader(r, maxCollectorErrorsBytes+1))
	if err != nil {
		l.warn.Add(rel, 0, "read error: %v", err)
		return
	}
	if len(data) > maxCollectorErrorsBytes {
		l.warn.Add(rel, 0, "collector error list larger than %d bytes, only its start is read", maxCollectorErrorsBytes)
		data = data[:maxCollectorErrorsBytes]
	}
	var texts []string
	if err := json.Unmarshal(data, &texts); err != nil {
		if l.collectorErrorMap(rel, data) {
			return
		}
		l.warn.Add(rel, 1, "not a JSON array of error texts, nor a map of them by namespace: %v", err)
		return
	}
	// the texts appear in order: each is looked for after the previous one, and lines
	// are counted once (linear in the file, however many texts it holds)
	pos, line, fallbacks := 0, 1, 0
	for _, t := range texts {
		at := 1
		if enc, err := json.Marshal(t); err == nil {
			if i := bytes.Index(data[pos:], enc); i >= 0 {
				line += bytes.Count(data[pos:pos+i], []byte{'\n'})
				collectorScanned.Add(int64(2*i + len(enc)))
				pos += i
				at = line
			} else if fallbacks < 100 {
				// out of order (never in a collector's own file): look from the start
				fallbacks++
				collectorScanned.Add(int64(len(data) - pos))
				if i := bytes.Index(data, enc); i >= 0 {
					at += bytes.Count(data[:i], []byte{'\n'})
					collectorScanned.Add(int64(2*i + len(enc)))
				}
			}
		}
		if len(t) > diag.MaxNameBytes {
			l.warn.Add(rel, at, "collector error text of %d bytes shortened", len(t))
		}
		l.rec.CollectorErrors = append(l.rec.CollectorErrors, CollectorError{File: rel, Line: at, Text: diag.CapName(t)})
	}
}

// collectorErrorMap reads troubleshoot's per-namespace error files
// (`{"default": "the server could not find the requested resource", ...}`, a value may
// also be a list of texts), namespaces in order.
func (l *loader) collectorErrorMap(rel string, data []byte) bool {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return false
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, ns := range keys {
		var texts []string
		var one string
		if json.Unmarshal(m[ns], &one) == nil {
			texts = []string{one}
		} else if json.Unmarshal(m[ns], &texts) != nil {
			l.warn.Add(rel, 1, "collector errors of namespace %q are neither a text nor a list of texts", diag.CapName(ns))
			continue
		}
		at := 1
		if enc, err := json.Marshal(ns); err == nil {
			if i := bytes.Index(data, enc); i >= 0 {
				at += bytes.Count(data[:i], []byte{'\n'})
			}
		}
		for _, t := range texts {
			l.rec.CollectorErrors = append(l.rec.CollectorErrors, CollectorError{File: rel, Line: at, Text: diag.CapName(t), Namespace: diag.CapName(ns)})
		}
	}
	return true
}

// emit records one decoded object.
func (l *loader) emitter(gv, crd string) func(*objects.Object) {
	return func(o *objects.Object) {
		if o.APIVersion == "" && gv != "" {
			o.APIVersion = gv
		}
		if o.Kind == "Project" && (o.APIVersion == "" || strings.HasPrefix(o.APIVersion, "project.openshift.io/")) {
			o.Kind, o.APIVersion = "Namespace", "v1" // `oc get project -o yaml`: the namespace's own state
		}
		if o.Kind == "Namespace" {
			l.countNamespace(o)
		}
		l.rec.ObjectCount++
		l.fileObjects[o.Source.File]++
		l.noteTimes(o)
		if l.opts.KeepObject == nil || l.opts.KeepObject(o) {
			if o.Kind == "Pod" && !l.opts.WholePods {
				if l.rec.SlimPods == nil {
					l.rec.SlimPods = objects.NewSlimPods()
				}
				if l.rec.SlimPods.Add(o, len(l.rec.Objects)) {
					return
				}
			}
			if o.Kind == "Namespace" && !l.opts.WholeNamespaces && objects.SlimmableNamespace(o) {
				if l.rec.SlimNamespaces == nil {
					l.rec.SlimNamespaces = objects.NewSlimNamespaces()
				}
				if l.rec.SlimNamespaces.Add(o, len(l.rec.Objects), l.rec.SlimPods.Len()) {
					return
				}
			}
			l.rec.Objects = append(l.rec.Objects, o)
			if crd != "" && o.Kind == "" {
				l.crs = append(l.crs, crRef{o, crd})
			}
		} else if o.Namespace != "" {
			if l.rec.Dropped == nil {
				l.rec.Dropped = map[string]map[string]int{}
			}
			if l.rec.Dropped[o.Namespace] == nil {
				l.rec.Dropped[o.Namespace] = map[string]int{}
			}
			l.rec.Dropped[o.Namespace][o.Kind]++
		}
	}
}

// readAheadMin: object files at least this large (or of unknown size) are read on
// another goroutine, so that decompressing an archive's stream overlaps splitting it.
const readAheadMin = 4 << 20

func (l *loader) objects(m member, name, kind string, r io.Reader) {
	rel := m.rel
	if m.size < 0 || m.size >= readAheadMin {
		ra := stream.NewReadAhead(r, 1<<20, 2)
		defer ra.Close()
		r = ra
	}
	h := pathHint(name)
	oo := objects.Options{KindHint: h.Kind, Keep: l.opts.KeepObject}
	emit := l.emitter(h.GroupVersion, h.CRD)
	var n int
	if kind == "yaml" {
		n = objects.DecodeYAML(r, rel, oo, l.warn, emit)
	} else {
		n = objects.DecodeJSON(r, rel, oo, l.warn, emit)
	}
	if n > 0 {
		l.objFiles[rel] = true
	}
}

// fixCRKinds gives troubleshoot custom resources saved without kind the kind and
// storage version of their CRD.
func (l *loader) fixCRKinds() {
	if len(l.crs) == 0 {
		return
	}
	crds := map[string]*objects.Object{}
	for _, o := range l.rec.Objects {
		if o.Kind == "CustomResourceDefinition" {
			crds[o.Name] = o
		}
	}
	for _, c := range l.crs {
		d := crds[c.crd]
		if d == nil || d.CRD == nil {
			continue
		}
		c.o.Kind = d.CRD.Kind
		if v := d.CRD.StorageVersion; v != "" {
			c.o.APIVersion = joinGV(d.CRD.Group, v)
		}
	}
}

func (l *loader) noteTimes(o *objects.Object) {
	note := func(t time.Time) {
		if t.After(l.rec.NewestObjectTime) {
			l.rec.NewestObjectTime = t
		}
		if t.After(l.newest) {
			l.newest = t
		}
	}
	note(o.CreationTimestamp)
	for t := range o.Events() {
		note(t)
	}
}

func (l *loader) logOptions(rel string) logs.Options {
	return logs.Options{Keywords: l.opts.Keywords, Location: l.opts.LogLocation, MaxLineBytes: l.opts.MaxLineBytes,
		Component: pathHint(rel).Component}
}

func (l *loader) log(m member, r io.Reader) {
	lo := l.logOptions(m.rel)
	lo.SizeHint = m.size
	f, _ := logs.ScanFile(r, m.rel, lo, l.warn) // the scanner reports its read errors itself
	f.Mtime = m.mtime
	l.logFiles = append(l.logFiles, &logFile{f: f, rel: m.rel})
}

// finishLogs completes the years of year-less log times, rotated files of one log
// together and oldest first, and adds the logs to the records.
func (l *loader) finishLogs() {
	strip, links := l.strip, l.links
	if strip == nil {
		return
	}
	// a symlink named after a component gives the component to a file whose own path says nothing
	aliases := map[string]string{}
	for link, target := range links {
		if c := logs.ComponentFromPath(link); c != "" {
			aliases[target] = c
		}
	}
	ref, basis := l.yearReference()
	for _, ch := range rotationChains(l.logFiles) {
		r, b := ref, basis
		if r.IsZero() {
			if mt := ch[len(ch)-1].f.Mtime; !mt.IsZero() {
				r, b = mt, "the modification time of "+strip(ch[len(ch)-1].rel)
			}
		}
		files := make([]*logs.File, len(ch))
		for i, lf := range ch {
			files[i] = lf.f
		}
		if r.IsZero() {
			// nothing dated, not even a file time: the year is not known (the clock of
			// the machine running the analysis says nothing of the bundle)
			logs.DropYearless(files, "nothing in the bundle carries a year")
		} else {
			logs.ResolveYears(files, r, b)
		}
		for _, lf := range ch {
			if l.clockLogs[lf.rel] && lf.f.Info.Last.After(l.rec.CaptureClock) {
				// the collector's own log: its last line is when it finished
				l.rec.CaptureClock, l.rec.CaptureClockSource = lf.f.Info.Last, strip(lf.rel)
			}
			if n := lf.f.OutOfRange(); n > 0 {
				l.rec.Warnings = append(l.rec.Warnings, diag.Warning{File: strip(lf.rel),
					Message: fmt.Sprintf("%d year-less times fall outside years 0001-9999 once their year is chosen; read as no time", n)})
			}
			info := lf.f.Info
			if c := aliases[lf.rel]; c != "" && !isComponent(info.Component) {
				// (a container name that is no component, c.log in pod kcm-0, says less
				// than a link named kube-controller-manager)
				prev := info.Component
				info.Component = c
				for i := range lf.f.Entries {
					if e := &lf.f.Entries[i]; e.Component == "" || e.Component == prev {
						e.Component = c
					}
				}
			}
			p := strip(info.Path)
			info.Path = p
			for i := range lf.f.Entries {
				lf.f.Entries[i].File = p
			}
			if len(info.Sections) > 0 {
				for _, s := range info.Sections {
					s.Path = p
					l.rec.LogFiles = append(l.rec.LogFiles, s)
				}
			} else {
				l.rec.LogFiles = append(l.rec.LogFiles, info)
			}
			l.rec.Entries = append(l.rec.Entries, lf.f.Entries...)
		}
	}
	l.logFiles = nil
}

// EachObject calls fn with every kept object in the order they were read: the whole
// objects of Objects, the pods of SlimPods and the namespaces of SlimNamespaces,
// materialized one at a time (fn may keep them; each call makes a new one).
func (r *Records) EachObject(fn func(*objects.Object)) {
	r.walk((*objects.SlimPods).Pod, (*objects.SlimNamespaces).Namespace, fn)
}

// EachObjectHead is EachObject with the pods of SlimPods and the namespaces of
// SlimNamespaces given as heads only (objects.SlimPods.Head: kind, name, namespace,
// source, node; objects.SlimNamespaces.Head: kind, name, source, spec.finalizers), for
// walks over names.
func (r *Records) EachObjectHead(fn func(*objects.Object)) {
	r.walk((*objects.SlimPods).Head, (*objects.SlimNamespaces).Head, fn)
}

func (r *Records) walk(row func(*objects.SlimPods, int) *objects.Object, nsRow func(*objects.SlimNamespaces, int) *objects.Object, fn func(*objects.Object)) {
	t, u := r.SlimPods, r.SlimNamespaces
	i, rows := 0, t.Len()
	j, nsRows := 0, u.Len()
	// upTo gives the rows kept before whole object n (all of them for n = len(Objects)),
	// pods and namespaces in the order they were kept
	upTo := func(n int) {
		for {
			pod := i < rows && t.Before(i) <= n
			ns := j < nsRows && u.Before(j) <= n
			switch {
			case ns && (!pod || u.Pods(j) <= i):
				fn(nsRow(u, j))
				j++
			case pod:
				fn(row(t, i))
				i++
			default:
				return
			}
		}
	}
	for n, o := range r.Objects {
		upTo(n)
		fn(o)
	}
	upTo(len(r.Objects))
}

// EachSlimNamespace calls fn with the name of every namespace of SlimNamespaces, in the
// order they were read (without materializing them).
func (r *Records) EachSlimNamespace(fn func(name string)) {
	for i := 0; i < r.SlimNamespaces.Len(); i++ {
		fn(r.SlimNamespaces.Name(i))
	}
}
