package analyzer

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/nsanalyze/nsanalyze/"

// layers says, for each package of the module (by path prefix, the longest wins), which
// of the module's packages its non-test files may import (by path prefix). Data flows
// one way: parsers → index → mechanism → analyzer (rule API and driver) → rules; every
// layer writes analyzer/findings, and render, redact and knownissues read only that.
var layers = []struct {
	pkg     string
	imports []string
}{
	{"parsers/", []string{"parsers/"}},
	{"analyzer/shellsafe", []string{"parsers/work"}},
	{"analyzer/findings", []string{"parsers/", "analyzer/shellsafe"}},
	{"analyzer/index", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings"}},
	{"analyzer/mechanism", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings", "analyzer/index"}},
	{"analyzer", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings", "analyzer/index", "analyzer/mechanism"}},
	// a cause may build on another cause's package (content-remaining on finalizers),
	// never on the registry
	{"analyzer/rules/", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings", "analyzer/index", "analyzer/mechanism", "analyzer", "analyzer/rules/"}},
	{"analyzer/rules", []string{"analyzer", "analyzer/rules/"}},
	{"analyzer/render", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings"}},
	{"analyzer/redact", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings"}},
	{"analyzer/knownissues", []string{"parsers/", "analyzer/shellsafe", "analyzer/findings"}},
	{"fixtures", []string{"fixtures/"}},
	{"fixtures/", []string{"fixtures", "fixtures/"}},
	{"cmd/", []string{""}},
}

// matches: prefix "x/" matches x's subpackages only; "x" matches x alone; "" all.
func matches(prefix, path string) bool {
	if prefix == "" {
		return true
	}
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(path, prefix)
	}
	return path == prefix
}

// layerOf returns the rule of the most specific entry matching pkg.
func layerOf(pkg string) (allowed []string, ok bool) {
	best := -1
	for _, l := range layers {
		if matches(l.pkg, pkg) && len(l.pkg) > best {
			best, allowed, ok = len(l.pkg), l.imports, true
		}
	}
	return allowed, ok
}

// violations returns "pkg imports dep" for every import the layers do not allow.
func violations(imports map[string][]string) []string {
	var out []string
	for pkg, deps := range imports {
		allowed, ok := layerOf(pkg)
		if !ok {
			out = append(out, pkg+" is in no layer")
			continue
		}
		for _, d := range deps {
			fine := false
			for _, a := range allowed {
				fine = fine || matches(a, d) || a == d
			}
			if !fine && d != pkg {
				out = append(out, pkg+" imports "+d)
			}
		}
	}
	sort.Strings(out)
	return out
}

// moduleImports reads the module's imports of every package's non-test files.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, seen := out[pkg]; !seen {
			out[pkg] = nil
		}
		for _, is := range f.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if strings.HasPrefix(p, module) {
				out[pkg] = append(out[pkg], strings.TrimPrefix(p, module))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLayers holds the house's floors: no package imports one above it, and the
// renderers, the redactor and the known-issue catalogue see the report model only.
func TestLayers(t *testing.T) {
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from analyzer/: %v", err)
	}
	imports := moduleImports(t, root)
	for _, p := range []string{"analyzer", "analyzer/findings", "analyzer/index", "analyzer/mechanism", "analyzer/render", "parsers/objects"} {
		if _, ok := imports[p]; !ok {
			t.Fatalf("package %s not read: the walk is broken", p)
		}
	}
	for _, v := range violations(imports) {
		t.Error(v)
	}
}

// TestLayersCatch: each kind of upward import is a violation.
func TestLayersCatch(t *testing.T) {
	for _, tc := range [][2]string{
		{"analyzer/render", "analyzer"},
		{"analyzer/redact", "analyzer/index"},
		{"analyzer/knownissues", "analyzer/mechanism"},
		{"analyzer/findings", "analyzer/index"},
		{"analyzer/index", "analyzer/mechanism"},
		{"analyzer/mechanism", "analyzer"},
		{"analyzer", "analyzer/rules"},
		{"analyzer/rules/finalizers", "analyzer/rules"},
		{"parsers/objects", "analyzer/findings"},
		{"analyzer/shellsafe", "parsers/objects"},
		{"fixtures/damage", "analyzer"},
	} {
		if v := violations(map[string][]string{tc[0]: {tc[1]}}); len(v) != 1 {
			t.Errorf("%s importing %s: violations %q, want one", tc[0], tc[1], v)
		}
	}
	if v := violations(map[string][]string{"analyzer/rules/contentremaining": {"analyzer/rules/finalizers", "analyzer/mechanism"}}); len(v) != 0 {
		t.Errorf("a cause building on another and on the mechanisms: %q", v)
	}
}
