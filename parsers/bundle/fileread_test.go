package bundle_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// TestFileReads: with RecordReads, every file and link of the bundle has one record
// saying how it was read (layout, parser, objects, lines) or why not; the records use
// the reported paths (wrapping directory dropped) and are absent without RecordReads.
func TestFileReads(t *testing.T) {
	var inner bytes.Buffer
	writeTar(t, &inner, "", []bfile{{name: "node1/kubelet.log", data: []byte("I1129 22:26:10.000000       1 kubelet.go:1] started\n")}})
	var deeper, deep bytes.Buffer
	writeTar(t, &deeper, "", []bfile{{name: "x.log", data: []byte("line\n")}})
	writeTar(t, &deep, "", []bfile{{name: "deeper.tar", data: deeper.Bytes()}})
	ns := `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a","deletionTimestamp":"2026-11-29T22:26:10Z"},"status":{"phase":"Terminating"}}]}`
	files := []bfile{
		{name: "bundle/cluster/namespaces.json", data: []byte(ns)},
		{name: "bundle/cluster/pods.yaml", data: []byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: a\n")},
		{name: "bundle/cluster/crds.json", data: []byte(`{"apiVersion":"v1","kind":"List","items":[]}`)},
		{name: "bundle/cluster/get-ns.txt", data: []byte("NAME   STATUS        AGE\na      Terminating   4d13h\n")},
		{name: "bundle/cluster/get-ns-b.txt", data: []byte("NAME   STATUS        AGE\nb      Terminating   2d\n")},
		{name: "bundle/logs/kube-controller-manager.log", data: []byte("E1129 22:26:11.000000       1 namespace_controller.go:162] deletion of namespace a failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1\nI1129 22:26:12.000000       1 x.go:1] other\n")},
		{name: "bundle/logs/empty.log", data: nil},
		{name: "bundle/raw/skip.json", data: []byte(ns)},
		{name: "bundle/README.md", data: []byte("# notes\n")},
		{name: "bundle/blob.bin", data: []byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2, 0, 0, 0, 0}},
		{name: "bundle/nodes.tar", data: inner.Bytes()},
		{name: "bundle/deep.tar", data: deep.Bytes()},
		{name: "bundle/cluster-resources/pods-errors.json", data: []byte(`["pods is forbidden: User cannot list"]`)},
		{name: "bundle/ns-link.json", link: "cluster/namespaces.json"},
	}
	dir := writeTree(t, t.TempDir(), files)
	root := filepath.Join(dir, "bundle")
	rec, err := Load(root, Options{RecordReads: true, Exclude: []string{"raw"}, MaxArchiveNesting: 1,
		Keywords: []string{"unable to retrieve the complete list of server APIs"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FileRead{}
	for _, r := range rec.Reads {
		if _, dup := got[r.Path]; dup {
			t.Errorf("%s recorded twice", r.Path)
		}
		got[r.Path] = r
	}
	for _, tc := range []struct {
		path, as, format string
		objects, lines   int
		matched          int
		skipped, nothing string // substrings of Skipped and Nothing()
		line             string // substring of String()
	}{
		{path: "cluster/namespaces.json", as: ReadObjects, format: "json", objects: 1, line: "read as objects (json), 1 object"},
		{path: "cluster/pods.yaml", as: ReadObjects, format: "yaml", objects: 1},
		{path: "cluster/crds.json", as: ReadObjects, format: "json", nothing: "no Kubernetes object"},
		{path: "cluster/get-ns.txt", as: ReadKubectlText, nothing: "its 1 object is also dumped as JSON or YAML"},
		{path: "cluster/get-ns-b.txt", as: ReadKubectlText, objects: 1, line: "read as kubectl-text, 1 object"},
		{path: "logs/kube-controller-manager.log", as: ReadLog, format: "klog", lines: 2, matched: 1, line: "2 log lines, 1 matched"},
		{path: "logs/empty.log", skipped: "empty", nothing: "empty", line: "not read: empty"},
		{path: "raw/skip.json", skipped: "excluded (--exclude)"},
		{path: "README.md", as: ReadLog, lines: 1, line: "read as log (plain), 1 log line"},
		{path: "blob.bin", skipped: "binary"},
		{path: "nodes.tar", as: ReadArchive, format: "tar"},
		{path: "nodes.tar/node1/kubelet.log", as: ReadLog, lines: 1},
		{path: "deep.tar/deeper.tar", skipped: "nested more than 1 levels deep"},
		{path: "cluster-resources/pods-errors.json", as: ReadCollectorErrors, format: "json"},
		{path: "ns-link.json", skipped: "a link to cluster/namespaces.json"},
	} {
		r, ok := got[tc.path]
		if !ok {
			t.Errorf("%s: no record (have %d)", tc.path, len(got))
			continue
		}
		if r.As != tc.as || (tc.format != "" && r.Format != tc.format) || r.Objects != tc.objects || (tc.lines > 0 && r.Lines != tc.lines) ||
			r.Matched != tc.matched || !strings.Contains(r.Skipped, tc.skipped) || (tc.skipped == "") != (r.Skipped == "") {
			t.Errorf("%s: %+v, want %+v", tc.path, r, tc)
		}
		if why := r.Nothing(); (tc.nothing == "" && tc.skipped == "") != (why == "") || !strings.Contains(why, tc.nothing) {
			t.Errorf("%s: nothing read %q, want %q", tc.path, why, tc.nothing)
		}
		if !strings.HasPrefix(r.String(), tc.path+": ") || !strings.Contains(r.String(), tc.line) {
			t.Errorf("%s: line %q lacks %q", tc.path, r.String(), tc.line)
		}
	}
	if r := got["cluster/namespaces.json"]; r.Layout != LayoutKubectl {
		t.Errorf("namespaces.json layout %q, want %s", r.Layout, LayoutKubectl)
	}
	if r := got["blob.bin"]; r.Warnings != 1 {
		t.Errorf("blob.bin: %d warnings, want 1", r.Warnings)
	}
	// every file of the bundle has its record
	for _, f := range rec.Files {
		if _, ok := got[f]; !ok {
			t.Errorf("file %s has no record", f)
		}
	}
	if len(got) < len(rec.Files) {
		t.Errorf("%d records for %d files", len(got), len(rec.Files))
	}
	plain, err := Load(root, Options{Exclude: []string{"raw"}})
	if err != nil || plain.Reads != nil {
		t.Errorf("without RecordReads: %d records (%v)", len(plain.Reads), err)
	}
}

// TestFileReadsSeveralBundles: with two bundles, the records carry each bundle's label.
func TestFileReadsSeveralBundles(t *testing.T) {
	ns := []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}`)
	d1 := writeTree(t, t.TempDir(), []bfile{{name: "one/ns.json", data: ns}})
	d2 := writeTree(t, t.TempDir(), []bfile{{name: "two/ns.json", data: ns}})
	rec, err := LoadAll([]string{filepath.Join(d1, "one"), filepath.Join(d2, "two")}, Options{RecordReads: true})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range rec.Reads {
		paths = append(paths, r.Path)
	}
	if strings.Join(paths, " ") != "one:ns.json two:ns.json" {
		t.Errorf("records %q", paths)
	}
}
