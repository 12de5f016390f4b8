package logs

import (
	"bytes"
	"path"
	"strings"
)

// componentPatterns map path fragments to components, most specific first.
var componentPatterns = []struct{ fragment, component string }{
	{"kube-controller-manager", "kube-controller-manager"},
	{"cloud-controller-manager", "cloud-controller-manager"},
	{"controller-manager", "kube-controller-manager"},
	{"kube-apiserver", "kube-apiserver"},
	{"metrics-server", "metrics-server"},
	{"kube-scheduler", "kube-scheduler"},
	{"etcd", "etcd"},
	{"kubelet", "kubelet"},
	{"kubectl", "kubectl"},
}

// notComponent are suffixes that make a name another program: the operators that
// manage a component, and the sidecars of its pod (OpenShift).
var notComponent = []string{"-operator", "-check-endpoints", "-cert-syncer", "-cert-regeneration-controller",
	"-insecure-readyz", "-recovery-controller", "-guard", "-installer", "-pruner", "-readyz", "-metrics", "-proxy"}

// ComponentFromPath guesses the component from a log's path ("logs/kube-apiserver.log",
// "kube-system/kube-apiserver-node1/logs.txt", must-gather's
// "namespaces/openshift-kube-apiserver/pods/kube-apiserver-m0/kube-apiserver/kube-apiserver/logs/current.log",
// troubleshoot's "cluster-resources/pods/logs/kube-system/<pod>/<container>.log", ...).
// The most specific path segment that names a component wins; "" when the path says nothing.
func ComponentFromPath(p string) string {
	segs := strings.Split(strings.ToLower(strings.ReplaceAll(p, "\\", "/")), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		seg := segs[i]
		if i == len(segs)-1 {
			seg = strings.TrimSuffix(seg, path.Ext(seg))
		}
		if c := componentOfName(seg); c != "" {
			return c
		}
		if c := ComponentFromProcess(seg); c != "" {
			return c
		}
	}
	return ""
}

func componentOfName(seg string) string {
	for _, c := range componentPatterns {
		i := strings.Index(seg, c.fragment)
		if i < 0 {
			continue
		}
		rest := seg[i+len(c.fragment):]
		other := false
		for _, s := range notComponent {
			if strings.HasPrefix(rest, s) {
				other = true
			}
		}
		if other {
			return ""
		}
		return c.component
	}
	return ""
}

// ComponentFromProcess maps a journald/syslog identifier or a unit name to the
// component it runs; "" for processes that run several (k3s, rke2, kubelite), whose
// lines are attributed by their klog caller.
func ComponentFromProcess(ident string) string {
	id := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(ident), ".service"), "_service")
	switch id {
	case "kube-apiserver", "apiserver", "openshift-kube-apiserver":
		return "kube-apiserver"
	case "kube-controller-manager", "controller-manager":
		return "kube-controller-manager"
	case "kubelet", "hyperkube-kubelet":
		return "kubelet"
	case "etcd":
		return "etcd"
	case "kube-scheduler":
		return "kube-scheduler"
	}
	return ""
}

// callerComponents map klog source files to the component that logs them.
var callerComponents = map[string]string{
	"namespace_controller.go":              "kube-controller-manager",
	"namespaced_resources_deleter.go":      "kube-controller-manager",
	"garbagecollector.go":                  "kube-controller-manager",
	"graph_builder.go":                     "kube-controller-manager",
	"resource_quota_controller.go":         "kube-controller-manager",
	"resource_quota_monitor.go":            "kube-controller-manager",
	"controllermanager.go":                 "kube-controller-manager",
	"horizontal.go":                        "kube-controller-manager",
	"node_lifecycle_controller.go":         "kube-controller-manager",
	"replica_set.go":                       "kube-controller-manager",
	"deployment_controller.go":             "kube-controller-manager",
	"endpointslice_controller.go":          "kube-controller-manager",
	"endpointslicemirroring_controller.go": "kube-controller-manager",
	"taint_eviction.go":                    "kube-controller-manager",
	"certificate_controller.go":            "kube-controller-manager",
	"servicecidrs_controller.go":           "kube-controller-manager",
	"attach_detach_controller.go":          "kube-controller-manager",
	"range_allocator.go":                   "kube-controller-manager",
	"disruption.go":                        "kube-controller-manager",
	"available_controller.go":              "kube-apiserver",
	"remote_available_controller.go":       "kube-apiserver",
	"local_available_controller.go":        "kube-apiserver",
	"handler_proxy.go":                     "kube-apiserver",
	"dispatcher.go":                        "kube-apiserver",
	"webhook_converter.go":                 "kube-apiserver",
	"crd_finalizer.go":                     "kube-apiserver",
	"status.go":                            "kube-apiserver",
	"storage_rbac.go":                      "kube-apiserver",
	"apf_controller.go":                    "kube-apiserver",
	"cacher.go":                            "kube-apiserver",
	"cidrallocator.go":                     "kube-apiserver",
	"default_servicecidr_controller.go":    "kube-apiserver",
	"storage_scheduling.go":                "kube-apiserver",
	"alloc.go":                             "kube-apiserver",
	"aggregator.go":                        "kube-apiserver",
}

// flagComponents are start-up flags only one component has: `FLAG: --etcd-servers=...`.
var flagComponents = []struct{ flag, component string }{
	{"FLAG: --etcd-servers=", "kube-apiserver"},
	{"FLAG: --service-account-issuer=", "kube-apiserver"},
	{"FLAG: --allocate-node-cidrs=", "kube-controller-manager"},
	{"FLAG: --concurrent-namespace-syncs=", "kube-controller-manager"},
}

// ComponentFromCaller guesses the component from a klog caller ("namespace_controller.go:164").
func ComponentFromCaller(caller string) string {
	return callerComponents[callerFile(caller)]
}

func (s *scanner) vote(file string, n int) {
	if s.callers == nil {
		s.callers = map[string]int{}
	}
	s.callers[file] += n
}

// voteFlags recognises the component from its start-up `FLAG: --x` lines, which name
// flags only one component has.
func (s *scanner) voteFlags(data []byte) {
	for _, f := range flagComponents {
		if bytes.Contains(data, []byte(f.flag)) {
			s.vote("\x00"+f.component, 50)
		}
	}
}

// lineComponent attributes one entry: a journald identifier naming a component wins,
// then the file's path; processes that run several components (k3s, rke2, microk8s'
// kubelite) are split by the klog caller; else the file's content vote.
func (s *scanner) lineComponent(e *Entry, voted string) string {
	if e.process != "" {
		if c := ComponentFromProcess(e.process); c != "" {
			return c
		}
	}
	if s.pathComponent != "" {
		return s.pathComponent
	}
	if c := ComponentFromCaller(e.Caller); c != "" {
		return c
	}
	return voted
}

func (s *scanner) guessedComponent() string {
	votes := map[string]int{}
	for c, n := range s.callers {
		if strings.HasPrefix(c, "\x00") {
			votes[c[1:]] += n
		} else if comp := ComponentFromCaller(c); comp != "" {
			votes[comp] += n
		}
	}
	best, bestN := "", 0
	for c, n := range votes {
		if n > bestN || (n == bestN && c < best) {
			best, bestN = c, n
		}
	}
	return best
}

func callerFile(caller string) string {
	if i := strings.LastIndexByte(caller, ':'); i >= 0 {
		return caller[:i]
	}
	return caller
}
