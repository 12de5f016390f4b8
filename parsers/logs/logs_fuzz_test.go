package logs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// Fuzz targets for the log scanner and each line format, through the exported Scan
// only (so they survive rewrites of the internals). Seeds are the real fixture logs;
// crashers found by `go test -fuzz` are committed under testdata/fuzz/<Target>/ and
// run by every plain `go test`.

// fuzzKeywords are the analyzer's phrases plus a short one, so that many lines match.
var fuzzKeywords = append([]string{"err"}, samplePhrases...)

// fuzzRef is the reference time klog years are completed from.
var fuzzRef = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// fixtureLogSeeds returns the heads of the fixture logs.
func fixtureLogSeeds(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, root := range []string{"../../fixtures/realdata", "../../fixtures/realworld", "../../fixtures/handmade"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if !strings.HasSuffix(p, ".log") && !strings.HasSuffix(p, "logs.txt") && !strings.Contains(p, "/raw/") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) == 0 {
				return nil
			}
			// the part around the first keyword match, at most 16 KiB
			start := 0
			for _, k := range samplePhrases {
				if i := bytes.Index(b, []byte(k)); i >= 0 {
					start = max(0, bytes.LastIndexByte(b[:i], '\n')-4<<10)
					break
				}
			}
			b = b[start:]
			if len(b) > 16<<10 {
				b = b[:16<<10]
			}
			out = append(out, b)
			return nil
		})
	}
	if len(out) == 0 {
		f.Log("no fixture logs found; fuzzing from the hand-written seeds only")
	}
	return out
}

// fixtureLogLines returns single fixture log lines that contain a keyword.
func fixtureLogLines(f *testing.F, max int) []string {
	var out []string
	for _, b := range fixtureLogSeeds(f) {
		for _, l := range strings.Split(string(b), "\n") {
			for _, k := range samplePhrases {
				if strings.Contains(l, k) && len(out) < max {
					out = append(out, l)
					break
				}
			}
		}
	}
	return out
}

var handLogSeeds = []string{
	"E1129 22:26:15.581738    2557 namespace_controller.go:164] \"Unhandled Error\" err=\"deletion of namespace x failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale\"\n",
	"I0101 00:00:00.000000 1 a.go:1] err=<\n\tdeletion of namespace x failed: y\n >\n",
	"2026-01-01T00:00:00.123456789Z stderr F E0101 00:00:00.000000 1 a.go:1] deletion of namespace x failed: y\r\n",
	"2026-01-01T00:00:00Z stdout P part of a line with err\n2026-01-01T00:00:00Z stdout F and its end\n",
	"{\"log\":\"E0101 00:00:00.000000 1 a.go:1] deletion of namespace x failed: y\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:00Z\"}\n",
	"{\"ts\":1795991729905.163,\"caller\":\"namespace/namespace_controller.go:164\",\"msg\":\"Unhandled Error\",\"err\":\"deletion of namespace x failed\"}\n",
	"\x1b[31mE0101 00:00:00.000000 1 a.go:1] deletion of namespace x failed: y\x1b[0m\n",
	"E0101 00:00:00.000000 1 a.go:1] err\x00 in the middle\n\xff\xfe err \xc3\n",
	"E1399 99:99:99.999999999999 1 a.go:1] err\n",
	"err without newline at the end",
	"\n\n\nerr\n\n",
}

// FuzzScan checks the block scanner: it never panics; it counts every physical line;
// entries come in line order, each from a line holding a keyword; and cutting the
// input anywhere still yields exactly the same entries for every complete line
// before the cut (a log truncated mid-line loses only its last, partial line).
func FuzzScan(f *testing.F) {
	for _, s := range handLogSeeds {
		f.Add([]byte(s), uint16(len(s)/2), uint16(0))
	}
	for _, b := range fixtureLogSeeds(f) {
		f.Add(b, uint16(len(b)/3), uint16(200))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, maxLine uint16) {
		opts := Options{Keywords: fuzzKeywords, Reference: fuzzRef}
		if maxLine > 0 {
			opts.MaxLineBytes = int(maxLine)
		}
		full, info := scanAll(t, data, opts)
		lines := physicalLines(data)
		if info.Lines != len(lines) {
			t.Fatalf("counted %d lines, the input has %d", info.Lines, len(lines))
		}
		for i, e := range full {
			if e.Line < 1 || e.Line > len(lines) || (i > 0 && e.Line <= full[i-1].Line) {
				t.Fatalf("entry %d at line %d (previous %v, %d lines)", i, e.Line, full[max(i-1, 0)].Line, len(lines))
			}
			l := lines[e.Line-1]
			if opts.MaxLineBytes > 0 && len(l) > opts.MaxLineBytes {
				t.Fatalf("line %d of %d bytes parsed despite MaxLineBytes %d", e.Line, len(l), opts.MaxLineBytes)
			}
			if !containsAny(l, fuzzKeywords) && !containsAny(criJoined(lines, e.Line-1), fuzzKeywords) {
				// a CRI partial (P) line is one record with the lines that continue it
				// (criJoined); a repaired paste joins lines (a terminal's wrap, a YAML value over
				// lines): the keyword is in the lines the entry starts, before the next's
				end := len(lines)
				if i+1 < len(full) {
					end = full[i+1].Line - 1
				}
				if _, _, _, repaired := repairPaste(bytes.NewReader(data), Options{}); !repaired || !containsAny([]byte(strings.Join(strings.Fields(string(bytes.Join(lines[e.Line-1:end], []byte(" ")))), " ")), fuzzKeywords) {
					t.Fatalf("entry for line %d, which holds no keyword: %q", e.Line, l)
				}
			}
			if len(e.Text) > MaxTextBytes+len("…") {
				t.Fatalf("entry text of %d bytes", len(e.Text))
			}
		}
		if int(cut) >= len(data) {
			return
		}
		if _, _, _, repaired := repairPaste(bytes.NewReader(data), Options{}); repaired {
			// a paste is repaired as a whole (its widest line is the terminal's width):
			// a cut paste is another paste
			return
		}
		if _, _, _, repaired := repairPaste(bytes.NewReader(data[:cut]), Options{}); repaired {
			return
		}
		// the cut input is read with its size known (one exact buffer), the whole input
		// without (1 MiB blocks with read-ahead): both ways must find the same records
		opts.SizeHint = int64(cut)
		part, _ := scanAll(t, data[:cut], opts)
		complete := bytes.Count(data[:cut], []byte{'\n'})
		// A CRI partial (P) line is one record with the lines that continue it, which
		// the cut may have damaged: only records that end before the cut must match.
		partial := func(e Entry) bool {
			l := lines[e.Line-1]
			return bytes.Contains(l, []byte(" stdout P ")) || bytes.Contains(l, []byte(" stderr P "))
		}
		want := entriesBefore(dropIf(full, partial), complete)
		got := entriesBefore(dropIf(part, partial), complete)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("cut at byte %d (%d complete lines):\n got %v\nwant %v", cut, complete, got, want)
		}
	})
}

// FuzzKlogLine fuzzes the klog header and message; a klog line's year is inferred
// from the reference and its time never lies more than two days after it.
func FuzzKlogLine(f *testing.F) {
	f.Add("E", uint8(11), uint8(29), uint8(22), uint8(26), uint8(15), "581738", "namespace_controller.go:164", `"Unhandled Error" err="deletion of namespace x failed: y"`)
	f.Add("I", uint8(2), uint8(29), uint8(0), uint8(0), uint8(60), "", "a.go:1", "err=<")
	for _, l := range fixtureLogLines(f, 100) {
		if len(l) > 40 && strings.Contains("IWEF", l[:1]) && strings.Contains(l, "] ") {
			i := strings.Index(l, "] ")
			sp := strings.LastIndexByte(l[:i], ' ')
			if sp > 22 {
				f.Add(l[:1], uint8(atoi(l[1:3])), uint8(atoi(l[3:5])), uint8(atoi(l[6:8])), uint8(atoi(l[9:11])), uint8(atoi(l[12:14])), l[15:21], l[sp+1:i], l[i+2:])
			}
		}
	}
	f.Fuzz(func(t *testing.T, sev string, mon, day, hh, mm, ss uint8, frac, caller, msg string) {
		line := fmt.Sprintf("%s%02d%02d %02d:%02d:%02d.%s %7d %s] %s err", sev, mon, day, hh, mm, ss, frac, 1, caller, msg)
		e := scanOne(t, line)
		if e.TimeSource == "klog" {
			checkInferred(t, e, fuzzRef)
		}
	})
}

// FuzzKlogTimeInference: the year of a klog time is the reference's or the one before,
// and the time never lies more than two days after the reference, in any zone.
func FuzzKlogTimeInference(f *testing.F) {
	f.Add(uint8(12), uint8(31), uint8(23), uint8(59), uint8(59), uint32(999999), int64(1767225600), uint8(0))
	f.Add(uint8(1), uint8(1), uint8(0), uint8(0), uint8(0), uint32(0), int64(1767225600), uint8(1))
	f.Add(uint8(2), uint8(29), uint8(12), uint8(0), uint8(0), uint32(0), int64(1709164800), uint8(2))
	f.Add(uint8(1), uint8(3), uint8(11), uint8(59), uint8(59), uint32(0), int64(1767225600), uint8(3))
	zones := []string{"UTC", "Europe/Berlin", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/St_Johns"}
	f.Fuzz(func(t *testing.T, mon, day, hh, mm, ss uint8, usec uint32, refUnix int64, zone uint8) {
		// references between 1990 and 2100
		ref := time.Unix(631152000+(refUnix%3500000000+3500000000)%3500000000, 0).UTC()
		loc, err := time.LoadLocation(zones[int(zone)%len(zones)])
		if err != nil {
			t.Skip("no zoneinfo:", err)
		}
		line := fmt.Sprintf("E%02d%02d %02d:%02d:%02d.%06d 1 namespace_controller.go:164] deletion of namespace x failed: y",
			mon%13, day%32, hh%24, mm%60, ss%61, usec%1000000)
		var got []Entry
		_, err = Scan(strings.NewReader(line), "kube-controller-manager.log", Options{Keywords: fuzzKeywords, Reference: ref, Location: loc, SizeHint: int64(len(line))},
			&diag.Sink{}, func(e Entry) { got = append(got, e) })
		if err != nil || len(got) != 1 {
			t.Fatalf("Scan: %v, %d entries", err, len(got))
		}
		e := got[0]
		if mon%13 == 0 || day%32 == 0 {
			if e.TimeSource == "klog" && !e.Time.IsZero() {
				// month 0 or day 0 is not a klog time; accepting it is tolerable only within bounds
				checkInferred(t, e, ref)
			}
			return
		}
		if e.TimeSource != "klog" || !e.YearInferred {
			t.Fatalf("valid klog time not read: %+v", e)
		}
		checkInferred(t, e, ref)
		if lt := e.Time.In(loc); ss%61 < 60 && day%32 <= 28 && (lt.Month() != time.Month(mon%13) || lt.Day() != int(day%32) || lt.Hour() != int(hh%24) && !dstGap(loc, lt)) {
			t.Fatalf("time %v (in %s) does not match the line %q", lt, loc, line)
		}
	})
}

// FuzzCRILine fuzzes the CRI framing `<RFC3339Nano> <stream> <tag> <content>`.
func FuzzCRILine(f *testing.F) {
	f.Add(int64(1767225600123456789), "stderr", "F", "E0101 00:00:00.000000 1 a.go:1] deletion of namespace x failed: y")
	f.Add(int64(0), "stdout", "P", "err")
	for _, l := range fixtureLogLines(f, 50) {
		f.Add(int64(1767225600000000000), "stderr", "F", l)
	}
	f.Fuzz(func(t *testing.T, unixNano int64, stream, tag, content string) {
		ts := time.Unix(0, unixNano).UTC()
		line := ts.Format(time.RFC3339Nano) + " " + stream + " " + tag + " " + content + " err"
		e := scanOne(t, line)
		if (stream == "stdout" || stream == "stderr") && (tag == "F" || tag == "P") && !strings.ContainsAny(content, "\n") {
			if !e.Time.Equal(ts) {
				t.Fatalf("CRI time %v, want %v, line %q", e.Time, ts, line)
			}
		}
	})
}

// FuzzDockerLine fuzzes docker's json-file framing `{"log":...,"stream":...,"time":...}`.
func FuzzDockerLine(f *testing.F) {
	f.Add("E0101 00:00:00.000000 1 a.go:1] deletion of namespace x failed: y\n", "stderr", int64(1767225600123456789))
	f.Add("\x1b[31merr\x1b[0m", "stdout", int64(-1))
	for _, l := range fixtureLogLines(f, 50) {
		f.Add(l+"\n", "stderr", int64(1767225600000000000))
	}
	f.Fuzz(func(t *testing.T, log, stream string, unixNano int64) {
		ts := time.Unix(0, unixNano).UTC()
		rec, _ := json.Marshal(map[string]string{"log": log + " err", "stream": stream, "time": ts.Format(time.RFC3339Nano)})
		if ts.Year() < 0 || ts.Year() > 9999 {
			return // not representable in RFC 3339
		}
		e := scanOne(t, `{"log":`+strings.TrimPrefix(string(rec), `{"log":`))
		_ = e
	})
}

// FuzzTimestampPrefixLine fuzzes `kubectl logs --timestamps` lines.
func FuzzTimestampPrefixLine(f *testing.F) {
	f.Add("2026-01-01T00:00:00.123456789Z", "E0101 00:00:00.000000 1 a.go:1] deletion of namespace x failed: y")
	f.Add("2026-01-01T00:00:00+01:00", `{"ts":1,"msg":"err"}`)
	f.Add("9999-12-31T23:59:59Z", "err")
	for _, l := range fixtureLogLines(f, 50) {
		f.Add("2026-01-01T00:00:00Z", l)
	}
	f.Fuzz(func(t *testing.T, ts, content string) {
		e := scanOne(t, ts+" "+content+" err")
		if pt, err := time.Parse(time.RFC3339Nano, ts); err == nil && !strings.Contains(ts, " ") && len(ts) > 20 && ts[4] == '-' && e.TimeSource == "timestamp-prefix" {
			if !e.Time.Equal(pt) {
				t.Fatalf("prefix time %v, want %v", e.Time, pt)
			}
		}
	})
}

// FuzzJSONLogLine fuzzes component-base JSON logging records.
func FuzzJSONLogLine(f *testing.F) {
	f.Add(`{"ts":1795991729905.163,"caller":"namespace/namespace_controller.go:164","msg":"Unhandled Error","err":"deletion of namespace x failed"}`)
	f.Add(`{"ts":1e308,"msg":"err","v":0}`)
	f.Add(`{"ts":-1e308,"msg":"err","caller":5}`)
	f.Add(`{"ts":"x","msg":["err"]}`)
	f.Add(`{"level":"error","msg":"err","time":"2021-08-17T17:43:58Z"}`)
	f.Add(`{"level":"error","msg":"err","time":"0000-01-01T00:00:00-23:59"}`)
	f.Add(`{"SYSLOG_IDENTIFIER":"kubelet","MESSAGE":"E0817 16:07:14.536031 1 x.go:1] err","__REALTIME_TIMESTAMP":"1629216434536089"}`)
	f.Add(`{"MESSAGE":[101,114,114],"__REALTIME_TIMESTAMP":"-5"}`)
	f.Add(`{"MESSAGE":"err","__REALTIME_TIMESTAMP":"99999999999999999999"}`)
	f.Add(`{"msg":"err","x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`)
	for _, l := range fixtureLogLines(f, 100) {
		if strings.HasPrefix(l, "{") {
			f.Add(l)
		}
	}
	f.Fuzz(func(t *testing.T, rec string) {
		for _, line := range []string{rec + " err", strings.TrimSuffix(rec, "}") + `,"k":"err"}`} {
			e := scanOne(t, line)
			if !e.Time.IsZero() && (e.Time.Year() < 1 || e.Time.Year() > 9999) {
				t.Fatalf("time %v (year outside 1-9999) from %q", e.Time, line)
			}
		}
	})
}

// scanAll scans data and returns its entries without Component (which is guessed from
// the whole file and may change when the file is cut).
func scanAll(t *testing.T, data []byte, opts Options) ([]Entry, FileInfo) {
	t.Helper()
	var out []Entry
	w := &diag.Sink{}
	info, err := Scan(bytes.NewReader(data), "kube-controller-manager.log", opts, w, func(e Entry) {
		if e.File != "kube-controller-manager.log" {
			t.Fatalf("entry file %q", e.File)
		}
		e.Component = ""
		out = append(out, e)
	})
	if err != nil {
		t.Fatalf("Scan returned %v on an in-memory reader", err)
	}
	for _, wn := range w.List {
		if wn.File != "kube-controller-manager.log" || wn.Message == "" || diag.IsInternal(wn) {
			t.Fatalf("warning %+v", wn)
		}
	}
	return out, info
}

// scanOne scans a single line that holds the keyword "err" and returns its entry. The
// size is given, as the bundle loader does for files: one buffer of the line's size, not
// 1 MiB blocks with read-ahead (FuzzScan covers those), so a fuzzing exec stays cheap.
func scanOne(t *testing.T, line string) Entry {
	t.Helper()
	opts := Options{Keywords: fuzzKeywords, Reference: fuzzRef, SizeHint: int64(len(line))}
	if strings.Contains(line, "\n") {
		// several physical lines: only check that scanning survives
		scanAll(t, []byte(line), opts)
		return Entry{}
	}
	got, info := scanAll(t, []byte(line), opts)
	if info.Lines != 1 {
		t.Fatalf("%d lines counted in %q", info.Lines, line)
	}
	if len(line) <= DefaultMaxLineBytes && len(got) != 1 {
		t.Fatalf("%d entries for one matching line %q", len(got), line)
	}
	if len(got) == 0 {
		return Entry{}
	}
	if got[0].Line != 1 {
		t.Fatalf("entry line %d", got[0].Line)
	}
	return got[0]
}

func checkInferred(t *testing.T, e Entry, ref time.Time) {
	t.Helper()
	if e.Time.After(ref.Add(48*time.Hour + 2*time.Minute)) {
		t.Fatalf("inferred time %v lies more than two days after the reference %v", e.Time, ref)
	}
	if e.Time.Before(ref.AddDate(-1, 0, -4)) {
		t.Fatalf("inferred time %v lies more than a year before the reference %v", e.Time, ref)
	}
}

// dstGap reports whether lt's hour was shifted by a daylight-saving transition.
func dstGap(loc *time.Location, lt time.Time) bool {
	_, o1 := lt.Add(-3 * time.Hour).Zone()
	_, o2 := lt.Add(3 * time.Hour).Zone()
	return o1 != o2
}

func physicalLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	ls := bytes.Split(data, []byte{'\n'})
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// criJoined returns the record a CRI partial (P) line starts: its content and that of
// the P lines after it, through the first F line, joined as the runtime split them
// (without a separator); nil when lines[i] is no P line.
func criJoined(lines [][]byte, i int) []byte {
	var out []byte
	for ; i < len(lines); i++ {
		l := lines[i]
		j := max(bytes.Index(l, []byte(" stdout ")), bytes.Index(l, []byte(" stderr ")))
		if j < 0 || len(l) < j+10 || l[j+9] != ' ' || (l[j+8] != 'P' && l[j+8] != 'F') {
			return out
		}
		if out == nil && l[j+8] != 'P' {
			return nil
		}
		out = append(out, l[j+10:]...)
		if l[j+8] == 'F' {
			return out
		}
	}
	return out
}

func entriesBefore(es []Entry, n int) []Entry {
	var out []Entry
	for _, e := range es {
		if e.Line <= n {
			out = append(out, e)
		}
	}
	return out
}

func dropIf(es []Entry, f func(Entry) bool) []Entry {
	var out []Entry
	for _, e := range es {
		if !f(e) {
			out = append(out, e)
		}
	}
	return out
}

func containsAny(b []byte, ks []string) bool {
	for _, k := range ks {
		if bytes.Contains(b, []byte(k)) {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}
