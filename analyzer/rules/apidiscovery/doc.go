// Package apidiscovery is the rule for aggregated API group/versions that cannot be
// discovered (a broken APIService): the namespace controller cannot prove a namespace is
// empty, so every namespace deletion hangs while it lasts.
package apidiscovery
