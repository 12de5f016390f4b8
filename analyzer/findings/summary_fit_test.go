package findings

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFitText: whatever the text and the room, FitText never exceeds the room (when the
// text has two or more words), never ends in "…", and keeps the last words of a finding
// (the decisive ones) when its last clause fits.
func TestFitText(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{`Pods kube-system k8s-app=metrics-server: metrics-server-785b9ccd8d-spjlr: phase Pending, not Ready, not scheduled`, 80, "not scheduled"},
		{`APIService v1beta1.metrics.k8s.io: Available=False reason=FailedDiscoveryCheck: failing or missing response from https://10.96.0.1:443/apis/metrics.k8s.io/v1beta1: Get "https://10.96.0.1:443/apis/metrics.k8s.io/v1beta1": dial tcp 10.96.0.1:443: connect: connection refused`, 100, "connection refused"},
		{`webhook configmap-guard.example.io: its backend namespace webhook-system is itself being deleted`, 60, "being deleted"},
	} {
		got := FitText(c.in, c.n)
		if utf8.RuneCountInString(got) > c.n || strings.HasSuffix(got, "…") || !strings.HasSuffix(got, c.want) {
			t.Errorf("FitText(%q, %d) = %q (%d), want at most %d ending in %q", c.in, c.n, got, utf8.RuneCountInString(got), c.n, c.want)
		}
	}
	rng := rand.New(rand.NewSource(31))
	vocab := []string{"a", "phase", "Pending,", "not", "Ready:", "dial", "tcp", "10.0.0.1:443:", "connection", "refused;", "\"quoted", "text\"", "(x,", "y)", "verylongwordwithoutanybreakatallxxxxxxxxxx"}
	for i := 0; i < 3000; i++ {
		var w []string
		for k := rng.Intn(40) + 2; k > 0; k-- {
			w = append(w, vocab[rng.Intn(len(vocab))])
		}
		s := strings.Join(w, " ")
		n := rng.Intn(120) + 20
		got := FitText(s, n)
		if utf8.RuneCountInString(s) <= n && got != s {
			t.Fatalf("FitText(%q, %d) changed a text that fits: %q", s, n, got)
		}
		if utf8.RuneCountInString(got) > n || strings.HasSuffix(got, "…") {
			t.Fatalf("FitText(%q, %d) = %q (%d characters)", s, n, got, utf8.RuneCountInString(got))
		}
	}
}
