package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

func fixtureRecords(t *testing.T, rel string) (*bundle.Records, *analyzer.Report) {
	t.Helper()
	dir := filepath.Join("..", "..", "fixtures", filepath.FromSlash(rel))
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("committed fixture %s missing: %v", dir, err)
	}
	rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject,
		Exclude: []string{"raw", "expected.json", "README.md"}})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	rec.Path = rel
	return rec, analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
}
