package text

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// apiServicesOf returns "name reason line" for each APIService Parse reads from in.
func apiServicesOf(t *testing.T, in string) []string {
	t.Helper()
	var out []string
	for _, o := range Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{}).Objects {
		if o.Kind != "APIService" {
			continue
		}
		c := o.Condition("Available")
		if c == nil {
			out = append(out, fmt.Sprintf("%s - %d", o.Name, o.Source.Line))
			continue
		}
		out = append(out, fmt.Sprintf("%s %s/%s %d", o.Name, c.Status, c.Reason, o.Source.Line))
	}
	return out
}

// TestAPIServiceRowsInProse: the real lines of tickets that quote an unavailable
// APIService's `kubectl get apiservices` row in prose.
func TestAPIServiceRowsInProse(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"in a sentence, no AGE (secrets-store-csi-driver-provider-azure#167)",
			"After installing secrets-store-csi-driver-provider-azure, https://github.com/Azure/secrets-store-csi-driver-provider-azure/blob/master/charts/csi-secrets-store-provider-azure/README.md, I get v1beta1.metrics.k8s.io kube-system/metrics-server False (MissingEndpoints) using kubectl get apiservices\n",
			"v1beta1.metrics.k8s.io False/MissingEndpoints 1"},
		{"in inline code after prose (rancher/rio#1028)",
			"I find something maybe interresting: `kubectl get apiservice`\nEverything is fine execpt this line:\nthe row `v1alpha1.tap.linkerd.io                 linkerd/linkerd-tap          False (MissingEndpoints)   7d16h` is it\n",
			"v1alpha1.tap.linkerd.io False/MissingEndpoints 3"},
		{"two rows in one sentence",
			"both v1beta1.metrics.k8s.io kube-system/metrics-server False (FailedDiscoveryCheck) 3d and v1alpha1.tap.linkerd.io linkerd/linkerd-tap False (MissingEndpoints) are down\n",
			"v1alpha1.tap.linkerd.io False/MissingEndpoints 1|v1beta1.metrics.k8s.io False/FailedDiscoveryCheck 1"},
		{"wrapped between its cells",
			"I get v1beta1.metrics.k8s.io\nkube-system/metrics-server False\n(MissingEndpoints) using kubectl\n",
			"v1beta1.metrics.k8s.io False/MissingEndpoints 1"},
		{"no reason: not read in prose", "I get v1beta1.metrics.k8s.io kube-system/metrics-server False using kubectl\n", ""},
		{"True: not read in prose", "I get v1beta1.metrics.k8s.io kube-system/metrics-server True (Passed) using kubectl\n", ""},
		{"no group/version name", "I get metrics kube-system/metrics-server False (MissingEndpoints) here\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apiServicesOf(t, c.in)
			if strings.Join(sorted(got), "|") != c.want {
				t.Errorf("got %q, want %q", strings.Join(sorted(got), "|"), c.want)
			}
			if c.want != "" && !Sniff([]byte(c.in)) {
				t.Errorf("not sniffed as kubectl text")
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestAPIServiceRowInAnyProse: any unavailable APIService row (any group/version name,
// Service or Local, reason, with or without its AGE), in any sentence (words before and
// after it, inline code, quotes, a list marker or a blockquote), wrapped at any space of
// the paragraph, is read as that APIService, Available=False with that reason, on the
// line its name is on (or the one before, when the wrap repair joined them): once,
// whatever wraps or surrounds it.
func TestAPIServiceRowInAnyProse(t *testing.T) {
	names := []string{"v1beta1.metrics.k8s.io", "v1alpha1.tap.linkerd.io", "v1.custom.metrics.k8s.io", "v3.projectcalico.org", "v1beta2.external.metrics.k8s.io"}
	services := []string{"kube-system/metrics-server", "linkerd/linkerd-tap", "Local", "keda/keda-operator-metrics-apiserver"}
	reasons := []string{"MissingEndpoints", "FailedDiscoveryCheck", "ServiceNotFound"}
	ages := []string{"", "7d16h", "2m", "<invalid>"}
	wraps := []struct{ open, close string }{{"", ""}, {"`", "`"}, {"\"", "\""}, {"(", ")"}, {"'", "'."}}
	heads := []string{"", "I get ", "After the upgrade, kubectl get apiservices shows "}
	tails := []string{"", " using kubectl get apiservices", ", so the namespace hangs."}
	n := 0
	for k := 0; k < 160; k++ {
		name, svc, reason, age := names[k%len(names)], services[k/5%len(services)], reasons[k/3%len(reasons)], ages[k/7%len(ages)]
		w, head, tail := wraps[k/11%len(wraps)], heads[k/13%len(heads)], tails[k/17%len(tails)]
		row := name + "  " + svc + "   False (" + reason + ")"
		if age != "" {
			row += "   " + age
		}
		sentence := head + w.open + row + w.close + tail
		want := name + " False/" + reason
		words := strings.Split(sentence, " ")
		for cut := 0; cut < len(words); cut++ { // wrapped after word cut (0: not wrapped)
			text := sentence
			line := 1
			if cut > 0 {
				text = strings.Join(words[:cut], " ") + "\n" + strings.Join(words[cut:], " ")
				if !strings.Contains(strings.Join(words[:cut], " "), name) {
					line = 2
				}
			}
			for _, prefix := range [][2]string{{"", ""}, {"> ", "> "}, {"- ", "  "}, {"* ", "  "}} { // the first line's, the others'
				in := "Some words first.\n" + prefix[0] + strings.ReplaceAll(text, "\n", "\n"+prefix[1]) + "\n"
				// cited on its name's line, or on the line a terminal-wrap repair
				// joined it to (the paragraph's line before it)
				got := apiServicesOf(t, in)
				w, w2 := fmt.Sprintf("%s %d", want, line+1), fmt.Sprintf("%s %d", want, line)
				if len(got) != 1 || got[0] != w && (line == 1 || got[0] != w2) {
					t.Fatalf("%q:\n got %q\nwant %q", in, got, w)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d inputs generated", n)
	}
}

// FuzzAPIServiceRowsAt: any lines: no panic; each row read starts on its line (its name
// is there) and is an unavailable APIService with a reason.
func FuzzAPIServiceRowsAt(f *testing.F) {
	f.Add("I get v1beta1.metrics.k8s.io kube-system/metrics-server False (MissingEndpoints) using kubectl")
	f.Add("`v1alpha1.tap.linkerd.io   linkerd/linkerd-tap   False (MissingEndpoints)   7d16h`")
	f.Add("x v1.a\nLocal False\n(R) 1d")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Split(s, "\n")
		for i := range lines {
			for _, r := range apiServiceRowsAt(lines, i) {
				if len(r.cells) != 4 || !strings.Contains(lines[i], r.cells[0]) || !strings.HasPrefix(r.cells[2], "False (") ||
					!strings.HasPrefix(r.cells[0], "v") || !strings.Contains(r.cells[0], ".") {
					t.Fatalf("line %d %q: row %q", i+1, lines[i], r.cells)
				}
			}
		}
	})
}

// TestAPIServiceRowBehindAnyPrefix: an unavailable APIService row behind any prefix that
// ends in a character no name holds (a comment mark, a line number and a tab, a prompt,
// a box side, symbols of any script, drawn at random) is read once, as that APIService;
// behind a character a name could hold, it is part of a longer word and is not read.
func TestAPIServiceRowBehindAnyPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 33))
	marks := []rune("#$%&*+:;<=>?@!^|~,\"'`()[]{}\\ \t»«→▶│┃•·–—§¶°№")
	nameChars := []rune("abcXYZ0189._-/")
	rows := []struct{ row, name string }{
		{"v1.allocation.agones.dev                 agones-system/agones-controller-service   False (ServiceNotFound)   42m", "v1.allocation.agones.dev"},
		{"v1alpha1.tap.linkerd.io   linkerd/linkerd-tap   False (MissingEndpoints)", "v1alpha1.tap.linkerd.io"},
		{"v1beta1.metrics.k8s.io Local False (FailedDiscoveryCheck) 3d", "v1beta1.metrics.k8s.io"},
	}
	for k := 0; k < 2000; k++ {
		r := rows[k%len(rows)]
		var b strings.Builder
		for n := rng.IntN(6); n > 0; n-- { // any text, words or digits, before the last mark
			switch rng.IntN(3) {
			case 0:
				b.WriteString(strconv.Itoa(rng.IntN(100000)))
			case 1:
				b.WriteString("word")
			default:
				b.WriteRune(marks[rng.IntN(len(marks))])
			}
		}
		b.WriteRune(marks[rng.IntN(len(marks))])
		in := b.String() + r.row + "\n"
		got := apiServicesOf(t, in)
		if len(got) != 1 || !strings.HasPrefix(got[0], r.name+" False/") {
			t.Fatalf("%q: got %q, want %s once", in, got, r.name)
		}
		glued := b.String() + string(nameChars[rng.IntN(len(nameChars))]) + r.row + "\n"
		for _, g := range apiServicesOf(t, glued) {
			if strings.HasPrefix(g, r.name+" ") {
				t.Fatalf("%q: read %q, the name glued to a longer word", glued, g)
			}
		}
	}
}
