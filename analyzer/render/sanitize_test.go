package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
)

// TestControlCharactersEscaped: a namespace name and a condition message carrying
// terminal escapes (clear screen, window title, bell) reach no format raw, and the
// caller's report is not changed.
func TestControlCharactersEscaped(t *testing.T) {
	evil := "evil\x1b[2Jns"
	r := &findings.Report{SchemaVersion: findings.SchemaVersion, Namespaces: []findings.NamespaceReport{{
		Name: evil, Verdict: "v\x1b]0;pwned\x07", Causes: []findings.Cause{{Type: apidiscovery.Name, Summary: "s\r\x9b",
			Evidence: []findings.Evidence{{File: "f", Line: 1, Text: "line\x1b[1A"}}}},
		Conditions: []findings.ConditionReport{{Type: "T", Status: "True", Message: "m\x1b[8m"}}}}}
	for _, format := range []string{"text", "markdown", "html"} {
		var buf bytes.Buffer
		if err := Render(&buf, r, format); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if i := strings.IndexFunc(out, isControl); i >= 0 {
			t.Errorf("%s output holds control character %q at %d", format, out[i], i)
		}
		if !strings.Contains(out, `evil\x1b[2Jns`) {
			t.Errorf("%s output does not show the escaped name", format)
		}
	}
	if r.Namespaces[0].Name != evil || r.Namespaces[0].Causes[0].Evidence[0].Text != "line\x1b[1A" {
		t.Error("rendering changed the caller's report")
	}
}
