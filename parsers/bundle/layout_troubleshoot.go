package bundle

import "strings"

// troubleshootLayout is a Replicated troubleshoot support bundle
// (`support-bundle-<ts>/cluster-resources/...`, `cluster-info/cluster_version.json`,
// `host-collectors/...`, `version.yaml`).
var troubleshootLayout = Layout{
	Name:  LayoutTroubleshoot,
	Roots: []string{"cluster-resources", "host-collectors", "cluster-info"},
	Claims: func(rel string, _ *bundleView) bool {
		s := segs(rel)
		return s.index("cluster-resources") >= 0 || strings.HasSuffix(rel, "cluster-info/cluster_version.json") ||
			s.index("host-collectors") >= 0 || s.base() == "version.yaml" && len(s) <= 2
	},
	// custom-resources/<plural.group>/<ns>.json and custom-resources/<plural.group>.json:
	// the kind comes from the CRD
	Hint: func(rel string) Hint {
		s := segs(rel)
		n := len(s)
		stem := fileStem(s.base())
		if n >= 2 && s[n-2] == "cluster-info" && s.base() == "cluster_version.json" {
			return Hint{Role: RoleVersion}
		}
		// cluster-resources/pods/logs/<ns>/<pod>/<container>[-previous].log
		if i := s.index("cluster-resources"); i >= 0 && i+3 < n-1 && s[i+1] == "pods" && s[i+2] == "logs" {
			return Hint{Role: RoleContainerLog, Component: containerComponent(strings.TrimSuffix(stem, "-previous"))}
		}
		if n >= 3 && s[n-3] == "custom-resources" {
			return Hint{GroupVersion: groupOfCRD(s[n-2]), CRD: s[n-2]}
		}
		if n >= 2 && s[n-2] == "custom-resources" && stem != "custom-resources-errors" {
			return Hint{GroupVersion: groupOfCRD(stem), CRD: stem}
		}
		return Hint{}
	},
}
