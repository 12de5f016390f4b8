// Package admissionwebhook is the rule for admission webhooks that stop a namespace's
// deletion: a fail-closed webhook whose backend cannot be reached rejects the namespace
// controller's deletes, or a webhook (Gatekeeper, Kyverno, Kubewarden, ...) denies them.
package admissionwebhook
