package analyzer

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// fakeRule is a registrable rule that finds nothing.
func fakeRule(name string, claims, yields []findings.ClaimKind, requires ...*Rule) *Rule {
	return &Rule{Name: name, Doc: "test rule", Claims: claims, Yields: yields, Requires: requires,
		Run:     func(*Pass) ([]findings.Cause, string) { return nil, "" },
		Ladder:  func(*Pass, *findings.Cause) []findings.RemediationStep { return nil },
		Example: func(*Pass) findings.Cause { return findings.Cause{} }}
}

func names(rs []*Rule) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return strings.Join(out, " ")
}

// TestPlanOrder: the run order follows Requires and Yields whatever the registry's
// order, and takes the rules the declarations leave unordered by name.
func TestPlanOrder(t *testing.T) {
	objs := []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers}
	all := []findings.ClaimKind{findings.ClaimsObjects, findings.ClaimsFinalizers, findings.ClaimsResources, findings.ClaimsGroups, findings.ClaimsContent}
	generic := fakeRule("a-generic", []findings.ClaimKind{findings.ClaimsObjects}, all)
	later := fakeRule("b-generic", []findings.ClaimKind{findings.ClaimsObjects}, all, generic)
	lb := fakeRule("c-specific-yields-content", objs, []findings.ClaimKind{findings.ClaimsContent})
	content := fakeRule("z-content", []findings.ClaimKind{findings.ClaimsContent}, nil)
	plain := fakeRule("y-objects", objs, nil)
	for _, reg := range [][]*Rule{
		{generic, later, lb, content, plain},
		{later, plain, content, generic, lb},
		{lb, generic, plain, later, content},
	} {
		got, err := Order(reg)
		if err != nil {
			t.Fatal(err)
		}
		// y-objects and z-content are unordered: by name; c waits for z's content;
		// the generic rules wait for every claim; b requires a
		const want = "y-objects z-content c-specific-yields-content a-generic b-generic"
		if names(got) != want {
			t.Errorf("registry %s: run order %q, want %q", names(reg), names(got), want)
		}
		if err := Validate(reg); err != nil {
			t.Errorf("Validate: %v", err)
		}
	}
}

// TestPlanCycle: declarations that cannot be ordered are refused by Validate (the
// registry's init), naming the declarations of the cycle.
func TestPlanCycle(t *testing.T) {
	a := fakeRule("a", []findings.ClaimKind{findings.ClaimsObjects}, nil)
	b := fakeRule("b", []findings.ClaimKind{findings.ClaimsContent}, []findings.ClaimKind{findings.ClaimsObjects}) // after a
	a.Requires = []*Rule{b}                                                                                        // and a after b
	c := fakeRule("c", nil, nil)
	err := Validate([]*Rule{c, a, b})
	if err == nil {
		t.Fatal("a cycle (a requires b, b yields objects, which a claims) is accepted")
	}
	for _, w := range []string{"cycle", "a requires b", "b yields objects, which a claims"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error %q does not say %q", err, w)
		}
	}
	// a cycle through Yields alone: each yields a kind the other claims
	d := fakeRule("d", []findings.ClaimKind{findings.ClaimsContent}, []findings.ClaimKind{findings.ClaimsGroups})
	e := fakeRule("e", []findings.ClaimKind{findings.ClaimsGroups}, []findings.ClaimKind{findings.ClaimsContent})
	if err := Validate([]*Rule{d, e}); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a cycle of yields is accepted: %v", err)
	}
	// a required rule not registered, an unknown kind
	if err := Validate([]*Rule{fakeRule("f", nil, nil, fakeRule("g", nil, nil))}); err == nil {
		t.Error("a rule requiring an unregistered rule is accepted")
	}
	if err := Validate([]*Rule{fakeRule("h", []findings.ClaimKind{"pods"}, nil)}); err == nil {
		t.Error("an unknown kind of claim is accepted")
	}
}
