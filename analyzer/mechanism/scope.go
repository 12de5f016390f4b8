package mechanism

import "github.com/nsanalyze/nsanalyze/analyzer/index"

// Scope is where a mechanism looks: the index of the whole bundle, the namespace being
// explained and every stuck namespace of the bundle (a Pass is a Scope and more).
type Scope struct {
	Index     *index.Index
	Namespace string
	Stuck     map[string]bool
}
