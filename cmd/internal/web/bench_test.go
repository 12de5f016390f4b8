package web

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
	"github.com/nsanalyze/nsanalyze/fixtures/browser"
)

// BenchmarkPage measures the offline page in headless Chromium (the budgets of issue
// 35): how long after navigation the page is interactive (DOM ready, ms-dom) and the
// analyser is loaded (ms-ready: the WebAssembly module compiled, its worker started);
// how long a pasted real ticket takes to answer (ms-paste; of which nsanalyze's reading,
// analysis and reports: ms-paste-analysis; the same ticket again: ms-paste-again); how long a generated 50 MB
// bundle (cmd/genbundle, full mix), dropped as a .tar.gz, takes (ms-50MB; of which
// nsanalyze's reading, analysis and reports, ms-50MB-go-read, -go-analyse, -go-render, and the
// worker's whole call with the copies in and out, ms-50MB-worker); the processor time
// Chromium used for each (cpu-ms-ready, -paste, -50MB), which load on the machine
// hardly changes; and the size of the module (bytes-wasm). Run it alone on an idle
// machine:
//
//	go test ./cmd/internal/web -run '^$' -bench Page -benchtime 1x
func BenchmarkPage(b *testing.B) {
	bin := browser.Find()
	if bin == "" {
		b.Skip("SKIP: no chromium found (install Debian's \"chromium\" package or set NSANALYZE_CHROMIUM)")
	}
	dir := b.TempDir()
	pagePath, size := buildPage(b, dir)
	genDir := filepath.Join(dir, "bundle-50MB")
	if _, err := gen.Generate(gen.Config{Out: genDir, Size: 50 << 20, Seed: 1, Mix: "full"}); err != nil {
		b.Fatal(err)
	}
	archive := filepath.Join(dir, "bundle-50MB.tar.gz")
	tarGz(b, genDir, archive)
	st, _ := os.Stat(archive)
	ticket, err := os.ReadFile(filepath.Join("..", "..", "..", "fixtures", "realworld", "gke-autopilot-129-numeric-namespace-names-table", "cloudshell.txt"))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var dom, ready, paste, pasteGo, again, big, bigGo, cpuReady, cpuPaste, cpuBig time.Duration
	var phases [4]time.Duration
	for i := 0; i < b.N; i++ {
		p, _ := openPage(b, bin, pagePath, "#watchdog=600", "")
		ready += p.waitFor(b, "the analyser is ready", `document.body.dataset.ready === "true"`, 5*time.Minute)
		cpu := p.CPUTime()
		cpuReady += cpu
		var ms float64
		if err := p.Eval(`performance.getEntriesByType("navigation")[0].domInteractive`, &ms); err != nil {
			b.Fatal(err)
		}
		dom += time.Duration(ms * float64(time.Millisecond))
		p.eval(`document.getElementById("paste").value = ` + strconv.Quote(string(ticket)) + `; document.getElementById("analyse-paste").click()`)
		p.waitFor(b, "the ticket answered", `document.body.dataset.busy === "false" && document.body.dataset.exitCode !== undefined`, 5*time.Minute)
		paste += elapsed(b, p)
		pasteGo += analysis(b, p)
		cpuPaste += p.CPUTime() - cpu
		p.eval(`delete document.body.dataset.exitCode`)
		p.eval(`document.getElementById("analyse-paste").click()`)
		p.waitFor(b, "the ticket answered again", `document.body.dataset.busy === "false" && document.body.dataset.exitCode !== undefined`, 5*time.Minute)
		again += elapsed(b, p)
		p.eval(`delete document.body.dataset.exitCode`)
		cpu = p.CPUTime()
		p.drop(b, archive)
		p.waitFor(b, "the 50 MB bundle answered", `document.body.dataset.busy === "false" && document.body.dataset.exitCode !== undefined`, 10*time.Minute)
		if code := p.evalString(`document.body.dataset.exitCode`); code == "2" {
			b.Fatalf("the 50 MB bundle was not analysed: %s", p.evalString(`document.getElementById("error").textContent`))
		}
		cpuBig += p.CPUTime() - cpu
		big += elapsed(b, p)
		bigGo += analysis(b, p)
		for k, f := range strings.Fields(p.evalString(`document.body.dataset.phasesMs`)) {
			ms, err := strconv.Atoi(f)
			if err != nil || k >= len(phases) {
				b.Fatalf("phases %q", p.evalString(`document.body.dataset.phasesMs`))
			}
			phases[k] += time.Duration(ms) * time.Millisecond
		}
		p.Close()
	}
	n := float64(b.N)
	b.ReportMetric(float64(dom.Milliseconds())/n, "ms-dom")
	b.ReportMetric(float64(ready.Milliseconds())/n, "ms-ready")
	b.ReportMetric(float64(paste.Milliseconds())/n, "ms-paste")
	b.ReportMetric(float64(pasteGo.Milliseconds())/n, "ms-paste-analysis")
	b.ReportMetric(float64(again.Milliseconds())/n, "ms-paste-again")
	b.ReportMetric(float64(bigGo.Milliseconds())/n, "ms-50MB-analysis")
	b.ReportMetric(float64(big.Milliseconds())/n, "ms-50MB")
	for k, name := range []string{"go-read", "go-analyse", "go-render", "worker"} {
		b.ReportMetric(float64(phases[k].Milliseconds())/n, "ms-50MB-"+name)
	}
	// the processor time Chromium used (all its processes), which a busy machine
	// hardly changes: the page's own cost where the times above are inflated by load
	b.ReportMetric(float64(cpuReady.Milliseconds())/n, "cpu-ms-ready")
	b.ReportMetric(float64(cpuPaste.Milliseconds())/n, "cpu-ms-paste")
	b.ReportMetric(float64(cpuBig.Milliseconds())/n, "cpu-ms-50MB")
	b.ReportMetric(float64(size), "bytes-wasm")
	b.ReportMetric(float64(st.Size()), "bytes-50MB.tar.gz")
}

// analysis is how long nsanalyze itself took on the page's last input (in the worker:
// reading, analysis and the four reports).
func analysis(b *testing.B, p page) time.Duration {
	ms, err := strconv.Atoi(p.evalString(`document.body.dataset.analysisMs`))
	if err != nil {
		b.Fatal(err)
	}
	return time.Duration(ms) * time.Millisecond
}

// elapsed is how long the page's last input took, from the worker being asked (the
// files read by the browser) to the report shown.
func elapsed(b *testing.B, p page) time.Duration {
	ms, err := strconv.Atoi(p.evalString(`document.body.dataset.elapsed`))
	if err != nil {
		b.Fatal(err)
	}
	return time.Duration(ms) * time.Millisecond
}
