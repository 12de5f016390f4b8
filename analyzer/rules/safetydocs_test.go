package rules_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSafetyTablesNameRealTests holds the README's Safety section and docs/safety.md to
// the code: the README's table is input → what holds → the tests that check it, every
// row names a test, and every test or fuzz target either document names exists.
func TestSafetyTablesNameRealTests(t *testing.T) {
	root := filepath.Join("..", "..")
	defined := map[string]bool{}
	funcRE := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)[A-Za-z0-9_]*)\(`)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range funcRE.FindAllSubmatch(b, -1) {
			defined[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !defined["TestSafetyTablesNameRealTests"] {
		t.Fatalf("the walk found %d tests and not this one", len(defined))
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Safety\n")
	if !ok {
		t.Fatal("README.md has no Safety section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	safety, err := os.ReadFile(filepath.Join(root, "docs", "safety.md"))
	if err != nil {
		t.Fatal(err)
	}
	nameRE := regexp.MustCompile("`((?:Test|Fuzz)[A-Za-z0-9_]*)(?:/[^`]*)?`")
	rows := 0
	for _, l := range strings.Split(section, "\n") {
		if !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if rows == 0 {
			if strings.Join(cells, "|") != "input|what holds|checked by" {
				t.Errorf("README Safety table header %q, want input | what holds | checked by", l)
			}
			rows++
			continue
		}
		rows++
		if len(cells) != 3 || !nameRE.MatchString(cells[2]) {
			t.Errorf("README Safety row names no test in its third column: %s", l)
		}
	}
	if rows < 5 {
		t.Errorf("README Safety table has %d rows, want a row per input class", rows)
	}
	for doc, text := range map[string]string{"README.md": section, "docs/safety.md": string(safety)} {
		for _, m := range nameRE.FindAllStringSubmatch(text, -1) {
			if !defined[m[1]] {
				t.Errorf("%s names %s, which no test file defines", doc, m[1])
			}
		}
	}
}
