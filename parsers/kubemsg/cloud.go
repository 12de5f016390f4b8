package kubemsg

import "strings"

// The controllers of cloud-controller-manager (k8s.io/cloud-provider/controllers; in
// kube-controller-manager for the in-tree providers before they were removed) whose
// failures hold a namespace's deletion: the route controller (routes from the control
// plane to the pod network), the service controller (cloud load balancers, behind the
// service.kubernetes.io/load-balancer-cleanup finalizer) and the node controllers.
const (
	CloudRoute   = "route"
	CloudService = "service"
	CloudNode    = "node"
)

// cloudFailures are the controllers' own failure lines, quoted from
// k8s.io/cloud-provider (1.14-1.34: the wording has not changed):
// route/route_controller.go and service/controller.go.
var cloudFailures = []struct{ phrase, controller string }{
	{"reconcile node routes", CloudRoute},                                    // klog.Errorf("Couldn't reconcile node routes: %v", err)
	{"Could not create route", CloudRoute},                                   // klog.Errorf("Could not create route %s %s for node %s: %v", ...)
	{"Could not delete route", CloudRoute},                                   // klog.Errorf("Could not delete route %s %s after %v: %v", ...)
	{"failed to delete load balancer", CloudService},                         // fmt.Errorf("failed to delete load balancer: %v", err)
	{"failed to check if load balancer exists before cleanup", CloudService}, // fmt.Errorf("failed to check if load balancer exists before cleanup: %v", err)
	{"Error deleting load balancer", CloudService},                           // event DeleteLoadBalancerFailed
	{"failed to remove load balancer cleanup finalizer", CloudService},       // fmt.Errorf("failed to remove load balancer cleanup finalizer: %v", err)
}

// cloudDenials are the clouds' own words for a refused call (AWS, Azure, GCP,
// OpenStack and the S3-style APIs): the caller's role or policy lacks a permission.
var cloudDenials = []string{
	"UnauthorizedOperation",                         // AWS EC2
	"AccessDenied",                                  // AWS (AccessDenied, AccessDeniedException), S3-style APIs
	"AuthorizationFailed",                           // Azure Resource Manager
	"does not have authorization to perform action", // Azure Resource Manager message
	"PERMISSION_DENIED",                             // GCP (gRPC status)
	"' permission for '",                            // GCP: "Required 'compute.routes.list' permission for 'projects/...'"
}

// CloudPhrases are the literal phrases of the cloud controllers' failures and of the
// clouds' refusals: the analyzer's prefilter includes them.
func CloudPhrases() []string {
	var out []string
	for _, f := range cloudFailures {
		out = append(out, f.phrase)
	}
	return append(out, cloudDenials...)
}

// CloudLine is what a log line says about a cloud controller.
type CloudLine struct {
	// Controller is the controller the line is about (CloudRoute, CloudService,
	// CloudNode), or "" when nothing in the line attributes it.
	Controller string
	// Failure: the controller's own failure line; Denial: the cloud refused a call.
	Failure, Denial bool
}

// ParseCloudLine reports whether a log text is a cloud controller's failure or a
// cloud's refusal, and of which controller: the failure phrase names it; a refusal
// is attributed by what the refused call manages (routes, load balancers, instances)
// or by the logging source file (caller), never by default.
func ParseCloudLine(text, caller string) (CloudLine, bool) {
	var l CloudLine
	for _, f := range cloudFailures {
		if strings.Contains(text, f.phrase) {
			l.Failure, l.Controller = true, f.controller
			break
		}
	}
	for _, d := range cloudDenials {
		if strings.Contains(text, d) {
			l.Denial = true
			break
		}
	}
	if !l.Failure && !l.Denial {
		return l, false
	}
	if l.Controller == "" {
		l.Controller = cloudControllerOf(text, caller)
	}
	return l, true
}

// cloudControllerOf attributes a refusal to the controller whose resources it names.
func cloudControllerOf(text, caller string) string {
	lower := strings.ToLower(text)
	switch {
	case strings.HasPrefix(caller, "route_controller.go"):
		return CloudRoute
	case strings.Contains(lower, "load balancer"), strings.Contains(lower, "loadbalancer"), strings.Contains(lower, "elasticloadbalancing"),
		strings.Contains(lower, "forwardingrule"), strings.Contains(lower, "targetpool"), strings.Contains(lower, "backendservice"):
		return CloudService
	case strings.Contains(lower, "route"):
		return CloudRoute
	case strings.Contains(lower, "describeinstances"), strings.Contains(lower, "instances.get"), strings.Contains(lower, "virtualmachines"),
		strings.Contains(caller, "node_controller.go"), strings.Contains(caller, "node_lifecycle_controller.go"):
		return CloudNode
	}
	return ""
}
