package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// loadShape writes a scale shape of size n and reads it as cmd/nsanalyze does.
func loadShape(t testing.TB, shape string, n int) (*bundle.Records, gen.Expected) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), fmt.Sprintf("%s-%d", shape, n))
	exp, err := gen.GenerateShape(dir, shape, n)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, LogLocation: time.UTC,
		Exclude: []string{"expected.json"}, KeepObject: rules.KeepObject})
	if err != nil {
		t.Fatal(err)
	}
	return rec, exp
}

// analysisWork counts the allocations and allocated bytes of the analysis and of
// rendering the report in every format, on records already read: the work that must
// grow linearly with the shape's n (issue 22). Counting work, not time, holds on a
// busy machine.
func analysisWork(t testing.TB, rec *bundle.Records) (mallocs, bytes uint64, ops map[string]int64, rep *findings.Report) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ops = work.Measure(func() {
		rep = analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
		rep = redact.Scrub(rep) // as cmd/nsanalyze: every report is scrubbed of secrets
		for _, f := range []string{"text", "markdown", "json", "html"} {
			var b countWriter
			if err := render.Render(&b, rep, f); err != nil {
				t.Fatal(err)
			}
		}
	})
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc, ops, rep
}

// bytesGrowth bounds the growth of allocated bytes from n to 2n (see TestScaleWorkLinear).
const bytesGrowth = 3.0

// opsSlack: counts this small are constant work (a ladder's few commands checked),
// compared as if they were this large.
const opsSlack = 64

// opsGrowth says, for each counter of parsers/work that grows more than 2.2× from
// n to 2n (a counter absent at n counts 0), how; and when nothing was counted at all.
func opsGrowth(n int, ops1, ops2 map[string]int64) []string {
	var out []string
	if len(ops2) == 0 {
		out = append(out, "no operation counted (parsers/work counters not reached)")
	}
	for name, c2 := range ops2 {
		c1 := ops1[name]
		if float64(c2) > 2.2*float64(max(c1, opsSlack)) {
			out = append(out, fmt.Sprintf("%s: %d at n=%d, %d at n=%d: %.2f× for 2× input (want ≤ 2.2×)", name, c1, n, c2, 2*n, float64(c2)/float64(max(c1, 1))))
		}
	}
	sort.Strings(out)
	return out
}

// TestOpsGrowth: the operation counts' check fails on work that grows faster than
// the input, and on nothing counted.
func TestOpsGrowth(t *testing.T) {
	if got := opsGrowth(100, map[string]int64{"a": 1000, "b": 10}, map[string]int64{"a": 2100, "b": 60}); len(got) != 0 {
		t.Errorf("linear work flagged: %v", got)
	}
	if got := opsGrowth(100, map[string]int64{"a": 1000}, map[string]int64{"a": 4000, "c": 500}); len(got) != 2 {
		t.Errorf("quadratic work and a new counter: %v", got)
	}
	if got := opsGrowth(100, nil, nil); len(got) != 1 {
		t.Errorf("nothing counted: %v", got)
	}
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// TestScaleWorkLinear generates every scale shape at n and 2n and compares the work of
// the analysis and the renderings: at most 2.2× for twice the input, in every
// dimension (objects with finalizers in one namespace, CRDs, failing APIServices,
// webhooks, stuck namespaces, group/versions in log lines, pods behind one Service,
// events, log lines of one cause, terminating pods on a dead node, pods holding back
// a pods-first deletion).
func TestScaleWorkLinear(t *testing.T) {
	sizes := map[string]int{"finalizers": 1000, "crds": 500, "apiservices": 200, "webhooks": 500, "namespaces": 200,
		"loggvs": 300, "backendpods": 1000, "events": 1000, "loglines": 1000, "deadnodepods": 1000, "orderedpods": 1000,
		"activenamespaces": 2000}
	for _, shape := range gen.Shapes {
		t.Run(shape, func(t *testing.T) {
			n := sizes[shape]
			if n == 0 {
				t.Fatalf("no size for shape %s", shape)
			}
			var rec1, rec2 *bundle.Records
			var exp gen.Expected
			// the parse's operations (log lines parsed, ...) as well as the analysis'
			parse1 := work.Measure(func() { rec1, exp = loadShape(t, shape, n) })
			parse2 := work.Measure(func() { rec2, _ = loadShape(t, shape, 2*n) })
			// a first run pays the one-time set-up (compiled patterns, templates) that
			// a whole-package run has already paid: measured are the second runs
			analysisWork(t, rec1)
			m1, b1, ops1, rep := analysisWork(t, rec1)
			m2, b2, ops2, _ := analysisWork(t, rec2)
			for _, p := range opsGrowth(n, ops1, ops2) {
				t.Errorf("%s: analysis: %s", shape, p)
			}
			for _, p := range opsGrowth(n, parse1, parse2) {
				if !strings.HasPrefix(p, "no operation") { // a shape may have no log
					t.Errorf("%s: parse: %s", shape, p)
				}
			}
			var stuck []string
			for _, ns := range rep.Namespaces {
				stuck = append(stuck, ns.Name)
			}
			same(t, "stuck namespaces", stuck, exp.StuckNamespaces)
			if r := float64(m2) / float64(m1); r > 2.2 {
				t.Errorf("%s: %d allocations at n=%d, %d at n=%d: %.2f× for 2× input (want ≤ 2.2×)", shape, m1, n, m2, 2*n, r)
			}
			// Allocated bytes are the coarsest of the three counts: one large buffer's
			// growth step (its capacity doubles) moves the total by a quarter or more,
			// and where a step falls depends on the length of the temporary directory's
			// path written in the evidence (CI measured 2.49× for webhooks, 1.92× here,
			// on the same code). The counters above and the allocation count hold
			// linearity at 2.2×; the bytes only have to stay under quadratic (4×).
			if r := float64(b2) / float64(b1); r > bytesGrowth {
				t.Errorf("%s: %d bytes allocated at n=%d, %d at n=%d: %.2f× for 2× input (want ≤ %.1f×)", shape, b1, n, b2, 2*n, r, bytesGrowth)
			}
			t.Logf("%s: n=%d %d allocs %d KB; 2n %d allocs %d KB; operations %v, parse %v; 2n %v, parse %v", shape, n, m1, b1>>10, m2, b2>>10, ops1, parse1, ops2, parse2)
		})
	}
}

// TestScaleReportSizes holds the report size limits of issue 22 at scale: the text
// report under 400 lines and the Markdown under 32,767 characters (GitHub's comment
// limit), with the JSON keeping every object.
func TestScaleReportSizes(t *testing.T) {
	cases := []struct {
		shape string
		n     int
	}{{"finalizers", 10000}, {"crds", 2000}, {"webhooks", 2000}, {"events", 2000}, {"loglines", 2000},
		{"namespaces", 500}, {"apiservices", 200}, {"backendpods", 2000}, {"loggvs", 1000},
		{"deadnodepods", 2000}, {"orderedpods", 2000}}
	if testing.Short() {
		cases[0].n = 2500
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s-%d", tc.shape, tc.n), func(t *testing.T) {
			rec, exp := loadShape(t, tc.shape, tc.n)
			rep := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
			if tc.shape == "loggvs" {
				// one 100 KB log line names the thousand group/versions: none is lost
				// past a cut (a value was cut at 64 KiB, silently: 345 of 1,000 lost)
				named := map[string]bool{}
				for _, ns := range rep.Namespaces {
					for _, c := range ns.Causes {
						for _, gv := range c.GroupVersions {
							named[gv] = true
						}
					}
				}
				var lost []string
				for _, gv := range exp.FailingGroupVersions {
					if !named[gv] {
						lost = append(lost, gv)
					}
				}
				if len(lost) > 0 {
					t.Errorf("%d of %d group/versions of the log line not in the report (first %s)", len(lost), len(exp.FailingGroupVersions), lost[0])
				}
				for _, w := range rep.Warnings {
					t.Errorf("warning: %s", w)
				}
			}
			var text, md, js bytes.Buffer
			for f, b := range map[string]*bytes.Buffer{"text": &text, "markdown": &md, "json": &js} {
				if err := render.Render(b, rep, f); err != nil {
					t.Fatal(err)
				}
			}
			if n := strings.Count(text.String(), "\n"); n >= 400 {
				t.Errorf("text report: %d lines, want < 400", n)
				if os.Getenv("SCALE_DUMP") != "" {
					_ = os.WriteFile(os.Getenv("SCALE_DUMP")+"/"+tc.shape+".txt", text.Bytes(), 0o644)
				}
			}
			if n := len([]rune(md.String())); n >= 32767 {
				t.Errorf("Markdown report: %d characters, want < 32,767", n)
				if os.Getenv("SCALE_DUMP") != "" {
					_ = os.WriteFile(os.Getenv("SCALE_DUMP")+"/"+tc.shape+".md", md.Bytes(), 0o644)
				}
			}
			if tc.shape == "deadnodepods" || tc.shape == "orderedpods" {
				// one command for the group of pods, never one per pod
				if n := strings.Count(text.String(), " pod job-") + strings.Count(text.String(), " pods job-"); n > 0 {
					t.Errorf("the text report holds %d commands naming one pod, want one loop for the group", n)
				}
				if !strings.Contains(text.String(), "while read -r o; do kubectl -n batch ") {
					t.Errorf("the text report holds no loop for the group of pods")
				}
				if !strings.Contains(text.String(), findings.Count(tc.n)+" Pods") {
					t.Errorf("the report does not name the group of %s Pods", findings.Count(tc.n))
				}
			}
			if tc.shape == "finalizers" {
				objs := 0
				for _, ns := range rep.Namespaces {
					for _, c := range ns.Causes {
						objs += len(c.Objects)
					}
				}
				if objs != tc.n {
					t.Errorf("the JSON report carries %d objects, want every one of the %d", objs, tc.n)
				}
				if !strings.Contains(rep.Summary, findings.Count(tc.n)+" PipelineRuns (tekton.dev)") {
					t.Errorf("summary does not name the group: %s", rep.Summary)
				}
				patches := strings.Count(text.String(), "patch")
				if patches > 3 {
					t.Errorf("the text report holds %d patch commands, want one for the group", patches)
				}
			}
		})
	}
}

// TestScaleHTML holds the HTML page usable at scale (issue 22): bounded in size
// whatever the shape's n, at most 8 problem sections, similar problems folded into a
// collapsed <details> list, every capped list ending in "… and N more", every
// <details> closed.
func TestScaleHTML(t *testing.T) {
	cases := []struct {
		shape string
		n     int
		more  []string // what the page must say: "… and N more X" lines, group lines
	}{
		{"finalizers", 10000, []string{"PipelineRuns (tekton.dev) finalizers=tekton.dev/pipelineRun"}},
		{"crds", 2000, []string{"more objects", "more timeline entries"}},
		{"namespaces", 500, []string{"more namespaces"}},
		{"apiservices", 200, []string{"99 more similar problems"}},
		{"backendpods", 2000, nil},
		{"events", 2000, nil},
	}
	if testing.Short() {
		cases[0].n = 2500
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s-%d", tc.shape, tc.n), func(t *testing.T) {
			rec, _ := loadShape(t, tc.shape, tc.n)
			rep := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
			var b bytes.Buffer
			if err := render.Render(&b, rep, "html"); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			if b.Len() > 256<<10 {
				t.Errorf("HTML page: %d bytes, want at most 256 KiB", b.Len())
			}
			if n := strings.Count(page, `<section class="problem"`); n > 8 || n < 1 {
				t.Errorf("%d problem sections, want 1 to 8", n)
			}
			if o, c := strings.Count(page, "<details"), strings.Count(page, "</details>"); o != c {
				t.Errorf("%d <details> opened, %d closed", o, c)
			}
			for _, m := range tc.more {
				if !strings.Contains(page, m) {
					t.Errorf("the page does not say %q", m)
				}
			}
			if len(rep.Problems) > 5 {
				folded := strings.Count(page, `<details class="similar">`)
				if folded == 0 {
					t.Errorf("%d problems and no folded list of similar problems", len(rep.Problems))
				}
				i := strings.Index(page, `<details class="similar">`)
				j := strings.Index(page[i:], "</details>")
				if items := strings.Count(page[i:i+j], "<li"); items > 101 {
					t.Errorf("the folded list holds %d entries, want at most 100 and the more line", items)
				}
			}
		})
	}
}

// TestActiveNamespacesHeld: Active namespaces that hold nothing a rule reads cost a
// name each, not a whole object (issue 32 item 6: a million within 250 MB). The heap
// the records and the analyzer's index hold after reading 2n of them exceeds what they
// hold after n by under heldPerNamespace bytes a namespace (kept whole, each cost
// about 1,300: an *Object, its labels map, its field lines and its index entries).
// The work of reading and analysing them is held linear by TestScaleWorkLinear's
// activenamespaces shape.
func TestActiveNamespacesHeld(t *testing.T) {
	held := func(n int) uint64 {
		rec, _ := loadShape(t, "activenamespaces", n)
		ix := index.New(rec, analyzer.Collectors(rules.All))
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(rec)
		runtime.KeepAlive(ix)
		return m.HeapAlloc
	}
	n := 20000
	held(n / 4) // one-time set-up (compiled patterns, tables) paid before measuring
	h1, h2 := held(n), held(2*n)
	per := (float64(h2) - float64(h1)) / float64(n)
	t.Logf("heap held: %d KB at n=%d, %d KB at 2n: %.0f bytes a namespace", h1>>10, n, h2>>10, per)
	if per > heldPerNamespace {
		t.Errorf("each Active namespace holds %.0f bytes of heap, want at most %d (a million within 250 MB)", per, heldPerNamespace)
	}
}

// heldPerNamespace bounds the heap an Active namespace holds: its row, its name and its
// entry in the index's map.
const heldPerNamespace = 160
