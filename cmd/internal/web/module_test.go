package web

import "testing"

// maxModuleBytes is the WebAssembly module's budget: under 15 MB (docs/web.md).
const maxModuleBytes = 15_000_000

// TestModuleSize holds the module under its budget. Its size is what the linker writes,
// the same on every machine with this Go, so unlike the page's timings (BenchmarkPage)
// it is a test: a dependency that grows the module past the cap fails here, not in a
// benchmark nobody reads.
func TestModuleSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly module (not under -short)")
	}
	_, size := buildPage(t, t.TempDir())
	t.Logf("module: %d bytes (budget %d)", size, maxModuleBytes)
	if size >= maxModuleBytes {
		t.Errorf("the WebAssembly module is %d bytes, over its budget of %d: weigh what the last change linked in (GOOS=js GOARCH=wasm go list -deps ./cmd/nsanalyze-web)", size, maxModuleBytes)
	}
}
