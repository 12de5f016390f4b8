package logs

import (
	"bytes"
	"sort"
)

// CRI container logs split a line longer than the runtime's buffer into `P` (partial)
// records followed by one `F` record; kubelet joins them. The scanner does the same
// for the chains it parses, so a message (and a key phrase) cut by the runtime is
// read whole, with the line number of its first fragment.

// span is a byte range of a region.
type span struct{ st, end int }

var (
	criPartialOut = []byte(" stdout P ")
	criPartialErr = []byte(" stderr P ")
)

// isPartialLine reports whether line is a CRI record tagged P.
func isPartialLine(line []byte) bool {
	if len(line) < 30 || line[4] != '-' || !isDigit(line[0]) {
		return false
	}
	sp := bytes.IndexByte(line[:min(len(line), 48)], ' ')
	if sp < 19 {
		return false
	}
	r := line[sp:]
	return bytes.HasPrefix(r, criPartialOut) || bytes.HasPrefix(r, criPartialErr)
}

// lineAt returns the line containing offset i (without its newline) and its start.
func lineAt(data []byte, i int) (int, int) {
	st := bytes.LastIndexByte(data[:i], '\n') + 1
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		return st, len(data)
	}
	return st, i + end
}

// partialChains returns the chains of P lines (each with its closing F line) in data.
// It costs two substring searches per region when the log has none.
func partialChains(data []byte) []span {
	var starts []int
	for _, needle := range [][]byte{criPartialOut, criPartialErr} {
		off := 0
		for {
			i := bytes.Index(data[off:], needle)
			if i < 0 {
				break
			}
			st, end := lineAt(data, off+i)
			if isPartialLine(data[st:end]) {
				starts = append(starts, st)
			}
			off = end
			if off >= len(data) {
				break
			}
		}
	}
	if len(starts) == 0 {
		return nil
	}
	sort.Ints(starts)
	var out []span
	for _, st := range starts {
		if len(out) > 0 && st <= out[len(out)-1].end {
			continue // inside the previous chain
		}
		pos := st
		for {
			_, end := lineAt(data, pos)
			if !isPartialLine(data[pos:end]) || end >= len(data) {
				out = append(out, span{st, end})
				break
			}
			pos = end + 1
			if pos >= len(data) {
				out = append(out, span{st, end})
				break
			}
		}
	}
	return out
}

// trailingPartialChain returns the start of a chain of P lines that ends data (whose
// closing F line is not in data yet), or -1.
func trailingPartialChain(data []byte) int {
	if len(data) == 0 {
		return -1
	}
	end := len(data) - 1 // the final newline
	st := bytes.LastIndexByte(data[:end], '\n') + 1
	if !isPartialLine(data[st:end]) {
		return -1
	}
	for st > 0 {
		pend := st - 1
		pst := bytes.LastIndexByte(data[:pend], '\n') + 1
		if !isPartialLine(data[pst:pend]) {
			break
		}
		st = pst
	}
	return st
}

// joinPartial joins a chain of CRI records into one record: the first record's prefix
// followed by every record's content.
func joinPartial(chain []byte) []byte {
	var out []byte
	first := true
	for len(chain) > 0 {
		nl := bytes.IndexByte(chain, '\n')
		line := chain
		if nl >= 0 {
			line, chain = chain[:nl], chain[nl+1:]
		} else {
			chain = nil
		}
		line = bytes.TrimRight(line, "\r")
		c := criContentStart(line)
		if first {
			out = append(out, line...)
			first = false
			continue
		}
		out = append(out, line[c:]...)
	}
	return out
}

// criContentStart returns the offset of the content of a CRI record.
func criContentStart(line []byte) int {
	n := 0
	for i, c := range line {
		if c == ' ' {
			n++
			if n == 3 {
				return i + 1
			}
		}
	}
	return len(line)
}
