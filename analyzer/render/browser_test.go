package render

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromiumPath finds a headless-capable Chromium: $NSANALYZE_CHROMIUM, then the usual
// names (Debian's package is "chromium").
func chromiumPath() string {
	if p := os.Getenv("NSANALYZE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runChromium runs a headless Chromium with a fresh profile and no background traffic.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, stderr.String())
	}
	return stdout.Bytes()
}

// TestHTMLInBrowser loads the HTML report of each real fixture in headless Chromium,
// checks on the DOM the browser built that the key elements are there (summary, one
// section per namespace, a causal-chain diagram per cause, the timeline plot with the
// deletion line and error marks, the remediation ladder) and takes a screenshot.
// It skips, saying why, when no Chromium is installed (Debian: apt-get install chromium).
func TestHTMLInBrowser(t *testing.T) {
	bin := chromiumPath()
	if bin == "" {
		t.Skip("SKIP browser test: no chromium found (install Debian's \"chromium\" package or set NSANALYZE_CHROMIUM)")
	}
	shots := os.Getenv("NSANALYZE_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	}
	for _, b := range formatBundles[:3] {
		t.Run(b, func(t *testing.T) {
			t.Parallel()
			r := fixtureReport(t, b)
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			if err := os.WriteFile(page, render(t, r, "html", Options{}), 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + filepath.ToSlash(page)
			dom := string(runChromium(t, bin, "--dump-dom", url))
			count := func(re string) int { return len(regexp.MustCompile(re).FindAllStringIndex(dom, -1)) }
			if !strings.Contains(dom, `<section id="summary">`) || count(`<table class="summary">`) != 1 {
				t.Errorf("summary missing from the DOM")
			}
			if got := count(`<section class="namespace"`); got != len(r.Namespaces) {
				t.Errorf("%d namespace sections in the DOM, want %d", got, len(r.Namespaces))
			}
			causes, steps, errors := 0, 0, 0
			for _, ns := range r.Namespaces {
				causes += len(ns.Causes)
				steps += len(ns.Remediation)
				for _, e := range ns.Timeline {
					if e.Kind == "error" {
						errors++
					}
				}
				if !strings.Contains(dom, `data-namespace="`+ns.Name+`"`) {
					t.Errorf("no section for namespace %s", ns.Name)
				}
			}
			if got := count(`<svg class="chain"`); got != causes {
				t.Errorf("%d causal-chain diagrams, want one per cause (%d)", got, causes)
			}
			if got := count(`<svg class="timeline"`); got != len(r.Namespaces) {
				t.Errorf("%d timeline plots, want %d", got, len(r.Namespaces))
			}
			if got := count(`<g class="deletionline">`); got != len(r.Namespaces) {
				t.Errorf("%d deletion lines in the plots, want %d", got, len(r.Namespaces))
			}
			if errors > 0 && count(`<g class="mark error">`) == 0 {
				t.Errorf("the timeline has %d error events but the plot shows no error mark", errors)
			}
			if count(`<g class="mark condition">`) == 0 {
				t.Errorf("no condition transition in the plot")
			}
			if got := count(`<span class="badge risk-`); got != steps {
				t.Errorf("%d remediation steps in the DOM, want %d", got, steps)
			}
			shot := filepath.Join(shots, strings.ReplaceAll(b, "/", "_")+".png")
			runChromium(t, bin, "--hide-scrollbars", "--window-size=1200,2000", "--screenshot="+shot, url)
			f, err := os.Open(shot)
			if err != nil {
				t.Fatalf("no screenshot: %v", err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("screenshot is not a PNG: %v", err)
			}
			// a blank page is one colour; the report has text, tables and coloured diagrams
			colours := map[uint32]bool{}
			bounds := img.Bounds()
			for y := bounds.Min.Y; y < bounds.Max.Y; y += 7 {
				for x := bounds.Min.X; x < bounds.Max.X; x += 7 {
					r, g, b, _ := img.At(x, y).RGBA()
					colours[r>>11<<10|g>>11<<5|b>>11] = true
				}
			}
			if len(colours) < 8 {
				t.Errorf("screenshot looks blank (%d colours)", len(colours))
			}
			t.Logf("screenshot: %s (%dx%d)", shot, bounds.Dx(), bounds.Dy())
		})
	}
}

// TestHTMLSelfContained checks that the page loads nothing from outside itself: no
// script, stylesheet link, image source, @import or url() other than fragments.
func TestHTMLSelfContained(t *testing.T) {
	bad := regexp.MustCompile(`(?i)<script|<link\b|<img\b|<iframe|<object|<embed|\bsrc\s*=|@import|url\(\s*['"]?[a-z]+:|<use\b[^>]*href="[^#]|xlink:href="[^#]|@font-face`)
	for _, b := range formatBundles {
		t.Run(b, func(t *testing.T) {
			page := render(t, fixtureReport(t, b), "html", Options{})
			if m := bad.Find(page); m != nil {
				t.Errorf("the HTML report refers to something outside itself: %q", m)
			}
			if !bytes.Contains(page, []byte(`Content-Security-Policy" content="default-src 'none'`)) {
				t.Error("no Content-Security-Policy forbidding outside resources")
			}
		})
	}
}
