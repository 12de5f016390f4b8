package namespacefinalizer_test

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/namespacefinalizer"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, namespacefinalizer.Rule, "testdata") }
