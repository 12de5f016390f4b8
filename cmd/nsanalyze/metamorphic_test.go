package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/fixtures/damage"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/mail"
	"github.com/nsanalyze/nsanalyze/parsers/markup"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// Damage is a dimension of every test: every fixture bundle that holds text (kubectl
// tables, describe output, stderr, pasted YAML; what parsers/text reads) is analysed
// again with its text files damaged the way tickets damage them (fixtures/damage), and
// must give the same diagnosis: stuck namespaces, cause types, group/versions,
// finalizers, webhooks, state and exit code.

// fixtureKept lists, per transformation, the fixtures whose diagnosis it cannot keep,
// and why; docs/usage.md's "Damaged text" section says the same. The test fails when such
// a diagnosis is kept after all (remove the entry).
var fixtureKept = map[string]map[string]string{
	"collapse-spaces": {
		"realworld/openshift-311-oc-get-projects-display-name-kubevirt-hco": "`oc get projects` leaves DISPLAY NAME empty: " +
			"once the padding is collapsed an empty cell cannot be told from none, so the rows no longer fit the header",
		"realworld/openshift-origin-2016-oc-get-projects-root-prompt-two-terminating-oapi-project-json-cut": "`oc get projects` " +
			"leaves DISPLAY NAME empty (as above): openshift-infra is Terminating only in the table",
	},
	"tabs": {
		"realworld/openshift-311-oc-get-projects-display-name-kubevirt-hco": "`oc get projects` leaves DISPLAY NAME empty: " +
			"the empty cell's padding became one tab like every separator, so the rows no longer fit the header",
		"realworld/openshift-origin-2016-oc-get-projects-root-prompt-two-terminating-oapi-project-json-cut": "`oc get projects` " +
			"leaves DISPLAY NAME empty (as above): openshift-infra is Terminating only in the table",
	},
}

// diagnosis is what a report concludes, independent of how the input looked.
func diagnosis(code int, rep *findings.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d, state %s\n", code, rep.State)
	for _, ns := range rep.Namespaces {
		var causes []string
		for _, c := range ns.Causes {
			s := c.Type
			if c.Type == apidiscovery.Name {
				s += fmt.Sprintf(" gvs=%v", sortedCopy(c.GroupVersions))
			}
			if len(c.Finalizers) > 0 {
				s += fmt.Sprintf(" finalizers=%v", sortedCopy(c.Finalizers))
			}
			if len(c.Webhooks) > 0 {
				s += fmt.Sprintf(" webhooks=%v", sortedCopy(c.Webhooks))
			}
			causes = append(causes, s)
		}
		sort.Strings(causes)
		fmt.Fprintf(&b, "%s: %s\n", ns.Name, strings.Join(causes, "; "))
	}
	return b.String()
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

// textFiles lists the files of a bundle the loader reads as kubectl text.
func textFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == "raw" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == "expected.json" || rel == "README.md" || !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		head := make([]byte, 8192)
		n, _ := io.ReadFull(f, head)
		f.Close()
		head = head[:n]
		if objects.Sniff(head) != "text" {
			return nil // JSON and YAML dumps are collected, not pasted
		}
		if markup.LooksHTML(head, strings.HasSuffix(rel, ".html")) || mail.Looks(head) {
			return nil // a document (a saved page, an e-mail): framing or quoting it breaks its format, not a paste
		}
		if !text.Sniff(head) {
			// a log pasted or saved as it is: a text case of the real-world tickets
			if strings.HasPrefix(filepath.ToSlash(dir), "../../fixtures/realworld/") || strings.Contains(filepath.ToSlash(dir), "/fixtures/realworld/") {
				out = append(out, rel)
			}
			return nil
		}
		// a text case: the file says something (objects, or lines of a log)
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if r := text.Parse(bytes.NewReader(b), rel, text.Options{}, &diag.Sink{}); len(r.Objects) > 0 || r.Log != nil && len(r.Log.Entries) > 0 {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// damagedCopy makes a copy of dir (without raw/, expected.json, README.md) whose text
// files went through tr; the other files are hard links (or copies).
func damagedCopy(t testing.TB, dir string, files []string, tr damage.Transform, tmp string) string {
	t.Helper()
	out := filepath.Join(tmp, filepath.Base(dir))
	damaged := map[string]bool{}
	for _, f := range files {
		damaged[f] = true
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		dst := filepath.Join(out, rel)
		if d.IsDir() {
			if rel == "raw" {
				return filepath.SkipDir
			}
			return os.MkdirAll(dst, 0o755)
		}
		if rel == "expected.json" || rel == "README.md" || !d.Type().IsRegular() {
			return nil
		}
		if damaged[rel] {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, []byte(tr.Apply(string(b))), 0o644)
		}
		if os.Link(p, dst) == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func analyzeDir(t testing.TB, dir string, extra ...string) (int, *findings.Report) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append(append([]string{"-o", "json", "-q"}, extra...), dir), &out, &errb)
	var rep findings.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\nstderr: %s", err, errb.String())
	}
	return code, &rep
}

// shortStride: with -short, a text fixture meets transformation j only when
// (h+j) % shortStride == 0, h a hash of the fixture's name, so a new fixture moves no
// other's pairs (and always where fixtureKept names the pair): every transformation
// still meets about a tenth of the fixtures and every fixture two transformations; the
// full search (make test-long) runs every pair.
const shortStride = 10

// TestMetamorphicFixtures: every text fixture, every transformation, the same diagnosis.
func TestMetamorphicFixtures(t *testing.T) {
	cases, runs := 0, 0
	for _, dir := range fixtureDirs(t) {
		files := textFiles(t, dir)
		if len(files) == 0 {
			continue
		}
		rel, _ := filepath.Rel(filepath.Join("..", "..", "fixtures"), dir)
		rel = filepath.ToSlash(rel)
		cases++
		t.Logf("%s: %v", rel, files)
		code, out, errb := runFixtureJSON(dir)
		var rep findings.Report
		if err := json.Unmarshal(out, &rep); err != nil {
			t.Fatalf("%s: report is not JSON: %v\nstderr: %s", rel, err, errb)
		}
		want := diagnosis(code, &rep)
		for j, tr := range damage.All() {
			if _, kept := fixtureKept[tr.Name][rel]; testing.Short() && !kept && (int(caseSeed(rel, 0)%shortStride)+j)%shortStride != 0 {
				continue
			}
			runs++
			t.Run(tr.Name+"/"+rel, func(t *testing.T) {
				t.Parallel() // each damaged copy in its own directory
				d := damagedCopy(t, dir, files, tr, t.TempDir())
				code, rep := analyzeDir(t, d)
				got := diagnosis(code, rep)
				for _, w := range rep.Warnings {
					if strings.Contains(w.Message, "internal error") {
						t.Errorf("internal error: %s", w)
					}
				}
				why, known := fixtureKept[tr.Name][rel]
				switch {
				case known && got == want:
					t.Errorf("%s now keeps the diagnosis of %s: remove it from fixtureKept (%s)", tr.Name, rel, why)
				case !known && got != want:
					t.Errorf("%s (%s) changes the diagnosis of %s (text files %v):\n got: %s\nwant: %s", tr.Name, tr.Doc, rel, files, got, want)
				}
			})
		}
	}
	if cases < 40 || runs < cases*len(damage.All())/shortStride {
		t.Errorf("only %d fixtures with text files, %d runs", cases, runs)
	}
	t.Logf("%d text fixtures, %d transformations: %d runs", cases, len(damage.All()), runs)
}
