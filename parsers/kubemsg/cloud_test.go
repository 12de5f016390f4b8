package kubemsg

import "testing"

// TestParseCloudLine attributes cloud controller lines and the clouds' refusals to the
// controller they are about, on real wordings (k8s.io/cloud-provider's templates, the
// clouds' error texts); a refusal nothing attributes stays unattributed.
func TestParseCloudLine(t *testing.T) {
	for _, tc := range []struct {
		text, caller string
		want         CloudLine
		ok           bool
	}{
		{"Couldn't reconcile node routes: error listing routes: UnauthorizedOperation: You are not authorized to perform this operation.", "route_controller.go:119",
			CloudLine{Controller: CloudRoute, Failure: true, Denial: true}, true},
		{"Could not create route 4f1b2c3e-... 10.244.1.0/24 for node worker-1 after 1.2s: RouteTableLimitExceeded", "route_controller.go:327",
			CloudLine{Controller: CloudRoute, Failure: true}, true},
		{"error processing service shop/storefront (retrying with exponential backoff): failed to delete load balancer: AccessDenied: User: arn:aws:sts::1:assumed-role/ccm/i-0 is not authorized to perform: elasticloadbalancing:DeleteLoadBalancer", "controller.go:302",
			CloudLine{Controller: CloudService, Failure: true, Denial: true}, true},
		{`"Unhandled Error" err="error processing service web/ingress (retrying with exponential backoff): failed to check if load balancer exists before cleanup: network.LoadBalancersClient#Get: Failure responding to request: StatusCode=403 Code=\"AuthorizationFailed\""`, "",
			CloudLine{Controller: CloudService, Failure: true, Denial: true}, true},
		{"googleapi: Error 403: Required 'compute.routes.list' permission for 'projects/acme-prod', forbidden", "",
			CloudLine{Controller: CloudRoute, Denial: true}, true},
		{"The client 'ccm' with object id '0000' does not have authorization to perform action 'Microsoft.Network/loadBalancers/delete' over scope '/subscriptions/...'", "",
			CloudLine{Controller: CloudService, Denial: true}, true},
		{"failed to get instance metadata: DescribeInstances: UnauthorizedOperation: You are not authorized to perform this operation.", "node_controller.go:229",
			CloudLine{Controller: CloudNode, Denial: true}, true},
		{"AccessDenied: Access Denied (Service: S3; Status Code: 403)", "",
			CloudLine{Denial: true}, true}, // velero, a CSI driver: nothing says which controller
		{"Successfully reconciled node routes", "route_controller.go:120", CloudLine{}, false},
	} {
		got, ok := ParseCloudLine(tc.text, tc.caller)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseCloudLine(%q) = %+v, %v; want %+v, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

// TestCloudPhrasesFindTheirLines: every phrase the prefilter gets for the cloud
// controllers is one ParseCloudLine recognises (a phrase and its matcher are one list).
func TestCloudPhrasesFindTheirLines(t *testing.T) {
	for _, p := range CloudPhrases() {
		if _, ok := ParseCloudLine("x "+p+" y", ""); !ok {
			t.Errorf("phrase %q is not recognised by ParseCloudLine", p)
		}
	}
}

func FuzzParseCloudLine(f *testing.F) {
	for _, p := range CloudPhrases() {
		f.Add("E0101 " + p + ": load balancer route")
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, ok := ParseCloudLine(text, "route_controller.go:1")
		if ok != (l.Failure || l.Denial) {
			t.Fatalf("ok %v but %+v", ok, l)
		}
		switch l.Controller {
		case "", CloudRoute, CloudService, CloudNode:
		default:
			t.Fatalf("controller %q", l.Controller)
		}
	})
}
