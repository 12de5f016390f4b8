package shellsafe

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func TestGuard(t *testing.T) {
	var g Guard
	if !g.Add(NamespaceName, "team-a") || !g.Add(ObjectName, "") {
		t.Fatal("a valid or empty name was refused")
	}
	if g.Add(ObjectName, "cm;id") || g.Add(NamespaceName, "x'$(id)") || g.Add(ObjectName, "UPPER") {
		t.Fatal("an invalid name was accepted")
	}
	g.Add(ObjectName, "cm;id") // twice: kept once
	if g.Len() != 3 {
		t.Fatalf("Len() = %d, want 3", g.Len())
	}
	for _, tc := range []struct{ cmd, want string }{
		{"kubectl get ns team-a", "kubectl get ns team-a"},
		{Cmd("kubectl", "-n", "team-a", "get", "cm", "cm;id"), NotRun(ObjectName, "cm;id")},
		{Cmd("kubectl", "get", "ns", "x'$(id)"), NotRun(NamespaceName, "x'$(id)")},
		{Cmd("kubectl", "rollout", "restart", "deployment/UPPER"), NotRun(ObjectName, "UPPER")},
		// the first name added wins when a command carries several
		{Cmd("kubectl", "get", "UPPER", "cm;id"), NotRun(ObjectName, "cm;id")},
		{"kubectl get ns a && " + Cmd("kubectl", "get", "ns", "a\nb") + " && kubectl get pods", Cmd("x", "a\nb")},
	} {
		if got := g.Check(tc.cmd); got != tc.want {
			t.Errorf("Check(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
	var empty Guard
	if got := empty.Check("kubectl get ns UPPER"); got != "kubectl get ns UPPER" {
		t.Errorf("an empty guard changed %q", got)
	}
}

// TestGuardLinear counts the automaton's steps: n names and n commands, then 2n and
// 2n: the work doubles (a check of every command against every name would quadruple).
func TestGuardLinear(t *testing.T) {
	work := func(n int) int {
		var g Guard
		for i := 0; i < n; i++ {
			g.Add(ObjectName, fmt.Sprintf("bad;name-%d", i))
		}
		g.Prepare()
		guardSteps = 0
		for i := 0; i < n; i++ {
			g.Check(Cmd("kubectl", "-n", "team-a", "patch", "widgets.example.com", fmt.Sprintf("w-%d", i), "--type=merge", "-p", `{"metadata":{"finalizers":null}}`))
		}
		return guardSteps
	}
	a, b := work(1000), work(2000)
	if r := float64(b) / float64(a); r > 2.2 {
		t.Errorf("Guard.Check: %d steps for 1,000 names and commands, %d for 2,000 (%.2f×, want ≤ 2.2×)", a, b, r)
	}
}

// TestQuoteRoundTrip: every quoted word reaches the program as the same bytes.
func TestQuoteRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"plain", "", "a b", "x$(id)`id`;echo I;#", "sq'x'", `dq"x"`, `bs\`, "-n", "*", "~root", "a=b", "€", "''"} {
		for _, q := range []string{Quote(w), QuoteAlways(w)} {
			out, err := exec.Command("sh", "-c", "printf '%s' "+q).Output()
			if err != nil || string(out) != w {
				t.Errorf("%s reached printf as %q (%v), want %q", q, out, err, w)
			}
		}
	}
	if got := Cmd("kubectl", "get", "ns", "a b", "it's"); got != `kubectl get ns 'a b' 'it'\''s'` {
		t.Errorf("Cmd = %s", got)
	}
	if got := Cmd("kubectl", "get", "ns", "a\x1b[2J"); !strings.HasPrefix(got, "# no command:") {
		t.Errorf("Cmd with an escape sequence = %q", got)
	}
}
