package paste

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/damage"
)

// TestSeamsSplitBack: whatever parsers/paste joins, its seams give the lines back. For
// texts of random words wrapped at any width, mid-word, at spaces or hyphenated, every
// repaired line cut at its seams is the input's lines it was joined from, in order
// (each piece as the input had it, but for the space a wrap at spaces ate, put back
// before the seam, and a hyphen a hyphenating wrap added, taken out).
func TestSeamsSplitBack(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	words := strings.Fields("namespace deletion failed unable to retrieve the complete list of server APIs " +
		"metrics.k8s.io/v1beta1: Terminating kube-system finalizers remaining admission webhook denied " +
		"the request conversion cert-manager.io/v1alpha2 Kind=Certificate")
	joinedSome := false
	for round := range 300 {
		var text []string
		for range 3 + r.IntN(6) {
			n := 12 + r.IntN(40)
			ws := make([]string, n)
			for k := range ws {
				ws[k] = words[r.IntN(len(words))]
			}
			text = append(text, strings.Join(ws, " "))
		}
		w := 60 + r.IntN(200)
		mode := damage.WrapMode(round % 3)
		in := damage.Wrap(w, mode).Apply(strings.Join(text, "\n"))
		raw := strings.Split(in, "\n")
		lines, orig, seams := LinesSeams(raw, Options{Continues: always})
		for i, l := range lines {
			if seams == nil || len(seams[i]) == 0 {
				continue
			}
			joinedSome = true
			at := append(append([]int{0}, seams[i]...), len(l))
			for k := 0; k+1 < len(at); k++ {
				piece := strings.TrimRight(l[at[k]:at[k+1]], " ")
				src := strings.TrimRight(raw[orig[i]-1+k], " ")
				if piece != src && piece+"-" != src {
					t.Fatalf("wrap(w=%d,mode=%d): line %d piece %d is %q, the input's line %d is %q", w, mode, i, k, piece, orig[i]+k, src)
				}
			}
		}
	}
	if !joinedSome {
		t.Fatal("no line was joined: the test checks nothing")
	}
}
