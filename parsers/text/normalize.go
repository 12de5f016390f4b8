package text

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/paste"
)

// The readers see the lines after parsers/paste repaired them (characters, frames,
// elisions, shifted indentation, terminal wraps), with the file's line of each; here
// the kubectl shapes that tell a wrapped line's rest from the start of something new,
// and the blocks shifted on their own.

// normalize returns the lines the readers see and, for each, the line of the file
// (1-based) it starts on.
func normalize(raw []string) (lines []string, orig []int) {
	lines, orig, _ = normalizeSeams(raw)
	return lines, orig
}

// normalizeSeams is normalize, with the seams of each line (paste.LinesSeams: where it
// joins the lines a wrap split).
func normalizeSeams(raw []string) (lines []string, orig []int, seams [][]int) {
	lines, orig, seams = paste.LinesSeams(raw, paste.Options{Continues: continuation})
	return dedent(lines, seams), orig, seams
}

// dedent removes the indentation a block between blank lines was shifted by (a
// Markdown list item, a quote inside prose), when its first line starts something (a
// command, a table, a describe block, a document, a log line) once unshifted; the
// indentation of the whole paste parsers/paste removed already.
func dedent(lines []string, seams [][]int) []string {
	for i := 0; i < len(lines); {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		j, m := i, -1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			if ind := indentOf(lines[j]); m < 0 || ind < m {
				m = ind
			}
		}
		if first := lines[i]; m > 0 && indentOf(first) == m && startsBlock(first[m:]) && (i == 0 || !yamlOpen(lines[:i])) {
			for k := i; k < j; k++ {
				lines[k] = lines[k][m:]
				if k < len(seams) {
					for s := range seams[k] {
						seams[k][s] = max(0, seams[k][s]-m)
					}
				}
			}
		}
		i = j
	}
	return lines
}

// startsBlock reports a line that starts something of its own.
func startsBlock(l string) bool {
	t := strings.TrimSpace(l)
	return parseCommand(l, 0) != nil || headerColumns(l) != nil || strings.HasPrefix(l, "Name:") || reYAMLTop.MatchString(l) ||
		stderrLine(l) || jsonStart(t) || logLine(l)
}

// yamlOpen reports whether the last non-blank line before a blank line is inside a YAML
// document at the margin (a block after it may be the document's own continuation).
func yamlOpen(before []string) bool {
	for k := len(before) - 1; k >= 0; k-- {
		if strings.TrimSpace(before[k]) == "" {
			continue
		}
		return indentOf(before[k]) > 0 && reYAMLKey.MatchString(strings.TrimSpace(before[k]))
	}
	return false
}

// continuation reports whether next, after a line cut at the terminal's width, is the
// rest of it: it starts nothing of its own (a command, a header, a log line, a
// describe block, a document) and is not the next row of the same table.
func continuation(c paste.Cut) bool {
	prev, next := c.Last, c.Next
	t := strings.TrimSpace(next)
	if headerColumns(prev) != nil {
		// a header goes on only with more of its own words
		return headerColumns(prev+next) != nil
	}
	if t == "" || parseCommand(next, 0) != nil || stderrLine(strings.TrimLeft(next, " ")) || headerColumns(next) != nil ||
		strings.HasPrefix(next, "Name:") || reYAMLTop.MatchString(next) || logLine(next) ||
		reAPIServiceRow.MatchString(next) || reNamespaceRow.MatchString(next) || t == "---" {
		return false
	}
	if c.Open {
		return true // cut inside a quoted value ('{"Conditions":[...' of an annotation)
	}
	if jsonStart(t) && indentOf(next) == 0 {
		return false
	}
	// rows of one table: cells at the same offsets
	pc, nc := splitCells(prev), splitCells(next)
	if len(pc) >= 3 && len(pc) == len(nc) {
		same := true
		for k := range pc {
			if pc[k].start != nc[k].start {
				same = false
			}
		}
		if same {
			return false
		}
	}
	// YAML: the next key or list item at an indentation of its own
	// (a line that starts at the margin and is no key is a wrapped line's rest, whose
	// own indentation says nothing: an indented key after it is the document's)
	if ind := indentOf(next); ind > 0 && (reYAMLKey.MatchString(t) || strings.HasPrefix(t, "- ")) &&
		(ind <= indentOf(c.First)+2 || indentOf(c.First) == 0 && !reYAMLKey.MatchString(c.First) && !strings.HasPrefix(c.First, "- ")) {
		return false
	}
	return true
}

// fileLine is the line of the file that normalised line n (1-based) starts on.
func (p *parser) fileLine(n int) int {
	if n < 1 || n > len(p.orig) {
		if n > len(p.orig) && len(p.orig) > 0 {
			return p.orig[len(p.orig)-1]
		}
		return n
	}
	return p.orig[n-1]
}

// remap moves every record and warning from the normalised lines to the file's.
func (p *parser) remap() {
	identity := true
	for i, o := range p.orig {
		if o != i+1 {
			identity = false
			break
		}
	}
	if identity {
		return
	}
	for _, o := range p.res.Objects {
		o.Source.Line = p.fileLine(o.Source.Line)
		for i := range o.Conditions {
			if o.Conditions[i].Line > 0 {
				o.Conditions[i].Line = p.fileLine(o.Conditions[i].Line)
			}
		}
		for k, v := range o.Source.Fields {
			o.Source.Fields[k] = p.fileLine(v)
		}
		if o.Ages != nil && o.Ages.File == p.path {
			o.Ages.Line = p.fileLine(o.Ages.Line)
		}
	}
	if p.res.Log != nil {
		for i := range p.res.Log.Entries {
			p.res.Log.Entries[i].Line = p.fileLine(p.res.Log.Entries[i].Line)
		}
	}
	for i := range p.res.NamespaceLists {
		p.res.NamespaceLists[i].Line = p.fileLine(p.res.NamespaceLists[i].Line)
	}
	for i := range p.res.Commands {
		p.res.Commands[i].Line = p.fileLine(p.res.Commands[i].Line)
	}
	for i := range p.warn.List {
		if p.warn.List[i].Line > 0 {
			p.warn.List[i].Line = p.fileLine(p.warn.List[i].Line)
		}
	}
}
