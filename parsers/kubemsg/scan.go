package kubemsg

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// scanWork counts the view bytes the scan walks: each anchor's search, each capture's
// window (TestScanLinear).
var scanWork = work.New("kubemsg.scan view bytes")

// A Fact is one catalogued message found in a text by Scan: the message rebuilt as
// Kubernetes wrote it (wrapping, prefixes and escapes undone), where it stands, and
// what it says by itself.
type Fact struct {
	Family  string // the catalogue message family ("namespace-conditions")
	Form    string // the catalogue form ("cond-finalizers-remaining")
	Channel string // the form's channel: "object", "log", "stderr", "text"
	// Text is the message rebuilt from the text: the template's own words around what
	// it captured, so the catalogue's parsers read it as they read a clean line.
	Text string
	// Line and EndLine are the 1-based lines of the text the message starts and ends on;
	// Offset and End its byte span in the text.
	Line, EndLine int
	Offset, End   int
	// CondType and CondStatus are the namespace condition the message belongs to (the
	// namespace deleter writes each of its messages under one type and status only),
	// "" for other messages.
	CondType, CondStatus string
	// Namespace is the namespace the message itself names ("deletion of namespace X
	// failed", "... in namespace X because it is being terminated", the Conflict of a
	// namespace's DELETE), "" when it names none.
	Namespace string
	// Deleting says the message proves Namespace (or, without one, the namespace the
	// message belongs to) is being deleted.
	Deleting bool
	// Partial says the text ends, or changes, before the message's last words.
	Partial bool
}

// piece is a literal of a template or a verb (a capture).
type piece struct {
	lit  string // the literal as the format spells it
	sq   string // the literal squeezed (no whitespace)
	verb byte   // 0 for a literal; 'v', 's', 'q', 'd' for a capture
	// quoted: the capture is two verbs, the second a %q after a space ("%s %q")
	quoted bool
}

type template struct {
	family, form, channel string
	pieces                []piece
	anchor                int  // the piece searched for
	structured            bool // a structured log form: the message, then keys
}

var (
	templatesOnce sync.Once
	templates     []*template
	anchorSet     *anchorIndex // the templates' anchors, searched in one pass
)

// anchorIndex finds every anchor of the templates in a text in one pass (Scan used to
// search the text once for each of them): a bit per hash of three bytes that some
// anchor starts with, then the anchors that start with those four bytes. Every anchor
// is 10 bytes at least (compileTemplates).
type anchorIndex struct {
	anchors []string         // in the order of the templates (Scan's order)
	byHead  map[uint32][]int // an anchor's first four bytes: its indexes in anchors
	bits    [1 << 14]uint64  // hash3 of an anchor's first three bytes
	byT     map[string][]*template
}

func hash3(a, b, c byte) uint32 { return (uint32(a)<<11 ^ uint32(b)<<6 ^ uint32(c)) & (1<<20 - 1) }

func head4(s string) uint32 {
	return uint32(s[0])<<24 | uint32(s[1])<<16 | uint32(s[2])<<8 | uint32(s[3])
}

func newAnchorIndex(ts []*template) *anchorIndex {
	x := &anchorIndex{byHead: map[uint32][]int{}, byT: map[string][]*template{}}
	for _, t := range ts {
		a := t.pieces[t.anchor].sq
		if x.byT[a] == nil {
			x.byHead[head4(a)] = append(x.byHead[head4(a)], len(x.anchors))
			h := hash3(a[0], a[1], a[2])
			x.bits[h>>6] |= 1 << (h & 63)
			x.anchors = append(x.anchors, a)
		}
		x.byT[a] = append(x.byT[a], t)
	}
	return x
}

// find returns, for each anchor (by index), where it occurs in vs, ascending.
func (x *anchorIndex) find(vs string) [][]int {
	var at [][]int
	for i := 0; i+4 <= len(vs); i++ {
		if h := hash3(vs[i], vs[i+1], vs[i+2]); x.bits[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, k := range x.byHead[head4(vs[i:])] {
			if strings.HasPrefix(vs[i:], x.anchors[k]) {
				if at == nil {
					at = make([][]int, len(x.anchors))
				}
				at[k] = append(at[k], i)
			}
		}
	}
	return at
}

// compileTemplates turns every catalogue form into a template: its literals squeezed,
// its verbs captures. Forms with no literal of 10 squeezed bytes (a bare "%v", kubectl's
// "error: %s") and the request log are left to the line readers.
func compileTemplates() []*template {
	templatesOnce.Do(func() {
		c, err := Catalog()
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, m := range c.Messages {
			for _, f := range m.Forms {
				if m.ID == "request-log" {
					continue
				}
				t := &template{family: m.ID, form: f.ID, channel: f.Channel}
				t.pieces, t.structured = parseFormat(f.Format)
				t.anchor = -1
				best := 0
				for i, p := range t.pieces {
					if p.verb != 0 {
						continue
					}
					if len(p.sq) >= 12 {
						t.anchor = i
						break
					}
					if len(p.sq) > best {
						best, t.anchor = len(p.sq), i
					}
				}
				if t.anchor < 0 || len(t.pieces[t.anchor].sq) < 10 {
					continue
				}
				key := m.ID + "\x00" + f.Format
				if seen[key] {
					continue
				}
				seen[key] = true
				templates = append(templates, t)
			}
		}
		anchorSet = newAnchorIndex(templates)
	})
	return templates
}

// parseFormat splits a Go format string into literals and verbs. A structured log
// form ("Deletion of namespace failed (err, namespace)") is its message and a capture.
func parseFormat(f string) (_ []piece, structured bool) {
	if i := strings.Index(f, " ("); i > 0 && strings.HasSuffix(f, ")") && !strings.Contains(f[:i], "%") {
		return []piece{{lit: f[:i], sq: squeeze(f[:i])}, {verb: 'v'}}, true
	}
	var out []piece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			s := lit.String()
			if sq := squeeze(s); sq != "" {
				out = append(out, piece{lit: s, sq: sq})
			}
			lit.Reset()
		}
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			lit.WriteByte(f[i])
			continue
		}
		if f[i+1] == '%' {
			lit.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("#+- 0123456789.", f[j]) >= 0 {
			j++
		}
		if j >= len(f) {
			break
		}
		flush()
		verb := f[j]
		if verb == 'w' {
			verb = 'v'
		}
		if len(out) > 0 && out[len(out)-1].verb != 0 {
			// two verbs in a row ("%v%v", "%s %q"): one capture
			if verb == 'q' && lit.Len() == 0 && i > 0 && f[i-1] == ' ' {
				out[len(out)-1].quoted = true
			}
		} else {
			out = append(out, piece{verb: verb})
		}
		i = j
	}
	flush()
	return out, false
}

// segment kinds of a match
const (
	segLit  = iota // a literal of the template
	segMid         // a capture followed by a literal: an identifier or a short phrase
	segTail        // the last capture: free text up to the message's end
)

type segment struct {
	start, end int
	kind       int
	p          *piece
}

type match struct {
	t          *template
	start, end int
	segs       []segment
	partial    bool
}

const (
	maxMid  = 512  // view bytes a capture between two literals may take
	maxTail = 4096 // view bytes a message's last capture may take
)

// Scan finds every catalogued message in a text, whatever damage the text took on its
// way (see View), and returns one Fact for each message that is not part of another
// (a discovery error inside a namespace condition message is that message's text), in
// the order of the text. It is linear in the length of the text.
func Scan(text string) []Fact {
	ts := compileTemplates()
	if len(text) == 0 || len(ts) == 0 {
		return nil
	}
	v := NewView(text)
	if v.Len() == 0 {
		return nil
	}
	vs := string(v.b)
	var bounds []int // tailBounds, once an anchor is found (most files hold none)
	var ms []match
	scanWork.Add(len(vs))
	where := anchorSet.find(vs)
	for k, a := range anchorSet.anchors {
		if where == nil {
			break
		}
		for _, at := range where[k] {
			if bounds == nil {
				bounds = tailBounds(v)
			}
			// the complete match that goes furthest, else the partial one that does
			var best match
			found := false
			for _, t := range anchorSet.byT[a] {
				m, ok := matchAt(v, vs, t, at, bounds)
				if ok && (!found || best.partial && !m.partial || best.partial == m.partial && m.end > best.end) {
					best, found = m, true
				}
			}
			if found {
				ms = append(ms, best)
			}
		}
	}
	if len(ms) == 0 {
		return nil
	}
	// a message beginning where another one does is kept once: the longest, then
	// the complete one
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].start != ms[j].start {
			return ms[i].start < ms[j].start
		}
		if ms[i].partial != ms[j].partial {
			return !ms[i].partial
		}
		return ms[i].end > ms[j].end
	})
	dec := decisions(v, ms)
	var out []Fact
	outerEnd := -1
	for _, m := range ms {
		if m.start < outerEnd {
			continue // inside the previous message
		}
		if m.end > outerEnd {
			outerEnd = m.end
		}
		out = append(out, v.fact(m, dec))
	}
	return out
}

// matchAt matches template t whose anchor literal starts at view byte at.
func matchAt(v *View, vs string, t *template, at int, bounds []int) (match, bool) {
	m := match{t: t}
	a := &t.pieces[t.anchor]
	m.start = at
	pos := at + len(a.sq)
	segs := []segment{{start: at, end: pos, kind: segLit, p: a}}
	// backwards: the pieces before the anchor
	for i := t.anchor - 1; i >= 0; i-- {
		p := &t.pieces[i]
		if p.verb == 0 {
			if m.start < len(p.sq) || vs[m.start-len(p.sq):m.start] != p.sq {
				return m, false
			}
			segs = append(segs, segment{start: m.start - len(p.sq), end: m.start, kind: segLit, p: p})
			m.start -= len(p.sq)
			continue
		}
		s := -1
		if i > 0 && t.pieces[i-1].verb == 0 { // the literal before it bounds it
			prev := t.pieces[i-1].sq
			lo := max(0, m.start-maxMid)
			scanWork.Add(m.start - lo)
			if k := strings.LastIndex(vs[lo:m.start], prev); k >= 0 && lo+k+len(prev) < m.start {
				s = lo + k + len(prev)
			}
		}
		if s < 0 {
			s = backCapture(v, m.start, p.verb)
		}
		if s == m.start {
			return m, false
		}
		segs = append(segs, segment{start: s, end: m.start, kind: segMid, p: p})
		m.start = s
	}
	// forwards
	limit := bounds[at]
	for i := t.anchor + 1; i < len(t.pieces); i++ {
		p := &t.pieces[i]
		if p.verb == 0 {
			n := 0
			for n < len(p.sq) && pos+n < len(vs) && vs[pos+n] == p.sq[n] {
				n++
			}
			if n == len(p.sq) {
				segs = append(segs, segment{start: pos, end: pos + n, kind: segLit, p: p})
				pos += n
				continue
			}
			// the text ends, or goes its own way, inside the literal: the message is
			// cut there when a good part of the literal is there
			if pos+n >= min(limit, len(vs)) || n >= 24 {
				if n > 0 {
					segs = append(segs, segment{start: pos, end: pos + n, kind: segLit, p: p})
					pos += n
				}
				m.partial = true
				break
			}
			return m, false
		}
		if i+1 < len(t.pieces) { // a capture before a literal
			next := &t.pieces[i+1]
			end := min(limit, pos+maxMid, len(vs))
			key := next.sq[:min(len(next.sq), 24)] // a long literal may be cut
			scanWork.Add(end - pos)
			k := strings.Index(vs[pos:end], key)
			// a URL's "://" is not the literal ": " after it
			for k >= 0 && next.sq[0] == ':' && len(next.sq) == 1 && pos+k+1 < len(vs) && (vs[pos+k+1] == '/' || vs[pos+k+1] >= '0' && vs[pos+k+1] <= '9') && v.gap[pos+k+1] == gapNone {
				k2 := strings.Index(vs[pos+k+1:end], key)
				if k2 < 0 {
					k = -1
					break
				}
				k += 1 + k2
			}
			if k > 0 && p.verb == 'd' && !digits(vs[pos:pos+k]) {
				k = -1
			}
			if k > 0 {
				segs = append(segs, segment{start: pos, end: pos + k, kind: segMid, p: p})
				pos += k
				continue
			}
			if k == 0 {
				return m, false
			}
			// the next literal is not there: the message is cut inside this capture only
			// when the text (or the message's extent) ends there, the capture an identifier
			if limit-pos > maxMid || limit > len(vs) || !identRun(v, pos, limit) {
				return m, false
			}
			if pos < limit {
				segs = append(segs, segment{start: pos, end: limit, kind: segMid, p: p})
				pos = limit
			}
			m.partial = true
			break
		}
		end := min(limit, pos+maxTail, len(vs))
		scanWork.Add(max(0, end-pos))
		if end <= pos {
			m.partial = true
			break
		}
		segs = append(segs, segment{start: pos, end: end, kind: segTail, p: p})
		pos = end
		if i+1 < len(t.pieces) {
			m.partial = true
		}
		break
	}
	m.end = pos
	sort.Slice(segs, func(i, j int) bool { return segs[i].start < segs[j].start })
	m.segs = segs
	return m, true
}

// identRun reports view bytes [s, e) that can be a cut capture: identifier bytes and quotes.
func identRun(v *View, s, e int) bool {
	for k := s; k < e; k++ {
		if !identByte(v.b[k]) && v.b[k] != '"' && v.b[k] != '\'' && v.b[k] != '{' && v.b[k] != '}' {
			return false
		}
	}
	return true
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// identByte: the bytes of Kubernetes names, group/versions, finalizers and counts.
func identByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '/' || c == '_'
}

// backCapture returns where a capture ending at view byte end starts: an identifier
// (a quoted one for %q) that no space inside a line interrupts.
func backCapture(v *View, end int, verb byte) int {
	s := end
	if verb == 'q' && s > 0 && v.b[s-1] == '"' {
		for k := s - 2; k >= 0 && s-k < maxMid; k-- {
			if v.b[k] == '"' {
				return k
			}
		}
		return end
	}
	for s > 0 && end-s < maxMid && identByte(v.b[s-1]) && (verb != 'd' || v.b[s-1] >= '0' && v.b[s-1] <= '9') {
		if s < end && v.gap[s] == gapSpace {
			break
		}
		s--
	}
	return s
}

// keyAfterBreak matches the key of a condition (YAML, JSON) that starts a line after a
// break, followed by whitespace; otherAfterBreak what starts something else there: a
// condition type opening a describe row, a klog header, a JSON log line, a timestamp.
var (
	keyAfterBreak   = regexp.MustCompile(`^-?"?(?:reason|status|type|lastTransitionTime|lastProbeTime|lastUpdateTime|message|observedGeneration|severity|phase|conditions|metadata|spec|kind|apiVersion)"?:`)
	otherAfterBreak = regexp.MustCompile(`^(?:\$|\+(?:kubectl|oc|echo|sleep)|(?:kubectl|oc)(?:get|describe|delete|logs|patch|edit|apply|api-resources|proxy|replace)|Errorfromserver|LastTransitionTime:|Events:|Namespace(?:Deletion|Content|Finalizers)[A-Za-z]*(?:True|False|Unknown)|[IWEF][0-9]{4}[0-9]{2}:|\{"(?:level|ts|msg|time)"|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9])`)
)

// mayStartAfterBreak tells, from w's first bytes, whether keyAfterBreak (key) and
// otherAfterBreak (other) can match w at all: a line's first byte rules out both
// expressions on most lines, where running them was most of the scan's time.
func mayStartAfterBreak(w string) (key, other bool) {
	if w == "" {
		return false, false
	}
	other = strings.IndexByte(otherFirst, w[0]) >= 0
	k := 0
	if k < len(w) && w[k] == '-' {
		k++
	}
	if k < len(w) && w[k] == '"' {
		k++
	}
	key = k < len(w) && strings.IndexByte(keyFirst, w[k]) >= 0
	return key, other
}

// the bytes keyAfterBreak's keys (after "-" and a quote) and otherAfterBreak's
// alternatives begin with (TestAfterBreakFirstBytes checks them against the expressions)
const (
	keyFirst   = "rstlmopcka"
	otherFirst = "$+koELNIWF{0123456789"
)

// keyInLine matches a JSON object's next key right after a string's closing quote.
var keyInLine = regexp.MustCompile(`^",?"(?:reason|status|type|lastTransitionTime|lastProbeTime|lastUpdateTime|observedGeneration)":`)

// tailBounds returns, for each view byte, where a message starting there must end at
// the latest: the next place where something else starts.
func tailBounds(v *View) []int {
	n := len(v.b)
	bounds := make([]int, n+1)
	next := n
	bounds[n] = n
	vs := string(v.b)
	for i := n - 1; i >= 0; i-- {
		if v.gap[i] == gapLine && i+1 < n {
			w := vs[i:min(n, i+48)]
			if key, other := mayStartAfterBreak(w); key || other {
				var loc []int
				if key {
					loc = keyAfterBreak.FindStringIndex(w)
				}
				if loc != nil && i+loc[1] < n && v.gap[i+loc[1]] == gapSpace || other && otherAfterBreak.MatchString(w) {
					next = i
				}
			}
		}
		if v.b[i] == '"' && i+1 < n && (v.b[i+1] == ',' || v.b[i+1] == '"') && keyInLine.MatchString(vs[i:min(n, i+32)]) {
			next = i
		}
		bounds[i] = next
	}
	return bounds
}

// token patterns of free text: a group/version after a separator, the items of the
// deleter's finalizers and resources lists; the line breaks inside them are no spaces
var (
	gvToken  = regexp.MustCompile(`[:,\["'{(]([a-z0-9][-a-z0-9]*(?:\.[-a-z0-9]+)+/v[0-9]+(?:alpha[0-9]+|beta[0-9]+)?)`)
	finToken = regexp.MustCompile(`[:,]([^,:"'\s]+?)in([0-9]+)resourceinstances`)
	resToken = regexp.MustCompile(`[:,]([a-z0-9][-a-z0-9]*\.[-a-z0-9.]*?)has([0-9]+)resourceinstances`)
	// Go's renderings inside error texts: a map, a GroupVersionKind, a GroupVersionResource
	goTokens = []string{"map[", "Kind=", "Resource="}
	// a structured log line's key before a quoted value
	anyKey = regexp.MustCompile(`[a-zA-Z][-a-zA-Z]{0,30}=\\?"`)
	// a structured log line's identifier values: namespace="x", groupVersion="g/v"
	keyToken = regexp.MustCompile(`(?:namespace|name|groupVersion|gv|resource|group|webhook|apiservice|count|kind)=\\?"?([-a-zA-Z0-9./_]+)\\?"?`)
)

// decisions returns, for each view byte, whether a space goes before it in the
// rebuilt text (1), none (0) or whatever the text has (-1); and, as 2, a byte before
// which the left-out hyphen is kept (an identifier's own hyphen).
func decisions(v *View, ms []match) []int8 {
	dec := make([]int8, len(v.b)+1)
	for i := range dec {
		dec[i] = -1
	}
	join := func(s, e int) {
		for k := s + 1; k < e; k++ {
			if v.gap[k] == gapSpace {
				dec[k] = 1
			} else {
				dec[k] = 0
			}
			if v.soft[k] {
				dec[k] = 2
			}
		}
	}
	vs := string(v.b)
	for _, loc := range gvToken.FindAllStringSubmatchIndex(vs, -1) {
		if e := loc[3]; e < len(vs) && strings.IndexByte(`:"]',})`, vs[e]) >= 0 {
			join(loc[2], e+1)
		}
	}
	for _, lit := range goTokens {
		for from := 0; ; {
			k := strings.Index(vs[from:], lit)
			if k < 0 {
				break
			}
			join(from+k, from+k+len(lit))
			from += k + len(lit)
		}
	}
	for _, loc := range anyKey.FindAllStringIndex(vs, -1) {
		join(loc[0], loc[1])
	}
	for _, loc := range keyToken.FindAllStringSubmatchIndex(vs, -1) {
		join(loc[0], loc[1])
	}
	for _, re := range []*regexp.Regexp{finToken, resToken} {
		for _, loc := range re.FindAllStringSubmatchIndex(vs, -1) {
			join(loc[2], loc[3])
			// "<x> in <n> resource instances", "<x> has <n> ..."
			dec[loc[3]] = 1
			w := loc[3] + 2
			if re == resToken {
				w = loc[3] + 3
			}
			dec[w] = 1
			join(loc[4], loc[5])
			dec[loc[5]] = 1
			dec[loc[5]+len("resource")] = 1
			for k := loc[3] + 1; k < w; k++ {
				dec[k] = 0
			}
			for k := loc[5] + 1; k < loc[1]; k++ {
				if k != loc[5]+len("resource") {
					dec[k] = 0
				}
			}
		}
	}
	for _, m := range ms {
		for _, sg := range m.segs {
			switch sg.kind {
			case segLit:
				// the literal's own spaces; none where it has none
				sp := spacesOf(sg.p.lit)
				for k := sg.start; k < sg.end; k++ {
					if k == sg.start {
						continue
					}
					if sp[k-sg.start] {
						dec[k] = 1
					} else {
						dec[k] = 0
					}
				}
				if sg.start > m.start && len(sg.p.lit) > 0 {
					if sg.p.lit[0] == ' ' {
						dec[sg.start] = 1
					} else {
						dec[sg.start] = 0
					}
				}
				if sg.end < m.end && len(sg.p.lit) > 0 {
					if sg.p.lit[len(sg.p.lit)-1] == ' ' {
						dec[sg.end] = 1
					} else {
						dec[sg.end] = 0
					}
				}
			case segMid:
				join(sg.start, sg.end)
				if sg.p.quoted {
					if k := strings.IndexByte(vs[sg.start:sg.end], '"'); k > 0 {
						dec[sg.start+k] = 1
					}
				}
			}
		}
	}
	return dec
}

// spacesOf returns, for each byte of the squeezed literal, whether the literal has
// whitespace before it.
func spacesOf(lit string) []bool {
	var out []bool
	space := false
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c == ' ' || c == '\t' || c == '\n' {
			space = true
			continue
		}
		out = append(out, space)
		space = false
	}
	return out
}

// render rebuilds the text of view bytes [s, e).
func (v *View) render(s, e int, dec []int8) string {
	var b strings.Builder
	b.Grow(e - s + (e-s)/6)
	for i := s; i < e; i++ {
		if i > s {
			d := dec[i]
			if d < 0 {
				if v.gap[i] != gapNone {
					d = 1
				} else {
					d = 0
				}
			}
			// a left-out hyphen stays, but where a literal of the template was matched
			// across it (a word hyphenated at the break)
			if v.soft[i] && (d == 2 || dec[i] < 0) {
				b.WriteByte('-')
			} else if d == 1 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte(v.b[i])
	}
	return b.String()
}

func (v *View) fact(m match, dec []int8) Fact {
	end, start := m.end, m.start
	if m.t.structured {
		// a structured line's message in its quotes, its keys after it
		if start > 0 && v.b[start-1] == '"' {
			start--
		}
	} else {
		// a tail stops before the quotes and brackets that close the value around it
		for end > m.start+1 && strings.IndexByte(`'",}]`, v.b[end-1]) >= 0 && tailEnds(m, end) {
			end--
		}
	}
	f := Fact{Family: m.t.family, Form: m.t.form, Channel: m.t.channel, Partial: m.partial}
	f.Text = v.render(start, end, dec)
	f.Offset = int(v.off[start])
	f.End = int(v.off[end-1]) + 1
	f.Line, f.EndLine = v.Line(start), v.Line(end-1)
	if ct, st, ok := NamespaceConditionOfMessage(f.Text); ok {
		f.CondType, f.CondStatus = ct, st
		f.Deleting = st == "True" || strings.HasPrefix(f.Text, "All content")
	}
	if ns, ok := ParseNamespaceTerminating(f.Text); ok {
		f.Namespace, f.Deleting = ns, true
	} else if ns, _, ok := ParseNamespaceDeletionFailure(f.Text); ok {
		f.Namespace, f.Deleting = ns, true
	} else if ns, ok := kcpNamespace(f.Text); ok {
		f.Namespace, f.Deleting = ns, true
	}
	return f
}

// tailEnds: the match's last segment is a tail reaching end.
func tailEnds(m match, end int) bool {
	last := m.segs[len(m.segs)-1]
	return last.kind == segTail && end > last.start
}

// kcpDeletion is kcp's rendering of the deletion failure: the namespace key is a
// logical cluster and a name, "{root NAME}".
var kcpDeletion = regexp.MustCompile(`deletion of namespace \{[a-z0-9:-]+ ([a-z0-9][-a-z0-9]*)\} failed: `)

func kcpNamespace(text string) (string, bool) {
	m := kcpDeletion.FindStringSubmatch(text)
	if m == nil || !IsNamespaceName(m[1]) {
		return "", false
	}
	return m[1], true
}
