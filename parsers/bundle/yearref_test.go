package bundle_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// k3sLine is a real journald-wrapped k3s klog line (realworld k3s-journald-helm-ns-413,
// August 2022): no year anywhere.
const k3sLine = "Aug 03 10:51:55 susetest k3s[1878]: E0803 10:51:55.509313    1878 namespace_controller.go:162] deletion of namespace helm-ns-413 failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n"

var keywords = []string{"deletion of namespace", "unable to retrieve the complete list of server APIs"}

// entryTimes loads dir and returns the times of its log entries, and the year bases.
func entryTimes(t *testing.T, dir string) ([]time.Time, []string) {
	t.Helper()
	rec, err := Load(dir, Options{Keywords: keywords})
	if err != nil {
		t.Fatal(err)
	}
	var ts []time.Time
	for _, e := range rec.Entries {
		ts = append(ts, e.Time)
	}
	var bases []string
	for _, f := range rec.LogFiles {
		bases = append(bases, f.YearBasis)
	}
	return ts, bases
}

func touch(t *testing.T, dir string, when time.Time) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, when, when)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestYearFromMailDate: the real 2022 line pasted in an e-mail sent in August 2022,
// the file saved (modified) in 2026: the line is dated 2022 by the mail's Date, not by
// the file's time.
func TestYearFromMailDate(t *testing.T) {
	eml := "From: a <a@example.com>\nTo: support@example.com\nSubject: helm-ns-413 stuck\nDate: Wed, 03 Aug 2022 13:02:11 +0200\n\n" + k3sLine
	dir := writeTree(t, t.TempDir(), []bfile{{name: "ticket.eml", data: []byte(eml)}})
	touch(t, dir, time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC))
	ts, bases := entryTimes(t, dir)
	if len(ts) != 1 || ts[0].Year() != 2022 || len(bases) != 1 || !strings.Contains(bases[0], "Date of the e-mail ticket.eml") {
		t.Errorf("times %v, bases %q; want 2022 from the mail's Date", ts, bases)
	}
	// the same paste without its mail: only the file's time dates it
	dir = writeTree(t, t.TempDir(), []bfile{{name: "paste.txt", data: []byte(k3sLine)}})
	touch(t, dir, time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC))
	if ts, bases := entryTimes(t, dir); len(ts) != 1 || ts[0].Year() != 2026 || !strings.Contains(bases[0], "modification time") {
		t.Errorf("without the mail: times %v, bases %q; want 2026 from the file's time", ts, bases)
	}
}

// TestYearFromTableAge: a real controller line of January 1 (its date moved there)
// next to a `kubectl get ns` table whose AGE, added to the dumped namespace's
// creationTimestamp of December 31, crosses the new year: the line belongs to the
// new year (the object's timestamp alone would put it in the old one).
func TestYearFromTableAge(t *testing.T) {
	ns := `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"client","creationTimestamp":"2020-12-31T23:50:00Z","deletionTimestamp":"2020-12-31T23:58:00Z"},"status":{"phase":"Terminating"}}`
	kcm := "E0101 00:12:04.389367       1 namespace_controller.go:157] deletion of namespace client failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request\n"
	dir := writeTree(t, t.TempDir(), []bfile{
		{name: "namespaces.json", data: []byte(ns)},
		{name: "get-ns.txt", data: []byte("$ kubectl get ns client\nNAME     STATUS        AGE\nclient   Terminating   23m\n")},
		{name: "logs/kube-controller-manager.log", data: []byte(kcm)},
	})
	touch(t, dir, time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC))
	ts, bases := entryTimes(t, dir)
	want := time.Date(2021, 1, 1, 0, 12, 4, 389367000, time.UTC)
	if len(ts) != 1 || !ts[0].Equal(want) || !strings.Contains(bases[0], "AGE 23m at get-ns.txt:3") {
		t.Errorf("times %v, bases %q; want %v from the table's AGE", ts, bases, want)
	}
}

// TestYearUnknownWithoutClock: nothing dated and no file time: the line keeps no time
// (never the clock of the machine running the analysis).
func TestYearUnknownWithoutClock(t *testing.T) {
	dir := writeTree(t, t.TempDir(), []bfile{{name: "paste.txt", data: []byte(k3sLine)}})
	touch(t, dir, time.Time{})
	ts, bases := entryTimes(t, dir)
	if len(ts) != 1 || (!ts[0].IsZero() && ts[0].Year() == time.Now().Year() && bases[0] == "") {
		t.Errorf("times %v, bases %q", ts, bases)
	}
}

// TestYearProperty: for any capture moment, a dumped namespace created before it and
// a year-less controller line logged between up to 300 days before the namespace's
// newest timestamp and 2 days after it, the files saved years later: the line gets its
// true year, from the bundle's evidence, never from the files' time.
func TestYearProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(30))
	n := 60
	if testing.Short() {
		n = 15
	}
	for i := 0; i < n; i++ {
		newest := time.Date(2015+rng.Intn(12), time.Month(1+rng.Intn(12)), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60), 0, time.UTC)
		line := newest.Add(-time.Duration(rng.Int63n(int64(300 * 24 * time.Hour)))).Add(time.Duration(rng.Int63n(int64(47 * time.Hour))))
		line = line.Truncate(time.Second)
		ns := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"p","creationTimestamp":%q,"deletionTimestamp":%q},"status":{"phase":"Terminating"}}`,
			newest.Add(-time.Hour).Format(time.RFC3339), newest.Format(time.RFC3339))
		kcm := line.Format("E0102 15:04:05.000000") + "       1 namespace_controller.go:157] deletion of namespace p failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n"
		dir := writeTree(t, t.TempDir(), []bfile{{name: "ns.json", data: []byte(ns)}, {name: "logs/kube-controller-manager.log", data: []byte(kcm)}})
		touch(t, dir, newest.AddDate(3+rng.Intn(5), rng.Intn(12), 0))
		ts, _ := entryTimes(t, dir)
		if len(ts) != 1 || !ts[0].Equal(line) {
			t.Fatalf("newest evidence %v, line logged %v: read as %v", newest, line, ts)
		}
	}
}
