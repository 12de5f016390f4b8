package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
)

var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
	//go:embed worker.js
	workerJS string
)

// Page returns the offline page: one self-contained HTML file holding the analyser
// (wasm, the WebAssembly module of cmd/nsanalyze-web, gzip-compressed, in base64), Go's wasm_exec.js
// (wasmExec, from $(go env GOROOT)/lib/wasm) and the page's script, under a
// Content-Security-Policy that lets it load nothing and connect nowhere: CSP returns it.
func Page(wasm, wasmExec []byte) ([]byte, error) {
	if !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	worker := string(wasmExec) + "\n" + workerJS
	for name, s := range map[string]string{"wasm_exec.js and worker.js": worker, "page.js": pageJS, "page.css": pageCSS} {
		// a data block or script ends at the first "</script" (case-insensitive)
		if strings.Contains(strings.ToLower(s), "</script") || strings.Contains(strings.ToLower(s), "</style") {
			return nil, fmt.Errorf("%s holds an end tag and cannot be inlined", name)
		}
	}
	reportCSS, err := reportStyle()
	if err != nil {
		return nil, err
	}
	// gzip: a third of the size, so the browser parses a third of the base64 text; the
	// page inflates it with the browser's own DecompressionStream
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(wasm); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	csp := CSP(pageJS, pageCSS, reportCSS)
	r := strings.NewReplacer("{{CSP}}", csp, "{{STYLE}}", pageCSS, "{{SCRIPT}}", pageJS,
		"{{WORKER}}", worker, "{{WASM}}", base64.StdEncoding.EncodeToString(gz.Bytes()))
	return []byte(r.Replace(pageHTML)), nil
}

// CSP is the page's Content-Security-Policy: nothing is loaded or connected to
// (default-src, connect-src 'none'); the one inline script runs by its hash, the
// WebAssembly module is compiled from its bytes ('wasm-unsafe-eval') in a worker made
// from the page's own text (worker-src blob:); the page's style and the report's (shown
// in a sandboxed frame that inherits the policy) are allowed by their hashes.
func CSP(script string, styles ...string) string {
	var style []string
	for _, s := range styles {
		style = append(style, hash(s))
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + hash(script) + " 'wasm-unsafe-eval'",
		"worker-src blob:",
		"style-src " + strings.Join(style, " "),
		"connect-src 'none'",
		"img-src 'none'",
		"font-src 'none'",
		"frame-src 'none'",
		"form-action 'none'",
		"base-uri 'none'",
	}, "; ")
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

var styleRE = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

// reportStyle is the text of the HTML report's <style> element, the same in every report.
func reportStyle() (string, error) {
	var b bytes.Buffer
	if err := render.HTML(&b, &findings.Report{}); err != nil {
		return "", fmt.Errorf("cannot render an empty report: %v", err)
	}
	m := styleRE.FindAllSubmatch(b.Bytes(), -1)
	if len(m) != 1 {
		return "", fmt.Errorf("the HTML report holds %d <style> elements, want 1", len(m))
	}
	return string(m[0][1]), nil
}
