package text

import (
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// RenderingScript is the Source.Rendering of an object read from a script's report of
// what kubectl showed it (knsk's namespaces in Terminating status).
const RenderingScript = "script-output"

// knsk (github.com/thyarles/knsk, "Kubernetes NameSpace Killer") is the script tickets
// paste most after a namespace hangs. Its stuck-namespace step lists the namespaces
// `kubectl get ns | grep Terminating` prints and, for each, prints
//
//	Checking resources in namespace NAME... found      (knsk.sh from 2020-06, pp t3n)
//	Cheking resources in namespace NAME... found!      (the early versions' spelling)
//
// so the line says NAME was Terminating when knsk ran, whatever follows it ("found",
// "not found") and whatever its prefix (knsk's "-- ", ".: ", "::", indentation) and
// colours (ANSI sequences, or their text `\e[93m` when the terminal or an `echo`
// without -e printed them literally). Its other report, "Found KIND/NAME on deleted
// namespace NS", is of objects whose namespace `kubectl get ns` no longer lists
// (knsk.sh's orphan step): no Terminating namespace, and not read here.
var reKnskNamespace = regexp.MustCompile(`^[-.:>*#|\s]*Che(?:c)?king resources in namespace\s+([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\s*(?:\.\.\.|…)`)

// reANSI is an ANSI colour sequence, as bytes or as the text of its escape
// (`\e[93m`, `\033[0m`, `\x1b[1;31m`, `^[[0m`).
var reANSI = regexp.MustCompile(`(?:\x1b|\\e|\\033|\\x1[bB]|\\u001[bB]|\^\[)\[[0-9;]{0,16}m`)

// knskNamespace reads a knsk line naming a namespace in Terminating status.
func knskNamespace(l string) (string, bool) {
	if !strings.Contains(l, "king resources in namespace") {
		return "", false
	}
	// a colour sequence separates words: one inside a name is no name
	m := reKnskNamespace.FindStringSubmatch(reANSI.ReplaceAllString(l, " "))
	if m == nil || !kubemsg.IsNamespaceName(m[1]) {
		return "", false
	}
	return m[1], true
}

// knskLine reads line i when it is knsk's line of a namespace in Terminating status:
// the namespace, phase Terminating, from the script's report (RenderingScript).
func (p *parser) knskLine(i int) bool {
	ns, ok := knskNamespace(p.lines[i])
	if !ok {
		return false
	}
	p.add(synth{line: i + 1, rendering: RenderingScript, obj: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": ns}, "status": map[string]any{"phase": "Terminating"}}})
	return true
}
