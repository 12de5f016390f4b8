//go:build !linux

package bundle

import "time"

// threadCPU cannot read a thread's CPU time here: the decompressors' wall time counts.
func threadCPU() (time.Duration, bool) { return 0, false }
