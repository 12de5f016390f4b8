package diag

import (
	"strings"
	"testing"
)

// TestKindCap: 400,000 warnings of one kind (200k tar members with absolute names)
// keep DefaultKindLimit of them and one summary counting the rest.
func TestKindCap(t *testing.T) {
	var s Sink
	for i := 0; i < 400000; i++ {
		s.Add("m"+strings.Repeat("x", i%7)+string(rune('a'+i%26)), 0, "archive member name %d is absolute", i)
	}
	s.Add("other", 3, "different kind")
	if len(s.List) != DefaultKindLimit+2 {
		t.Fatalf("%d warnings kept, want %d", len(s.List), DefaultKindLimit+2)
	}
	sum := s.List[DefaultKindLimit].Message
	if !strings.HasPrefix(sum, "399000 more warnings of this kind suppressed") {
		t.Errorf("summary %q", sum)
	}
	if s.List[DefaultKindLimit+1].Message != "different kind" {
		t.Errorf("last %v", s.List[DefaultKindLimit+1])
	}
	var m Sink
	m.Merge(&s)
	if len(m.List) != len(s.List) {
		t.Errorf("merge kept %d of %d", len(m.List), len(s.List))
	}
}

// TestNameCap: a name of 1 MB is kept as its first MaxNameBytes bytes and a count.
func TestNameCap(t *testing.T) {
	var s Sink
	long := strings.Repeat("é", 1<<19)
	s.Add(long, 0, "link to %q", long)
	w := s.List[0]
	if len(w.File) > MaxNameBytes+40 || len(w.Message) > MaxMessageBytes+40 {
		t.Errorf("file %d bytes, message %d bytes", len(w.File), len(w.Message))
	}
	if !strings.Contains(w.File, "more bytes)") {
		t.Errorf("no count in %q", w.File[len(w.File)-30:])
	}
}
