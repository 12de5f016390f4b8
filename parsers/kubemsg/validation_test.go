package kubemsg

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation"
)

// TestValidationAsApimachinery: the name checks nsanalyze uses (api/validate/content,
// and isDNS1035Label) say what apimachinery's util/validation says, messages included
// (content says a length limit in bytes, which is what both count, util/validation in
// characters), on names made of the characters that matter at the lengths where the
// limits are.
func TestValidationAsApimachinery(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	const alphabet = "az09-._/A"
	var names []string
	for _, n := range []int{0, 1, 2, 3, 62, 63, 64, 252, 253, 254} {
		for k := 0; k < 300; k++ {
			var b strings.Builder
			for i := 0; i < n; i++ {
				if rnd.Intn(4) > 0 {
					b.WriteByte("abz019"[rnd.Intn(6)])
				} else {
					b.WriteByte(alphabet[rnd.Intn(len(alphabet))])
				}
			}
			names = append(names, b.String())
		}
	}
	names = append(names, "a", "-a", "a-", "a.b", "1a", "a1", "example.com/x", "/x", "x/", "a/b/c", strings.Repeat("a", 63)+"/b")
	for _, n := range []int{62, 63, 64} { // valid but for their length
		names = append(names, strings.Repeat("a", n), "b"+strings.Repeat("0", n-1), "x/"+strings.Repeat("a", n))
	}
	for _, n := range []int{125, 126, 127} { // 251, 253, 255 bytes
		names = append(names, strings.Repeat("a.", n)+"a", strings.Repeat("a.", n)+"a/b")
	}
	bad := 0
	for _, s := range names {
		for _, c := range []struct {
			name      string
			ours, ref []string
		}{
			{"IsDNS1123Label", content.IsDNS1123Label(s), validation.IsDNS1123Label(s)},
			{"IsDNS1123Subdomain", content.IsDNS1123Subdomain(s), validation.IsDNS1123Subdomain(s)},
			{"IsLabelKey", content.IsLabelKey(s), validation.IsQualifiedName(s)},
		} {
			if strings.ReplaceAll(fmt.Sprint(c.ours), " bytes", " characters") != strings.ReplaceAll(fmt.Sprint(c.ref), " bytes", " characters") {
				t.Errorf("%s(%q): %q, util/validation says %q", c.name, s, c.ours, c.ref)
			}
		}
		if ok := len(validation.IsDNS1035Label(s)) == 0; isDNS1035Label(s) != ok {
			t.Errorf("isDNS1035Label(%q) = %v, util/validation says %v", s, !ok, ok)
		}
		if len(validation.IsDNS1123Subdomain(s)) > 0 {
			bad++
		}
	}
	if bad == 0 || bad == len(names) {
		t.Fatalf("%d of %d names invalid: the generator does not reach both sides", bad, len(names))
	}
}
