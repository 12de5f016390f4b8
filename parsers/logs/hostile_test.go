package logs

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// hostileLog is a KCM log with a matching line every tenth line.
func hostileLog(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "E0101 00:00:%02d.000000       1 namespace_controller.go:164] deletion of namespace ns%d failed: boom\n", i%60, i)
		} else {
			fmt.Fprintf(&b, "I0101 00:00:%02d.000000       1 reflector.go:368] Caches populated %d\n", i%60, i)
		}
	}
	return b.Bytes()
}

func scanHostile(t *testing.T, r io.Reader, opts Options) ([]Entry, []diag.Warning, FileInfo) {
	t.Helper()
	if opts.Keywords == nil {
		opts.Keywords = fuzzKeywords
	}
	opts.Reference = fuzzRef
	var out []Entry
	w := &diag.Sink{}
	info, _ := Scan(r, "kcm.log", opts, w, func(e Entry) { out = append(out, e) })
	return out, w.List, info
}

// TestTruncatedGzipLogWarnsAndKeepsLines: a .gz cut short by an upload limit yields every
// line before the cut and a warning saying the rest is missing (it used to end silently:
// the gzip reader's io.ErrUnexpectedEOF was taken for a clean end).
func TestTruncatedGzipLogWarnsAndKeepsLines(t *testing.T) {
	plain := hostileLog(20000)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(plain)
	zw.Close()
	cut := z.Bytes()[:z.Len()/2]
	zr, err := gzip.NewReader(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	got, warns, info := scanHostile(t, zr, Options{})
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "read error") || warns[0].File != "kcm.log" {
		t.Fatalf("warnings %v, want one read error", warns)
	}
	full, _, _ := scanHostile(t, bytes.NewReader(plain), Options{})
	complete := info.Lines - 1 // the last line read may be partial
	if complete < 1000 {
		t.Fatalf("only %d lines read before the cut", complete)
	}
	want := entriesBefore(full, complete)
	if have := entriesBefore(got, complete); len(have) != len(want) {
		t.Fatalf("%d entries before line %d, want %d", len(have), complete, len(want))
	}
}

// TestLogTruncatedMidLine: cutting a log anywhere inside a line keeps every complete
// line before it.
func TestLogTruncatedMidLine(t *testing.T) {
	plain := hostileLog(3000)
	full, _, _ := scanHostile(t, bytes.NewReader(plain), Options{})
	for _, cut := range []int{len(plain) / 3, len(plain)/2 + 7, len(plain) - 5} {
		got, _, _ := scanHostile(t, bytes.NewReader(plain[:cut]), Options{})
		complete := bytes.Count(plain[:cut], []byte{'\n'})
		if a, b := entriesBefore(got, complete), entriesBefore(full, complete); len(a) != len(b) || len(a) == 0 {
			t.Errorf("cut at %d: %d entries, want %d", cut, len(a), len(b))
		}
	}
}

// TestHostileLogEncodings: CRLF line ends, ANSI colour codes, NUL bytes and bytes that
// are not UTF-8 never hide a matching line, and never put a carriage return or an
// escape sequence into the parsed message.
func TestHostileLogEncodings(t *testing.T) {
	line := "E0101 00:00:10.000000       1 namespace_controller.go:164] deletion of namespace x failed: boom"
	cases := map[string]string{
		"CRLF":       line + "\r\n" + line + "\r\n",
		"ANSI":       "\x1b[31m" + line + "\x1b[0m\n" + line + "\n",
		"NUL":        "\x00\x00\x00" + line + "\n" + line + "\x00\n",
		"non-UTF-8":  line + " \xff\xfe\xc3\n" + line + "\n",
		"no newline": line + "\n" + line,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got, warns, _ := scanHostile(t, strings.NewReader(in), Options{})
			if len(got) != 2 {
				t.Fatalf("%d entries, want 2 (warnings %v)", len(got), warns)
			}
			for _, e := range got {
				if !strings.Contains(e.Detail(), "deletion of namespace x failed") {
					t.Errorf("line %d: detail %q", e.Line, e.Detail())
				}
				if strings.ContainsAny(e.Message, "\r") {
					t.Errorf("line %d: carriage return in message %q", e.Line, e.Message)
				}
			}
			if got[1].Time.IsZero() || got[1].Line != 2 {
				t.Errorf("second entry %+v", got[1])
			}
		})
	}
}

// TestLongLinesBounded: a 100 MB line is skipped with one warning, the lines after it
// are read, and memory stays bounded by MaxLineBytes.
func TestLongLinesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy case skipped with -short")
	}
	line := "E0101 00:00:10.000000       1 namespace_controller.go:164] deletion of namespace x failed: boom\n"
	r := io.MultiReader(strings.NewReader(line), io.LimitReader(repeatReader('a'), 100<<20), strings.NewReader("\n"+line))
	start := time.Now()
	got, warns, info := scanHostile(t, r, Options{})
	if len(got) != 2 || got[1].Line != 3 || info.Lines != 3 {
		t.Fatalf("entries %d, lines %d", len(got), info.Lines)
	}
	if len(warns) != 1 || warns[0].Line != 2 {
		t.Fatalf("warnings %v, want one for line 2", warns)
	}
	t.Logf("100 MB line skipped in %s", time.Since(start).Round(time.Millisecond))
}

type repeatReader byte

func (c repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// TestANSIStripped: colour codes do not hide the klog header (the time and severity
// are read), and no escape sequence from a log reaches the entry, so none can reach
// the reader's terminal through the report.
func TestANSIStripped(t *testing.T) {
	line := "E0101 00:00:10.000000       1 namespace_controller.go:164] deletion of namespace x failed: boom"
	for _, in := range []string{
		"\x1b[0;31m" + line + "\x1b[0m",
		"\x1b]0;pwned\x07" + line + "\x1b[2J",
		"\x1b]8;;http://evil\x1b\\" + line + "\x1b",
		`{"log":"\u001b[31m` + line + `\u001b[0m\n","stream":"stderr","time":"2026-01-01T00:00:10Z"}`,
	} {
		got, _, _ := scanHostile(t, strings.NewReader(in+"\n"), Options{})
		if len(got) != 1 {
			t.Fatalf("%q: %d entries", in, len(got))
		}
		e := got[0]
		if e.Severity != "E" || e.Time.IsZero() || e.Caller != "namespace_controller.go:164" {
			t.Errorf("%q: header not read: %+v", in, e)
		}
		if strings.ContainsRune(e.Text+e.Message+e.Detail(), 0x1b) {
			t.Errorf("%q: escape sequence kept: text %q message %q", in, e.Text, e.Message)
		}
	}
}
