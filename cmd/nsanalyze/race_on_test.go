//go:build race

package main

// raceSlowdown scales the time limits of tests that time the whole command: the race
// detector makes Go code 2 to 20 times slower.
const raceSlowdown = 10
