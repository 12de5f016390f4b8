//go:build !race

package main

// raceSlowdown scales the time limits of tests that time the whole command (1 without
// the race detector).
const raceSlowdown = 1
