package logs

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The regexps Shape writes out; the tests hold them to the same result.
var (
	criRE  = regexp.MustCompile(`^\S+Z (stdout|stderr) [FP] `)
	klogRE = regexp.MustCompile(`^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ `)
	tsRE   = regexp.MustCompile(`"ts":[0-9.]+,`)
)

func shapeByRegexp(s string) string {
	return tsRE.ReplaceAllString(klogRE.ReplaceAllString(criRE.ReplaceAllString(s, ""), ""), "")
}

// TestShapeIsTheRegexp compares Shape with the regexp on every line of every
// log in the fixtures (klog text and JSON of five Kubernetes versions, CRI and docker
// framings) and on edge cases.
func TestShapeIsTheRegexp(t *testing.T) {
	cases := []string{
		`E1129 22:26:15.581738    2557 namespace_controller.go:164] "Unhandled Error" err="x"`,
		`E1129 22:26:15.581738 2557 namespace_controller.go:164] x`,
		`E1129 22:26:15.581738 2557namespace_controller.go:164] no space after the pid`,
		`E1129 22:26:15. 2557 x`, `X1129 22:26:15.5 1 x`, `E112 22:26:15.5 1 x`, `E1129 22:26:15.5  `,
		`2024-01-01T10:00:00.000000001Z stderr F E0101 10:00:00.000000 1 x.go:1] y`,
		`2024-01-01T10:00:00Z stdout P partial`, `2024-01-01T10:00:00Z stdin F x`, `2024-01-01T10:00:00Z stderr X y`,
		`2024-01-01T10:00:00Zstderr F x`, `Z stderr F x`, "2024-01-01T10:00:00Z\tstderr F x", "é2024Z stderr F x",
		`{"ts":1700000000.123,"caller":"x.go:1","msg":"deletion of namespace failed","v":0}`,
		`{"ts":,"msg":"x"} "ts":1.2.3, "ts":1 "ts":12,"ts":3,`, `"ts":`, `"ts":5`, `"ts":5,`,
		`E1129 22:26:15.581738 1 x] {"ts":1.5,"a":1}`, "", "E", `"t"ts":1,`,
		`2024-01-01T10:00:00.5Z stderr F E0101 10:00:00.000000 1 x.go:1] CRI frame and klog header both fold`,
	}
	files := 0
	_ = filepath.WalkDir("../../fixtures", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".log") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		files++
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			cases = append(cases, sc.Text())
		}
		return nil
	})
	if files < 50 {
		t.Fatalf("only %d log files in fixtures", files)
	}
	for _, c := range cases {
		if got, want := Shape(c), shapeByRegexp(c); got != want {
			t.Fatalf("Shape(%q)\n got %q\nwant %q", c, got, want)
		}
	}
	t.Logf("%d lines of %d files", len(cases), files)
}

// FuzzShape holds Shape to the regexp it writes out.
func FuzzShape(f *testing.F) {
	for _, s := range []string{`E1129 22:26:15.581738    2557 x.go:1] y`, `2024-01-01T10:00:00Z stderr F x`, `{"ts":1.5,"msg":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Shape(s), shapeByRegexp(s); got != want {
			t.Fatalf("Shape(%q) = %q, the regexp gives %q", s, got, want)
		}
	})
}

// TestShapeFoldsFrameAndHeader: two CRI-framed klog lines that differ only in their
// times have one shape (the scanner's cap and the analyzer's grouping agree on it).
func TestShapeFoldsFrameAndHeader(t *testing.T) {
	a := Shape("2024-01-01T10:00:00.1Z stderr F E0101 10:00:00.100000       1 namespace_controller.go:164] deletion of namespace x failed")
	b := Shape("2024-01-01T10:05:00.2Z stderr F E0101 10:05:00.200000       1 namespace_controller.go:164] deletion of namespace x failed")
	if a != b || a != "namespace_controller.go:164] deletion of namespace x failed" {
		t.Fatalf("shapes %q and %q", a, b)
	}
}
