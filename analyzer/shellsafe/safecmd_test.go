package shellsafe

import (
	"os/exec"
	"strings"
	"testing"
)

func TestNameValidity(t *testing.T) {
	cases := []struct {
		kind NameKind
		name string
		ok   bool
	}{
		{NamespaceName, "team-a", true},
		{NamespaceName, "Team", false},
		{NamespaceName, "a.b", false},
		{NamespaceName, "-n", false},
		{NamespaceName, "x$(id)", false},
		{ObjectName, "v1beta1.metrics.k8s.io", true},
		{ObjectName, "cm;touch /tmp/p", false},
		{ObjectName, "a\nb", false},
		{GroupName, "widgets.example.com", true},
		{FinalizerName, "kubernetes", true},
		{FinalizerName, "foregroundDeletion", true},
		{FinalizerName, "example.com/cleanup", true},
		{FinalizerName, "example.com/x;id", false},
		{FinalizerName, "a/b/c", false},
	}
	for _, c := range cases {
		if got := ValidName(c.kind, c.name); got != c.ok {
			t.Errorf("ValidName(%s, %q) = %v, want %v (%s)", c.kind, c.name, got, c.ok, NameProblem(c.kind, c.name))
		}
		w, ok := KubectlName(c.kind, c.name)
		if ok != c.ok || ok && w != c.name {
			t.Errorf("KubectlName(%s, %q) = %q, %v", c.kind, c.name, w, ok)
		}
	}
}

func TestSafeCmd(t *testing.T) {
	cmd, ok := SafeCmd("kubectl", "replace", "--raw", NS("team-a").In("/api/v1/namespaces/", "/finalize"), "-f", "-")
	if !ok || cmd != "kubectl replace --raw /api/v1/namespaces/team-a/finalize -f -" {
		t.Errorf("got %q, %v", cmd, ok)
	}
	cmd, ok = SafeCmd("kubectl", "get", "ns", NS("x$(touch p)\n`id`"))
	if ok || !strings.HasPrefix(cmd, "# ") || strings.Contains(cmd, "\n") || !strings.Contains(cmd, `"x$(touch p)\n`+"`id`"+`"`) {
		t.Errorf("got %q, %v", cmd, ok)
	}
}

// TestShellQuoteRoundTrip: every quoted word reaches the program as the same bytes.
func TestShellQuoteRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"plain", "", "a b", "x$(id)`id`;echo I;#", "sq'x'", `dq"x"`, `bs\`, "-n", "*", "~root", "a=b", "€"} {
		out, err := exec.Command("sh", "-c", "printf '%s' "+Quote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("ShellQuote(%q) = %s reached printf as %q (%v)", w, Quote(w), out, err)
		}
	}
}

func TestCmdRefusesControlCharacters(t *testing.T) {
	for _, w := range []string{"a\nb", "a\rb", "a\x1b[2J", "a\u202eb", "a\u200bb", "a\x9bb"} {
		got := Cmd("kubectl", "get", "ns", w)
		if !strings.HasPrefix(got, "# ") || strings.ContainsAny(got, "\n\r\x1b\u202e\u200b") || !strings.HasPrefix(Comment("x")+got, "# ") {
			t.Errorf("Cmd with %q = %q", w, got)
		}
		// after a comment, as a rung may write it, still one comment line
		if line := Comment("restart it, then: ") + got; strings.Contains(line, "\n") {
			t.Errorf("comment + Cmd spans lines: %q", line)
		}
	}
}

func TestEscapeText(t *testing.T) {
	cases := map[string]string{
		"ok\tline\n":     "ok\tline\n",
		"\x1b[2J":        `\x1b[2J`,
		"\x7f":           `\x7f`,
		"\u009b2J":       `\u009b2J`,
		"\x9b2J":         `\x9b2J`, // invalid UTF-8: the raw byte
		"a\u202eb":       `a\u202eb`,
		"a\u2066b\u2069": `a\u2066b\u2069`,
		"z\u200bw\ufeff": `z\u200bw\ufeff`,
		"é €":            "é €",
	}
	for in, want := range cases {
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := EscapeLine("a\r\nb"); got != `a\x0d\nb` {
		t.Errorf("EscapeLine = %q", got)
	}
	if got := QuoteName("a\"b\\c\n\x1b"); got != `"a\"b\\c\n\x1b"` {
		t.Errorf("QuoteName = %q", got)
	}
}
