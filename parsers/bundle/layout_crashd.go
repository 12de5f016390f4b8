package bundle

import "regexp"

// crashdLayout is crash-diagnostics' kubecapture: `kubecapture/<group>_<version>/<ns>/<resource>-<ts>.json`
// (Lists) or `.../<resource>/<name>-<ts>.json`; logs at `.../<pod>/<container>/<container>.log`.
var crashdLayout = Layout{
	Name:  LayoutCrashd,
	Roots: []string{"kubecapture"},
	Claims: func(rel string, _ *bundleView) bool {
		return segs(rel).index("kubecapture") >= 0
	},
	Hint: func(rel string) Hint {
		h, _ := kindHint(crashdStamp.ReplaceAllString(fileStem(segs(rel).base()), ""), "")
		return h
	},
}

var crashdStamp = regexp.MustCompile(`-\d{6,}$`)
