package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nsanalyze/nsanalyze/fixtures"
)

func scanSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join("..", "..", "docs", "scan.schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("scan.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("scan.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// resultLines reads a results file, validating every line against docs/scan.schema.json.
func resultLines(t *testing.T, sch *jsonschema.Schema, data []byte) []ScanResult {
	t.Helper()
	var out []ScanResult
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatalf("line %d is not JSON: %v", n, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("line %d does not match docs/scan.schema.json: %v\n%s", n, err, sc.Text())
		}
		var r ScanResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestScanFindsEveryFixture: `nsanalyze scan fixtures/` finds exactly the fixture
// bundles (the directories with an expected.json), no more, no fewer.
func TestScanFindsEveryFixture(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures")
	want, err := fixtures.Bundles(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := findBundles(root)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, g := range got {
		r, _ := filepath.Rel(root, g)
		r = filepath.ToSlash(r)
		if r == "realcluster/manifests" || strings.HasPrefix(r, "realworld-pending/") {
			// the harness's Kubernetes manifests (a directory of objects) and the cases
			// waiting for a fix are bundles to scan, not fixtures of TestFixtures
			continue
		}
		rel = append(rel, r)
	}
	if strings.Join(rel, "\n") != strings.Join(want, "\n") {
		t.Errorf("found %d bundles, want the %d fixtures:\n got  %v\n want %v", len(rel), len(want), rel, want)
	}
	// archives are bundles; hidden entries are skipped; a file argument is a bundle
	dir := t.TempDir()
	for _, f := range []string{"t1/b.tar.gz", "t2/c.zip", ".hidden/d.tgz", "t3/notes.md", "t4/e/objects.json"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = findBundles(dir)
	want = []string{filepath.Join(dir, "t1", "b.tar.gz"), filepath.Join(dir, "t2", "c.zip"), filepath.Join(dir, "t4", "e")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, _ := findBundles(filepath.Join(dir, "t1", "b.tar.gz")); len(got) != 1 {
		t.Errorf("a file argument: %v", got)
	}
}

// TestScanResultsResumeAndTable: every bundle gets one line that validates against the
// schema; a bundle that cannot be read (or one that panics) is state "error" and the
// others are still analysed; a second run skips what the results hold, a cut last line
// is re-analysed; the table puts fingerprints no known issue fits first.
func TestScanResultsResumeAndTable(t *testing.T) {
	sch := scanSchema(t)
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.bin")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte{0, 1, 2, 3}, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join("..", "..", "fixtures", "realdata")
	results := filepath.Join(dir, "scan.jsonl")
	panicky := filepath.Join("..", "..", "fixtures", "handmade", "healthy-cluster")
	scanTestHook = func(p string) {
		if p == panicky {
			panic("injected")
		}
	}
	defer func() { scanTestHook = nil }()
	var out, errb bytes.Buffer
	code := run([]string{"scan", "-q", "--results", results, real, garbage, panicky}, &out, &errb)
	if code != exitUsage {
		t.Errorf("exit %d, want %d (a bundle could not be analysed); stderr %s", code, exitUsage, errb.String())
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	lines := resultLines(t, sch, data)
	if len(lines) != 12 { // 10 realdata bundles, the garbage file, the panicking bundle
		t.Fatalf("%d result lines, want 12:\n%s", len(lines), data)
	}
	byPath := map[string]ScanResult{}
	for _, r := range lines {
		byPath[r.Path] = r
	}
	if r := byPath[garbage]; r.State != "error" || !strings.Contains(r.Error, "could be read") {
		t.Errorf("garbage: %+v", r)
	}
	if r := byPath[panicky]; r.State != "error" || !strings.Contains(r.Error, "internal error") {
		t.Errorf("panicking bundle: %+v", r)
	}
	a := byPath[filepath.Join(real, "a-discovery-failure")]
	if a.State != "stuck" || len(a.Problems) != 1 || a.Problems[0].Fingerprint != "api-discovery-failure/apiservice=v1beta1.metrics.k8s.io/backend=pod-unschedulable" ||
		strings.Join(a.Problems[0].KnownIssues, ",") != "metrics-server-apiservice-unavailable" || a.Timings.TotalMs < a.Timings.ReadMs {
		t.Errorf("a-discovery-failure: %+v", a)
	}
	table := out.String()
	if !strings.HasPrefix(table, "12 bundles: 5 stuck, 0 none stuck, 5 unknown, 2 could not be analysed; 3 distinct fingerprints.") {
		t.Errorf("table head: %s", table)
	}
	unmatched := strings.Index(table, "admission-webhook/webhook=~4b45658cfa23d99a/backend=connection-refused")
	matched := strings.Index(table, "metrics-server-apiservice-unavailable")
	if unmatched < 0 || matched < 0 || unmatched > matched {
		t.Errorf("the fingerprint no known issue fits must come first:\n%s", table)
	}
	if !strings.Contains(table, "      2        2  kubevirt-operator-finalizer") {
		t.Errorf("bundles and problems per fingerprint:\n%s", table)
	}

	// resume: nothing is analysed again; a cut last line is
	scanTestHook = func(p string) { t.Errorf("analysed again: %s", p) }
	out.Reset()
	if code := run([]string{"scan", "-q", "--results", results, real, garbage, panicky}, &out, &errb); code != exitNotStuck {
		t.Errorf("resume: exit %d", code)
	}
	if !strings.Contains(out.String(), "(12 already in the results, not analysed again)") {
		t.Errorf("resume table: %s", out.String())
	}
	cut := bytes.LastIndex(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	lastPath := lines[len(lines)-1].Path
	if err := os.WriteFile(results, data[:cut+20], 0o644); err != nil {
		t.Fatal(err)
	}
	var again []string
	scanTestHook = func(p string) { again = append(again, p) }
	errb.Reset()
	run([]string{"scan", "-q", "-o", "jsonl", "--results", results, real, garbage, panicky}, &out, &errb)
	if len(again) != 1 || again[0] != lastPath || !strings.Contains(errb.String(), "not a scan result line") {
		t.Errorf("after a cut line, analysed %v (want [%s]); stderr %s", again, lastPath, errb.String())
	}
	data, _ = os.ReadFile(results)
	if n := len(resultLines(t, sch, bytes.Join(validLines(data), []byte("\n")))); n != 12 {
		t.Errorf("%d valid lines after the resume, want 12", n)
	}

	// the table of a results file alone
	out.Reset()
	if code := run([]string{"scan", "--results", results}, &out, &errb); code != exitNotStuck || !strings.HasPrefix(out.String(), "12 bundles:") {
		t.Errorf("table of the results alone: exit %d\n%s", code, out.String())
	}
	// usage mistakes
	for _, args := range [][]string{{"scan"}, {"scan", "-o", "yaml", real}, {"scan", "-j", "0", real}, {"scan", "/does/not/exist"}} {
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// validLines drops the lines that are not JSON objects (the cut line a crash leaves).
func validLines(data []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if json.Valid(l) && len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// TestScanPool: every bundle is analysed exactly once, never more at once than the
// workers, and n bundles cost n analyses (2n for 2n: counted, not timed).
func TestScanPool(t *testing.T) {
	for _, jobs := range []int{1, 3} {
		count := func(n int) int {
			var calls, running, peak int64
			var mu sync.Mutex
			seen := map[string]int{}
			paths := make([]string, n)
			for i := range paths {
				paths[i] = filepath.Join("b", string(rune('a'+i%26)), strings.Repeat("x", i))
			}
			emitted := 0
			scanBundles(paths, jobs, func(p string) ScanResult {
				c := atomic.AddInt64(&running, 1)
				for {
					old := atomic.LoadInt64(&peak)
					if c <= old || atomic.CompareAndSwapInt64(&peak, old, c) {
						break
					}
				}
				atomic.AddInt64(&calls, 1)
				mu.Lock()
				seen[p]++
				mu.Unlock()
				atomic.AddInt64(&running, -1)
				return ScanResult{Path: p}
			}, func(ScanResult) { emitted++ })
			if peak > int64(jobs) {
				t.Errorf("jobs %d: %d bundles analysed at once", jobs, peak)
			}
			for p, c := range seen {
				if c != 1 {
					t.Errorf("%s analysed %d times", p, c)
				}
			}
			if emitted != n {
				t.Errorf("%d results for %d bundles", emitted, n)
			}
			return int(calls)
		}
		if a, b := count(50), count(100); a != 50 || b != 100 {
			t.Errorf("jobs %d: %d analyses for 50 bundles, %d for 100", jobs, a, b)
		}
	}
}

// TestScanRedactsPaths: under --redact, a bundle's path (often the customer's name or
// the ticket) appears in no result line, no table row and no error; each bundle gets
// the same stable name in every run, so --results resumes.
func TestScanRedactsPaths(t *testing.T) {
	dir := t.TempDir()
	for name, from := range map[string]string{"globex-corp-ticket-4711": "a-discovery-failure", "initech": "c-webhook-content-failure"} {
		copyTree(t, filepath.Join("..", "..", "fixtures", "realdata", from), filepath.Join(dir, name), func(b []byte) []byte { return b })
	}
	bad := filepath.Join(dir, "umbrella-notes")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "scan.jsonl")
	var all strings.Builder
	for _, args := range [][]string{{"scan", "-q", "--redact", dir}, {"scan", "-q", "--redact", "-o", "jsonl", dir}, {"scan", "-q", "--redact", "--results", results, dir}} {
		var out, errb bytes.Buffer
		run(args, &out, &errb)
		all.WriteString(out.String() + errb.String())
	}
	got := all.String()
	for _, leak := range []string{"globex", "initech", "umbrella", dir} {
		if strings.Contains(got, leak) {
			t.Errorf("--redact: %q survives in scan's output:\n%s", leak, got)
		}
	}
	if !strings.Contains(got, "bundle-") {
		t.Errorf("no redacted bundle name in:\n%s", got)
	}
	// resume: the second run with the same --results skips every bundle
	var out, errb bytes.Buffer
	run([]string{"scan", "-q", "--redact", "-o", "jsonl", "--results", results, dir}, &out, &errb)
	if strings.Count(out.String(), "\n") != 0 {
		t.Errorf("resume under --redact analysed again:\n%s", out.String())
	}
}

// TestTimezoneErrorEscaped: an ESC or a bidirectional override in --log-timezone never
// reaches stderr raw (the time package quotes the name as it is).
func TestTimezoneErrorEscaped(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"--log-timezone", "Eu\x1b[31mrope\u202e", filepath.Join("..", "..", "fixtures", "realdata", "a-discovery-failure")}, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "invalid --log-timezone") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if strings.ContainsAny(errb.String(), "\x1b\u202e") {
		t.Errorf("raw control character on stderr: %q", errb.String())
	}
}
