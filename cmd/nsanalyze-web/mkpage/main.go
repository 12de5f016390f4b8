// Command mkpage writes nsanalyze's offline page (`make web`): one HTML file that holds
// the WebAssembly module of cmd/nsanalyze-web and Go's wasm_exec.js.
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o bin/nsanalyze-web.wasm ./cmd/nsanalyze-web
//	go run ./cmd/nsanalyze-web/mkpage -wasm bin/nsanalyze-web.wasm -o bin/nsanalyze.html
package main

import (
	"flag"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"

	"github.com/nsanalyze/nsanalyze/cmd/internal/web"
)

func main() {
	wasm := flag.String("wasm", "bin/nsanalyze-web.wasm", "the WebAssembly module of cmd/nsanalyze-web")
	exec := flag.String("wasm-exec", "", "Go's wasm_exec.js, of the Go that built the module (default: $(go env GOROOT)/lib/wasm/wasm_exec.js)")
	out := flag.String("o", "bin/nsanalyze.html", "the page to write")
	flag.Parse()
	if *exec == "" {
		root, err := osexec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: go env GOROOT: %v (give -wasm-exec)\n", err)
			os.Exit(1)
		}
		*exec = filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js")
	}
	if err := run(*wasm, *exec, *out); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run(wasmPath, execPath, out string) error {
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	exec, err := os.ReadFile(execPath)
	if err != nil {
		return err
	}
	page, err := web.Page(wasm, exec)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, page, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%s: %d bytes (WebAssembly module %d bytes)\n", out, len(page), len(wasm))
	return nil
}
