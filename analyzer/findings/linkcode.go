package findings

import (
	"slices"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Link codes (Link.Code): the state of a link's component in the fingerprint's closed
// vocabulary (docs/fingerprint.md), set where the link's finding is composed. An error
// a link quotes is coded by its class instead (ErrorCode).
const (
	CodeUnschedulable          = "unschedulable"            // a pod is not scheduled to a node
	CodeCrashLoop              = "crashloop"                // a container waits in CrashLoopBackOff
	CodeImagePull              = "image-pull"               // a container's image cannot be pulled
	CodeNone                   = "none"                     // no pod matches the Service's selector
	CodePortMismatch           = "port-mismatch"            // the Service's port name is not among the endpoints'
	CodeNotReady               = "not-ready"                // no ready address, a pod or node not Ready
	CodeInTerminatingNamespace = "in-terminating-namespace" // it lives in a namespace being deleted
	CodePermissionDenied       = "permission-denied"        // the cloud refuses the controller's calls
	CodeNoRoute                = "no-route"                 // the route controller cannot create the routes
	CodeNoLeader               = "no-leader"                // no kube-controller-manager holds the leadership
	CodeStopped                = "stopped"                  // its log ends before the deletion
	CodeStaleConditions        = "stale-conditions"         // the namespace's conditions are stale
	CodeNoConditions           = "no-conditions"            // the namespace has no deletion conditions
	CodeFailing                = "failing"                  // its controller is present but not healthy
	CodeAbsent                 = "absent"                   // nothing in the bundle runs its controller
	CodeRunning                = "running"                  // its controller runs
	CodeUnknown                = "unknown"                  // the bundle cannot show whether its controller runs
	CodeNotFound               = "not-found"                // it does not exist
)

// codeOrder is the precedence of codes where one link establishes several: the most
// telling first.
var codeOrder = []string{CodeUnschedulable, CodeCrashLoop, CodeImagePull, CodeNone, CodePortMismatch,
	CodeInTerminatingNamespace, CodePermissionDenied, CodeNoRoute, CodeNoLeader, CodeStopped,
	CodeStaleConditions, CodeNoConditions, CodeFailing, CodeAbsent, CodeRunning, CodeUnknown, CodeNotFound, CodeNotReady}

// FirstCode is the most telling of codes (by codeOrder; "" when none is set).
func FirstCode(codes ...string) string {
	best := ""
	for _, c := range codes {
		if c == "" {
			continue
		}
		if best == "" || rank(c) < rank(best) {
			best = c
		}
	}
	return best
}

func rank(code string) int {
	if i := slices.Index(codeOrder, code); i >= 0 {
		return i
	}
	return len(codeOrder)
}

// ErrorCode is the code of an error message a link quotes (the message as the bundle
// holds it, never the analyzer's sentence around it): its class by kubemsg.ClassifyError,
// "" when it has none.
func ErrorCode(msg string) string {
	return ClassCode(kubemsg.ClassifyError(msg).Code)
}

// ClassCode is the link code of an error class of kubemsg.ClassifyError ("" for
// "unknown"): the class itself, but for classes whose name holds digits.
func ClassCode(class string) string {
	if class == "unknown" || class == "" {
		return ""
	}
	if slug, ok := codeSlugs[class]; ok {
		return slug
	}
	return class
}

// PodsCode is the state of a set of pods as a link code: the most telling of their
// states (not scheduled, crash-looping, an image that cannot be pulled, not Ready).
func PodsCode(pods []*objects.Object) string {
	var codes []string
	for _, pod := range pods {
		pi := pod.Pod
		if pi == nil {
			continue
		}
		if pi.NodeName == "" {
			codes = append(codes, CodeUnschedulable)
		}
		for _, w := range pi.Waiting {
			switch w {
			case "CrashLoopBackOff":
				codes = append(codes, CodeCrashLoop)
			case "ImagePullBackOff", "ErrImagePull", "InvalidImageName":
				codes = append(codes, CodeImagePull)
			}
		}
		if !pi.Ready {
			codes = append(codes, CodeNotReady)
		}
	}
	return FirstCode(codes...)
}
