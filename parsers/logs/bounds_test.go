package logs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestTimeOutsideYearRange: a 41-byte CRI log dated 9999-12-31T23:59:59-23:59 (year
// 10000 in UTC) gets no time and one warning with its line, instead of a time the JSON
// report cannot encode.
func TestTimeOutsideYearRange(t *testing.T) {
	for _, line := range []string{
		"9999-12-31T23:59:59-23:59 stdout F hello",
		"0000-01-01T00:00:00+23:59 hello there",
		`{"log":"hello\n","stream":"stdout","time":"9999-12-31T23:59:59-23:59"}`,
	} {
		w := &diag.Sink{}
		var got []Entry
		info, _ := Scan(strings.NewReader(line), "c.log", Options{Keywords: []string{"hello"}, Reference: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, w,
			func(e Entry) { got = append(got, e) })
		if len(got) != 1 || !got[0].Time.IsZero() || !info.First.IsZero() || !info.Last.IsZero() {
			t.Errorf("%s: entries %+v, first %s last %s", line, got, info.First, info.Last)
		}
		if len(w.List) != 1 || w.List[0].Line != 1 || !strings.Contains(w.List[0].Message, "outside years") {
			t.Errorf("%s: warnings %v", line, w.List)
		}
	}
}

// TestRolloverCap: 24,000 klog lines alternating Dec 31 / Jan 1 used to add a year at
// every January line (down to year -9974); now at most MaxRollovers per file.
func TestRolloverCap(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 24000; i++ {
		d := "1231 23:59:59"
		if i%2 == 1 {
			d = "0101 00:00:01"
		}
		fmt.Fprintf(&b, "E%s.000000 1 x.go:1] deletion of namespace a failed\n", d)
	}
	w := &diag.Sink{}
	ref := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var got []Entry
	info, _ := Scan(&b, "kcm.log", Options{Keywords: []string{"deletion of namespace"}, Reference: ref}, w, func(e Entry) { got = append(got, e) })
	for _, e := range append(got, Entry{Time: info.First}, Entry{Time: info.Last}) {
		if y := e.Time.Year(); y < 2026-MaxRollovers-1 || y > 2026 {
			t.Fatalf("year %d", y)
		}
	}
	n := 0
	for _, x := range w.List {
		if strings.Contains(x.Message, "year rollovers") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warnings %v", w.List)
	}
	// a real rollover is still seen
	ents, _, _ := scanHostile(t, strings.NewReader("E1231 23:59:50.000000 1 x.go:1] deletion of namespace a failed\nE0101 00:00:10.000000 1 x.go:1] deletion of namespace b failed\n"), Options{})
	if len(ents) != 2 || ents[1].Time.Year() != ents[0].Time.Year()+1 {
		t.Errorf("rollover lost: %+v", ents)
	}
}

// TestEntriesBoundedPerShape: 100,000 identical matching lines keep MaxEntriesPerShape
// entries; the last one counts the lines it stands for.
func TestEntriesBoundedPerShape(t *testing.T) {
	var b bytes.Buffer
	const n = 100000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "E0101 00:00:%02d.%06d 1 x.go:1] deletion of namespace a failed: boom\n", i%60, i)
	}
	b.WriteString("E0101 00:00:59.000000 1 x.go:1] deletion of namespace other failed: boom\n")
	w := &diag.Sink{}
	var got []Entry
	info, _ := Scan(&b, "kcm.log", Options{Keywords: []string{"deletion of namespace"}, Reference: fuzzRef}, w, func(e Entry) { got = append(got, e) })
	total := 0
	for _, e := range got {
		total += 1 + e.Omitted
	}
	if len(got) != MaxEntriesPerShape+1 || total != n+1 || info.Matched != n+1 || info.Omitted != n-MaxEntriesPerShape {
		t.Errorf("%d entries standing for %d lines, matched %d, omitted %d", len(got), total, info.Matched, info.Omitted)
	}
	last := got[len(got)-2]
	if last.Line != n || last.Omitted != n-MaxEntriesPerShape {
		t.Errorf("latest of the shape: line %d omitted %d", last.Line, last.Omitted)
	}
}

// TestLongMessageCapped: a matching line of 6 MB keeps a message of MaxFieldBytes.
func TestLongMessageCapped(t *testing.T) {
	line := "E0101 00:00:00.000000 1 x.go:1] \"deletion of namespace a failed\" err=\"" + strings.Repeat("x", 3<<20) + "\" msg2=" + strings.Repeat("y", 3<<20) + "\n"
	got, _, _ := scanHostile(t, strings.NewReader(line), Options{Keywords: []string{"deletion of namespace"}})
	if len(got) != 1 {
		t.Fatalf("%d entries", len(got))
	}
	for k, v := range got[0].Fields {
		if len(v) > MaxFieldBytes+64 || !strings.Contains(v, "truncated") {
			t.Errorf("field %s of %d bytes", k, len(v))
		}
	}
}

// TestSectionsCapped: 50,000 `==== START logs` markers (a cluster-info dump stdout
// inflated from 1 MB) keep MaxSections sections and warn once.
func TestSectionsCapped(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&b, "==== START logs for container c of pod ns/p%d ====\nE0101 00:00:00.000000 1 x.go:1] deletion of namespace a failed\n==== END logs for container c of pod ns/p%d ====\n", i, i)
	}
	w := &diag.Sink{}
	f, _ := ScanFile(&b, "out.txt", Options{Keywords: []string{"deletion of namespace"}}, w)
	n := 0
	for _, x := range w.List {
		if strings.Contains(x.Message, "sections in this file") {
			n++
		}
	}
	if len(f.Info.Sections) > MaxSections || n != 1 {
		t.Errorf("%d sections, warnings %v", len(f.Info.Sections), w.List)
	}
}

// TestLongFieldKept: the namespace controller's discovery error naming a thousand
// group/versions (a 100 KB value) is kept whole, without a warning; a value over
// MaxLongFieldBytes, and long values past the file's LongFieldBudget, are cut with a
// warning at their line.
func TestLongFieldKept(t *testing.T) {
	var parts []string
	for i := 0; i < 1000; i++ {
		parts = append(parts, fmt.Sprintf("g%04d.adapter.example.com/v1beta1: stale GroupVersion discovery: g%04d.adapter.example.com/v1beta1", i, i))
	}
	msg := "deletion of namespace team-a failed: unable to retrieve the complete list of server APIs: " + strings.Join(parts, ", ")
	line := "E1129 19:30:10.000000       1 namespace_controller.go:164] \"Unhandled Error\" err=\"" + msg + "\" logger=\"UnhandledError\"\n"
	if len(msg) <= MaxFieldBytes {
		t.Fatalf("the value is %d bytes, want more than %d", len(msg), MaxFieldBytes)
	}
	got, warns, _ := scanHostile(t, strings.NewReader(line), Options{Keywords: []string{"deletion of namespace"}})
	if len(got) != 1 {
		t.Fatalf("%d entries", len(got))
	}
	if v := got[0].Fields["err"]; v != msg {
		t.Errorf("err of %d bytes kept, want the %d bytes whole (ends %q)", len(v), len(msg), v[max(0, len(v)-60):])
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}

	// past the budget: every line of 1 MB is kept until 8 MB are, the next ones are cut
	big := strings.Repeat("x", MaxLongFieldBytes-100)
	var b strings.Builder
	n := LongFieldBudget/len(big) + 2
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "E1129 19:30:%02d.000000       1 namespace_controller.go:164] \"deletion of namespace a%d failed\" err=\"%s\"\n", i, i, big)
	}
	got, warns, _ = scanHostile(t, strings.NewReader(b.String()), Options{Keywords: []string{"deletion of namespace"}})
	if len(got) != n {
		t.Fatalf("%d entries, want %d", len(got), n)
	}
	kept := 0
	for _, e := range got {
		if e.Fields["err"] == big {
			kept++
		} else if !strings.Contains(e.Fields["err"], "truncated") {
			t.Errorf("line %d: err neither whole nor cut", e.Line)
		}
	}
	if want := LongFieldBudget / len(big); kept != want {
		t.Errorf("%d long values kept whole, want %d (the budget)", kept, want)
	}
	if len(warns) != n-kept {
		t.Fatalf("%d warnings for %d cut values: %v", len(warns), n-kept, warns)
	}
	for i, w := range warns {
		if want := kept + 1 + i; w.Line != want || !strings.Contains(w.Message, "err of ") || !strings.Contains(w.Message, "not read") {
			t.Errorf("warning %d: %s (want line %d)", i, w, want)
		}
	}
}
