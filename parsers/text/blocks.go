package text

import (
	"encoding/json"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/paste"
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/resources"
)

// YAML and JSON pasted among the text are read by the objects decoder, at their own lines.

var (
	reYAMLTop = regexp.MustCompile(`^(apiVersion|kind|metadata|spec|status|items|data):(\s|$)`)
	reYAMLKey = regexp.MustCompile(`^[a-z_"'][\w"'./-]*:(\s|$)`)
)

// reLostBrace is the start of a Kubernetes object's JSON whose opening brace a paste
// lost (an inline-code span opened right before it, a copy that started one byte
// late): its first member "kind" or "apiVersion" with a string value, a comma and the
// next member's key, as the API server and kubectl write them (kind and apiVersion
// first). No other text starts so. What a line holds before it (a line number, a chat
// stamp, a word of prose) is no part of the object when it holds no brace or quote.
var reLostBrace = regexp.MustCompile(`"(?:kind|apiVersion)"\s*:\s*"[A-Za-z0-9./-]{1,253}"\s*,\s*"[A-Za-z][A-Za-z0-9]*"\s*:`)

// lostBrace returns where the object's JSON whose brace was lost starts in t, -1 if
// it holds none.
func lostBrace(t string) int {
	loc := reLostBrace.FindStringIndex(t)
	if loc == nil || strings.ContainsAny(t[:loc[0]], "{}[]\"\\") {
		return -1
	}
	return loc[0]
}

func jsonStart(t string) bool {
	if strings.HasPrefix(t, "{") {
		return true
	}
	if strings.HasPrefix(t, "[") {
		r := strings.TrimSpace(t[1:])
		return r == "" || r[0] == '{' || r[0] == ']' || r[0] == '"'
	}
	return false
}

func yamlStart(l string, c *Command) bool {
	if reYAMLTop.MatchString(l) || strings.TrimSpace(l) == "---" {
		return true
	}
	// after `-o yaml` any top-level key starts the document (`| grep -A` fragments),
	// and so does an indented one (`| tail -n40` starts inside metadata)
	if c == nil || c.Tool != "kubectl" || c.Output != "yaml" {
		return false
	}
	return reYAMLKey.MatchString(l) || indentOf(l) <= 8 && reYAMLKey.MatchString(strings.TrimLeft(l, " "))
}

// jsonBlock finds the end of the JSON value(s) starting at line i: where the brackets
// close, or the next command line of a truncated paste.
func (p *parser) jsonBlock(i int) int {
	depth := 0
	var str objects.JSONString
	j := i
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if p.newBlock(i, j) {
			break
		}
		if j > i && depth > 0 && !str.In {
			if c := parseCommand(l, j+1); c != nil && c.Tool == "kubectl" {
				break
			}
		}
		feed := func(l string) {
			for k := 0; k < len(l); k++ {
				switch ch := l[k]; {
				case str.Feed(ch):
				case ch == '{' || ch == '[':
					depth++
				case ch == '}' || ch == ']':
					depth--
				}
			}
		}
		feed(l)
		if str.In && depth > 0 {
			// JSON has no line break inside a string: the line was cut there (a
			// terminal's or a client's wrap), and its rest is on the lines after it.
			// They are joined to it (each left blank, so the lines after keep their
			// numbers) until the string ends.
			var b strings.Builder
			b.WriteString(l)
			for m := j + 1; str.In && m < len(p.lines) && !p.newBlock(i, m); m++ {
				feed(p.lines[m])
				b.WriteString(p.lines[m])
				p.lines[m] = ""
			}
			p.lines[j] = b.String()
		}
		if depth <= 0 && !str.In {
			j++
			// concatenated documents: another value right after this one
			if j < len(p.lines) && jsonStart(strings.TrimSpace(p.lines[j])) {
				depth = 0
				j--
				continue
			}
			break
		}
	}
	p.decodeBlock(i, j, false)
	return j
}

// yamlBlock finds the end of a YAML document (or several) starting at line i: the next
// line at the left margin that YAML would not start a key, list item or document with.
func (p *parser) yamlBlock(i int) int {
	j := i + 1
	open, literal := quoteOpen(0, p.lines[i]), blockScalar(p.lines[i])
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if p.newBlock(i, j) {
			break
		}
		if k := p.wrapPiece(i, j); k >= 0 {
			// a line a client wrapped inside the document: its rest, at the margin, is
			// indented under the line it was cut from, where YAML reads it as that
			// line's value going on (folded with a space, as a wrap at spaces lost one)
			p.lines[j] = strings.Repeat(" ", indentOf(p.lines[k])+2) + l
			if open != 0 {
				open = quoteOpen(open, l)
			} else {
				open = quoteOpen(0, strings.TrimSpace(p.lines[k])+" "+l)
			}
			continue
		}
		if open != 0 {
			open = quoteOpen(open, strings.TrimSpace(l)) // a quoted scalar over lines (flattened: at the margin)
			continue
		}
		if l == "" || l[0] == ' ' || l[0] == '\t' {
			if l != "" {
				open = quoteOpen(0, strings.TrimSpace(l))
				literal = blockScalar(l)
			}
			continue
		}
		if literal && !reYAMLKey.MatchString(l) && !strings.HasPrefix(l, "- ") && parseCommand(l, j+1) == nil {
			continue // a block scalar's text, flattened to the margin
		}
		open, literal = quoteOpen(0, l), blockScalar(l)
		if c := parseCommand(l, j+1); c != nil {
			break
		}
		if strings.HasPrefix(l, "- ") || l == "-" || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") ||
			strings.HasPrefix(l, "#") || reYAMLKey.MatchString(l) {
			continue
		}
		break
	}
	end := j
	for end > i && strings.TrimSpace(p.lines[end-1]) == "" {
		end--
	}
	if indentOf(p.lines[i]) > 0 {
		tailFragment(p.lines[i:end])
	}
	if q := openAtEnd(p.lines[i:end]); q != 0 && end > i {
		// the paste ends inside a quoted value: what it holds up to the cut is kept
		p.lines[end-1] += string(q)
	}
	if flattened(p.lines[i:end]) {
		// indentation lost: restored from the object schema, line for line
		copy(p.lines[i:end], reindent(p.lines[i:end]))
	}
	p.decodeBlock(i, end, true)
	return j
}

// wrapPiece reports the line a client's wrap cut line j (at the margin) from, inside a
// YAML document starting at line i: the last line before it, indented (inside a mapping),
// when line j is nothing a document starts a line with (a key, a list item, a comment,
// a document mark, a command) and the document goes on after it (the next line that is
// no such piece is indented). It returns -1 for a line of the document's own.
func (p *parser) wrapPiece(i, j int) int {
	piece := func(l string) bool {
		return l != "" && l[0] != ' ' && l[0] != '\t' && !reYAMLKey.MatchString(l) && !strings.HasPrefix(l, "- ") && l != "-" &&
			!strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "...") && !strings.HasPrefix(l, "#") && parseCommand(l, 0) == nil &&
			!stderrLine(l) && headerColumns(l) == nil
	}
	if !piece(p.lines[j]) {
		return -1
	}
	k := j - 1
	for k > i && strings.TrimSpace(p.lines[k]) == "" {
		k--
	}
	if indentOf(p.lines[k]) == 0 {
		return -1
	}
	for n := j + 1; n < len(p.lines) && n <= j+8; n++ {
		switch l := p.lines[n]; {
		case strings.TrimSpace(l) == "" || piece(l):
		case indentOf(l) > 0 && !p.newBlock(i, n):
			return k
		default:
			return -1
		}
	}
	return -1
}

// decodeBlock decodes lines [i, j) as YAML or JSON, padded so that the decoder counts
// the file's line numbers. Objects whose kind, name or namespace the paste cut off
// (`-o yaml | grep -A8 status`) take them from the command before it.
func (p *parser) decodeBlock(i, j int, yaml bool) {
	if j <= i {
		return
	}
	var b strings.Builder
	if yaml && i > 0 {
		// the YAML decoder numbers documents from their "---" line
		b.WriteString(strings.Repeat("\n", i-1))
		b.WriteString("---\n")
	} else {
		b.WriteString(strings.Repeat("\n", i))
	}
	for k := i; k < j; k++ {
		b.WriteString(p.lines[k])
		b.WriteByte('\n')
	}
	c := p.cmdFor()
	if c != nil && c.Verb != "get" && c.Verb != "" {
		c = nil // `kubectl delete` output, a curl response: no hint
	}
	opts := objects.Options{}
	var res resources.Resource
	if c != nil {
		if r, ok := resources.Lookup(c.Resource); ok {
			res = r
			opts.KindHint = r.Kind
		}
	}
	first := len(p.res.Objects)
	emit := func(o *objects.Object) {
		if c != nil && o.Kind == res.Kind && res.Kind != "" {
			if o.Name == "" && len(c.Names) == 1 {
				o.Name = c.Names[0]
			}
			if o.Namespace == "" && res.Namespaced && c.Namespace != "" {
				o.Namespace = c.Namespace
			}
			if o.APIVersion == "" {
				o.APIVersion = res.GroupVersion
			}
		}
		if o.Name == "" {
			if c != nil && o.Kind == res.Kind {
				p.warn.Add(p.path, o.Source.Line, "%s without a name (a cut paste?) skipped", o.Kind)
			}
			return // a Status response, a Config
		}
		p.emit(o)
	}
	r := strings.NewReader(b.String())
	if yaml {
		objects.DecodeYAML(r, p.path, opts, p.warn, emit)
	} else if fixed, n := reescape(p.lines[i:j]); n > 0 {
		// quotes inside strings lost their backslashes (Markdown ate them): the JSON as
		// it is cannot be read; kubectl prints one member a line, so each line's string
		// ends at its last quote
		local := &diag.Sink{}
		if objects.DecodeJSON(strings.NewReader(b.String()), p.path, opts, local, func(*objects.Object) {}) > 0 {
			objects.DecodeJSON(r, p.path, opts, p.warn, emit)
		} else {
			var fb strings.Builder
			fb.WriteString(strings.Repeat("\n", i))
			for _, l := range fixed {
				fb.WriteString(l)
				fb.WriteByte('\n')
			}
			p.warn.Add(p.path, i+1, "%d strings hold quotes without their backslashes (Markdown ate them?): read with the quotes escaped", n)
			objects.DecodeJSON(strings.NewReader(fb.String()), p.path, opts, p.warn, emit)
		}
	} else {
		objects.DecodeJSON(r, p.path, opts, p.warn, emit)
	}
	if c != nil && c.Output != "" {
		p.used = true
	}
	if yaml && len(p.res.Objects) == first {
		p.looseBlock(i, j)
	}
	// a namespace list: `kubectl get ns -o yaml|json`, or a List holding the namespaces every cluster has
	names := map[string]bool{}
	for _, o := range p.res.Objects[first:] {
		if o.Kind == "Namespace" {
			names[o.Name] = true
		}
	}
	if len(names) > 0 && (c != nil && res.Kind == "Namespace" && len(c.Names) == 0 && !c.Selector && !c.Piped ||
		c == nil && len(names) >= 2 && (names["default"] || names["kube-system"])) {
		l := Listing{Line: i + 1, Rows: len(names)}
		if c != nil {
			l.Command = c.Text
		}
		p.res.NamespaceLists = append(p.res.NamespaceLists, l)
	}
}

// blockScalar reports a key whose value is a literal or folded block ("key: |").
func blockScalar(l string) bool {
	t := strings.TrimRight(l, " ")
	for _, ind := range []string{": |", ": >", ": |-", ": >-", ": |+", ": >+"} {
		if strings.HasSuffix(t, ind) {
			return true
		}
	}
	return false
}

// looseBlock keeps the lines [i, j) of a YAML block that gave no object for the log
// scan, each multi-line value joined into its first line (paste.JoinScalars).
func (p *parser) looseBlock(i, j int) {
	idx := make([]int, j-i)
	for k := range idx {
		idx[k] = i + k + 1
	}
	lines, at := paste.JoinScalars(append([]string(nil), p.lines[i:j]...), idx)
	if p.loose == nil {
		p.loose = map[int]string{}
	}
	for k, l := range lines {
		if !p.stderr[at[k]] && p.logOut[at[k]] == nil {
			p.loose[at[k]] = l
		}
	}
}

// reJSONMember is a line of pretty-printed JSON holding one string: `"key": "value",`
// or an array's `"value",`.
var reJSONMember = regexp.MustCompile(`^(\s*(?:"[^"\\]*"\s*:\s*)?)"(.*)"(\s*,?\s*)$`)

// reescape returns the lines with the quotes inside each line's string escaped, and how
// many lines needed it (0: the lines are returned as they are).
func reescape(lines []string) ([]string, int) {
	var out []string
	n := 0
	for k, l := range lines {
		m := reJSONMember.FindStringSubmatch(l)
		if m == nil || !bareQuote(m[2]) {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append([]string(nil), lines[:k]...)
		}
		var b strings.Builder
		for x := 0; x < len(m[2]); x++ {
			c := m[2][x]
			if c == '\\' && x+1 < len(m[2]) {
				b.WriteByte(c)
				x++
				b.WriteByte(m[2][x])
				continue
			}
			if c == '"' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		out = append(out, m[1]+`"`+b.String()+`"`+m[3])
		n++
	}
	if n == 0 {
		return lines, 0
	}
	return out, n
}

// bareQuote reports a quote without a backslash before it.
func bareQuote(s string) bool {
	for x := 0; x < len(s); x++ {
		switch s[x] {
		case '\\':
			x++
		case '"':
			return true
		}
	}
	return false
}

// tailFragment makes YAML of a document whose start was cut (`-o yaml | tail -n40`
// begins inside metadata): the indented lines before the first key at the margin,
// whose parent key is gone, become keys at the margin (`key: value` lines, which the
// decoder ignores there, except what the command names) or blank lines (the rest),
// one line for one, so the lines stay the file's.
func tailFragment(lines []string) {
	for k, l := range lines {
		if l == "" || indentOf(l) == 0 {
			return
		}
		t := strings.TrimSpace(l)
		if m := reFlatKey.FindStringSubmatch(t); m != nil && m[1] == "" && strings.TrimSpace(m[3]) != "" && quoteOpen(0, t) == 0 {
			lines[k] = t
		} else {
			lines[k] = ""
		}
	}
}

// openAtEnd returns the quote a YAML block leaves open at its end (0: none).
func openAtEnd(lines []string) byte {
	var open byte
	for _, l := range lines {
		open = quoteOpen(open, strings.TrimSpace(l))
	}
	return open
}

// jsonTail reads the end of a `kubectl get namespace NAME -o json` cut at its start
// (a `| tail`, a paste that begins inside status.conditions): indented members and
// elements whose enclosing object is gone. The conditions it holds (each whole object
// with a type and a status) and its phase become the Namespace NAME the command names.
// It returns i when line i starts no such tail.
func (p *parser) jsonTail(i int) int {
	c := p.cmdFor()
	t := strings.TrimSpace(p.lines[i])
	if c == nil || c.Verb != "get" || c.Output != "json" || len(c.Names) != 1 ||
		!(strings.HasPrefix(t, "{") || strings.HasPrefix(t, `"`) || strings.HasPrefix(t, "}") || strings.HasPrefix(t, "]")) {
		return i
	}
	if indentOf(p.lines[i]) < 4 {
		// at the margin (or its indentation flattened): a tail only when what opens
		// it is no object of its own (an object starts with apiVersion or kind)
		if t != "{" {
			return i
		}
		for k := i + 1; k < len(p.lines) && k <= i+3; k++ {
			if m := strings.TrimSpace(p.lines[k]); strings.HasPrefix(m, `"apiVersion"`) || strings.HasPrefix(m, `"kind"`) || strings.HasPrefix(m, `"items"`) {
				return i
			}
		}
	}
	if r, ok := resources.Lookup(c.Resource); !ok || r.Kind != "Namespace" {
		return i
	}
	j := i
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if strings.TrimSpace(l) == "" || parseCommand(l, j+1) != nil || stderrLine(strings.TrimLeft(l, " ")) {
			break
		}
	}
	var conds []any
	var condLines []int
	phase := ""
	// whole objects at the fragment's outermost level: the conditions
	depth, start := 0, -1
	var str objects.JSONString
	var obj strings.Builder
	for k := i; k < j; k++ {
		l := p.lines[k]
		if m := rePhaseMember.FindStringSubmatch(l); m != nil && depth <= 0 {
			phase = m[1]
		}
		for x := 0; x < len(l); x++ {
			ch := l[x]
			switch {
			case str.Feed(ch):
			case ch == '{':
				if depth <= 0 {
					depth, start = 0, k
					obj.Reset()
				}
				depth++
			case ch == '}':
				depth--
				if depth == 0 && start >= 0 {
					obj.WriteString(l[:x+1])
					var m map[string]any
					if json.Unmarshal([]byte(obj.String()), &m) == nil {
						if ty, ok := m["type"].(string); ok && ty != "" {
							if _, ok := m["status"].(string); ok {
								conds = append(conds, m)
								condLines = append(condLines, start+1)
							}
						}
					}
					start = -1
				}
			}
		}
		if start >= 0 {
			obj.WriteString(l)
			obj.WriteByte('\n')
		}
	}
	if len(conds) == 0 && phase == "" {
		return i
	}
	status := map[string]any{}
	if len(conds) > 0 {
		status["conditions"] = conds
	}
	if phase != "" {
		status["phase"] = phase
	}
	p.warn.Add(p.path, i+1, "the output of %q starts inside the object (its start was cut): its conditions and phase are read", c.Text)
	p.add(synth{line: i + 1, obj: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": c.Names[0]},
		"status": status}, condLines: condLines})
	p.used = true
	return j
}

// rePhaseMember is status.phase in kubectl's JSON.
var rePhaseMember = regexp.MustCompile(`^\s*"phase":\s*"([A-Za-z]+)"`)
