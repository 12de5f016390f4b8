package kubemsg

import "regexp"

// availabilityURL is the start of kube-aggregator's availability check failure, the
// Available condition's message under reason FailedDiscoveryCheck: "failing or missing
// response from %v: %v" (kube-aggregator pkg/controllers/status/available_controller.go
// to v1.30, remote/remote_available_controller.go from v1.31), whose %v is the URL the
// check GETs: the backing Service's address, then "/apis/" + spec.group + "/" +
// spec.version. The address may be an IP, a name or an author's placeholder
// (KEDA_METRICS_SERVER_IP:6443); the path names the APIService.
var availabilityURL = regexp.MustCompile(`failing or missing response from https?://[^/\s"\\]+/apis/` +
	`([a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*)/` +
	`(v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?)(?:[:\s"\\]|$)`)

// ParseAvailabilityCheck reads kube-aggregator's "failing or missing response from
// URL: ..." wherever it stands (an APIService's condition pasted without the object,
// with or without the "FailedDiscoveryCheck: " reason before it, a tool's check
// output quoting it): the APIService it is about (VERSION.GROUP, from the URL's
// /apis/GROUP/VERSION), which the message shows Available=False with reason
// FailedDiscoveryCheck.
func ParseAvailabilityCheck(msg string) (apiService string, ok bool) {
	m := availabilityURL.FindStringSubmatch(msg)
	if m == nil || len(m[1]) > 253 {
		return "", false
	}
	return m[2] + "." + m[1], true
}
