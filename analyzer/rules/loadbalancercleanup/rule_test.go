package loadbalancercleanup_test

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/loadbalancercleanup"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, loadbalancercleanup.Rule, "testdata") }
