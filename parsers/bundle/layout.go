package bundle

import (
	"path"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/resources"
)

// A Layout is one way producers arrange a bundle: its name (Records.Layouts, JSON
// bundle.layouts), how its files are recognised, the top directories that belong to it,
// and what its paths say about the files they name. Each layout is one value in a file
// of its own (layout_*.go); layouts lists them, most specific first.
type Layout struct {
	Name string
	// Claims reports whether the file at rel (its full path, wrapping directory
	// included) belongs to the layout. v describes the whole bundle, for layouts
	// recognised by their files together (a cluster-info dump directory); it is nil
	// while the bundle is being read, when only the path is known.
	Claims func(rel string, v *bundleView) bool
	// Roots are directory names the layout puts at the top of a bundle: a bundle
	// whose only top directory is one of them is not wrapped.
	Roots []string
	// Hint says what a file holds from its path ("" fields when it does not know).
	Hint func(rel string) Hint
	// Supersedes names layouts that are part of this one when both are seen
	// (a must-gather runs oc adm inspect).
	Supersedes []string
}

// Hint is what a path says about its file.
type Hint struct {
	// GroupVersion and Kind of the file's objects when they lack apiVersion/kind.
	GroupVersion, Kind string
	// CRD is the custom resource definition (plural.group) of a troubleshoot
	// custom-resources file: the kind comes from the CRD once it is read.
	CRD string
	// Component of the file's log, when the path says better than the log parser can
	// (it then applies to every line).
	Component string
	// Command is the command whose output the file holds (sosreport names its files
	// after them): it types a text rendering.
	Command string
	// Role is what the layout keeps in the file besides objects and logs (roles.go):
	// RoleVersion (the server's version), RoleClock (when the bundle was collected),
	// RoleContainerLog (a container's log: read as a log whatever it looks like),
	// RoleNotLog (a debug dump the layout saves beside a log: not read).
	Role string
}

// bundleView is what layout detection knows of a whole bundle.
type bundleView struct {
	files         []string
	objectFiles   map[string]bool // files objects were read from
	textFiles     map[string]bool // files read as kubectl text renderings
	stdoutFiles   map[string]bool // files read as cluster-info dump stdout
	dirsWithNodes map[string]bool // directories holding nodes.json or nodes.yaml
	mustGather    bool            // a must-gather marker is present
	insights      bool            // an Insights Operator archive (insights-operator/gathers.json)
	sos           bool            // a sos report: sos_commands/ is present
	singleFile    bool            // the bundle is one file
}

// Layouts recognised (Records.Layouts, JSON bundle.layouts).
const (
	LayoutKubectl           = "kubectl-get"                // loose `kubectl get -o json|yaml` files
	LayoutKubectlText       = "kubectl-text"               // saved kubectl text: get tables, describe, stderr (parsers/text)
	LayoutClusterInfo       = "cluster-info-dump"          // kubectl cluster-info dump --output-directory
	LayoutClusterInfoStdout = "cluster-info-dump-stdout"   // kubectl cluster-info dump > file
	LayoutTroubleshoot      = "troubleshoot"               // Replicated troubleshoot support-bundle
	LayoutMustGather        = "must-gather"                // OpenShift must-gather
	LayoutInspect           = "oc-adm-inspect"             // oc adm inspect
	LayoutSonobuoy          = "sonobuoy"                   // sonobuoy retrieve
	LayoutCrashd            = "crashd"                     // crash-diagnostics kubecapture
	LayoutSupportBundleKit  = "rancher-support-bundle-kit" // rancher support-bundle-kit
	LayoutSosreport         = "sosreport"                  // sos report, kubernetes plugin
	LayoutInsights          = "insights-operator"          // OpenShift Insights Operator archive
	LayoutSingleFile        = "single-file"                // one object dump or one log
)

// layouts, most specific first: the first that claims a file names its layout.
var layouts = []*Layout{
	&clusterInfoStdoutLayout, // by content
	&troubleshootLayout,
	&sosreportLayout,
	&insightsLayout,
	&mustGatherLayout,
	&crashdLayout,
	&supportBundleKitLayout,
	&sonobuoyLayout,
	&inspectLayout,
	&clusterInfoLayout,
	&kubectlTextLayout, // by content
	&kubectlLayout,     // object files no other layout claims
}

// claimant returns the layout that claims a file, or nil.
func claimant(rel string, v *bundleView) *Layout {
	for _, l := range layouts {
		if l.Claims(rel, v) {
			return l
		}
	}
	return nil
}

// segments is a path split at its slashes, with lookups.
type segments []string

func segs(rel string) segments { return strings.Split(rel, "/") }

// index returns the position of the first segment equal to s, or -1.
func (s segments) index(x string) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

func (s segments) base() string { return s[len(s)-1] }

// detectLayouts names the layouts of a bundle from its file list and from what its
// files were read as (v's objectFiles, textFiles and stdoutFiles).
func detectLayouts(v *bundleView, format string) []string {
	v.dirsWithNodes = map[string]bool{}
	v.singleFile = format == FormatFile
	for _, r := range v.files {
		if b := path.Base(r); b == "nodes.json" || b == "nodes.yaml" {
			v.dirsWithNodes[path.Dir(r)] = true
		}
		if strings.Contains(r, "must-gather") || strings.Contains(r, "-sha256-") || path.Base(r) == "must-gather.logs" {
			v.mustGather = true
		}
		if isSosPath(segs(r)) {
			v.sos = true
		}
		if isInsightsMarker(segs(r)) {
			v.insights = true
		}
	}
	seen := map[string]bool{}
	for _, r := range v.files {
		if l := claimant(r, v); l != nil {
			seen[l.Name] = true
		}
	}
	for _, l := range layouts {
		if seen[l.Name] {
			for _, s := range l.Supersedes {
				delete(seen, s)
			}
		}
	}
	if v.singleFile && len(seen) == 0 {
		seen[LayoutSingleFile] = true
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// knownRoots are directory names that belong to a layout: a bundle whose only top
// directory has one of these names is not wrapped.
var knownRoots = map[string]bool{"logs": true, "pods": true, "cluster": true}

func init() {
	for _, l := range layouts {
		for _, r := range l.Roots {
			knownRoots[r] = true
		}
	}
}

// wrapperRoot returns the single directory that wraps every path ("support-bundle-.../",
// "must-gather.local.123/"), or "".
func wrapperRoot(rels []string) string {
	root := ""
	for _, r := range rels {
		i := strings.IndexByte(r, '/')
		if i <= 0 {
			return ""
		}
		if root == "" {
			root = r[:i]
		} else if r[:i] != root {
			return ""
		}
	}
	if root == "" || knownRoots[root] {
		return ""
	}
	return root + "/"
}

// pathHint names what a file holds from its path: the hint of the layout that claims
// it, else the first layout hint that says something, else the resource its name or
// directory names (`pods.json`, `.../deployments/x.yaml`, `deployments.apps.json`).
func pathHint(rel string) Hint {
	if l := claimant(rel, nil); l != nil && l.Hint != nil {
		if h := l.Hint(rel); h != (Hint{}) {
			return h
		}
	}
	for _, l := range layouts {
		if l.Hint != nil {
			if h := l.Hint(rel); h.Kind != "" || h.CRD != "" || h.Role != "" {
				return h
			}
		}
	}
	return resourceHint(rel)
}

// resourceHint: the resource a file's name or its directory names.
func resourceHint(rel string) Hint {
	s := segs(rel)
	n := len(s)
	stem := fileStem(s.base())
	if h, ok := kindHint(stem, ""); ok {
		return h
	}
	// <resource>.<group>.json, <resource>/<name>.yaml, <group>/<version>/<resource>.yaml
	if first, _, ok := strings.Cut(stem, "."); ok {
		if h, ok := kindHint(first, ""); ok {
			return h
		}
	}
	if n >= 2 {
		if h, ok := kindHint(s[n-2], ""); ok {
			return h
		}
	}
	return Hint{}
}

// fileStem is a file name without its extension (and troubleshoot's ".stderr").
func fileStem(base string) string {
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.TrimSuffix(stem, ".stderr")
}

// kindHint types a resource name; gv, when set, overrides the resource's default version.
func kindHint(name, gv string) (Hint, bool) {
	if strings.Contains(name, ".") {
		return Hint{}, false // only plain resource names: "foo.json" is not a group
	}
	r, ok := resources.Lookup(name)
	if !ok {
		return Hint{}, false
	}
	if gv == "" {
		gv = r.GroupVersion
	}
	return Hint{GroupVersion: gv, Kind: r.Kind}, true
}

func joinGV(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

func groupOfCRD(name string) string {
	if _, g, ok := strings.Cut(name, "."); ok {
		return g
	}
	return ""
}
