//go:build !race

package bundle

// raceSlowdown scales the default decompression time budget (see race_on.go).
const raceSlowdown = 1
