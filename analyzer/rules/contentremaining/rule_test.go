package contentremaining_test

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/contentremaining"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, contentremaining.Rule, "testdata") }
