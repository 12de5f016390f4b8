package bundle

import "strings"

// sonobuoyLayout is `sonobuoy retrieve` output: `resources/cluster/<group>_<version>_<res>.json`,
// `resources/ns/<ns>/...`, `podlogs/`, `servergroups.json`, `serverversion.json`.
var sonobuoyLayout = Layout{
	Name:  LayoutSonobuoy,
	Roots: []string{"resources", "podlogs"},
	Claims: func(rel string, _ *bundleView) bool {
		s := segs(rel)
		r := s.index("resources")
		return s.index("podlogs") >= 0 || s.base() == "servergroups.json" || s.base() == "serverversion.json" ||
			r >= 0 && (s.index("ns") == r+1 || s.index("cluster") == r+1)
	},
	// <group>_<version>_<resource>.json ("core" is the core group)
	Hint: func(rel string) Hint {
		s := segs(rel)
		switch {
		case s.base() == "serverversion.json":
			return Hint{Role: RoleVersion}
		case s.base() == "run.log" && len(s) >= 2 && s[len(s)-2] == "meta":
			return Hint{Role: RoleLogClock} // the aggregator's log: its last line is when results were packed
		case s.index("podlogs") >= 0:
			return Hint{Role: RoleContainerLog}
		}
		// plugins/systemd-logs/results/<node>/systemd_logs: the node's journal (journalctl -o json)
		if i := s.index("systemd-logs"); i > 0 && s[i-1] == "plugins" && i+3 < len(s) && s[i+1] == "results" {
			return Hint{Role: RoleContainerLog}
		}
		p := strings.Split(fileStem(s.base()), "_")
		if len(p) != 3 {
			return Hint{}
		}
		g := p[0]
		if g == "core" {
			g = ""
		}
		h, _ := kindHint(p[2], joinGV(g, p[1]))
		return h
	},
}
