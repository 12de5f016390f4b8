//go:build race

package bundle

// raceSlowdown scales the default decompression time budget in race-detector builds,
// which decompress 5 to 20 times slower: the tests must see the same cuts.
const raceSlowdown = 20
