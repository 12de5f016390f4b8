package kubemsg

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// TestScanTable: real messages in the shapes tickets show them.
func TestScanTable(t *testing.T) {
	for _, tc := range []struct {
		name, in, form, ns, cond string
		line                     int
		want                     string // a part of Text
	}{
		{"yq bare mapping, folded", "lastTransitionTime: \"2020-01-01T00:00:00Z\"\nmessage: >-\n    Some content in the namespace has finalizers remaining: finalizer.servicebindingrequest.openshift.io\n    in 1 resource instances\nreason: SomeFinalizersRemain\n",
			"cond-finalizers-remaining", "", "NamespaceFinalizersRemaining", 3, "finalizer.servicebindingrequest.openshift.io in 1 resource instances"},
		{"e-mail reply at 72, quoted, hyphenated", "> > Discovery failed for some groups, 1 failing: unable to retrieve the com-\n> > plete list of server APIs: metrics.k8s.io/v1beta1: the server is cur-\n> > rently unable to handle the request\n",
			"cond-discovery", "", "NamespaceDeletionDiscoveryFailure", 1, "server APIs: metrics.k8s.io/v1beta1: the server"},
		{"inline code in a sentence", "I see `Some resources are remaining: cephobjectstoreusers.ceph.rook.io has 1 resource instances` in the status.",
			"cond-content-remaining", "", "NamespaceContentRemaining", 1, "cephobjectstoreusers.ceph.rook.io has 1 resource instances"},
		{"gutter", "  41 | E1130 00:03:52.735006 1 namespace_controller.go:157] deletion of namespace tobe\n  42 | deleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x\n",
			"ns-failed-printf", "tobedeleted", "", 1, "deletion of namespace tobedeleted failed"},
		{"chat stamp", "[10:42 AM] dana: Error from server (Forbidden): unable to create new content in namespace kafka because it is being terminated",
			"terminating-lifecycle-forbidden", "kafka", "", 1, "namespace kafka because"},
		{"kcp key", "E0101 namespace_controller.go:1] deletion of namespace {root my-team} failed: some error",
			"ns-failed-printf", "my-team", "", 1, "{root my-team}"},
		{"HTML entities and zero-width", "<p>Operation cannot be fulfilled on namespaces &quot;rook\u200b-ceph&quot;: The system is ensuring all content is removed from this namespace.</p>",
			"terminating-delete-conflict", "rook-ceph", "", 1, `namespaces "rook-ceph"`},
		// rook/rook.github.io#117: kubectl patch stderr in a blockquote, wrapped by the terminal mid-word
		{"blockquote, terminal wrap mid-word", "> The CephCluster \"rook-ceph\" is invalid:\n> * metadata.finalizers: Forbidden: no new finalizers can be added if the object i                                                                s being deleted, found new finalizers []string{\"\"}\n",
			"finalizers-forbidden-new", "", "", 2, "no new finalizers can be added if the object is being deleted, found new finalizers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Scan(tc.in)
			if len(fs) != 1 {
				t.Fatalf("%d facts, want 1: %+v", len(fs), fs)
			}
			f := fs[0]
			if f.Form != tc.form || f.Namespace != tc.ns || f.CondType != tc.cond || f.Line != tc.line || !strings.Contains(f.Text, tc.want) {
				t.Errorf("got %s ns=%q cond=%q line %d %q\nwant %s ns=%q cond=%q line %d, text with %q", f.Form, f.Namespace, f.CondType, f.Line, f.Text, tc.form, tc.ns, tc.cond, tc.line, tc.want)
			}
		})
	}
}

// literalWords are the words of the catalogue's format literals: a generated break
// may hyphenate them (never an identifier).
func literalWords(t *testing.T) map[string]bool {
	c, err := Catalog()
	if err != nil {
		t.Fatal(err)
	}
	w := map[string]bool{}
	for _, m := range c.Messages {
		for _, f := range m.Forms {
			for _, x := range strings.FieldsFunc(f.Format, func(r rune) bool { return !unicode.IsLetter(r) }) {
				w[x] = true
			}
		}
	}
	return w
}

var linePrefixes = []string{"", "> ", ">> ", "> > ", "# ", "| ", "│ ", "║ ", "    ", "\t", "  ", "* "[:0]}

// damage rewraps s at width (mid-word or at spaces; a hyphen at breaks inside literal
// words), prefixes every line, may put a blank line between lines, zero-width
// characters, HTML entities and Markdown escapes in; it returns the text and the
// 1-based line of each byte of s.
func damage(r *rand.Rand, s string, words map[string]bool) (string, []int) {
	width := 10 + r.Intn(291)
	midWord := r.Intn(2) == 0
	hyphens := r.Intn(2) == 0
	blank := r.Intn(4) == 0
	prefix := linePrefixes[r.Intn(len(linePrefixes))]
	gutter := r.Intn(5) == 0
	chat := r.Intn(5) == 0
	zw := r.Intn(4) == 0
	ent := r.Intn(3) == 0
	indent := strings.Repeat(" ", r.Intn(6))
	border := r.Intn(5) == 0 // a box's or a table's right border
	var lines []string
	var cur strings.Builder
	lineOf := make([]int, len(s))
	col := 0
	emit := func() {
		lines = append(lines, cur.String())
		cur.Reset()
		col = 0
		if blank {
			lines = append(lines, "")
		}
	}
	wordAt := func(i int) bool { // s[i] is inside a whole literal word (letters between spaces)
		a, b := i, i
		for a > 0 && unicode.IsLetter(rune(s[a-1])) {
			a--
		}
		for b < len(s) && unicode.IsLetter(rune(s[b])) {
			b++
		}
		return words[s[a:b]] && (a == 0 || s[a-1] == ' ') && (b == len(s) || s[b] == ' ' || s[b] == ',' || s[b] == ':')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			emit()
			lineOf[i] = len(lines)
			continue
		}
		if col >= width && !startsKey(s[i:]) && !startsMarkup(s[i:]) {
			if midWord {
				if hyphens && i > 0 && unicode.IsLetter(rune(s[i-1])) && unicode.IsLetter(rune(c)) && wordAt(i) {
					cur.WriteByte('-')
				}
				emit()
			} else if c == ' ' {
				emit()
				lineOf[i] = len(lines)
				continue
			}
		}
		lineOf[i] = len(lines) + 1
		switch {
		case ent && c == '"':
			cur.WriteString("&quot;")
		case ent && c == '\'':
			cur.WriteString("&#39;")
		case ent && c == '&':
			cur.WriteString("&amp;")
		case ent && c == '_':
			cur.WriteString(`\_`)
		default:
			cur.WriteByte(c)
		}
		if zw && r.Intn(9) == 0 {
			cur.WriteString("\u200b")
		}
		col++
	}
	emit()
	var b strings.Builder
	for k, l := range lines {
		if chat && k == 0 {
			b.WriteString("[10:42 AM] Dana Lee: ")
		}
		if gutter {
			fmt.Fprintf(&b, "%4d | ", k+1)
		}
		if border {
			l += strings.Repeat(" ", max(0, width+2-len(l))) + " │"
		}
		b.WriteString(prefix + indent + l + "\n")
	}
	return b.String(), lineOf
}

// startsKey: a line starting here would read as the next key of a condition
// (keyAfterBreak): the one place where a wrap changes what a text says.
func startsKey(s string) bool {
	s = strings.TrimLeft(s, " ")
	loc := keyAfterBreak.FindStringIndex(s)
	return loc != nil && loc[1] < len(s) && s[loc[1]] == ' '
}

// startsMarkup: a line starting here would start with a character the view reads as a
// line's markup (a quote mark, a bar, a comment mark: markup), so the message's own
// character would be taken for a prefix (klog's "<internal error: ...>" cut before its
// ">"): the second place where a wrap changes what a text says, written in the README.
func startsMarkup(s string) bool {
	t := strings.TrimLeft(s, " ")
	if t == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t)
	return markup(r)
}

// typed is what a fact says that the analysis reads: the exact identifiers.
func typed(f Fact) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ns=%s cond=%s/%s del=%v", f.Form, f.Namespace, f.CondType, f.CondStatus, f.Deleting)
	for _, g := range ParseDiscoveryFailure(f.Text) {
		b.WriteString(" gv=" + g.GroupVersion)
	}
	for _, x := range ParseFinalizersRemaining(f.Text) {
		fmt.Fprintf(&b, " fin=%s/%d", x.Finalizer, x.Count)
	}
	for _, x := range ParseContentRemaining(f.Text) {
		fmt.Fprintf(&b, " res=%s/%d", x.GroupResource(), x.Count)
	}
	for _, x := range ParseWebhookFailures(f.Text) {
		b.WriteString(" hook=" + x.Webhook)
	}
	if g, ok := ParseMemcacheFailure(f.Text); ok {
		b.WriteString(" mc=" + g.GroupVersion)
	}
	return b.String()
}

func squeezed(s string) string { return strings.ReplaceAll(squeeze(s), "-", "") }

// TestScanInvariant: every catalogue example, rewrapped at any width (mid-word or at
// spaces, hyphenated), prefixed, indented, spaced with blank lines, sprinkled with
// zero-width characters, entities and escapes, gives the facts the clean line gives,
// on the line where the message starts.
func TestScanInvariant(t *testing.T) {
	c, err := Catalog()
	if err != nil {
		t.Fatal(err)
	}
	words := literalWords(t)
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	r := rand.New(rand.NewSource(30))
	for _, m := range c.Messages {
		for _, f := range m.Forms {
			clean := Scan(f.Example)
			if m.ID == "request-log" {
				continue
			}
			if len(clean) == 0 {
				t.Errorf("%s: the example gives no fact: %q", f.ID, f.Example)
				continue
			}
			for round := 0; round < rounds; round++ {
				text, lineOf := damage(r, f.Example, words)
				got := Scan(text)
				if len(got) != len(clean) {
					t.Errorf("%s: %d facts, want %d\n%s", f.ID, len(got), len(clean), text)
					continue
				}
				for k := range got {
					g, w := got[k], clean[k]
					if typed(g) != typed(w) || squeezed(g.Text) != squeezed(w.Text) {
						t.Errorf("%s: got  %s %q\nwant %s %q\nfrom:\n%s", f.ID, typed(g), g.Text, typed(w), w.Text, text)
						continue
					}
					if want := lineOf[w.Offset]; g.Line != want {
						t.Errorf("%s: line %d, want %d\n%s", f.ID, g.Line, want, text)
					}
				}
				if t.Failed() {
					return
				}
			}
		}
	}
}

// TestScanLinear: the scan's work (view bytes walked, counted) at 2n is about twice
// its work at n, for texts of whole messages and of message heads that never complete.
func TestScanLinear(t *testing.T) {
	for _, one := range []string{
		"  message: 'Some content in the namespace has finalizers remaining: a.io/x in 1 resource instances'\n  reason: x\n",
		"Operation cannot be fulfilled on namespaces ",
		"deletion of namespace ",
	} {
		var counts [2]int64
		for k, n := range []int{500, 1000} {
			text := strings.Repeat(one, n)
			var facts int
			ops := work.Measure(func() { facts = len(Scan(text)) })
			counts[k] = ops["kubemsg.scan view bytes"]
			if strings.HasPrefix(one, "  message") && facts != n {
				t.Errorf("%d copies: %d facts", n, facts)
			}
		}
		if counts[0] == 0 || float64(counts[1]) > 2.2*float64(counts[0]) {
			t.Errorf("%.20q: work %d at n, %d at 2n", one, counts[0], counts[1])
		}
	}
}

// FuzzScan: any text gives facts within it, on lines it has, never a panic.
func FuzzScan(f *testing.F) {
	c, err := Catalog()
	if err != nil {
		f.Fatal(err)
	}
	for _, m := range c.Messages {
		for _, x := range m.Forms {
			f.Add("> " + x.Example[:len(x.Example)/2] + "-\n> " + x.Example[len(x.Example)/2:])
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		for _, x := range Scan(s) {
			if x.Offset < 0 || x.End > len(s) || x.Offset >= x.End || x.Line < 1 || x.EndLine < x.Line || x.EndLine > lines || x.Text == "" {
				t.Fatalf("fact out of its text: %+v (%d bytes, %d lines)", x, len(s), lines)
			}
		}
	})
}

// TestKcpNamespaceKey: kcp keys a namespace by logical cluster and name, "{root NAME}":
// the name is the namespace.
func TestKcpNamespaceKey(t *testing.T) {
	line := "E0101 10:00:00.000000 1 namespace_controller.go:1] deletion of namespace {root team-a} failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x"
	if ns, _, ok := ParseNamespaceDeletionFailed(line); !ok || ns != "team-a" {
		t.Errorf("ParseNamespaceDeletionFailed = %q %v", ns, ok)
	}
	if ns, _, ok := ParseNamespaceDeletionFailure(line); !ok || ns != "team-a" {
		t.Errorf("ParseNamespaceDeletionFailure = %q %v", ns, ok)
	}
	// braces in pairs or none: a half key names no namespace (FuzzParseNamespaceMessages'
	// seed "{0 0 failed: "); a whole one still does when its cluster is not kcpDeletion's
	for text, want := range map[string]string{
		"deletion of namespace {root team-a failed: x":    "",
		"deletion of namespace team-a} failed: x":         "",
		"deletion of namespace {Root_1 team-a} failed: x": "team-a",
	} {
		ns, _, _ := ParseNamespaceDeletionFailed(text)
		ns2, _, _ := ParseNamespaceDeletionFailure(text)
		if ns != want || ns2 != want {
			t.Errorf("%q: ParseNamespaceDeletionFailed %q, ParseNamespaceDeletionFailure %q, want %q", text, ns, ns2, want)
		}
	}
}
