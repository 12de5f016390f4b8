package redact

import (
	"math/rand"
	"strings"
	"testing"
)

// scanSecretsRef is the prefilter as first written: every trigger compared with
// strings.EqualFold at every word start.
func scanSecretsRef(s string) (trigger, longRun bool) {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if alnum(c) || c == '+' || c == '/' {
			if run++; run >= 40 {
				longRun = true
			}
		} else {
			run = 0
		}
		if trigger || !triggerStart[c] || i > 0 && alnum(s[i-1]) {
			continue
		}
		for _, t := range secretTriggers {
			if len(s)-i >= len(t) && strings.EqualFold(s[i:i+len(t)], t) {
				trigger = true
				break
			}
		}
	}
	return trigger, longRun
}

// TestScanSecretsSame: the table-driven prefilter says what the first one said, on
// strings made of trigger pieces, their capitals, separators, base64 runs and
// non-ASCII bytes (the Kelvin sign folds to 'k', the long s to 's').
func TestScanSecretsSame(t *testing.T) {
	pieces := append([]string{" ", "-", "_", ".", "/", "+", "=", "\r", "\x00", "0", "a", "Z", "\u212a", "\u017f", "é",
		"\xff", strings.Repeat("Ab3", 14), "xKEY", "tok", "TOKEN"}, secretTriggers...)
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := rng.Intn(8); j >= 0; j-- {
			p := pieces[rng.Intn(len(pieces))]
			if rng.Intn(3) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		s := b.String()
		t1, l1 := scanSecrets(s)
		t2, l2 := scanSecretsRef(s)
		if t1 != t2 || l1 != l2 {
			t.Fatalf("scanSecrets(%q) = %v, %v; the first prefilter said %v, %v", s, t1, l1, t2, l2)
		}
	}
}
