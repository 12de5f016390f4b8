// Package work counts the operations of the analysis' inner loops (elements compared
// in a linear search, sort comparisons, automaton steps, names validated, strings
// walked, log lines parsed) for the tests that hold the analysis linear by counting
// work (issue 22): allocation counts miss work that allocates nothing, such as a
// search of a growing list for every object.
//
// Counting is off unless a test turns it on (Measure): then Add is one atomic load.
package work

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Counter is one kind of operation.
type Counter struct {
	name string
	n    atomic.Int64
}

var (
	on       atomic.Bool
	mu       sync.Mutex // Measure, and the registry
	counters []*Counter
)

// New registers a counter (at package initialisation).
func New(name string) *Counter {
	c := &Counter{name: name}
	mu.Lock()
	counters = append(counters, c)
	mu.Unlock()
	return c
}

// Add counts n operations while a Measure runs.
func (c *Counter) Add(n int) {
	if on.Load() {
		c.n.Add(int64(n))
	}
}

// Inc counts one operation while a Measure runs.
func (c *Counter) Inc() {
	if on.Load() {
		c.n.Add(1)
	}
}

// Enabled reports whether a Measure runs (to skip the counting of a loop's length).
func Enabled() bool { return on.Load() }

// Measure runs f with counting on and returns each counter's operations (counters
// that counted none are left out). Measures do not overlap; work done meanwhile by
// other goroutines is counted too.
func Measure(f func()) map[string]int64 {
	mu.Lock()
	defer mu.Unlock()
	for _, c := range counters {
		c.n.Store(0)
	}
	on.Store(true)
	func() {
		defer on.Store(false)
		f()
	}()
	out := map[string]int64{}
	for _, c := range counters {
		if n := c.n.Load(); n > 0 {
			out[c.name] += n
		}
	}
	return out
}

// Names lists the registered counters' names, sorted, once each (counters of one name,
// registered by several packages, count together in Measure).
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for _, c := range counters {
		out = append(out, c.name)
	}
	sort.Strings(out)
	return slices.Compact(out)
}
