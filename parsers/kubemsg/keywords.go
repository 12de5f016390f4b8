package kubemsg

// LogKeywords are the literal phrases whose log lines the analyzer needs. A log line
// that contains none of them is never parsed (the log scanner searches for them in
// large blocks before splitting lines, as grep does). Each phrase is quoted from the
// Kubernetes source; every example line of the message catalogue (catalog.json) contains
// one of them (TestCatalog).
var LogKeywords = []string{
	"eletion of namespace",                                // KCM namespace controller: 1.16+ "deletion of namespace X failed", 1.35 "Deletion of namespace failed" namespace=X
	"unable to retrieve the complete list of server APIs", // client-go discovery (KCM quota, pre-1.16 namespace controller, kubectl)
	"failed to discover some groups",                      // KCM garbage collector
	"nable to get all supported resources from server",    // namespace deleter start-up (1.35: "Unable to get ...")
	"unexpected items still remain in namespace",          // namespace deleter, per resource (bare in 1.8-1.15 KCM lines)
	"failed to delete pods for namespace",                 // KEP-5080 ordered namespace deletion (1.33+, backports)
	"pods still remain, delaying deletion",                // KEP-5080 V(5) line
	"unable to fetch metrics from",                        // HPA metrics clients (metrics.k8s.io & co. unavailable)
	// namespace condition messages (1.16+), for logs that echo a condition (kubectl describe, events)
	"Discovery failed for some groups",
	"Some resources are remaining",
	"finalizers remaining",
	"Failed to delete all resource types",
	"couldn't get resource list for",         // client-go memcache (KCM RESTMapper, kubectl)
	"failed with: ",                          // aggregator availability and OpenAPI aggregation
	"changing APIService availability",       // aggregator, V(2), 1.22+
	"error resolving ",                       // aggregator proxy
	"ailed calling webhook",                  // admission webhooks (both capitalisations)
	"failed calling admission webhook",       // admission webhooks 1.8-1.12
	"denied the request",                     // admission webhook denials (and the policy engines' messages inside them)
	"rejected by webhook",                    // kube-apiserver: a webhook denied a request
	"blocked due to the following policies",  // Kyverno 1.x denial, quoted without Kubernetes' wrapping
	":kube-system:namespace-controller",      // kube-apiserver request log: the namespace controller's user agent (service account credentials)
	"/namespace-controller",                  // ... (its client name: "kube-controller-manager/v1.x ... kubernetes/<hash>/namespace-controller")
	"conversion webhook",                     // CRD conversion webhooks
	"Namespace has been deleted",             // namespace controller: a namespace finished
	"Starting namespace controller",          // namespace controller (re)started
	"successfully acquired lease",            // leader election (KCM restarts)
	"currently unable to handle the request", // 503 rendered by clients
	`version="v1.`,                           // component start-up, structured ("Starting" version=...)
	"Version: v1.",                           // component start-up, printf (before structured logging)
	"reconcile node routes",                  // cloud route controller: "Couldn't reconcile node routes"
	"Could not create route",                 // cloud route controller
	"UnauthorizedOperation",                  // AWS permission error
	"AuthorizationFailed",                    // Azure permission error
	"AccessDenied",                           // AWS/GCP permission error
}
