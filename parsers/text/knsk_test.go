package text

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// terminatingOf returns "name line" for each Namespace Parse reads Terminating from in.
func terminatingOf(in string) []string {
	var out []string
	for _, o := range Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{}).Objects {
		if o.Kind == "Namespace" && o.Phase == "Terminating" {
			out = append(out, fmt.Sprintf("%s %d", o.Name, o.Source.Line))
		}
	}
	return out
}

// TestKnskOutput: knsk's lines as tickets paste them (fixtures/realworld-pending
// longhorn-07-*, knsk-2021-*, knsk-ocs-*).
func TestKnskOutput(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"knsk 2019 (longhorn#964): 'Cheking', '--' prefix, found!",
			"- Checking for namespaces in Terminating status... found!\n\n  -- Cheking resources in namespace longhorn-system... found!\n\n     --- engineimage.longhorn.io/ei-ec95b5ad\n     --- instancemanager.longhorn.io/instance-manager-r-ecdc4a80\n",
			"longhorn-system 3"},
		{"knsk 2021 (knsk#28): '.:' prefix, two namespaces, Markdown bold in the commands",
			"Checking for stuck namespaces... found\n.: Checking resources in namespace webhook-7327... found\n   > configmap/kube-root-ca.crt... dry-run\n     timeout 15 kubectl -n webhook-7327 --grace-period=0 --force=true delete **configmap/kube-root-ca.crt**\n.: Checking resources in namespace webhook-9779... found\n   > configmap/kube-root-ca.crt... dry-run\n",
			"webhook-7327 2|webhook-9779 5"},
		{"colours printed as text", `\e[93m.: Checking resources in namespace \e[91mrook-ceph\e[0m\e[93m...\e[0m\e[32m not found\e[0m` + "\n", "rook-ceph 1"},
		{"colours as bytes, current knsk", "   \x1b[93m  Checking resources in namespace \x1b[91mcattle-system\x1b[0m\x1b[2m...\x1b[0m\x1b[96m found\x1b[0m\n", "cattle-system 1"},
		{"orphans of a namespace gone from `get ns`: not Terminating",
			`\e[93m.: Found \e[91mPersistentVolumeClaim/db-noobaa-db-0\e[0m\e[93m on deleted namespace \e[91mopenshift-storage\e[0m...\e[0m\e[91m error\e[0m` + "\n", ""},
		{"prose about a check", "I was checking resources in namespace foo and nothing\n", ""},
		{"no namespace name", "Checking resources in namespace Foo_Bar... found\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(terminatingOf(c.in), "|")
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if c.want != "" && !Sniff([]byte(c.in)) {
				t.Errorf("not sniffed as kubectl text")
			}
		})
	}
}

// TestKnskAnyLine: knsk's namespace line, for any namespace name, either spelling, any
// of its prefixes and indentation, colours as bytes, as text or none, any result after
// it, reads as that namespace Terminating on that line; without knsk's words or with
// a name that is no DNS-1123 label it reads as none.
func TestKnskAnyLine(t *testing.T) {
	names := []string{"a", "longhorn-system", "webhook-7327", "x1", strings.Repeat("n", 63)}
	verbs := []string{"Checking", "Cheking"}
	prefixes := []string{"", "  -- ", ".: ", "   ", "- ", "  :: ", "> "}
	colours := [][2]string{{"", ""}, {"\x1b[93m", "\x1b[0m"}, {`\e[93m`, `\e[0m`}, {`\033[1;91m`, `\033[0m`}, {`^[[91m`, `^[[0m`}}
	results := []string{" found", " found!", " not found", "", " \x1b[96mfound\x1b[0m"}
	n := 0
	for _, name := range names {
		for _, verb := range verbs {
			for _, pre := range prefixes {
				for _, c := range colours {
					for _, res := range results {
						line := c[0] + pre + verb + " resources in namespace " + c[0] + name + c[1] + c[0] + "..." + c[1] + res
						in := "knsk says:\n" + line + "\n"
						if got := strings.Join(terminatingOf(in), "|"); got != name+" 2" {
							t.Fatalf("%q: got %q", line, got)
						}
						if got, ok := knskNamespace(strings.Replace(line, "resources in", "resources of", 1)); ok {
							t.Fatalf("%q: read %q without knsk's words", line, got)
						}
						if got, ok := knskNamespace(strings.Replace(line, name, strings.ToUpper(name)+"_", 1)); ok {
							t.Fatalf("%q: read %q, no namespace name", line, got)
						}
						n++
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d lines generated", n)
	}
}

// FuzzKnskNamespace: any line: no panic; a namespace read is a DNS-1123 label the line
// holds as a word, after knsk's words (a colour sequence separates words, as a space does).
func FuzzKnskNamespace(f *testing.F) {
	f.Add(`\e[93m.: Checking resources in namespace \e[91mrook-ceph\e[0m...`)
	f.Add("  -- Cheking resources in namespace longhorn-system... found!")
	f.Fuzz(func(t *testing.T, l string) {
		ns, ok := knskNamespace(l)
		if !ok {
			return
		}
		if !kubemsg.IsNamespaceName(ns) {
			t.Fatalf("%q: read %q, no namespace name", l, ns)
		}
		words := strings.Fields(reANSI.ReplaceAllString(l, " "))
		for i := 0; i+4 < len(words); i++ {
			if strings.HasSuffix(words[i], "king") && words[i+1] == "resources" && words[i+2] == "in" && words[i+3] == "namespace" &&
				(words[i+4] == ns || strings.HasPrefix(words[i+4], ns+"...") || strings.HasPrefix(words[i+4], ns+"…")) {
				return
			}
		}
		t.Fatalf("%q: read %q, not the word after knsk's", l, ns)
	})
}
