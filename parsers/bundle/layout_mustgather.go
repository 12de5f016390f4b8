package bundle

import "strings"

// mustGatherLayout is an OpenShift must-gather: `cluster-scoped-resources/<group>/<res>/<name>.yaml`,
// `namespaces/<ns>/...` as oc adm inspect writes them, `host_service_logs/`, in a
// directory named after the gather image (`quay-io-...-sha256-...`).
var mustGatherLayout = Layout{
	Name:  LayoutMustGather,
	Roots: []string{"cluster-scoped-resources", "namespaces"},
	Claims: func(rel string, v *bundleView) bool {
		s := segs(rel)
		if s.index("cluster-scoped-resources") >= 0 || s.index("host_service_logs") >= 0 {
			return true
		}
		return v != nil && v.mustGather && inspectShaped(s)
	},
	Hint: func(rel string) Hint {
		// `timestamp` at the top of the gather (and of each image's directory): when it ran
		if s := segs(rel); s.base() == "timestamp" && len(s) <= 3 {
			return Hint{Role: RoleClock}
		}
		return inspectHint(rel)
	},
	Supersedes: []string{LayoutInspect},
}

// inspectLayout is `oc adm inspect` output on its own: `namespaces/<ns>/<ns>.yaml`,
// `namespaces/<ns>/<group>/<res>.yaml`, `namespaces/<ns>/pods/<pod>/...`.
var inspectLayout = Layout{
	Name:  LayoutInspect,
	Roots: []string{"namespaces"},
	Claims: func(rel string, v *bundleView) bool {
		return inspectShaped(segs(rel)) && (v == nil || !v.mustGather)
	},
	Hint: inspectHint,
}

func inspectShaped(s segments) bool {
	i := s.index("namespaces")
	if i < 0 || i+2 >= len(s) {
		return false
	}
	ns, base := s[i+1], s.base()
	return s[i+2] == ns+".yaml" || s[i+2] == "pods" && i+4 < len(s) ||
		strings.HasSuffix(base, ".yaml") && i+3 < len(s) && len(s) == i+4
}

// inspectHint: namespaces/<ns>/<ns>.yaml (and projects/...) is the Namespace,
// pods/<pod>/<pod>.yaml the Pod.
func inspectHint(rel string) Hint {
	s := segs(rel)
	n := len(s)
	switch {
	case s.index("api_priority_and_fairness") >= 0:
		// kube-apiserver's /debug/api_priority_and_fairness/dump_* tables, saved beside its log
		return Hint{Role: RoleNotLog}
	case n >= 2 && s[n-2] == "logs" && s.index("pods") >= 0 &&
		(s.base() == "current.log" || s.base() == "previous.log" || s.base() == "previous.insecure.log" || s.base() == "current.insecure.log"):
		// namespaces/<ns>/pods/<pod>/<container>/<container>/logs/current.log: the
		// container names the program (installer, pruner, cert-syncer sidecars are not
		// the component their pod is named after)
		h := Hint{Role: RoleContainerLog, Component: containerComponent(s[n-3])}
		if i := s.index("namespaces"); i >= 0 && i+1 < n && openshiftPrograms[s[i+1]] != "" {
			// OpenShift's own API servers and controller managers run containers named
			// like Kubernetes' (controller-manager, apiserver) and log through the same
			// libraries: their namespace says which program they are
			h.Component = openshiftPrograms[s[i+1]]
		}
		return h
	}
	if n >= 3 && fileStem(s.base()) == s[n-2] {
		switch s[n-3] {
		case "namespaces", "projects":
			return Hint{GroupVersion: "v1", Kind: "Namespace"}
		case "pods":
			return Hint{GroupVersion: "v1", Kind: "Pod"}
		}
	}
	return Hint{}
}

// openshiftPrograms are the namespaces of OpenShift programs that are not the Kubernetes
// components their containers' names suggest.
var openshiftPrograms = map[string]string{
	"openshift-controller-manager":       "openshift-controller-manager",
	"openshift-route-controller-manager": "openshift-route-controller-manager",
	"openshift-apiserver":                "openshift-apiserver",
	"openshift-oauth-apiserver":          "openshift-oauth-apiserver",
}
