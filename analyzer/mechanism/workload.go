package mechanism

import (
	"fmt"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// BackendWorkload finds the Deployment/StatefulSet/DaemonSet whose pods a Service selects.
func BackendWorkload(ix *index.Index, svc *objects.ServiceReference) *objects.Object {
	s := ix.Find("Service", svc.Namespace, svc.Name)
	if s == nil || s.Service == nil || len(s.Service.Selector) == 0 {
		return nil
	}
	for _, kind := range []string{"Deployment", "StatefulSet", "DaemonSet"} {
		for _, w := range ix.ByKind[kind] {
			if w.Namespace != svc.Namespace || w.Workload == nil || len(w.Workload.Selector) == 0 {
				continue
			}
			ok := true
			for k, v := range w.Workload.Selector {
				if s.Service.Selector[k] != v {
					ok = false
				}
			}
			if ok {
				return w
			}
		}
	}
	return nil
}

// InterceptsDelete reports whether a webhook's rules match DELETE operations.
func InterceptsDelete(wh objects.Webhook) bool {
	for _, r := range wh.Rules {
		for _, op := range r.Operations {
			if op == "DELETE" || op == "*" {
				return true
			}
		}
	}
	return false
}

// BackendBroken reports whether the bundle shows a Service with no ready endpoints
// (only when the Service and its endpoints were dumped).
func BackendBroken(ix *index.Index, ref *objects.ServiceReference) (bool, string) {
	svc := ix.Find("Service", ref.Namespace, ref.Name)
	if svc == nil {
		if ix.ServicesDumped(ref.Namespace) {
			return true, "does not exist"
		}
		return false, ""
	}
	if svc.Service != nil && svc.Service.Type == "ExternalName" {
		return false, ""
	}
	ready, seen := 0, false
	for _, o := range ix.InNamespace(ref.Namespace, "EndpointSlice") {
		if o.Endpoints != nil && o.Endpoints.ServiceName == ref.Name {
			seen = true
			ready += o.Endpoints.Ready
		}
	}
	if !seen {
		if e := ix.Find("Endpoints", ref.Namespace, ref.Name); e != nil {
			seen = true
			ready = e.Endpoints.Ready
		}
	}
	if seen && ready == 0 {
		return true, "has no ready endpoints"
	}
	return false, ""
}

// FmtRules renders a webhook's rules (operations on resources) in one line.
func FmtRules(rs []objects.WebhookRule) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%s %s", strings.Join(r.Operations, ","), strings.Join(r.Resources, ",")))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}
