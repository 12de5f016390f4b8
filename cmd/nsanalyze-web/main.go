//go:build js && wasm

// Command nsanalyze-web is nsanalyze compiled to WebAssembly for its offline page
// (`make web` builds bin/nsanalyze.html; docs/web.md). It registers
// nsanalyzeRun(files, options), that reads the files as one bundle and returns the
// HTML report, and nsanalyzeRender(format), that writes the last one's report in
// another format, and calls nsanalyzeReady() when it is there. The reading, the analysis and
// the rendering are the command's own (cmd/internal/web, cmd/internal/pipeline).
package main

import (
	"fmt"
	"runtime/debug"
	"strings"
	"syscall/js"
	"time"

	"github.com/nsanalyze/nsanalyze/cmd/internal/web"
)

func main() {
	debug.SetMemoryLimit(256 << 20) // as the command: the collector works harder near it
	js.Global().Set("nsanalyzeRun", js.FuncOf(run))
	js.Global().Set("nsanalyzeRender", js.FuncOf(renderLast))
	w := web.Analyze([]web.File{{Name: web.PasteName, Data: []byte(warmUp)}}, web.Options{})
	for _, f := range web.Formats {
		_, _ = w.Render(f) // (compiles the renderers too)
	}
	if ready := js.Global().Get("nsanalyzeReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// warmUp is a small ticket analysed once before the page is told the analyser is
// ready: the browser compiles a WebAssembly function when it is first called, and the
// first analysis would otherwise pay for compiling most of nsanalyze (seconds).
const warmUp = `$ kubectl get ns
NAME   STATUS        AGE
shop   Terminating   3d
$ kubectl get ns shop -o json
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"shop","creationTimestamp":"2026-01-01T00:00:00Z","deletionTimestamp":"2026-01-02T00:00:00Z"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"True","lastTransitionTime":"2026-01-02T00:00:05Z","reason":"DiscoveryFailed","message":"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request"}]}}
E0102 00:00:10.000000       1 namespace_controller.go:162] "Unhandled Error" err="deletion of namespace shop failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request"
$ kubectl describe ns shop
Name:         shop
Labels:       kubernetes.io/metadata.name=shop
Status:       Terminating
`

// last is the last input's result, whose reports nsanalyzeRender writes.
var last *web.Result

// renderLast is nsanalyzeRender(format): the last input's report in format ("json",
// "markdown", "text", "html"), as {text} or {error}.
func renderLast(_ js.Value, args []js.Value) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = map[string]any{"error": fmt.Sprintf("nsanalyze failed: %v", r)}
		}
	}()
	if last == nil || len(args) < 1 || args[0].Type() != js.TypeString {
		return map[string]any{"error": "no report to write"}
	}
	b, err := last.Render(args[0].String())
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"text": string(b)}
}

// run is nsanalyzeRun(files, options): files is an array of {name: string, data:
// Uint8Array, lastModified: ms since 1970 (optional)}, options {redact: bool, namespaces: string (comma-separated)}.
func run(_ js.Value, args []js.Value) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = map[string]any{"exitCode": 2, "error": fmt.Sprintf("nsanalyze failed: %v", r)}
		}
	}()
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return map[string]any{"exitCode": 2, "error": "nsanalyzeRun(files, options): no files"}
	}
	var files []web.File
	for i, n := 0, args[0].Length(); i < n; i++ {
		f := args[0].Index(i)
		data := f.Get("data")
		b := make([]byte, data.Get("length").Int())
		js.CopyBytesToGo(b, data)
		wf := web.File{Name: f.Get("name").String(), Data: b}
		if mt := f.Get("lastModified"); mt.Type() == js.TypeNumber {
			wf.ModTime = time.UnixMilli(int64(mt.Float()))
		}
		files = append(files, wf)
	}
	var o web.Options
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		o.Redact = args[1].Get("redact").Truthy()
		if ns := args[1].Get("namespaces"); ns.Type() == js.TypeString {
			for _, n := range strings.Split(ns.String(), ",") {
				if n = strings.TrimSpace(n); n != "" {
					o.Namespaces = append(o.Namespaces, n)
				}
			}
		}
	}
	last = nil // (its memory is free for this input)
	res := web.Analyze(files, o)
	last = &res
	notes := make([]any, len(res.Notes))
	for i, n := range res.Notes {
		notes[i] = n
	}
	return map[string]any{
		"name": res.Name, "state": res.State, "summary": res.Summary, "exitCode": res.ExitCode,
		"html":  string(res.HTML),
		"error": res.Error, "notes": notes, "elapsedMs": res.Elapsed.Milliseconds(),
		"readMs": res.ReadTime.Milliseconds(), "analysisMs": res.AnalysisTime.Milliseconds(), "renderMs": res.RenderTime.Milliseconds(),
	}
}
