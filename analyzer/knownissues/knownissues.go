// Package knownissues matches problem fingerprints (findings.Fingerprint) against a
// catalog of known issues: the entries shipped with nsanalyze (catalog.yaml, embedded)
// and a team's own (--known-issues FILE, the same format). An entry fits a problem only
// when its fingerprint pattern fits the problem's fingerprint: there is no textual or
// fuzzy matching. docs/fingerprint.md documents the format and the pattern language.
package knownissues

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v2"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

//go:embed catalog.yaml
var builtinYAML []byte

// BuiltinSource is the source of the shipped entries (KnownIssueRef.Source).
const BuiltinSource = "builtin"

// Entry is one known issue.
type Entry struct {
	ID      string `yaml:"id"`
	Title   string `yaml:"title"`
	Pattern string `yaml:"pattern"`
	Affects string `yaml:"affects"`
	URL     string `yaml:"url"`
	Fix     string `yaml:"fix"`

	// Source is BuiltinSource or the file the entry was read from; Line its line there.
	Source string `yaml:"-"`
	Line   int    `yaml:"-"`

	cause string
	segs  []findings.FingerprintSegment
}

// Catalog is a set of entries with unique ids.
type Catalog struct {
	entries []*Entry
	ids     map[string]*Entry
}

// Builtin returns the shipped catalog. Its validity is held by the package's tests;
// an invalid shipped catalog is a bug, reported as an error all the same.
func Builtin() (*Catalog, error) {
	entries, err := Parse(builtinYAML, BuiltinSource, nil)
	if err != nil {
		return nil, err
	}
	c := &Catalog{ids: map[string]*Entry{}}
	if err := c.Add(entries); err != nil {
		return nil, err
	}
	return c, nil
}

// Add adds entries; an id already in the catalog is an error naming both places.
func (c *Catalog) Add(entries []*Entry) error {
	var errs []error
	for _, e := range entries {
		if prev, ok := c.ids[e.ID]; ok {
			errs = append(errs, fmt.Errorf("%s: entry %q (line %d): id already used by %s line %d", e.Source, e.ID, e.Line, prev.Source, prev.Line))
			continue
		}
		c.ids[e.ID] = e
		c.entries = append(c.entries, e)
	}
	return errors.Join(errs...)
}

// MaxFileBytes caps a known-issues file: a catalog of maxEntries entries of a few
// hundred bytes each fits many times over. A larger file (or a device such as
// /dev/zero) is refused after reading at most this much, before any parsing.
const MaxFileBytes = 4 << 20

// LoadFile reads a team's known issues from path and validates them (causeTypes: the
// cause types a pattern may name; nil accepts any). At most MaxFileBytes are read.
func LoadFile(path string, causeTypes []string) ([]*Entry, error) {
	name := shellsafe.EscapeText(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--known-issues: %s", shellsafe.EscapeText(err.Error()))
	}
	defer f.Close()
	// one buffer of the file's size or the cap (and a byte), filled once: no growth
	// past what is allowed (a device such as /dev/zero reads the cap and stops)
	size := int64(MaxFileBytes + 1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > MaxFileBytes {
			return nil, fmt.Errorf("--known-issues: %s: %d bytes, more than the %d a known-issues file may hold", name, st.Size(), MaxFileBytes)
		}
		size = st.Size() + 1
	}
	data := make([]byte, size)
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("--known-issues: %s: %s", name, shellsafe.EscapeText(err.Error()))
	}
	if int64(n) == size && size <= MaxFileBytes {
		return nil, fmt.Errorf("--known-issues: %s: the file grew while it was read", name)
	}
	data = data[:n]
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("--known-issues: %s: more than the %d bytes a known-issues file may hold", name, MaxFileBytes)
	}
	return Parse(data, path, causeTypes)
}

// maxEntries bounds a known-issues file (a catalog, not a database).
const maxEntries = 10000

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,99}$`)

// Parse reads and validates a known-issues document: a YAML list of entries. Every
// problem is reported, each naming the source, the entry (index, line and id) and the
// field; unknown fields are errors too.
//
// Every error is safe to print on a terminal: the source and any value quoted from the
// document are escaped (no control character or bidirectional override reaches the
// terminal raw).
func Parse(data []byte, source string, causeTypes []string) ([]*Entry, error) {
	entries, err := parse(data, source, causeTypes)
	if err != nil {
		return nil, errors.New(shellsafe.EscapeText(err.Error()))
	}
	return entries, nil
}

func parse(data []byte, source string, causeTypes []string) ([]*Entry, error) {
	var entries []*Entry
	if err := yaml.UnmarshalStrict(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: not a list of known issues (id, title, pattern, affects, url, fix): %v", source, err)
	}
	if len(entries) > maxEntries {
		return nil, fmt.Errorf("%s: %d entries, more than the %d a file may hold", source, len(entries), maxEntries)
	}
	lines := entryLines(data)
	known := map[string]bool{}
	for _, ct := range causeTypes {
		known[ct] = true
	}
	seen := map[string]int{}
	var errs []error
	for i, e := range entries {
		if e == nil {
			errs = append(errs, fmt.Errorf("%s: entry %d: empty", source, i+1))
			continue
		}
		e.Source = source
		if i < len(lines) {
			e.Line = lines[i]
		}
		where := fmt.Sprintf("%s: entry %d (line %d, id %q)", source, i+1, e.Line, e.ID)
		bad := func(field, format string, args ...any) {
			errs = append(errs, fmt.Errorf("%s: %s: %s", where, field, fmt.Sprintf(format, args...)))
		}
		switch {
		case e.ID == "":
			bad("id", "missing")
		case !idRE.MatchString(e.ID):
			bad("id", "must be lower-case letters, digits, dots and dashes (at most 100), starting with a letter or digit")
		case seen[e.ID] > 0:
			bad("id", "already used by entry %d", seen[e.ID])
		default:
			seen[e.ID] = i + 1
		}
		for _, f := range [][2]string{{"title", e.Title}, {"affects", e.Affects}, {"fix", e.Fix}} {
			field, v := f[0], f[1]
			if strings.TrimSpace(v) == "" {
				bad(field, "missing")
			} else if shellsafe.NeedsEscape(v) || strings.ContainsAny(v, "\r\n") {
				bad(field, "holds a control character or a line break")
			}
		}
		if err := checkURL(e.URL); err != nil {
			bad("url", "%v", err)
		}
		if e.Pattern == "" {
			bad("pattern", "missing")
		} else if cause, segs, err := findings.ParseFingerprint(e.Pattern); err != nil {
			bad("pattern", "%v", err)
		} else if cause != "*" && len(known) > 0 && !known[cause] {
			bad("pattern", "unknown cause type %q (known: %s)", cause, strings.Join(causeTypes, ", "))
		} else {
			e.cause, e.segs = cause, segs
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return entries, nil
}

// checkURL: the public link, https, without characters a report would have to escape.
func checkURL(s string) error {
	if s == "" {
		return errors.New("missing")
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return err
	case u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("%q is not an https:// link", s)
	case strings.ContainsAny(s, " <>()[]`\"'\\") || shellsafe.NeedsEscape(s):
		return fmt.Errorf("%q holds a space, quote, bracket or control character", s)
	}
	return nil
}

// entryLines returns the line of each top-level list item ("- " at column 0).
func entryLines(data []byte) []int {
	var out []int
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("- ")) || bytes.Equal(bytes.TrimRight(l, "\r"), []byte("-")) {
			out = append(out, i+1)
		}
	}
	return out
}

// Fits reports whether the entry's pattern fits a fingerprint: the cause types are
// equal (or the pattern's is "*"), and every segment of the pattern is matched by a
// segment of the fingerprint with the same key whose value fits the pattern's value
// (where "*" stands for any run of characters).
func (e *Entry) Fits(fingerprint string) bool {
	return e.FitsProblem(fingerprint, "")
}

// FitsProblem is Fits for a problem known by both its fingerprint and its readable
// fingerprint (findings.Problem.ReadableFingerprint, "" when unknown): a pattern value
// that is a placeholder ("~" and hex digits) is matched against the fingerprint, every
// other value against the readable one, so a name spelled out in a pattern fits that
// name only, never another whose placeholder is the same.
func (e *Entry) FitsProblem(fingerprint, readable string) bool {
	cause, segs, rsegs, ok := parseBoth(fingerprint, readable)
	return ok && e.fits(cause, segs, rsegs)
}

// parseBoth parses a fingerprint and its readable form; a readable form that does not
// parse or names another cause type is ignored (nil).
func parseBoth(fingerprint, readable string) (cause string, segs, rsegs []findings.FingerprintSegment, ok bool) {
	cause, segs, err := findings.ParseFingerprint(fingerprint)
	if err != nil {
		return "", nil, nil, false
	}
	if readable != "" {
		if rc, rs, err := findings.ParseFingerprint(readable); err == nil && rc == cause {
			rsegs = rs
		}
	}
	return cause, segs, rsegs, true
}

func (e *Entry) fits(cause string, segs, readable []findings.FingerprintSegment) bool {
	if e.cause != "*" && e.cause != cause {
		return false
	}
	for _, p := range e.segs {
		ok := false
		against := segs
		if readable != nil && !strings.HasPrefix(p.Value, "~") {
			against = readable
		}
		for _, s := range against {
			if s.Key == p.Key && glob(p.Value, s.Value) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// specificity orders fitting entries: the more the pattern names, the better: an
// identity segment (apiservice, group, webhook, finalizer, kind) counts twice a root
// segment (backend, controller, node), and each wildcard takes a little away.
func (e *Entry) specificity() int {
	n := 0
	for _, s := range e.segs {
		switch s.Key {
		case findings.FPBackend, findings.FPController, findings.FPNode:
			n += 100
		default:
			n += 200
		}
	}
	return n - strings.Count(e.Pattern, "*")
}

// glob matches s against a pattern where "*" is any run of characters (linear: the
// usual greedy matcher with one backtrack point).
func glob(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// Match returns the entries whose pattern fits a fingerprint, best first.
func (c *Catalog) Match(fingerprint string) []*Entry { return c.MatchProblem(fingerprint, "") }

// MatchProblem is Match for a problem known by its fingerprint and its readable
// fingerprint (see FitsProblem).
func (c *Catalog) MatchProblem(fingerprint, readable string) []*Entry {
	cause, segs, rsegs, ok := parseBoth(fingerprint, readable)
	if !ok {
		return nil
	}
	var out []*Entry
	for _, e := range c.entries {
		if e.fits(cause, segs, rsegs) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].specificity() > out[j].specificity() })
	return out
}

// Ref is the entry as a report carries it.
func (e *Entry) Ref() findings.KnownIssueRef {
	return findings.KnownIssueRef{ID: e.ID, Title: e.Title, URL: e.URL, Pattern: e.Pattern, Fix: e.Fix, Source: e.Source}
}

// Annotate sets the known issues of every problem of a report.
func (c *Catalog) Annotate(r *findings.Report) {
	if c == nil || r == nil {
		return
	}
	for i := range r.Problems {
		p := &r.Problems[i]
		p.KnownIssues = nil
		for _, e := range c.MatchProblem(p.Fingerprint, p.ReadableFingerprint) {
			p.KnownIssues = append(p.KnownIssues, e.Ref())
		}
	}
}
