// Package text reads what support tickets carry as text: saved `kubectl get` tables (with
// or without their header, `-A`, `-o wide`, `-o name`), `kubectl describe` output,
// kubectl/oc stderr, and YAML or JSON pasted after a shell prompt, several commands'
// output in one file. It turns them into the records the rest of the bundle produces:
// objects.Object values (provenance: the row's or block's line) and log entries for the
// stderr lines (component "kubectl").
//
// Files are recognised by content (Sniff), never by name.
package text

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/resources"
)

// Renderings, as objects.Source.Rendering says them.
const (
	RenderingTable    = "kubectl-get-table" // a row of a `kubectl get` table (or `-o name` line)
	RenderingDescribe = "kubectl-describe"  // a `kubectl describe` block
	RenderingTemplate = "kubectl-template"  // the output of `-o jsonpath=...` or `-o go-template=...`
)

// ComponentKubectl is the component of kubectl's (and oc's) own stderr lines.
const ComponentKubectl = "kubectl"

// DefaultMaxBytes caps how much of one text file is read.
const DefaultMaxBytes = 64 << 20

// Options tune Parse.
type Options struct {
	// Logs are the options of the scan of the file's stderr lines and pasted
	// `kubectl logs` output (keywords, time zone, line cap).
	Logs logs.Options
	// Command is the command whose output the file holds, when the bundle's layout
	// knows it (sosreport names each file after its command); "" = unknown.
	Command string
	// MaxBytes caps the bytes read (default DefaultMaxBytes).
	MaxBytes int64
	// Lines is, for text converted from another document (HTML, Markdown, e-mail:
	// parsers/markup, parsers/mail), the line of the original file each of its lines
	// starts on; records and warnings then cite those lines. nil: the text is the file.
	Lines []int
	// Blocks is, for each line, the block of the original document it belongs to (a
	// <pre> block, the prose between two, an e-mail part): a YAML or JSON document is
	// never read on past its block's end (a value cut at the end of a <pre> block is
	// closed there, not continued into the page's prose). nil: one block.
	Blocks []int
}

// Result is what one text file holds.
type Result struct {
	Objects []*objects.Object
	// Log holds the entries of the stderr lines (Component "kubectl") and of pasted
	// `kubectl logs` output; nil when the file has none. Year-less klog times are
	// provisional until logs.ResolveYears runs over it.
	Log *logs.File
	// NamespaceLists are the listings of every namespace of the cluster the file holds
	// (`kubectl get ns`, `oc get projects`, with or without -o yaml|json): with one, a
	// namespace absent from it does not exist, and none stuck means none is stuck.
	NamespaceLists []Listing
	// Commands are the command lines seen (after a prompt, or bare).
	Commands []Command
	// Messages are the catalogued messages the message scan found that the readers
	// above did not read from the same lines (see Messages); those that are no
	// condition of a known namespace are in Log too.
	Messages []Message
}

// Listing is one namespace listing.
type Listing struct {
	Line      int    // line of the table header or of the list's first object
	Rows      int    // namespaces listed
	Command   string // the command that printed it, when known
	Rendering string // RenderingTable for a table, "" for pasted YAML or JSON
}

type synth struct {
	line      int
	obj       map[string]any
	rendering string
	condLines []int
	deleting  bool // the rendering shows the deletion without its time (objects.Object.DeletionShown)
	// age is the AGE column of a table row, lasts describe's "Terminating (lasts 2d)":
	// both lower bounds of how long before the rendering was printed (objects.Ages)
	age, lasts time.Duration
}

type parser struct {
	path   string
	lines  []string // the normalised lines (normalize)
	orig   []int    // the file's line of each
	seams  [][]int  // where each joins the lines a wrap split (paste.LinesSeams), nil for none
	warn   *diag.Sink
	res    *Result
	opts   Options
	cmd    *Command // the command whose output follows
	used   bool     // cmd's table was read: a later table without a prompt is another command's
	stderr map[int]bool
	logOut map[int]*Command
	// loose are YAML blocks that are no object (a `status:` block or a list of
	// conditions pasted without the object): each multi-line value joined, by line,
	// for the log scan (a discovery failure they quote is a cluster-wide finding)
	loose  map[int]string
	synth  []synth
	blocks []int // the document block of each line (Options.Blocks), nil: one block
}

// newBlock reports whether line j is in another block of the original document than line i.
func (p *parser) newBlock(i, j int) bool {
	return p.blocks != nil && j < len(p.blocks) && p.blocks[i] != p.blocks[j]
}

// Parse reads one text file (path is its bundle-relative name). Problems become
// warnings with the path and line; bad input never stops it.
func Parse(r io.Reader, path string, opts Options, warn *diag.Sink) (res *Result) {
	res = &Result{}
	defer warn.Catch(path)
	max := opts.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil && !errors.Is(err, io.EOF) {
		warn.Add(path, 0, "read error: %v", err)
	}
	if int64(len(data)) > max {
		warn.Add(path, 0, "text file larger than %d bytes: only its start is read", max)
		data = data[:max]
	}
	data = bytes.ReplaceAll(data, []byte{0}, nil)
	// the readers work on the normalised lines and a sink of their own; records and
	// warnings are moved back to the file's lines at the end
	local := &diag.Sink{}
	p := &parser{path: path, warn: local, res: res, opts: opts, stderr: map[int]bool{}, logOut: map[int]*Command{}}
	s := strings.TrimPrefix(string(data), "\ufeff")
	raw := strings.Split(s, "\n")
	for i, l := range raw {
		raw[i] = strings.TrimRight(l, "\r")
	}
	p.lines, p.orig, p.seams = normalizeSeams(raw)
	if opts.Blocks != nil {
		p.blocks = make([]int, len(p.orig))
		for i, o := range p.orig {
			if o >= 1 && o <= len(opts.Blocks) {
				p.blocks[i] = opts.Blocks[o-1]
			}
		}
	}
	if opts.Lines != nil {
		for i, o := range p.orig {
			if o >= 1 && o <= len(opts.Lines) {
				p.orig[i] = opts.Lines[o-1]
			}
		}
	}
	defer func() {
		p.remap()
		warn.Merge(local)
		var read []logs.Entry
		if res.Log != nil {
			read = res.Log.Entries
		}
		res.Messages = Messages(data, path, res.Objects, read)
		res.Log = AddMessageEntries(res.Log, path, res.Messages)
	}()
	if opts.Command != "" {
		if c := parseCommand("$ "+opts.Command, 0); c != nil && c.Tool == "kubectl" {
			p.cmd = c
		}
	}
	p.run()
	p.proseRowsEverywhere()
	p.decode()
	p.scanLog(data)
	sort.SliceStable(res.Objects, func(i, j int) bool { return res.Objects[i].Source.Line < res.Objects[j].Source.Line })
	return res
}

func (p *parser) run() {
	n := len(p.lines)
	for i := 0; i < n; {
		l := p.lines[i]
		t := strings.TrimSpace(l)
		if t == "" {
			i++
			continue
		}
		if c := parseCommand(l, i+1); c != nil {
			for i+1 < n && commandRest(p.lines[i+1]) {
				// the command's rest, on the next line a client wrapped it to
				if c2 := parseCommand(l+" "+strings.TrimSpace(p.lines[i+1]), i+1); c2 != nil {
					l, c = l+" "+strings.TrimSpace(p.lines[i+1]), c2
					p.lines[i+1] = ""
					i++
					continue
				}
				break
			}
			p.res.Commands = append(p.res.Commands, *c)
			p.cmd, p.used = c, false
			p.proseRows(i) // a sentence that starts with a command may quote a row
			i++
			continue
		}
		if t := strings.TrimLeft(l, " "); stderrLine(t) && !(reKlog.MatchString(t) && p.cmd != nil && p.cmd.Verb == "logs") {
			p.stderr[i+1] = true
			i++
			continue
		}
		if p.knskLine(i) {
			i++
			continue
		}
		if _, _, ok := kubemsg.ParseTerraformNamespaceWait(l); ok {
			// a client's own progress line (Terraform waiting for a namespace it
			// deleted to be gone): a log line of the client, like kubectl's stderr
			p.stderr[i+1] = true
			i++
			continue
		}
		if p.cmd != nil && p.cmd.Verb == "logs" {
			p.logOut[i+1] = p.cmd
			i++
			continue
		}
		if cols := headerColumns(l); cols != nil {
			i = p.table(i, cols)
			continue
		}
		if (t == "NAME" || t == "NAMESPACE") && i+1 < n && headerRest(p.lines[i+1]) {
			// a header a client wrapped right after its first column
			i = p.table(i, []column{{name: t, start: -1}})
			continue
		}
		if strings.HasPrefix(l, "Name:") {
			i = p.describe(i)
			continue
		}
		if j := p.jsonTail(i); j > i {
			i = j
			continue
		}
		if k := lostBrace(t); k >= 0 {
			// an object's JSON whose opening brace the paste lost (blocks.go)
			p.lines[i] = "{" + t[k:]
			i = p.jsonBlock(i)
			continue
		}
		if jsonStart(t) && len(l)-len(strings.TrimLeft(l, " ")) < 4 {
			i = p.jsonBlock(i)
			continue
		}
		if yamlStart(l, p.cmd) {
			i = p.yamlBlock(i)
			continue
		}
		if j := p.templateBlock(i); j > i {
			i = j
			continue
		}
		if j := p.conditionRows(i); j > i {
			i = j
			continue
		}
		p.looseRow(i)
		i++
	}
}

// cmdFor returns the current command if its output is still expected, else nil.
func (p *parser) cmdFor() *Command {
	if p.cmd == nil || p.used || p.cmd.Tool != "kubectl" {
		return nil
	}
	return p.cmd
}

// conditionRows reads the rows of a namespace's Conditions table pasted without the
// rest of its `kubectl describe ns NAME` (a "..." cut); it returns i when line i is none.
func (p *parser) conditionRows(i int) int {
	c := p.cmd
	if c == nil || c.Tool != "kubectl" || c.Verb != "describe" || len(c.Names) != 1 || !reCondRow.MatchString(p.lines[i]) {
		return i
	}
	if r, ok := resources.Lookup(c.Resource); !ok || r.Kind != "Namespace" {
		return i
	}
	var conds []any
	var lines []int
	j := i
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if m := reCondRow.FindStringSubmatch(l); m != nil {
			cond := map[string]any{"type": m[1], "status": m[2], "reason": m[4], "message": strings.TrimSpace(m[5])}
			if t := describeTime(m[3]); t != "" {
				cond["lastTransitionTime"] = t
			}
			conds = append(conds, cond)
			lines = append(lines, j+1)
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || len(conds) == 0 || parseCommand(l, j+1) != nil || stderrLine(l) || indentOf(l) > 0 {
			break
		}
		// wrapped by the terminal at the margin, mid-word
		last := conds[len(conds)-1].(map[string]any)
		last["message"] = last["message"].(string) + t
	}
	md := map[string]any{"name": c.Names[0]}
	p.add(synth{line: i + 1, obj: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": md,
		"status": map[string]any{"conditions": conds}}, rendering: RenderingDescribe, condLines: lines})
	return j
}

// looseRow reads a line outside any table: a `-o name` line, or a row whose header a
// `| grep` dropped.
func (p *parser) looseRow(i int) {
	l := strings.TrimSpace(p.lines[i])
	c := p.cmdFor()
	if c != nil && c.Output == "name" {
		m := reNameOutput.FindStringSubmatch(l)
		if m == nil {
			p.warn.Add(p.path, i+1, "cannot read this line of the output of %q (resource/name expected)", c.Text)
			return
		}
		r, ok := resources.Lookup(m[1])
		if !ok {
			return // a kind the analysis does not read
		}
		md := map[string]any{"name": m[2]}
		if r.Namespaced && c.Namespace != "" {
			md["namespace"] = c.Namespace
		}
		p.add(synth{line: i + 1, obj: map[string]any{"apiVersion": r.GroupVersion, "kind": r.Kind, "metadata": md},
			rendering: RenderingTable})
		if r.Kind == "Namespace" && p.fullList(c, nil) {
			if n := len(p.res.NamespaceLists); n > 0 && p.res.NamespaceLists[n-1].Command == c.Text && p.res.NamespaceLists[n-1].Line >= c.Line {
				p.res.NamespaceLists[n-1].Rows++
			} else {
				p.res.NamespaceLists = append(p.res.NamespaceLists, Listing{Line: i + 1, Rows: 1, Command: c.Text, Rendering: RenderingTable})
			}
		}
		return
	}
	if p.proseRows(i) {
		return // an unavailable APIService's row quoted in prose (rowsinprose.go)
	}
	var cols []string
	kind := ""
	if c != nil && c.Verb == "get" && (c.Output == "" || c.Output == "wide") {
		if r, ok := resources.Lookup(c.Resource); ok {
			kind = r.Kind
			cols = defaultColumns(r.Kind, c)
		}
	}
	if cols == nil {
		// the shapes that say their kind by themselves
		switch {
		case reAPIServiceRow.MatchString(l):
			kind, cols = "APIService", []string{"NAME", "SERVICE", "AVAILABLE", "AGE"}
		case reNamespaceRow.MatchString(l):
			kind, cols = "Namespace", []string{"NAME", "STATUS", "AGE"}
		default:
			return
		}
	}
	cells, ok := splitLoose(l, len(cols))
	if !ok {
		p.warn.Add(p.path, i+1, "cannot read this line as a row of a %s table (%d columns expected)", kind, len(cols))
		return
	}
	p.row(kind, cols, cells, i+1, c)
}

// defaultColumns are the columns `kubectl get` prints for a kind, for rows whose header
// was filtered out.
func defaultColumns(kind string, c *Command) []string {
	var cols []string
	switch kind {
	case "Namespace":
		cols = []string{"NAME", "STATUS", "AGE"}
		if strings.HasPrefix(strings.ToLower(c.Resource), "project") {
			return nil // DISPLAY NAME may be empty: not readable without its header
		}
	case "APIService":
		cols = []string{"NAME", "SERVICE", "AVAILABLE", "AGE"}
	case "Pod":
		cols = []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}
		if c.Output == "wide" {
			cols = append(cols, "IP", "NODE", "NOMINATED NODE", "READINESS GATES")
		}
	case "CustomResourceDefinition":
		cols = []string{"NAME", "CREATED AT"}
	case "Node":
		cols = []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION"}
	default:
		return nil
	}
	if c.AllNamespaces && kind != "Namespace" && kind != "APIService" && kind != "CustomResourceDefinition" && kind != "Node" {
		cols = append([]string{"NAMESPACE"}, cols...)
	}
	return cols
}

// splitLoose splits a row without a header: at runs of spaces, keeping "(...)" groups
// ("False (MissingEndpoints)", "5 (2m ago)") with the cell before them.
func splitLoose(l string, want int) ([]string, bool) {
	var out []string
	f := strings.Fields(l)
	for i := 0; i < len(f); i++ {
		w := f[i]
		if strings.HasPrefix(w, "(") && len(out) > 0 {
			g := w
			for !strings.HasSuffix(g, ")") && i+1 < len(f) {
				i++
				g += " " + f[i]
			}
			out[len(out)-1] += " " + g
			continue
		}
		out = append(out, w)
	}
	if len(out) == want {
		return out, true
	}
	// empty trailing cells (NOMINATED NODE, READINESS GATES are "<none>", never empty,
	// but CREATED AT-like two-word cells are)
	return out, false
}

// splitRow splits a row of a table under its header (splitCells). A trailing shell
// comment a ticket's author added to a row (`kb-system   Terminating   73d  # 😱`) is
// no cell: when the row does not split under the header with it, or its last cell
// takes it, the row is split without it (except under a free-text MESSAGE column,
// whose text may hold " # ").
func splitRow(l string, cols []column) ([]string, bool) {
	cells, ok := splitColumns(l, cols)
	if len(cols) == 0 || cols[len(cols)-1].name == "MESSAGE" {
		return cells, ok
	}
	if c, cut := cutComment(l); cut && (!ok || strings.Contains(cells[len(cells)-1], "#")) {
		if cc, ok2 := splitColumns(c, cols); ok2 {
			return cc, true
		}
	}
	return cells, ok
}

// cutComment cuts a trailing shell comment from a line: a '#' after a space or tab,
// followed by a space, a tab or the end, with something before it.
func cutComment(l string) (string, bool) {
	for i := 1; i < len(l); i++ {
		if l[i] != '#' || l[i-1] != ' ' && l[i-1] != '\t' || i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t' {
			continue
		}
		if head := strings.TrimRight(l[:i], " \t"); strings.TrimSpace(head) != "" {
			return head, true
		}
		return "", false
	}
	return "", false
}

// splitColumns splits a row by the header's column offsets when the row is aligned
// with it, else at runs of two or more spaces, else loosely.
func splitColumns(l string, cols []column) ([]string, bool) {
	if cells, ok := splitStrict(l, cols); ok {
		return cells, true
	}
	return splitLoose(l, len(cols))
}

// splitStrict splits a row that fits the header without guessing: by tabs into as
// many cells as columns, by the header's offsets, or at runs of two or more spaces
// into as many cells as columns.
func splitStrict(l string, cols []column) ([]string, bool) {
	if strings.ContainsRune(l, '\t') {
		// tab-separated: each run of tabs ends a cell, whatever the tab stops
		if f := strings.FieldsFunc(strings.TrimSpace(l), func(r rune) bool { return r == '\t' }); len(f) == len(cols) {
			for k := range f {
				f[k] = strings.TrimSpace(f[k])
			}
			return f, true
		}
		l = expandTabs(l)
	}
	aligned := true
	cells := make([]string, len(cols))
	for k, c := range cols {
		if c.start < 0 {
			aligned = false // a header without offsets (singleSpaced)
			break
		}
		if c.start >= len(l) && k > 0 && k == len(cols)-1 {
			break // an empty last cell
		}
		// a cell starts right after a space; only the first may not be empty
		// (`oc get projects` leaves DISPLAY NAME blank)
		if c.start >= len(l) || c.start > 0 && l[c.start-1] != ' ' || k == 0 && l[c.start] == ' ' {
			aligned = false
			break
		}
		end := len(l)
		if k+1 < len(cols) {
			end = cols[k+1].start
			if end > len(l) {
				aligned = false
				break
			}
		}
		cells[k] = strings.TrimSpace(l[c.start:end])
	}
	if aligned {
		return cells, true
	}
	if cs := splitCells(strings.TrimSpace(l)); len(cs) == len(cols) {
		for k := range cs {
			cells[k] = cs[k].name
		}
		return cells, true
	}
	return nil, false
}

// rowAfterBlank tells whether the table goes on after the blank line(s) at j: a chat
// client or a copy from a web page puts a blank line after some lines of a table,
// and a row is told from the prose after a table by fitting the header without
// guessing (splitStrict), a row of a known kind only. It returns the next row's index.
func (p *parser) rowAfterBlank(j int, cols []column, kind string) (int, bool) {
	if kind == "" {
		return j, false
	}
	k := j
	for k < len(p.lines) && k-j < 2 && strings.TrimSpace(p.lines[k]) == "" {
		k++
	}
	if k >= len(p.lines) || k == j || strings.TrimSpace(p.lines[k]) == "" {
		return j, false
	}
	l := p.lines[k]
	if parseCommand(l, k+1) != nil || reTrace.MatchString(l) || stderrLine(strings.TrimLeft(l, " ")) || headerColumns(l) != nil {
		return j, false
	}
	if _, ok := splitStrict(l, cols); !ok {
		return j, false
	}
	return k, true
}

// table reads the rows under a header line; it returns the index of the line after the table.
// A table a client wrapped (at spaces or mid-word, at any width) reads as the table: the
// header's rest (a line of column names only) is the header's, and a row that does not fit
// the header is read with the lines after it that fit no row of their own, as long as
// together they fit it (wrapRow).
func (p *parser) table(i int, cols []column) int {
	for i+1 < len(p.lines) && headerRest(p.lines[i+1]) {
		// the header's rest: its columns are read at runs of spaces from here on
		rest := splitCells(strings.TrimSpace(p.lines[i+1]))
		for k := range cols {
			cols[k].start = -1
		}
		for _, c := range rest {
			if last := len(cols) - 1; twoWordColumns[cols[last].name+" "+c.name] {
				cols[last].name += " " + c.name // "READINESS" + "GATES"
				continue
			}
			cols = append(cols, column{name: c.name, start: -1})
		}
		i++
	}
	names := make([]string, len(cols))
	for k, c := range cols {
		names[k] = c.name
	}
	c := p.cmdFor()
	kind := ""
	if c != nil && c.Verb == "get" && !strings.Contains(c.Resource, ",") && (c.Output == "" || c.Output == "wide") {
		if r, ok := resources.Lookup(c.Resource); ok {
			kind = r.Kind
		}
	}
	if kind == "" {
		kind = kindOfHeader(names)
	}
	rows, nsNames := 0, map[string]bool{}
	j := i + 1
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		t := strings.TrimSpace(l)
		// (a `set -x` trace line is a command even when it is no known one: no row
		// starts with "+")
		if t == "" {
			k, ok := p.rowAfterBlank(j, cols, kind)
			if !ok {
				break
			}
			j, l = k, p.lines[k]
		} else if parseCommand(l, j+1) != nil || reTrace.MatchString(l) || stderrLine(strings.TrimLeft(l, " ")) || headerColumns(l) != nil {
			break
		}
		cells, ok := splitRow(l, cols)
		row := j
		if !ok {
			cells, ok, j = p.wrapRow(j, cols)
		}
		if !ok {
			if kind != "" {
				p.warn.Add(p.path, j+1, "cannot read this row of the %s table: %d columns expected", kind, len(cols))
			}
			continue
		}
		rows++
		k := kind
		if n := cells[colIndex(names, "NAME")]; strings.Contains(n, "/") {
			// `kubectl get pods,svc`, `get all`: "pod/foo"
			res, _, _ := strings.Cut(n, "/")
			if r, ok := resources.Lookup(res); ok {
				k = r.Kind
			}
		}
		if k == "" {
			continue
		}
		if k == "Namespace" {
			nsNames[strings.TrimPrefix(cells[colIndex(names, "NAME")], "namespace/")] = true
		}
		if kind == "Event" {
			p.eventRow(names, cells, row+1, c)
			continue
		}
		p.row(k, names, cells, row+1, c)
	}
	if kind == "Namespace" && rows > 0 && p.fullList(c, nsNames) {
		l := Listing{Line: i + 1, Rows: rows, Rendering: RenderingTable}
		if c != nil {
			l.Command = c.Text
		}
		p.res.NamespaceLists = append(p.res.NamespaceLists, l)
	}
	if c != nil && !strings.Contains(c.Resource, ",") && c.Resource != "all" {
		p.used = true
	}
	return j
}

// reCommandWord is a word of a command's arguments: a flag, a name, a resource.
var reCommandWord = regexp.MustCompile(`^(?:--?[a-zA-Z][-a-zA-Z0-9]*(?:=\S*)?|[a-z0-9][-a-z0-9./=_,:]*)$`)

// commandRest reports a line of a command's arguments only, a flag among them ("web -o
// wide"), which no output starts with: the rest of a command line a client wrapped.
func commandRest(l string) bool {
	f := strings.Fields(l)
	if len(f) == 0 || len(f) > 8 || startsBlock(strings.TrimSpace(l)) {
		return false
	}
	flag := false
	for _, w := range f {
		if !reCommandWord.MatchString(w) {
			return false
		}
		flag = flag || w[0] == '-'
	}
	return flag // (a line of names alone is as often output: `-o name`)
}

// headerRest reports a line of a table's column names only, none of them NAME: the rest
// of a header a client wrapped ("RESTARTS   AGE", "NOMINATED NODE   READINESS GATES").
func headerRest(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" || headerColumns(l) != nil {
		return false
	}
	for _, w := range strings.Fields(t) {
		if !headerWord(w) || w == "NAME" {
			return false
		}
	}
	return true
}

// wrapRow reads the row that starts on line j and does not fit the table's header as a
// row a client wrapped: joined with the lines after it (up to eight) that fit no row
// of their own, the first join that fits the header. It returns the row's cells and the
// index of its last line (j when no join fits).
func (p *parser) wrapRow(j int, cols []column) ([]string, bool, int) {
	// (a line that starts a block, or a describe block's "Key:   value", is no row's piece)
	own := func(l string) bool {
		t := strings.TrimSpace(l)
		_, _, key := describeKey(t, indentOf(l))
		return key || startsBlock(t) || strings.HasSuffix(t, ":")
	}
	if own(p.lines[j]) {
		return nil, false, j
	}
	loose := make([]column, len(cols))
	for c := range cols {
		loose[c] = column{name: cols[c].name, start: -1}
	}
	if j < len(p.seams) && len(p.seams[j]) > 0 {
		// a line parsers/paste joined: read as the lines it was (a cell glued to the
		// next one, "Terminating" + "0", is two cells)
		l, prev := "", 0
		for _, at := range p.seams[j] {
			l += p.lines[j][prev:at] + "   "
			prev = at
		}
		if cells, ok := splitRow(l+p.lines[j][prev:], loose); ok {
			return cells, true, j
		}
	}
	joined := p.lines[j]
	for k := j + 1; k < len(p.lines) && k <= j+8; k++ {
		l := p.lines[k]
		t := strings.TrimSpace(l)
		if t == "" || parseCommand(l, k+1) != nil || stderrLine(strings.TrimLeft(l, " ")) || headerColumns(l) != nil {
			break
		}
		if _, ok := splitRow(l, cols); ok || own(l) {
			break // a row of its own, or what follows the table
		}
		joined += "   " + t
		if cells, ok := splitRow(joined, loose); ok {
			return cells, true, k
		}
	}
	return nil, false, j
}

// fullList tells a listing of every namespace from one of some: the command says so
// when it is known (no names, no selector, no grep); else the list must hold the
// namespaces every cluster has.
func (p *parser) fullList(c *Command, names map[string]bool) bool {
	if c != nil {
		return c.Verb == "get" && len(c.Names) == 0 && !c.Selector && !c.Piped
	}
	return len(names) >= 2 && (names["default"] || names["kube-system"])
}

func colIndex(names []string, n string) int {
	for i, x := range names {
		if x == n {
			return i
		}
	}
	return 0
}

func has(names []string, n ...string) bool {
	for _, x := range n {
		found := false
		for _, y := range names {
			if y == x {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// kindOfHeader names the kind of a table from its columns, for tables whose command is unknown.
func kindOfHeader(names []string) string {
	h := strings.Join(names, "|")
	h = strings.TrimPrefix(h, "NAMESPACE|")
	switch {
	case has(names, "LAST SEEN", "REASON", "MESSAGE"):
		return "Event"
	case has(names, "SERVICE", "AVAILABLE"):
		return "APIService"
	case h == "NAME|STATUS|AGE" || h == "NAME|DISPLAY NAME|STATUS" || h == "NAME|STATUS":
		return "Namespace"
	case has(names, "READY", "STATUS", "RESTARTS"):
		return "Pod"
	case h == "NAME|CREATED AT":
		return "CustomResourceDefinition"
	case has(names, "STATUS", "ROLES", "VERSION"):
		return "Node"
	case has(names, "TYPE", "CLUSTER-IP"):
		return "Service"
	case h == "NAME|ENDPOINTS|AGE":
		return "Endpoints"
	case has(names, "READY", "UP-TO-DATE", "AVAILABLE"):
		return "Deployment"
	case has(names, "WEBHOOKS"):
		return "" // validating or mutating: the header does not say which
	}
	return ""
}

// row turns one table row into an object.
func (p *parser) row(kind string, names, cells []string, line int, c *Command) {
	get := func(n string) string {
		for i, x := range names {
			if x == n && i < len(cells) {
				v := cells[i]
				if v == "<none>" || v == "<unknown>" || v == "<pending>" {
					return ""
				}
				return v
			}
		}
		return ""
	}
	name := get("NAME")
	if _, n, ok := strings.Cut(name, "/"); ok {
		name = n
	}
	if name == "" || strings.ContainsAny(name, " \t") {
		p.warn.Add(p.path, line, "%s row without a readable name", kind)
		return
	}
	r, _ := resources.Lookup(kind)
	gv := r.GroupVersion
	if gv == "" {
		gv = gvOfKind[kind]
	}
	md := map[string]any{"name": name}
	ns := get("NAMESPACE")
	if ns == "" && c != nil && !c.AllNamespaces && r.Namespaced {
		ns = c.Namespace
	}
	if ns != "" {
		md["namespace"] = ns
	}
	obj := map[string]any{"apiVersion": gv, "kind": kind, "metadata": md}
	spec, status := map[string]any{}, map[string]any{}
	var conds []any
	deleting := false
	switch kind {
	case "Namespace":
		if st := get("STATUS"); st == "Active" || st == "Terminating" {
			status["phase"] = st
		} else if st != "" {
			p.warn.Add(p.path, line, "namespace %s: unknown status %q", name, st)
		}
	case "APIService":
		if v, g, ok := strings.Cut(name, "."); ok {
			spec["version"], spec["group"] = v, g
		}
		if svc := get("SERVICE"); svc != "" && svc != "Local" {
			if sns, sname, ok := strings.Cut(svc, "/"); ok {
				spec["service"] = map[string]any{"namespace": sns, "name": sname}
			}
		}
		if av := get("AVAILABLE"); av != "" {
			st, reason, _ := strings.Cut(av, " ")
			reason = strings.Trim(strings.TrimSpace(reason), "()")
			if st != "True" && st != "False" && st != "Unknown" {
				p.warn.Add(p.path, line, "APIService %s: unknown availability %q", name, av)
			} else {
				cond := map[string]any{"type": "Available", "status": st}
				if reason != "" {
					cond["reason"] = reason
				}
				conds = append(conds, cond)
			}
		}
	case "Pod":
		cs := map[string]any{}
		if ready := get("READY"); ready != "" {
			a, b, ok := strings.Cut(ready, "/")
			if ok {
				st := "False"
				if a == b && b != "0" {
					st = "True"
				}
				conds = append(conds, map[string]any{"type": "Ready", "status": st})
			}
		}
		if rs := get("RESTARTS"); rs != "" {
			n, _, _ := strings.Cut(rs, " ")
			if v, ok := atoi(n); ok {
				cs["restartCount"] = v
			}
		}
		st := get("STATUS")
		deleting = st == "Terminating" // kubectl prints it for a pod with a deletionTimestamp
		phase, waiting, terminated := podStatus(st)
		if phase != "" {
			status["phase"] = phase
		}
		if waiting != "" {
			cs["state"] = map[string]any{"waiting": map[string]any{"reason": waiting}}
		}
		if terminated != "" {
			cs["lastState"] = map[string]any{"terminated": map[string]any{"reason": terminated}}
		}
		if len(cs) > 0 {
			status["containerStatuses"] = []any{cs}
		}
		if n := get("NODE"); n != "" {
			spec["nodeName"] = n
		}
		if ip := get("IP"); ip != "" {
			status["podIP"] = ip
		}
	case "CustomResourceDefinition":
		if pl, g, ok := strings.Cut(name, "."); ok {
			spec["group"] = g
			spec["names"] = map[string]any{"plural": pl}
		}
	case "Node":
		if v := get("VERSION"); strings.HasPrefix(v, "v") {
			status["nodeInfo"] = map[string]any{"kubeletVersion": v}
		}
		if st := get("STATUS"); st != "" {
			s, _, _ := strings.Cut(st, ",")
			v := map[string]string{"Ready": "True", "NotReady": "False", "Unknown": "Unknown"}[s]
			if v != "" {
				conds = append(conds, map[string]any{"type": "Ready", "status": v})
			}
		}
	case "Service":
		if t := get("TYPE"); t != "" {
			spec["type"] = t
		}
		if ip := get("CLUSTER-IP"); ip != "" {
			spec["clusterIP"] = ip
		}
		var ports []any
		for _, pp := range strings.Split(get("PORT(S)"), ",") {
			num, _, _ := strings.Cut(pp, "/")
			num, _, _ = strings.Cut(num, ":")
			if v, ok := atoi(num); ok {
				ports = append(ports, map[string]any{"port": v})
			}
		}
		if ports != nil {
			spec["ports"] = ports
		}
		if sel := get("SELECTOR"); sel != "" {
			m := map[string]any{}
			for _, kv := range strings.Split(sel, ",") {
				if k, v, ok := strings.Cut(kv, "="); ok {
					m[k] = v
				}
			}
			spec["selector"] = m
		}
	case "Endpoints":
		ep := get("ENDPOINTS")
		var addrs []any
		more := 0
		if i := strings.Index(ep, " + "); i >= 0 {
			n, _, _ := strings.Cut(strings.TrimSpace(ep[i+3:]), " ")
			more, _ = atoi(n)
			ep = ep[:i]
		}
		for _, a := range strings.Split(ep, ",") {
			if a != "" {
				host, _, _ := strings.Cut(a, ":")
				addrs = append(addrs, map[string]any{"ip": host})
			}
		}
		for k := 0; k < more; k++ {
			addrs = append(addrs, map[string]any{"ip": ""})
		}
		if addrs != nil {
			obj["subsets"] = []any{map[string]any{"addresses": addrs}}
		}
	case "Deployment", "StatefulSet", "ReplicaSet":
		if a, b, ok := strings.Cut(get("READY"), "/"); ok {
			if x, ok := atoi(b); ok {
				spec["replicas"] = x
			}
			if x, ok := atoi(a); ok {
				status["readyReplicas"] = x
			}
		}
	}
	if conds != nil {
		status["conditions"] = conds
	}
	if len(spec) > 0 {
		obj["spec"] = spec
	}
	if len(status) > 0 {
		obj["status"] = status
	}
	s := synth{line: line, obj: obj, rendering: RenderingTable, deleting: deleting}
	if a, ok := ParseAge(get("AGE")); ok {
		s.age = a
	}
	for range conds {
		s.condLines = append(s.condLines, line)
	}
	p.add(s)
}

var gvOfKind = map[string]string{"Namespace": "v1"}

// podStatus reads the STATUS column of `kubectl get pods`: the phase where it says one,
// a waiting or terminated container reason otherwise.
func podStatus(st string) (phase, waiting, terminated string) {
	switch {
	case st == "Running", st == "Pending", st == "Succeeded", st == "Failed", st == "Unknown":
		return st, "", ""
	case st == "Completed":
		return "Succeeded", "", ""
	case st == "Evicted":
		return "Failed", "", ""
	case st == "ContainerCreating", st == "PodInitializing", strings.HasPrefix(st, "Init:"),
		st == "ImagePullBackOff", st == "ErrImagePull", st == "CreateContainerConfigError", st == "InvalidImageName":
		return "Pending", st, ""
	case st == "CrashLoopBackOff", st == "RunContainerError", st == "CreateContainerError":
		return "Running", st, ""
	case st == "Error", st == "OOMKilled", st == "ContainerCannotRun", st == "DeadlineExceeded":
		return "", "", st
	}
	return "", "", "" // Terminating (no deletion time in a table), NodeLost, ...
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func (p *parser) add(s synth) {
	md, _ := s.obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	// a bullet of prose read as a row or a field ("- something") names no namespace "-":
	// whatever the rendering, a namespace's name is a DNS-1123 label or the object is not read
	if s.obj["kind"] == "Namespace" && !kubemsg.IsNamespaceName(name) {
		p.warn.Add(p.path, s.line, "no namespace read: %q is no namespace name (a DNS-1123 label)", name)
		return
	}
	if _, has := md["namespace"]; has && !kubemsg.IsNamespaceName(ns) {
		p.warn.Add(p.path, s.line, "no %v read: its namespace %q is no namespace name (a DNS-1123 label)", s.obj["kind"], ns)
		return
	}
	p.synth = append(p.synth, s)
}

// decode runs the synthesized objects through the objects decoder, each at its own
// line, so that text renderings give exactly the records a JSON dump gives.
func (p *parser) decode() {
	if len(p.synth) == 0 {
		return
	}
	var buf bytes.Buffer
	line := 1
	// several objects of one line (two rows quoted in one sentence) are written on it
	// one after the other, and taken back in that order
	byLine := map[int][]*synth{}
	for k := range p.synth {
		s := &p.synth[k]
		if s.line < line-1 || s.line == line-1 && len(byLine[s.line]) == 0 {
			continue // an earlier line (cannot happen; never fatal)
		}
		js, err := json.Marshal(s.obj)
		if err != nil {
			continue
		}
		if s.line == line-1 {
			buf.Truncate(buf.Len() - 1) // after the line's last object, on the same line
			buf.WriteByte(' ')
			line--
		}
		for line < s.line {
			buf.WriteByte('\n')
			line++
		}
		buf.Write(js)
		buf.WriteByte('\n')
		line++
		byLine[s.line] = append(byLine[s.line], s)
	}
	taken := map[int]int{}
	objects.DecodeJSON(&buf, p.path, objects.Options{}, p.warn, func(o *objects.Object) {
		var s *synth
		if ss := byLine[o.Source.Line]; taken[o.Source.Line] < len(ss) {
			s = ss[taken[o.Source.Line]]
			taken[o.Source.Line]++
		}
		o.Source.Fields = nil
		if s != nil {
			o.Source.Rendering = s.rendering
			o.DeletionShown = s.deleting && o.DeletionTimestamp.IsZero()
			if s.age > 0 || s.lasts > 0 {
				o.Ages = &objects.Ages{Age: s.age, TerminatingFor: s.lasts, File: p.path, Line: s.line}
			}
			for i := range o.Conditions {
				o.Conditions[i].Line = 0
				if i < len(s.condLines) {
					o.Conditions[i].Line = s.condLines[i]
				}
			}
		}
		p.emit(o)
	})
}

// emit records an object, Projects as the Namespaces they are.
func (p *parser) emit(o *objects.Object) {
	if o.Kind == "Project" && (o.APIVersion == "" || strings.HasPrefix(o.APIVersion, "project.openshift.io/") || o.APIVersion == "v1") {
		o.Kind, o.APIVersion = "Namespace", "v1"
	}
	if o.Kind == "Namespace" {
		for i := range o.Conditions {
			c := &o.Conditions[i]
			// cut before its type and status (kubectl prints them after the message):
			// the namespace deleter writes each message under one type and status
			if t, st, ok := kubemsg.NamespaceConditionOfMessage(c.Message); ok && c.Type == "" && (c.Status == "" || c.Status == st) {
				c.Type, c.Status = t, st
			}
		}
	}
	if o.Kind == "Namespace" && o.Phase == "" && deletionConditions(o) {
		// the paste cut status.phase (`| grep -A8 status`, "..." before the
		// Conditions): the namespace controller writes these conditions only while it
		// deletes the namespace
		o.Phase = "Terminating"
	}
	p.res.Objects = append(p.res.Objects, o)
}

var stderrKeywords = []string{"rror", "nable", "couldn't", "No resources", "Warning", "refused", "] ", kubemsg.TerraformStillDestroying}

func deletionConditions(o *objects.Object) bool {
	for _, c := range o.Conditions {
		if strings.HasPrefix(c.Type, "NamespaceDeletion") || c.Type == "NamespaceContentRemaining" || c.Type == "NamespaceFinalizersRemaining" {
			return true
		}
	}
	return false
}

// scanLog reads the stderr lines, and pasted `kubectl logs` output, with the log
// parser; the other lines are blanked so that line numbers stay those of the file.
func (p *parser) scanLog(data []byte) {
	if len(p.stderr) == 0 && len(p.logOut) == 0 && len(p.loose) == 0 {
		return
	}
	var buf bytes.Buffer
	for i, l := range p.lines {
		if p.stderr[i+1] || p.logOut[i+1] != nil {
			buf.WriteString(l)
		} else if t, ok := p.loose[i+1]; ok {
			buf.WriteString(t)
		}
		if i < len(p.lines)-1 {
			buf.WriteByte('\n')
		}
	}
	lo := p.opts.Logs
	lo.Component = ""
	if len(lo.Keywords) == 0 {
		// no keywords: every stderr line becomes an entry (these literals are in each
		// shape stderrLine accepts); with keywords, like any log, only the lines holding one
		lo.Keywords = stderrKeywords
	}
	lo.SizeHint = int64(buf.Len())
	lo.Repaired = true
	f, _ := logs.ScanFile(&buf, p.path, lo, p.warn)
	if f == nil {
		return
	}
	for i := range f.Entries {
		e := &f.Entries[i]
		if c := p.logOut[e.Line]; c != nil {
			// the pod the command names says whose log it is
			if comp := logs.ComponentFromPath(c.Resource); comp != "" && comp != ComponentKubectl {
				e.Component = comp
			} else if e.Component == ComponentKubectl {
				e.Component = ""
			}
			continue
		}
		if p.stderr[e.Line] {
			caller, _, _ := strings.Cut(e.Caller, ":")
			if m := reKlog.FindStringSubmatch(strings.TrimLeft(p.lines[e.Line-1], " ")); m != nil && m[1] == "1" && !kubectlCallers[caller] {
				continue // a component's own line pasted (pid 1 in its container): the log parser's attribution stands
			}
			if logs.ComponentFromCaller(e.Caller) == "" || kubectlCallers[caller] {
				e.Component = ComponentKubectl
			}
		}
	}
	if len(p.logOut) == 0 {
		f.Info.Component = ComponentKubectl
	}
	p.res.Log = f
}
