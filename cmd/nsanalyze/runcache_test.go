package main

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
)

// Several tests of this package analyse the same committed fixture bundles with the same
// arguments (TestFixtures, TestFingerprintsAcrossBundles, the undamaged side of
// TestMetamorphicFixtures, TestPasteFixtures, ...). run's output depends only on its
// arguments and the files they name, and no test writes under fixtures/, so each
// argument list is run once per test binary and its result shared: the tests keep every
// assertion and the package analyses each fixture once instead of once per test.

type cachedRun struct {
	once           sync.Once
	code           int
	stdout, stderr []byte
}

var runCache sync.Map // the arguments joined by NUL -> *cachedRun

// runFixture runs nsanalyze with args once per test binary and returns its exit code,
// stdout and stderr. Callers must not modify the returned slices. Use it only for
// arguments that name committed files (fixtures/), never a test's temporary directory.
func runFixture(args ...string) (int, []byte, []byte) {
	v, _ := runCache.LoadOrStore(strings.Join(args, "\x00"), &cachedRun{})
	c := v.(*cachedRun)
	c.once.Do(func() {
		var out, errb bytes.Buffer
		c.code = run(args, &out, &errb)
		c.stdout, c.stderr = out.Bytes(), errb.Bytes()
	})
	return c.code, c.stdout, c.stderr
}

// fixtureArgs are the flags every fixture test analyses a committed bundle with: the
// ground truth, its README and the raw pastes are not part of the bundle.
var fixtureArgs = []string{"-o", "json", "--exclude", "raw", "--exclude", "expected.json", "--exclude", "README.md"}

// runFixtureJSON runs nsanalyze -o json on a committed fixture bundle (fixtureArgs, then
// extra, then dir), once per test binary.
func runFixtureJSON(dir string, extra ...string) (int, []byte, []byte) {
	args := append(append(append([]string{}, fixtureArgs...), extra...), dir)
	return runFixture(args...)
}

// warmFixtureRuns runs runFixtureJSON(dir, extra...) for every dir and every extra
// argument list on GOMAXPROCS workers, so a test that then walks the fixtures one by one
// (its assertions in order, its golden in order) finds every report in the cache. The
// analyses run concurrently, which is also what the race detector (make test-race) needs
// to see: nothing in one run may touch another's state.
func warmFixtureRuns(dirs []string, extras ...[]string) {
	if len(extras) == 0 {
		extras = [][]string{nil}
	}
	type job struct {
		dir   string
		extra []string
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				runFixtureJSON(j.dir, j.extra...)
			}
		}()
	}
	for _, d := range dirs {
		for _, e := range extras {
			jobs <- job{d, e}
		}
	}
	close(jobs)
	wg.Wait()
}
