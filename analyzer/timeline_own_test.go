package analyzer

import "testing"

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		text, name string
		want       bool
	}{
		{"namespace team-a deleted", "team-a", true},
		{"Pod/team-a/web-0 deleted", "team-a", true},
		{"deleting team-a.", "team-a", true},
		{"namespace team-ab deleted", "team-a", false},
		{"namespace my-team-a deleted", "team-a", false},
		{"x.team-a", "team-a", false},
		{"team-a-b then team-a", "team-a", true}, // the second occurrence counts
		{"", "team-a", false},
		{"team-a", "", false},
	} {
		if got := mentions(tc.text, tc.name); got != tc.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tc.text, tc.name, got, tc.want)
		}
	}
}
