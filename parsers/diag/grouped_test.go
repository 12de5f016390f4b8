package diag

import (
	"fmt"
	"strings"
	"testing"
)

// TestGrouped: a kind seen GroupMin times or more is one line with its count (those
// over the kind limit included) and examples, at its first place; rarer kinds and
// warnings without a kind stay as they are. Linear: n and 2n warnings give one line.
func TestGrouped(t *testing.T) {
	for _, n := range []int{873, 1746} {
		s := &Sink{KindLimit: 500}
		s.Add("a.yaml", 3, "invalid YAML document: %v", "yaml: line 3: x")
		for i := 0; i < n; i++ {
			s.Add(fmt.Sprintf("ns/p%d/logs/previous.log", i), 0, "empty file")
		}
		s.Add("b.json", 1, "object has a field of the wrong type (%s: %s), the rest of it was read", "status", "number")
		s.Add("c.json", 1, "object has a field of the wrong type (%s: %s), the rest of it was read", "status", "string")
		s.List = append(s.List, Warning{File: "x", Message: "further warnings for this file suppressed"})
		s.kinds = append(s.kinds, "")
		g := s.Grouped()
		var got []string
		for _, w := range g {
			got = append(got, w.String())
		}
		if s2 := (&Sink{}); true {
			for i := 0; i < 4; i++ {
				s2.Add(fmt.Sprintf("f%d", i), 0, "empty file")
			}
			if g2 := s2.Grouped(); len(g2) != 1 || g2[0].String() != "f0: empty file (4 warnings of this kind, in 4 files; also f1: empty file; f2: empty file; f3: empty file)" {
				t.Errorf("grouped %v", g2)
			}
		}
		if len(g) != 5 || g[1].Count != n || len(g[1].Examples) != maxGroupExamples ||
			!strings.HasPrefix(got[1], fmt.Sprintf("ns/p0/logs/previous.log: empty file (%d warnings of this kind; also ns/p1/logs/previous.log: empty file; ", n)) ||
			got[0] != "a.yaml:3: invalid YAML document: yaml: line 3: x" || got[2] != "b.json:1: object has a field of the wrong type (status: number), the rest of it was read" {
			t.Errorf("n=%d: grouped\n%s", n, strings.Join(got, "\n"))
		}
	}
}
