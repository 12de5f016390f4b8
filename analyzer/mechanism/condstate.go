package mechanism

import (
	"fmt"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// CondState renders a condition's state for a sentence: "Type is Status (Reason)", or
// "Type is Status" when the bundle shows no reason (a jsonpath paste of type and status).
func CondState(c *objects.Condition) string {
	if c.Reason == "" {
		return fmt.Sprintf("%s is %s", c.Type, c.Status)
	}
	return fmt.Sprintf("%s is %s (%s)", c.Type, c.Status, c.Reason)
}
