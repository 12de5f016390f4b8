// Package contentremaining is the generic rule for objects that remain in a deleted
// namespace without finalizers of their own (pods on a node that stopped reporting, ...):
// what no specific rule claimed.
package contentremaining
