package analyzer

import (
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// UndeterminedDoc explains the "undetermined" cause, which no rule reports.
const UndeterminedDoc = `No rule could prove why the namespace is stuck.

The namespace has a deletion timestamp, but the bundle holds neither a condition nor a
log line nor an object that explains it: the namespace controller's conditions are
missing or all False, no finalizer is left on the objects the bundle holds, and the
controller's log has no failure for the namespace. Usually the bundle lacks what would
show it (the namespace's own objects, APIServices, webhook configurations, or the
kube-controller-manager log around the deletion time); the report lists what to collect.`

// RuleByName returns the rule that reports a cause type, or nil.
func RuleByName(name string) *Rule {
	for _, r := range Rules {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// ExampleLadder returns the remediation ladder the analyzer writes for a cause type,
// computed by the same code as in a report, on placeholder names (NAMESPACE, NAME,
// example.com/FINALIZER, ...): what "nsanalyze explain" prints.
func ExampleLadder(causeType string) []RemediationStep {
	const ns = "NAMESPACE"
	ix := NewIndex(&bundle.Records{})
	p := &Pass{Index: ix, Namespace: ns, Stuck: map[string]bool{ns: true},
		Object: &objects.Object{Kind: "Namespace", Name: ns, SpecFinalizers: []string{"kubernetes"}}}
	c := Cause{Type: causeType}
	switch causeType {
	case CauseAPIDiscovery:
		name := "v1beta1.metrics.k8s.io"
		ix.APIServices[name] = &objects.Object{Kind: "APIService", Name: name, APIService: &objects.APIServiceInfo{
			Group: "metrics.k8s.io", Version: "v1beta1",
			Service: &objects.ServiceReference{Namespace: "SERVICE-NAMESPACE", Name: "SERVICE"}}}
		c.GroupVersions, c.APIServices = []string{"metrics.k8s.io/v1beta1"}, []string{name}
	case CauseFinalizers:
		c.Finalizers = []string{"example.com/FINALIZER"}
		c.Objects = []ObjectRef{{APIVersion: "example.com/v1", Kind: "KIND", Namespace: ns, Name: "NAME",
			Resource: "RESOURCES.example.com", Finalizers: c.Finalizers}}
	case CauseContentRemaining:
		c.Objects = []ObjectRef{{APIVersion: "v1", Kind: "Pod", Namespace: ns, Name: "NAME", Resource: "pods"}}
	case CauseAdmissionWebhook:
		c.Webhooks = []string{"WEBHOOK.example.com"}
		c.Objects = []ObjectRef{{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration", Name: "WEBHOOK-CONFIGURATION"}}
	case CauseConversionWebhook:
		c.Objects = []ObjectRef{{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "RESOURCES.example.com"}}
	case CauseNamespaceFinalizer:
		c.Finalizers = []string{"example.com/FINALIZER"}
		p.Object.Finalizers = c.Finalizers
	}
	nr := NamespaceReport{Name: ns, Causes: []Cause{c}}
	return remediation(p, nr)
}
