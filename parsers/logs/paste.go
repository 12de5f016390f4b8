package logs

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/paste"
)

// A small log is often a paste: lines copied from a terminal that wrapped them, from a
// k9s pane, a Markdown quote or a web page. Such a file is repaired by parsers/paste
// (the same layer as kubectl text) before it is scanned, and every entry and warning is
// moved back to the file's own line. A component's log as collected is never touched:
// the repair only runs on files up to maxPasteBytes whose repair changes something.

// maxPasteBytes bounds the logs that may be pastes.
const maxPasteBytes = 1 << 20

// reLogStart is the start of a log line of its own: klog, an RFC 3339 or journald time,
// a JSON record.
var reLogStart = regexp.MustCompile(`^(?:[IWEF]\d{4} \d\d:\d\d:\d\d|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\{)`)

// logContinues: a line cut at the terminal's width goes on in the next line unless that
// starts a log line of its own.
func logContinues(c paste.Cut) bool {
	next := c.Next
	// a tab starts klog's own continuation lines (multi-line values), never a cut
	return strings.TrimSpace(next) != "" && next[0] != '\t' && !reLogStart.MatchString(strings.TrimLeft(next, " "))
}

// repairPaste returns the repaired text of a small log and the file line of each of
// its lines; ok is false when nothing needs repair, or the file is larger than
// maxPasteBytes (then rest reads it whole). Whether a file is repaired depends on its
// content only (never on SizeHint): the same text reads the same way.
func repairPaste(r io.Reader, opts Options) (data []byte, orig []int, rest io.Reader, ok bool) {
	data, orig, _, rest, ok = repairPasteN(r, opts)
	return data, orig, rest, ok
}

// repairPasteN is repairPaste, with the number of physical lines of the input.
func repairPasteN(r io.Reader, opts Options) (data []byte, orig []int, physical int, rest io.Reader, ok bool) {
	if opts.Repaired {
		return nil, nil, 0, r, false
	}
	if opts.SizeHint > maxPasteBytes {
		return nil, nil, 0, r, false // known to be large: streamed without a first copy
	}
	raw, failed, err := readSafe(io.LimitReader(r, maxPasteBytes+1), opts.SizeHint)
	if failed != nil {
		// the reader panicked: what it gave is scanned, then the panic goes on
		return nil, nil, 0, io.MultiReader(bytes.NewReader(raw), panicReader{failed}), false
	}
	if err != nil || len(raw) > maxPasteBytes || bytes.IndexByte(raw, 0) >= 0 {
		return nil, nil, 0, io.MultiReader(bytes.NewReader(raw), r), false
	}
	if !mayNeedRepair(raw) {
		return nil, nil, 0, bytes.NewReader(raw), false // the common case: a log as collected
	}
	in := strings.Split(string(raw), "\n")
	maxLine := opts.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	for i, l := range in {
		if len(l) > maxLine {
			return nil, nil, 0, bytes.NewReader(raw), false // skipped as it is, with its warning
		}
		in[i] = strings.TrimRight(l, "\r")
	}
	lines, orig := paste.Lines(in, paste.Options{Continues: logContinues, KeepTabs: true, JoinScalars: true})
	same := paste.Identity(orig) && len(lines) == len(in)
	for i := 0; same && i < len(lines); i++ {
		same = lines[i] == strings.TrimRight(in[i], " \t")
	}
	if same {
		return nil, nil, 0, bytes.NewReader(raw), false
	}
	physical = bytes.Count(raw, []byte{'\n'})
	if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		physical++
	}
	return []byte(strings.Join(lines, "\n")), orig, physical, nil, true
}

// scanPaste scans a repaired paste and moves its entries and warnings to the file's lines.
func scanPaste(s *scanner, data []byte, orig []int, physical int) error {
	local := &diag.Sink{}
	w := s.warn
	s.warn = local
	err := s.run(bytes.NewReader(data))
	s.warn = w
	at := func(n int) int {
		if n >= 1 && n <= len(orig) {
			return orig[n-1]
		}
		return n
	}
	for i := range s.file.Entries {
		s.file.Entries[i].Line = at(s.file.Entries[i].Line)
	}
	for i := range local.List {
		if local.List[i].Line > 0 {
			local.List[i].Line = at(local.List[i].Line)
		}
	}
	w.Merge(local)
	s.info.Lines = physical // the file's own lines, as a scan of it counts them
	s.info.Pasted = true
	return err
}

// readSafe reads r to its end; a panic of the reader is returned, with what was read.
func readSafe(r io.Reader, size int64) (data []byte, failed any, err error) {
	var buf bytes.Buffer
	if size > 0 && size <= maxPasteBytes {
		buf.Grow(int(size) + 1) // one exact buffer when the size is known
	}
	defer func() {
		if p := recover(); p != nil {
			data, failed = buf.Bytes(), p
		}
	}()
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), nil, err
}

// panicReader re-raises a reader's panic where the scan reaches it.
type panicReader struct{ v any }

func (p panicReader) Read([]byte) (int, error) { panic(p.v) }

// mayNeedRepair is a pass over the bytes, without allocating, that tells a log as
// collected (nothing for paste.Lines to do) from one that may be a damaged paste: a
// character the repair replaces (any non-ASCII byte, a Markdown escape), a frame, quote,
// fence or elision line, an indentation every line shares, or a line as long as the
// widest followed by one that starts no log line of its own (a terminal's cut).
func mayNeedRepair(b []byte) bool {
	widest, lines, indented := 0, 0, 0
	valueCol := -1 // the key column of the previous line when it is `key: value` (YAML)
	prevBlank, adjacent, prevNum := true, false, -2
	for pos := 0; pos < len(b); {
		end := bytes.IndexByte(b[pos:], '\n')
		if end < 0 {
			end = len(b) - pos
		}
		l := bytes.TrimRight(b[pos:pos+end], "\r")
		pos += end + 1
		if len(bytes.TrimSpace(l)) == 0 {
			prevBlank = true
			continue
		}
		adjacent = adjacent || !prevBlank
		prevBlank = false
		// a gutter's numbers, a chat stamp, an HTML entity (paste.Lines removes them)
		if n, ok := paste.GutterNumber(l); ok {
			if n == prevNum+1 {
				return true
			}
			prevNum = n
		}
		if l[0] == '[' && paste.Stamped(l) || bytes.IndexByte(l, '&') >= 0 && paste.HasEntity(l) {
			return true
		}
		lines++
		widest = max(widest, len(l))
		ind := len(l) - len(bytes.TrimLeft(l, " \t")) // (a pasted YAML's tabs: paste keeps leading tabs of logs)
		if valueCol >= 0 && ind > valueCol {
			return true // a YAML value that goes on over lines (paste.Options.JoinScalars)
		}
		valueCol = yamlValueCol(l[ind:], ind)
		switch l[0] {
		case ' ':
			indented++
		case '>', '|', '`', '~', '+', '#', '/':
			return true
		}
		for i, c := range l {
			if c >= 0x80 || c == '\\' && i+1 < len(l) && bytes.IndexByte([]byte("_*[]#<>|`"), l[i+1]) >= 0 {
				return true
			}
		}
		if t := bytes.TrimSpace(l); len(t) <= 20 && paste.Elision(string(t)) {
			return true
		}
	}
	if lines > 0 && indented == lines || lines >= 3 && !adjacent {
		return true // shifted, or double-spaced
	}
	if widest < 60 {
		return false
	}
	prevWide := false
	for pos := 0; pos < len(b); {
		end := bytes.IndexByte(b[pos:], '\n')
		if end < 0 {
			end = len(b) - pos
		}
		l := bytes.TrimRight(b[pos:pos+end], "\r")
		pos += end + 1
		if prevWide && len(bytes.TrimSpace(l)) > 0 && l[0] != '\t' && !reLogStart.Match(bytes.TrimLeft(l, " ")) {
			return true
		}
		prevWide = len(l) == widest
	}
	return false
}

// yamlValueCol returns the column of the key of a YAML `key: value` line (t is the line
// after its indentation ind, "- " items included), or -1: the first word must be a key
// and end with a colon, followed by a value.
func yamlValueCol(t []byte, ind int) int {
	if bytes.HasPrefix(t, []byte("- ")) {
		n := len(t)
		t = bytes.TrimLeft(t[2:], " ")
		ind += n - len(t)
	}
	sp := bytes.IndexByte(t, ' ')
	if sp < 2 || t[sp-1] != ':' || sp+1 >= len(t) {
		return -1
	}
	for _, c := range t[:sp-1] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return -1
		}
	}
	return ind
}
