// Package conversionwebhook is the rule for CRD conversion webhooks that fail, so the
// objects of that CRD can be neither listed nor deleted.
package conversionwebhook
