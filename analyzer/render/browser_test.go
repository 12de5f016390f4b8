package render

import (
	"bytes"
	"context"
	"errors"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/browser"
	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// chromiumPath finds a headless-capable Chromium (fixtures/browser.Find, the page's
// test uses the same).
func chromiumPath() string { return browser.Find() }

func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostile.HangCap(90*time.Second))
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
		"--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}
	var stdout, stderr bytes.Buffer
	var err error
	// Chromium itself sometimes dies of a signal on a loaded machine: a crash of the
	// browser (not a failed check) is retried twice, then fails the test.
	for try := 0; try < 3; try++ {
		stdout.Reset()
		stderr.Reset()
		cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if err == nil || !errors.As(err, &ee) || ee.ProcessState == nil || !strings.Contains(ee.ProcessState.String(), "signal") || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
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
	bundles := formatBundles[:3]
	if testing.Short() {
		bundles = bundles[:1] // -short: one page (each Chromium run costs about a CPU-second)
	}
	for _, b := range bundles {
		t.Run(b, func(t *testing.T) {
			r := fixtureReport(t, b)
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			if err := os.WriteFile(page, render(t, r, "html", Options{}), 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + filepath.ToSlash(page)
			dom := string(runChromium(t, bin, "--dump-dom", url))
			count := func(re string) int { return len(regexp.MustCompile(re).FindAllStringIndex(dom, -1)) }
			if !strings.Contains(dom, `<section id="summary">`) {
				t.Errorf("summary missing from the DOM")
			}
			if got := count(`<section class="problem"`); got != len(r.Problems) {
				t.Errorf("%d problem sections in the DOM, want %d", got, len(r.Problems))
			}
			steps, errors := 0, 0
			for _, p := range r.Problems {
				steps += len(p.Remediation)
				for _, pn := range p.Namespaces {
					if !strings.Contains(dom, `data-namespace="`+pn.Name+`"`) {
						t.Errorf("no section for namespace %s", pn.Name)
					}
				}
				if len(p.Namespaces) > 0 {
					for _, e := range r.Namespaces {
						if e.Name == p.Namespaces[0].Name {
							for _, ev := range e.Timeline {
								if ev.Kind == "error" {
									errors++
								}
							}
						}
					}
				}
			}
			if got := count(`<ol class="chain"`); got != len(r.Problems) {
				t.Errorf("%d causal-chain diagrams, want one per problem (%d)", got, len(r.Problems))
			}
			if got := count(`<svg class="timeline"`); got != len(r.Problems) {
				t.Errorf("%d timeline plots, want %d", got, len(r.Problems))
			}
			if errors > 0 && count(`<g class="mark error">`) == 0 {
				t.Errorf("the timeline has %d error events but the plot shows no error mark", errors)
			}
			if got := count(`<ol class="ladder">\s*<li><span class="badge risk-`); got != len(r.Problems) {
				t.Errorf("%d remediation ladders in the DOM, want %d", got, len(r.Problems))
			}
			if got := count(`<ol class="ladder">`); steps > 0 && got == 0 {
				t.Errorf("no ladder in the DOM")
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

// fitScript measures, in the browser, what does not fit: horizontal scrolling of the
// page, a table wider than its container (a table in its scrolling wrapper: the wrapper
// wider than its container), cell text broken inside a word (a line break between two
// letters or digits, outside the commands' <pre> blocks), a chain box whose text is cut or that leaves
// the diagram, and SVG text outside its drawing (a clipped timeline label). It writes
// its findings (or OK) into <pre id="fit-result">.
const fitScript = `<script>
(function(){
var out=[];
var de=document.documentElement;
if (de.scrollWidth > de.clientWidth+1) out.push("page scrolls horizontally: "+de.scrollWidth+" > "+de.clientWidth);
document.querySelectorAll("table").forEach(function(t,i){var box=t.parentElement;
 if (box.className==="tablewrap") { if (getComputedStyle(box).overflowX!=="auto") out.push("table "+(t.className||i)+": its wrapper does not scroll"); box=box.parentElement; t=t.parentElement; }
 var p=box.getBoundingClientRect(),r=t.getBoundingClientRect();
 if (r.right > p.right+1) out.push("table "+(t.className||i)+" overflows its container by "+Math.round(r.right-p.right)+"px");});
var alnum=/[A-Za-z0-9]/;
document.querySelectorAll("td, th").forEach(function(cell){
 var walk=document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), n, prev=null, rng=document.createRange();
 while ((n=walk.nextNode())) {
  prev=null; // within one text node: a <br> or an element's edge may start a line
  if (n.parentElement.closest("pre")) continue;
  for (var k=0;k<n.length;k++) {
   rng.setStart(n,k); rng.setEnd(n,k+1); var rs=rng.getClientRects(); if (!rs.length) continue;
   var c={ch:n.data[k], r:rs[0], text:n.data};
   if (prev && c.r.top >= prev.r.bottom-2 && alnum.test(prev.ch) && alnum.test(c.ch))
    out.push("cell text broken inside a word: "+JSON.stringify(n.data.slice(Math.max(0,k-20),k)+"|"+n.data.slice(k,k+20)));
   prev=c;
  }
 }
});
document.querySelectorAll("ol.chain > li").forEach(function(b){var p=b.parentElement.getBoundingClientRect(),r=b.getBoundingClientRect();
 if (b.scrollWidth > b.clientWidth+1) out.push("chain box cut: "+b.textContent.slice(0,80));
 if (r.right > p.right+1 || r.left < p.left-1) out.push("chain box outside its diagram: "+b.textContent.slice(0,80));});
document.querySelectorAll("svg").forEach(function(s){var vb=s.viewBox&&s.viewBox.baseVal; if(!vb||!vb.width) return;
 var r=s.getBoundingClientRect(),p=s.parentElement.getBoundingClientRect();
 if (r.right > p.right+1) out.push("svg wider than its container: "+Math.round(r.width)+" > "+Math.round(p.width));
 s.querySelectorAll("text").forEach(function(tx){var bb=tx.getBBox();
  if (bb.x < vb.x-0.5 || bb.x+bb.width > vb.x+vb.width+0.5 || bb.y < vb.y-0.5 || bb.y+bb.height > vb.y+vb.height+0.5)
   out.push("svg text clipped: "+tx.textContent.slice(0,80)+" (x "+bb.x.toFixed(1)+", width "+bb.width.toFixed(1)+", drawing "+vb.width+")");});});
var d=document.createElement("pre"); d.id="fit-result"; d.textContent=out.length?out.join("\n"):"OK"; document.body.appendChild(d);
})();
</script>`

// twoProblemsBundle holds two independent problems (shown apart in every format).
const twoProblemsBundle = "realworld/microk8s-keda-external-metrics-and-scaledobject-finalizer"

var fitResult = regexp.MustCompile(`(?s)<pre id="fit-result">(.*?)</pre>`)

// TestHTMLFits loads the HTML report of the golden fixtures, the 33-namespace one and
// one with two independent problems in headless Chromium at 700, 1280 and 1400 pixels
// wide, and fails on horizontal overflow of the page or a table, table cells whose text
// breaks inside a word, cut chain boxes and clipped
// timeline labels (measured by fitScript in a copy of the page that allows it).
func TestHTMLFits(t *testing.T) {
	bin := chromiumPath()
	if bin == "" {
		t.Skip("SKIP browser test: no chromium found (install Debian's \"chromium\" package or set NSANALYZE_CHROMIUM)")
	}
	bundles := append(append([]string{}, formatBundles...), "handmade/many-namespaces-one-apiservice", twoProblemsBundle)
	if testing.Short() {
		bundles = []string{"handmade/many-namespaces-one-apiservice"} // -short: the widest page; all in make test-long
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`)
	for _, b := range bundles {
		t.Run(b, func(t *testing.T) {
			page := render(t, fixtureReport(t, b), "html", Options{})
			page = csp.ReplaceAll(page, nil)
			page = bytes.Replace(page, []byte("</body>"), []byte(fitScript+"</body>"), 1)
			dir := t.TempDir()
			file := filepath.Join(dir, "report.html")
			if err := os.WriteFile(file, page, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, width := range []string{"700", "1280", "1400"} {
				dom := string(runChromium(t, bin, "--window-size="+width+",1200", "--dump-dom", "file://"+filepath.ToSlash(file)))
				m := fitResult.FindStringSubmatch(dom)
				if m == nil {
					t.Fatalf("width %s: the measuring script wrote no result", width)
				}
				if res := html.UnescapeString(m[1]); res != "OK" {
					t.Errorf("width %s px: the page does not fit:\n%s", width, res)
				}
			}
		})
	}
}
