package analyzer

import (
	"fmt"
	"slices"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// checkKinds reports, once per rule and kind, a cause that claims a kind its rule does
// not declare in Claims: the run order is derived from the declarations, so an
// undeclared claim may be seen by some rules and not by others.
func checkKinds(w *warnings, r *Rule, c *findings.Cause) {
	for _, k := range c.ClaimKinds() {
		if !slices.Contains(r.Claims, k) {
			w.ruleError(fmt.Sprintf("rule %s: a cause claims %s, which the rule does not declare in Claims: the order of the rules is derived from what they declare", r.Name, k), "")
		}
	}
}

// warnings are what the analysis itself warns about, beyond the bundle's own warnings:
// rungs left out because their premise failed (checkPremises) and rule errors
// (undeclared claims: ruleError). Both are programming errors of nsanalyze, never
// properties of the bundle; the tests fail on them.
type warnings struct {
	premise []diag.Warning
	rule    []diag.Warning
	said    map[string]bool // rule errors already said
}

// ruleError adds a rule error to the report's warnings, once per message (what
// follows it, the namespace it was seen in, is the first one's).
func (w *warnings) ruleError(msg, where string) {
	if w.said[msg] {
		return
	}
	if w.said == nil {
		w.said = map[string]bool{}
	}
	w.said[msg] = true
	w.rule = append(w.rule, diag.Warning{File: RuleWarningFile, Message: msg + where + " (a programming error in nsanalyze: please report it)"})
}

// RuleWarningFile is the File of the report's warnings about the rules themselves
// (undeclared claims): a programming error, never a property of the bundle.
const RuleWarningFile = "nsanalyze rules"
