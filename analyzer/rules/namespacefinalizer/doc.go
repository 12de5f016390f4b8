// Package namespacefinalizer is the rule for a Namespace that carries a finalizer of
// its own (spec.finalizers other than kubernetes, metadata.finalizers) that another
// controller must remove.
package namespacefinalizer
