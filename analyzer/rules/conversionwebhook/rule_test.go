package conversionwebhook_test

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/conversionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, conversionwebhook.Rule, "testdata") }
