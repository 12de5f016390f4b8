package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfile starts the profile kubectl's --profile names (none, cpu or heap) into
// path and returns the function that completes it. The file is created at once, so a
// wrong path fails before the bundle is read.
func startProfile(kind, path string) (stop func() error, err error) {
	noop := func() error { return nil }
	switch kind {
	case "", "none":
		return noop, nil
	case "cpu", "heap":
	default:
		return nil, fmt.Errorf("unknown --profile %q (want none, cpu or heap)", kind)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--profile-output: %w", err)
	}
	if kind == "cpu" {
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--profile cpu: %w", err)
		}
		return func() error {
			pprof.StopCPUProfile()
			return f.Close()
		}, nil
	}
	return func() error {
		runtime.GC() // the heap profile shows live objects as of the last GC
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}, nil
}
