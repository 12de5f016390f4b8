package kubemsg

import (
	"regexp"
	"strings"
)

// CalledService is the Service a failed webhook or aggregator call went to, read from
// the error: kube-apiserver calls a Service reference at
// https://<service>.<namespace>.svc:<port><path> (k8s.io/apiserver's webhook client,
// staging/src/k8s.io/apiserver/pkg/util/webhook/client.go; the aggregator the same
// way), and reports a missing Service as `service "<name>" not found`.
type CalledService struct {
	Namespace, Name string
	// NotFound is true when the error says the Service does not exist.
	NotFound bool
}

var (
	// `Post "https://svc.ns.svc:443/path?timeout=10s"`, `https://svc.ns.svc/convert`,
	// `.svc.cluster.local`; the quote may be escaped inside a structured value
	calledServiceURL = regexp.MustCompile(`https://([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.svc(?:\.cluster\.local)?(?::\d+)?(?:[/?"\\ ]|$)`)
	// `service "name" not found` (webhook client), `services "name" not found` (API errors)
	serviceNotFound = regexp.MustCompile(`services? \\?"([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\\?" not found`)
)

// ParseCalledService finds the Service a failed call went to in an error text.
func ParseCalledService(detail string) (CalledService, bool) {
	m := calledServiceURL.FindStringSubmatch(detail)
	if m == nil {
		return CalledService{}, false
	}
	s := CalledService{Name: m[1], Namespace: m[2]}
	if nf := serviceNotFound.FindStringSubmatch(detail); nf != nil && nf[1] == s.Name {
		s.NotFound = true
	} else if strings.Contains(detail, "ServiceNotFound") {
		s.NotFound = true
	}
	return s, true
}
