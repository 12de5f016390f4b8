package render

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// loaded is one bundle read and analysed once for the whole test binary: most tests of
// this package render every fixture (and peer bundle), and rendering leaves the
// records and the report alone (TestRenderLeavesReportAlone), so they share one
// analysis per bundle. A test that changes a report changes a copy.
type loaded struct {
	once sync.Once
	rec  *bundle.Records
	r    *findings.Report
	err  error
}

var loadCache sync.Map // bundle name -> *loaded

// loadBundle reads and analyses dir once per test binary, naming it name in the report.
func loadBundle(t *testing.T, name, dir string, exclude ...string) (*bundle.Records, *findings.Report) {
	t.Helper()
	v, _ := loadCache.LoadOrStore(name, &loaded{})
	l := v.(*loaded)
	l.once.Do(func() {
		l.rec, l.err = bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject, Exclude: exclude})
		if l.err == nil {
			l.rec.Path = name
			l.r = analyzer.Analyze(l.rec, analyzer.Options{Rules: rules.All})
		}
	})
	if l.err != nil {
		t.Fatalf("load %s: %v", dir, l.err)
	}
	return l.rec, l.r
}

func fixtureRecords(t *testing.T, rel string) (*bundle.Records, *findings.Report) {
	t.Helper()
	dir := filepath.Join("..", "..", "fixtures", filepath.FromSlash(rel))
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("committed fixture %s missing: %v", dir, err)
	}
	return loadBundle(t, rel, dir, "raw", "expected.json", "README.md")
}
