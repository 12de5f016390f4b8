package bundle

// insightsLayout is an OpenShift Insights Operator archive (what the operator uploads,
// `insights-operator/gathers.json` beside `config/`, `conditional/`, `aggregated/`, and
// cluster-scoped-resources/ and namespaces/ trees that look like a must-gather's but
// hold only what its gatherers chose). It is not a must-gather: it lists no namespace
// in full. `config/configmaps/<ns>/<name>/<key>` files are ConfigMap values, not
// objects or logs.
var insightsLayout = Layout{
	Name: LayoutInsights,
	Claims: func(rel string, v *bundleView) bool {
		return v != nil && v.insights
	},
	Hint: func(rel string) Hint {
		s := segs(rel)
		if i := s.index("configmaps"); i > 0 && s[i-1] == "config" && len(s)-i >= 4 {
			return Hint{Role: RoleNotLog}
		}
		return Hint{}
	},
	Supersedes: []string{LayoutMustGather, LayoutInspect, LayoutKubectl, LayoutKubectlText},
}

// isInsightsMarker: the operator's own record of its gatherers.
func isInsightsMarker(s segments) bool {
	n := len(s)
	return n >= 2 && s[n-2] == "insights-operator" && s.base() == "gathers.json"
}
