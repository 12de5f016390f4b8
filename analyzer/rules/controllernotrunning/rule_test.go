package controllernotrunning_test

import (
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/rules/controllernotrunning"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, controllernotrunning.Rule, "testdata") }
