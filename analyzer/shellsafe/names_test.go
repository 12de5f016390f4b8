package shellsafe

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

// apimachineryValid is the reference: apimachinery's own validation.
func apimachineryValid(kind NameKind, name string) bool {
	switch kind {
	case NamespaceName:
		return len(validation.IsDNS1123Label(name)) == 0
	case ObjectName, GroupName:
		return len(validation.IsDNS1123Subdomain(name)) == 0
	case FinalizerName:
		return len(validation.IsQualifiedName(name)) == 0
	case APIServiceName:
		return len(validation.IsDNS1123Subdomain(strings.TrimSuffix(name, "."))) == 0
	}
	return false
}

var nameCases = []struct {
	kind NameKind
	name string
	ok   bool
}{
	{NamespaceName, "team-a", true},
	{NamespaceName, "a", true},
	{NamespaceName, "", false},
	{NamespaceName, "Team", false},
	{NamespaceName, "a.b", false},
	{NamespaceName, "-n", false},
	{NamespaceName, "a-", false},
	{NamespaceName, "x$(id)", false},
	{NamespaceName, strings.Repeat("a", 63), true},
	{NamespaceName, strings.Repeat("a", 64), false},
	{ObjectName, "v1beta1.metrics.k8s.io", true},
	{ObjectName, "a..b", false},
	{ObjectName, ".a", false},
	{ObjectName, "a.", false},
	{ObjectName, "a.-b", false},
	{ObjectName, strings.Repeat("a", 100) + "." + strings.Repeat("b", 100), true},
	{ObjectName, strings.Repeat("a.", 127) + "a", false},
	{ObjectName, "cm;touch /tmp/p", false},
	{ObjectName, "a\nb", false},
	{ObjectName, "UPPER", false},
	{GroupName, "widgets.example.com", true},
	{FinalizerName, "kubernetes", true},
	{FinalizerName, "foregroundDeletion", true},
	{FinalizerName, "example.com/cleanup", true},
	{FinalizerName, "example.com/Clean_up.x", true},
	{FinalizerName, "example.com/x;id", false},
	{FinalizerName, "a/b/c", false},
	{FinalizerName, "/x", false},
	{FinalizerName, "x/", false},
	{FinalizerName, "Example.com/x", false},
	{FinalizerName, "_x", false},
	{FinalizerName, "x_", false},
	{FinalizerName, "example.com/" + strings.Repeat("a", 64), false},
	{APIServiceName, "v1.", true},
	{APIServiceName, "v1beta1.metrics.k8s.io", true},
	{APIServiceName, "v1..", false},
}

func TestValidName(t *testing.T) {
	for _, c := range nameCases {
		if got := ValidName(c.kind, c.name); got != c.ok {
			t.Errorf("ValidName(%s, %q) = %v, want %v", c.kind, c.name, got, c.ok)
		}
		if ref := apimachineryValid(c.kind, c.name); ref != c.ok {
			t.Errorf("apimachinery says %q is a valid %s: %v, the table says %v", c.name, c.kind, ref, c.ok)
		}
		if p := NameProblem(c.kind, c.name); (p == "") != c.ok {
			t.Errorf("NameProblem(%s, %q) = %q", c.kind, c.name, p)
		}
	}
}

// FuzzValidNameAgrees holds the hand-written rules to apimachinery's.
func FuzzValidNameAgrees(f *testing.F) {
	for _, c := range nameCases {
		f.Add(int(c.kind), c.name)
	}
	f.Fuzz(func(t *testing.T, kind int, name string) {
		k := NameKind(((kind % 5) + 5) % 5)
		if got, want := ValidName(k, name), apimachineryValid(k, name); got != want {
			t.Fatalf("ValidName(%s, %q) = %v, apimachinery %v", k, name, got, want)
		}
	})
}

func TestValidNameAllocatesNothing(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		for _, c := range nameCases {
			ValidName(c.kind, c.name)
		}
	})
	if n != 0 {
		t.Errorf("ValidName allocates %.0f times per run of the table, want 0", n)
	}
}
