package index

import (
	"sort"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// The namespaces of Records.SlimNamespaces (Active, holding nothing a rule reads but
// their name) are not in Index.Namespaces: a cluster of a million namespaces is not
// held as a million *Objects (issue 32). No rule reads anything of them but that they
// exist: NamespaceExists, NamespaceCount and NamespaceNames see both, Namespace
// materializes one. The tests compare whole reports both ways over every fixture.

// addSlimNamespace indexes row r of Records.SlimNamespaces unless an earlier copy of the
// namespace was indexed (the first copy keeps its place; a slim copy, saying nothing
// but that the namespace exists, never says more than another).
func (ix *Index) addSlimNamespace(r int) {
	name := ix.Records.SlimNamespaces.Name(r)
	if _, ok := ix.slimNS[name]; ok {
		return
	}
	if _, ok := ix.Namespaces[name]; ok {
		return
	}
	ix.slimNS[name] = int32(r)
}

// promoteNamespace moves a slim namespace into Namespaces (and ByKind) as a whole
// object, and returns it (nil when the namespace is not slim).
func (ix *Index) promoteNamespace(name string) *objects.Object {
	r, ok := ix.slimNS[name]
	if !ok {
		return nil
	}
	delete(ix.slimNS, name)
	o := ix.Records.SlimNamespaces.Namespace(int(r))
	ix.Namespaces[name] = o
	ix.ByKind["Namespace"] = append(ix.ByKind["Namespace"], o)
	return o
}

// NamespaceExists reports whether the bundle holds a Namespace object of that name
// (whole or slim).
func (ix *Index) NamespaceExists(name string) bool {
	if _, ok := ix.Namespaces[name]; ok {
		return true
	}
	_, ok := ix.slimNS[name]
	return ok
}

// NamespaceCount is the number of namespaces the bundle holds an object of (whole or slim).
func (ix *Index) NamespaceCount() int { return len(ix.Namespaces) + len(ix.slimNS) }

// NamespaceNames lists the names of every namespace the bundle holds an object of
// (whole or slim), sorted.
func (ix *Index) NamespaceNames() []string {
	out := make([]string, 0, ix.NamespaceCount())
	for n := range ix.Namespaces {
		out = append(out, n)
	}
	for n := range ix.slimNS {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Namespace returns the Namespace object of that name (a slim one materialized, a new
// object each call), nil when the bundle holds none.
func (ix *Index) Namespace(name string) *objects.Object {
	if o, ok := ix.Namespaces[name]; ok {
		return o
	}
	if r, ok := ix.slimNS[name]; ok {
		return ix.Records.SlimNamespaces.Namespace(int(r))
	}
	return nil
}

// eachNamespaceName calls fn with the name of every namespace the bundle holds an
// object of (whole or slim), in no order, until fn returns false.
func (ix *Index) eachNamespaceName(fn func(string) bool) {
	for n := range ix.Namespaces {
		if !fn(n) {
			return
		}
	}
	for n := range ix.slimNS {
		if !fn(n) {
			return
		}
	}
}
