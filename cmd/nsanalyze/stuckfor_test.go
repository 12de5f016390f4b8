package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

func nsReport(t *testing.T, dir, name string) findings.NamespaceReport {
	t.Helper()
	var out, errb bytes.Buffer
	run([]string{"-o", "json", dir}, &out, &errb)
	var rep findings.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, errb.String())
	}
	for _, n := range rep.Namespaces {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("%s not stuck in the report: %s", name, out.String())
	return findings.NamespaceReport{}
}

// TestTableAgeAndFirstFailure: a `kubectl get ns` row (Terminating, AGE 23m) and the
// real controller log of the calico case (realworld calico-apiserver-projectcalico-v3-
// discovery): the row has no deletion time, the controller's first failure bounds it
// (deleted at or before it), and the AGE is said for what it is: how long the
// namespace existed, not how long it has been Terminating.
func TestTableAgeAndFirstFailure(t *testing.T) {
	kcm, err := os.ReadFile("../../fixtures/realworld/calico-apiserver-projectcalico-v3-discovery/logs/kube-controller-manager.log")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
	os.WriteFile(filepath.Join(dir, "logs", "kube-controller-manager.log"), kcm, 0o644)
	os.WriteFile(filepath.Join(dir, "get-ns.txt"), []byte("$ kubectl get ns\nNAME              STATUS        AGE\nclient            Terminating   23m\n"), 0o644)
	n := nsReport(t, dir, "client")
	if n.DeletionTimestamp == nil || n.DeletionTimestamp.Format("15:04:05.000") != "04:30:04.389" {
		t.Errorf("deletion %v, want the first failure's time 04:30:04.389", n.DeletionTimestamp)
	}
	for _, want := range []string{"first namespace controller failure in the log (logs/kube-controller-manager.log:5",
		"at least 23m old when get-ns.txt:3 was printed (AGE counts from its creation: it existed that long)"} {
		if !strings.Contains(n.StuckSince, want) {
			t.Errorf("stuckSince %q lacks %q", n.StuckSince, want)
		}
	}
}

// TestDescribeLasts: describe's `Terminating (lasts 2d)` (the real describe ns paste of
// realworld kusk-gateway, its status line as kubectl prints it for a deletion 2 days
// old): the namespace has been stuck at least 2d, whatever its conditions' times say.
func TestDescribeLasts(t *testing.T) {
	src, err := os.ReadFile("../../fixtures/realworld/kusk-gateway-describe-staticroutes-remaining-row-cut/describe-kusk-system.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), "Status:       Terminating\n", "Status:       Terminating (lasts 2d)\n", 1)
	if s == string(src) {
		t.Fatal("no status line to change")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "describe-ns.txt"), []byte(s), 0o644)
	n := nsReport(t, dir, "kusk-system")
	if n.StuckFor != "2d0h" || !strings.Contains(n.StuckSince, "describe-ns.txt:2 says Terminating (lasts 2d)") {
		t.Errorf("stuck for %q since %q; want 2d from describe's lasts", n.StuckFor, n.StuckSince)
	}
}
