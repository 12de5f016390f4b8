package bundle

// supportBundleKitLayout is rancher/support-bundle-kit (Harvester, Longhorn):
// `yamls/cluster/<group>/<version>/<res>.yaml`, `yamls/namespaced/<ns>/<group>/<version>/<res>.yaml`,
// `bundleGenerationErrorLog`.
var supportBundleKitLayout = Layout{
	Name:  LayoutSupportBundleKit,
	Roots: []string{"yamls"},
	Claims: func(rel string, _ *bundleView) bool {
		s := segs(rel)
		y := s.index("yamls")
		return y >= 0 && (s.index("cluster") == y+1 || s.index("namespaced") == y+1) || s.base() == "bundleGenerationErrorLog"
	},
}
