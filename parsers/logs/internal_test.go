package logs

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// explodingReader gives its text, then panics (a decompressor's bug).
type explodingReader struct{ text *strings.Reader }

func (r *explodingReader) Read(p []byte) (int, error) {
	if r.text.Len() == 0 {
		panic("decompressor exploded")
	}
	return r.text.Read(p)
}

// TestReaderBugBecomesWarning: a source that panics mid-file (read ahead on another
// goroutine) gives a warning naming the file; the lines before it are kept.
func TestReaderBugBecomesWarning(t *testing.T) {
	line := "E0101 10:00:00.000000 1 namespace_controller.go:164] deletion of namespace x failed: y\n"
	w := &diag.Sink{}
	f, err := ScanFile(&explodingReader{strings.NewReader(strings.Repeat(line, 3))}, "kcm.log",
		Options{Keywords: []string{"eletion of namespace"}}, w) // no SizeHint: the read-ahead path
	if err == nil || !strings.Contains(err.Error(), "decompressor exploded") || !strings.Contains(err.Error(), diag.InternalError) {
		t.Errorf("error %v", err)
	}
	if f == nil || len(f.Entries) != 3 {
		t.Fatalf("entries before the panic: %+v", f)
	}
	if len(w.List) != 1 || !strings.Contains(w.List[0].Message, "decompressor exploded") || w.List[0].File != "kcm.log" {
		t.Errorf("warnings %v", w.List)
	}
}
