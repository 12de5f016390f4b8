package ordereddeletion_test

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/ordereddeletion"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, ordereddeletion.Rule, "testdata") }
