package text

import (
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestParseAge reads kubectl's durations (apimachinery's HumanDuration and
// ShortHumanDuration, as AGE columns and describe print them).
func TestParseAge(t *testing.T) {
	day := 24 * time.Hour
	for in, want := range map[string]time.Duration{
		"37s": 37 * time.Second, "5m30s": 5*time.Minute + 30*time.Second, "104m": 104 * time.Minute, "7h5m": 7*time.Hour + 5*time.Minute,
		"47h": 47 * time.Hour, "4d13h": 4*day + 13*time.Hour, "2d": 2 * day, "400d": 400 * day, "3y45d": 3*365*day + 45*day, "10y": 3650 * day,
	} {
		if got, ok := ParseAge(in); !ok || got != want {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "<invalid>", "<unknown>", "5", "d", "10x", "1h2", "Terminating", "0s", "99999999999999999d", "999999999999999d", "100001s"} {
		if got, ok := ParseAge(in); ok {
			t.Errorf("ParseAge(%q) = %v, want not an age", in, got)
		}
	}
}

// TestAgesOfRenderings: a table's AGE and describe's "Terminating (lasts ...)" are kept
// on the objects; a node table's VERSION is its kubelet version.
func TestAgesOfRenderings(t *testing.T) {
	in := "$ kubectl get ns\nNAME          STATUS        AGE\nmonitoring    Terminating   4d13h\n" +
		"$ kubectl get nodes\nNAME     STATUS     ROLES           AGE   VERSION\nnode-1   NotReady   control-plane   31d   v1.29.4\n" +
		"$ kubectl -n monitoring describe pod prometheus-0\nName:                      prometheus-0\nNamespace:                 monitoring\n" +
		"Status:                    Terminating (lasts 2d3h)\nTermination Grace Period:  30s\nContainers:\n  prometheus:\n    Image:  prom/prometheus:v2.45.0\n"
	r := Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{})
	ns := find(r, "Namespace", "monitoring")
	if ns == nil || ns.Ages == nil || ns.Ages.Age != 4*24*time.Hour+13*time.Hour || ns.Ages.Line != 3 || ns.Ages.File != "t.txt" {
		t.Fatalf("namespace %+v", ns)
	}
	if n := find(r, "Node", "node-1"); n == nil || n.KubeletVersion != "v1.29.4" {
		t.Errorf("node %+v", n)
	}
	if p := find(r, "Pod", "prometheus-0"); p == nil || p.Ages == nil || p.Ages.TerminatingFor != 51*time.Hour {
		t.Errorf("pod %+v", p)
	}
}

// FuzzParseAge: any text is either no age or a positive one (no overflow, no panic).
func FuzzParseAge(f *testing.F) {
	for _, s := range []string{"37s", "4d13h", "3y45d", "<invalid>", "99999d", "1h2", "0s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseAge(s)
		if !ok {
			return
		}
		if d <= 0 {
			t.Fatalf("ParseAge(%q) = %v", s, d)
		}
	})
}
