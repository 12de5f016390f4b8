package conversionwebhook

import "testing"

// TestGuessPlural: kubectl's RESTMapper guess (apimachinery UnsafeGuessKindToResource).
func TestGuessPlural(t *testing.T) {
	for kind, want := range map[string]string{"Certificate": "certificates", "Ingress": "ingresses", "Policy": "policies",
		"Endpoints": "endpoints", "CronTab": "crontabs", "E2e-test-crd-webhook-3948-crd": "e2e-test-crd-webhook-3948-crds"} {
		if got := guessPlural(kind); got != want {
			t.Errorf("guessPlural(%q) = %q, want %q", kind, got, want)
		}
	}
}
