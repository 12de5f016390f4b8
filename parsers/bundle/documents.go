package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/filekind"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/mail"
	"github.com/nsanalyze/nsanalyze/parsers/markup"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// Formats of FileRead.Format for a text converted from a document before it is read.
const (
	FormatHTML     = "html"
	FormatMarkdown = "markdown"
	FormatMail     = "mail"
)

// document reads the member when its content is not plain text to read as it is: a
// binary format or a PEM block (not read), an HTML page, a Markdown file or an e-mail
// (converted to text lines that keep their original line numbers, then read by the
// text reader). It reports whether it took the member.
func (l *loader) document(m member, name string, head []byte, src io.Reader) bool {
	if what := filekind.Binary(head); what != "" {
		l.skip(m.rel, "binary (%s)", what)
		return true
	}
	if what := filekind.PEM(head); what != "" {
		// a key is a secret: never read, whatever the file is called
		l.skip(m.rel, "%s (not read)", what)
		return true
	}
	switch pathHint(name).Role {
	case RoleContainerLog, RoleLogClock, RoleClock, RoleVersion, RoleNotLog:
		return false // the layout says what the file is
	}
	ext := strings.ToLower(path.Ext(name))
	switch {
	case mail.Looks(head):
		l.mailFile(m, src)
	case markup.LooksHTML(head, ext == ".html" || ext == ".htm" || ext == ".xhtml"):
		data, ok := l.readDoc(m, src)
		if !ok {
			return true
		}
		l.readAs(m.rel, ReadKubectlText, FormatHTML)
		l.readable++
		d := markup.HTML(data)
		l.textDoc(m, m.rel, d)
	case markup.LooksMarkdown(name):
		data, ok := l.readDoc(m, src)
		if !ok {
			return true
		}
		l.readAs(m.rel, ReadKubectlText, FormatMarkdown)
		l.readable++
		d := markup.Markdown(data)
		l.textDoc(m, m.rel, d)
	default:
		return false
	}
	return true
}

// readDoc reads a document whole (capped like a text file).
func (l *loader) readDoc(m member, r io.Reader) ([]byte, bool) {
	data, err := io.ReadAll(io.LimitReader(r, text.DefaultMaxBytes+1))
	if err != nil && !errors.Is(err, io.EOF) && !m.budget.spent() {
		l.warn.Add(m.rel, 0, "read error: %v", err)
	}
	if len(data) > text.DefaultMaxBytes {
		l.warn.Add(m.rel, 0, "document larger than %d bytes: only its start is read", text.DefaultMaxBytes)
		data = data[:text.DefaultMaxBytes]
	}
	return data, len(data) > 0
}

// textDoc reads converted lines with the text reader as the file rel, each line citing
// its original line (orig; nil: the lines are the file's own). A PEM private key in
// them is blanked first.
func (l *loader) textDoc(m member, rel string, d markup.Doc) {
	if n := filekind.MaskPrivateKeys(d.Lines); n > 0 {
		l.warn.Add(rel, 0, "%d PEM private key block(s) not read", n)
	}
	data := d.Bytes()
	mm := m
	mm.rel = rel
	if !text.Sniff(data[:min(len(data), 8192)]) {
		// a log pasted in a mail or a page (klog, journald, timestamped lines): the log
		// reader's, its lines moved back to the file's
		l.convertedLog(mm, data, d.Orig)
		return
	}
	h := pathHint(rel)
	res := text.Parse(bytes.NewReader(data), rel, text.Options{Logs: l.logOptions(rel), Command: h.Command,
		Lines: d.Orig, Blocks: d.Blocks}, l.warn)
	l.textResult(mm, res)
}

// convertedLog scans converted lines as a log; entries and warnings cite orig.
func (l *loader) convertedLog(m member, data []byte, orig []int) {
	at := func(line int) int {
		if line >= 1 && line <= len(orig) {
			return orig[line-1]
		}
		return line
	}
	local := &diag.Sink{}
	lo := l.logOptions(m.rel)
	lo.SizeHint = int64(len(data))
	f, _ := logs.ScanFile(bytes.NewReader(data), m.rel, lo, local)
	for i := range f.Entries {
		f.Entries[i].Line = at(f.Entries[i].Line)
	}
	for i := range local.List {
		if local.List[i].Line > 0 {
			local.List[i].Line = at(local.List[i].Line)
		}
	}
	l.warn.Merge(local)
	if l.reads != nil {
		if r := l.reads[m.rel]; r != nil && r.As == ReadKubectlText {
			r.As = ReadLog // the document's format stays
		}
	}
	f.Mtime = m.mtime
	l.logFiles = append(l.logFiles, &logFile{f: f, rel: m.rel})
}

// mailFile reads an e-mail or a mailbox: its text bodies (HTML ones converted) as one
// text citing the lines of the file, a body whose encoding keeps no lines (base64) as
// `file#N`, and its attachments as files `file#N/name` of the bundle (an attached
// bundle or archive is opened like one inside the bundle, against the same budget).
func (l *loader) mailFile(m member, src io.Reader) {
	data, ok := l.readDoc(m, src)
	if !ok {
		return
	}
	l.readAs(m.rel, ReadKubectlText, FormatMail)
	l.readable++
	parts := mail.Parse(data, func(line int, format string, args ...any) {
		l.warn.Add(m.rel, line, "%s", fmt.Sprintf(format, args...))
	})
	var all markup.Doc
	for _, p := range parts {
		if p.Date.After(l.mailClock) {
			l.mailClock, l.mailClockFile = p.Date.UTC(), m.rel
		}
		if p.Attached {
			l.attachment(m, p)
			continue
		}
		d := partLines(p)
		if p.Lines == nil {
			// base64: the part's own lines, the part named in the path
			l.textDoc(m, fmt.Sprintf("%s#%d", m.rel, p.Num), d)
			continue
		}
		// each part is a block of its own
		base := 0
		if n := len(all.Blocks); n > 0 {
			base = all.Blocks[n-1] + 1
			all.Lines, all.Orig, all.Blocks = append(all.Lines, ""), append(all.Orig, d.Orig[0]), append(all.Blocks, base)
			base++
		}
		for i := range d.Blocks {
			d.Blocks[i] += base
		}
		all.Lines, all.Orig, all.Blocks = append(all.Lines, d.Lines...), append(all.Orig, d.Orig...), append(all.Blocks, d.Blocks...)
	}
	if len(all.Lines) > 0 {
		l.textDoc(m, m.rel, all)
	}
}

// partLines returns a text part's lines (an HTML part converted) with the line of the
// file each starts on (of the part, 1-based, when its encoding keeps no lines).
func partLines(p mail.Part) markup.Doc {
	var d markup.Doc
	if p.Type == "text/html" {
		d = markup.HTML(p.Body)
	} else {
		d.Lines = strings.Split(strings.TrimSuffix(string(p.Body), "\n"), "\n")
		d.Orig = make([]int, len(d.Lines))
		d.Blocks = markup.FenceBlocks(d.Lines) // a tracker's mail carries the ticket's Markdown
		for i := range d.Orig {
			d.Orig[i] = i + 1
		}
	}
	if p.Lines != nil {
		for i, o := range d.Orig {
			if o >= 1 && o <= len(p.Lines) {
				d.Orig[i] = p.Lines[o-1]
			} else {
				d.Orig[i] = p.Line
			}
		}
	}
	if len(d.Lines) == 0 {
		d.Lines, d.Orig, d.Blocks = []string{""}, []int{p.Line}, []int{0}
	}
	return d
}

// attachment reads an attached file as a member of the bundle, nested like an archive's.
func (l *loader) attachment(m member, p mail.Part) {
	name := p.Name
	if name == "" {
		name = fmt.Sprintf("part%d", p.Num)
	}
	rel := fmt.Sprintf("%s#%d/%s", m.rel, p.Num, name)
	maxDepth := l.opts.MaxArchiveNesting
	if maxDepth <= 0 {
		maxDepth = DefaultMaxArchiveNesting
	}
	if l.depth >= maxDepth {
		l.warn.Add(rel, 0, "attachment nested more than %d levels deep, skipped (limit: --max-archive-nesting)", maxDepth)
		return
	}
	l.depth++
	defer func() { l.depth-- }()
	l.member(member{rel: rel, size: int64(len(p.Body)), mtime: m.mtime, budget: m.budget}, bytes.NewReader(p.Body))
}
