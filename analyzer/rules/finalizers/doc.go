// Package finalizers is the generic rule for objects whose finalizers no running
// controller removes (its owner is absent, failing, or healthy and still working): what
// no specific rule claimed.
package finalizers
