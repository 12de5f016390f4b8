package bundle_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

func nsListJSON(names ...string) string {
	var items []string
	for _, n := range names {
		items = append(items, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+n+`"},"status":{"phase":"Active"}}`)
	}
	return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + `]}`
}

const (
	podJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"status":{"phase":"Running"}}`
	klog    = "E1129 22:26:15.581738 2557 namespace_controller.go:164] deletion of namespace x failed: boom\n"
	nsYAML  = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n"
)

// TestEachLayoutDetected: every layout of the registry is recognised from a small tree.
func TestEachLayoutDetected(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		name  string
		files []bfile
		want  []string
	}{
		{"troubleshoot", []bfile{{name: "support-bundle-1/version.yaml", data: []byte("apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n")},
			{name: "support-bundle-1/cluster-resources/namespaces.json", data: []byte(nsListJSON("default", "kube-system"))}},
			[]string{bundle.LayoutTroubleshoot}},
		{"must-gather", []bfile{{name: "must-gather.local.1/quay-io-x-sha256-1/cluster-scoped-resources/core/nodes/n.yaml", data: []byte("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n")},
			{name: "must-gather.local.1/quay-io-x-sha256-1/namespaces/x/x.yaml", data: []byte(nsYAML)}},
			[]string{bundle.LayoutMustGather}},
		{"inspect", []bfile{{name: "inspect.local.1/namespaces/x/x.yaml", data: []byte(nsYAML)},
			{name: "inspect.local.1/namespaces/x/core/pods.yaml", data: []byte("apiVersion: v1\nkind: PodList\nitems: []\n")}},
			[]string{bundle.LayoutInspect}},
		{"crashd", []bfile{{name: "out/kubecapture/core_v1/default/pods-20260101.json", data: []byte(`{"kind":"List","items":[]}`)}},
			[]string{bundle.LayoutCrashd}},
		{"support-bundle-kit", []bfile{{name: "sb/yamls/cluster/v1/namespaces.yaml", data: []byte(nsYAML)}},
			[]string{bundle.LayoutSupportBundleKit}},
		{"sonobuoy", []bfile{{name: "sono/resources/cluster/core_v1_namespaces.json", data: []byte(nsListJSON("default", "b"))},
			{name: "sono/serverversion.json", data: []byte(`{"major":"1"}`)}},
			[]string{bundle.LayoutSonobuoy}},
		{"cluster-info dir", []bfile{{name: "dump/nodes.json", data: []byte(`{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n"}}]}`)},
			{name: "dump/default/pods.json", data: []byte(`{"kind":"PodList","apiVersion":"v1","items":[]}`)},
			{name: "dump/default/p/logs.txt", data: []byte(klog)}},
			[]string{bundle.LayoutClusterInfo}},
		{"cluster-info stdout", []bfile{{name: "dump.out", data: []byte(
			"{\n    \"kind\": \"NodeList\",\n    \"apiVersion\": \"v1\",\n    \"items\": [{\"metadata\": {\"name\": \"n\"}}]\n}\n" +
				"{\n    \"kind\": \"PodList\",\n    \"apiVersion\": \"v1\",\n    \"items\": [" + podJSON + "]\n}\n" +
				"==== START logs for container c of pod kube-system/kube-controller-manager-n ====\n" + klog +
				"==== END logs for container c of pod kube-system/kube-controller-manager-n ====\n")}},
			[]string{bundle.LayoutClusterInfoStdout}},
		{"sosreport", []bfile{{name: "sosreport-h-1/sos_commands/kubernetes/cluster-info/kubectl_get_-o_json_nodes", data: []byte(`{"apiVersion":"v1","items":[],"kind":"List"}`)},
			{name: "sosreport-h-1/etc/hostname", data: []byte("h\n")}},
			[]string{bundle.LayoutSosreport}},
		{"kubectl dumps", []bfile{{name: "dumps/namespaces.json", data: []byte(nsListJSON("default", "a"))}, {name: "dumps/pods.yaml", data: []byte(nsYAML)}},
			[]string{bundle.LayoutKubectl}},
		{"kubectl text", []bfile{{name: "ticket/get-ns.txt", data: []byte("$ kubectl get ns\nNAME  STATUS  AGE\ndefault   Active   1d\n")},
			{name: "ticket/kcm.log", data: []byte(klog)}},
			[]string{bundle.LayoutKubectlText}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTree(t, filepath.Join(tmp, strings.ReplaceAll(c.name, " ", "-")), c.files)
			rec := load(t, dir)
			if !reflect.DeepEqual(rec.Layouts, c.want) {
				t.Errorf("layouts %v, want %v", rec.Layouts, c.want)
			}
		})
	}
	t.Run("single file", func(t *testing.T) {
		dir := writeTree(t, filepath.Join(tmp, "single"), []bfile{{name: "ns.json", data: []byte(nsListJSON("x"))}})
		if rec := load(t, filepath.Join(dir, "ns.json")); !reflect.DeepEqual(rec.Layouts, []string{bundle.LayoutSingleFile}) {
			t.Errorf("layouts %v", rec.Layouts)
		}
	})
}

// TestSosreport: a sos report's kubectl files, named after their commands and without
// extension, are read as what their content is: JSON as objects (never as logs), tables
// as objects with the namespace list, pod logs as logs of their container.
func TestSosreport(t *testing.T) {
	root := "sosreport-node1-2026-11-30-abcdef/sos_commands/kubernetes/cluster-info/"
	files := []bfile{
		{name: root + "kubectl_get_-o_json_nodes", data: []byte(`{"apiVersion":"v1","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"node1"}}],"kind":"List"}`)},
		{name: root + "kube-system/kubectl_get_-o_json_--namespace_kube-system_pods", data: []byte(
			"{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\"metadata\": {\"name\": \"metrics-server-1\", \"namespace\": \"kube-system\"}, \"status\": {\"phase\": \"Pending\"}}\n    ],\n    \"kind\": \"List\"\n}\n")},
		{name: root + "kubectl_get_namespaces", data: []byte("NAME              STATUS        AGE\ndefault           Active        10d\nkube-system       Active        10d\ntobedeleted       Terminating   1h\n")},
		{name: root + "kube-system/podlogs/kube-controller-manager-node1/kubectl_--namespace_kube-system_logs_kube-controller-manager-node1_-c_kube-controller-manager", data: []byte(klog)},
		{name: "sosreport-node1-2026-11-30-abcdef/sos_commands/kubernetes/journalctl_--no-pager_--unit_kubelet", data: []byte("Nov 30 22:00:00 node1 kubelet[99]: I1130 22:00:00.000000 99 kubelet.go:1] started\n")},
		{name: "sosreport-node1-2026-11-30-abcdef/version.txt", data: []byte("sosreport: 4.8.0\n")},
	}
	dir := writeTree(t, filepath.Join(t.TempDir(), "sos"), files)
	for _, p := range []string{dir, writeArchive(t, filepath.Join(t.TempDir(), "sos.tar.xz"), "tar.xz", "", files)} {
		rec := load(t, p)
		if !reflect.DeepEqual(rec.Layouts, []string{bundle.LayoutSosreport}) {
			t.Errorf("layouts %v", rec.Layouts)
		}
		byRef := map[string]*objects.Object{}
		for _, o := range allObjects(rec) {
			byRef[o.Ref()] = o
		}
		pod := byRef["Pod/kube-system/metrics-server-1"]
		if pod == nil || pod.APIVersion != "v1" || pod.Phase != "Pending" || byRef["Node/node1"] == nil {
			t.Fatalf("objects %v", allObjects(rec))
		}
		if ns := byRef["Namespace/tobedeleted"]; ns == nil || ns.Phase != "Terminating" || ns.Source.Rendering != text.RenderingTable || ns.Source.Line != 4 {
			t.Errorf("namespace %+v", ns)
		}
		if !rec.NamespaceListSeen || len(rec.NamespaceLists) != 1 || rec.NamespaceLists[0].Namespaces != 3 ||
			rec.NamespaceLists[0].Command != "kubectl get namespaces" {
			t.Errorf("namespace lists %+v", rec.NamespaceLists)
		}
		for _, lf := range rec.LogFiles {
			if strings.Contains(lf.Path, "kubectl_get_") {
				t.Errorf("kubectl output listed as a log: %s", lf)
			}
		}
		var kcm bool
		for _, e := range rec.Entries {
			if strings.Contains(e.File, "podlogs") && e.Component == "kube-controller-manager" && e.Line == 1 {
				kcm = true
			}
		}
		if !kcm {
			t.Errorf("pod log entries %+v", rec.Entries)
		}
	}
}

// TestTextByContent: kubectl text is recognised by content whatever its name; a klog log
// named .txt stays a log; stderr lines become entries of component kubectl.
func TestTextByContent(t *testing.T) {
	files := []bfile{
		{name: "t/notes", data: []byte("[root@node1 tmp]# kubectl get namespace\nNAME           STATUS        AGE\ndefault        Active        2d\nrook           Terminating   7h\n\n" +
			"[root@node1 tmp]# kubectl get apiservice | grep False\nv1beta1.metrics.k8s.io   kube-system/metrics-server   False (MissingEndpoints)   3d\n" +
			"E1129 22:26:15.581738   4242 memcache.go:255] couldn't get resource list for metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n")},
		{name: "t/kube-controller-manager.txt", data: []byte(klog)},
		{name: "t/describe.json", data: []byte("Name:         example\nLabels:       <none>\nAnnotations:  <none>\nStatus:       Terminating\n")},
	}
	dir := writeTree(t, filepath.Join(t.TempDir(), "t"), files)
	rec, err := bundle.Load(dir, bundle.Options{Keywords: []string{"deletion of namespace", "couldn't get resource list"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.TextFiles, []string{"t/describe.json", "t/notes"}) && !reflect.DeepEqual(rec.TextFiles, []string{"describe.json", "notes"}) {
		t.Errorf("text files %v", rec.TextFiles)
	}
	var rook, example, api *objects.Object
	for _, o := range allObjects(rec) {
		switch o.Ref() {
		case "Namespace/rook":
			rook = o
		case "Namespace/example":
			example = o
		case "APIService/v1beta1.metrics.k8s.io":
			api = o
		}
	}
	if rook == nil || rook.Phase != "Terminating" || example == nil || example.Phase != "Terminating" || api == nil ||
		api.Condition("Available") == nil || api.Condition("Available").Reason != "MissingEndpoints" {
		t.Fatalf("objects %v", allObjects(rec))
	}
	if !rec.NamespaceListSeen {
		t.Error("namespace list not seen")
	}
	var stderr, kcm bool
	for _, e := range rec.Entries {
		if strings.HasSuffix(e.File, "notes") && e.Line == 8 && e.Component == text.ComponentKubectl {
			stderr = true
		}
		if strings.HasSuffix(e.File, "kube-controller-manager.txt") && e.Component == "kube-controller-manager" {
			kcm = true
		}
	}
	if !stderr || !kcm {
		t.Errorf("entries %+v", rec.Entries)
	}
}

// TestNamespaceListSeen: a list of namespaces is seen only when one file lists them all.
func TestNamespaceListSeen(t *testing.T) {
	tmp := t.TempDir()
	one := writeTree(t, filepath.Join(tmp, "one"), []bfile{{name: "b/ns-x.yaml", data: []byte(nsYAML)}, {name: "b/pods.json", data: []byte(podJSON)}})
	if rec := load(t, one); rec.NamespaceListSeen {
		t.Errorf("one namespace's dump taken for the list: %+v", rec.NamespaceLists)
	}
	all := writeTree(t, filepath.Join(tmp, "all"), []bfile{{name: "b/namespaces.json", data: []byte(nsListJSON("default", "kube-system", "x"))}, {name: "b/pods.json", data: []byte(podJSON)}})
	rec := load(t, all)
	if !rec.NamespaceListSeen || len(rec.NamespaceLists) != 1 || rec.NamespaceLists[0].File != "namespaces.json" || rec.NamespaceLists[0].Namespaces != 3 {
		t.Errorf("lists %+v", rec.NamespaceLists)
	}
}

// TestExtensionlessJSONNotALog: JSON saved without extension (not a cluster-info dump)
// is objects only.
func TestExtensionlessJSONNotALog(t *testing.T) {
	dir := writeTree(t, filepath.Join(t.TempDir(), "x"), []bfile{{name: "b/pods", data: []byte(`{"apiVersion":"v1","items":[` + podJSON + `,` + podJSON + `],"kind":"List"}`)},
		{name: "b/other.json", data: []byte(podJSON)}})
	rec := load(t, dir)
	if len(rec.LogFiles) != 0 || len(allObjects(rec)) != 3 {
		t.Errorf("logs %v objects %d", rec.LogFiles, len(allObjects(rec)))
	}
	for _, l := range rec.Layouts {
		if l == bundle.LayoutClusterInfoStdout {
			t.Errorf("layouts %v", rec.Layouts)
		}
	}
}

// TestSlimPodsKeepOrderAndPaths: pods kept slim come back from Records.EachObject in
// the order they were read, among the whole objects, with the paths of whole objects
// (a wrapper directory stripped, the bundle's label prefixed when several are read).
func TestSlimPodsKeepOrderAndPaths(t *testing.T) {
	pod := func(name, extra string) string {
		return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","namespace":"a"` + extra + `},"spec":{"nodeName":"n1","containers":[{"image":"i"}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T10:00:00Z"}]}}`
	}
	list := `{"apiVersion":"v1","kind":"List","items":[` + pod("p1", "") + `,` + pod("p2", `,"finalizers":["x.io/f"]`) + `,` +
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","namespace":"a"}},` + pod("p3", "") + `]}`
	tmp := t.TempDir()
	one := writeTree(t, filepath.Join(tmp, "one"), []bfile{{name: "wrap/cluster/pods.json", data: []byte(list)}, {name: "wrap/cluster/more.json", data: []byte(pod("p4", ""))}})
	two := writeArchive(t, filepath.Join(tmp, "two.tar.gz"), "tar.gz", "", []bfile{{name: "w2/pods.json", data: []byte(list)}})
	refs := func(whole bool) (out []string, slim int) {
		rec, err := bundle.LoadAll([]string{one, two}, bundle.Options{WholePods: whole})
		if err != nil {
			t.Fatal(err)
		}
		rec.EachObject(func(o *objects.Object) {
			out = append(out, fmt.Sprintf("%s %s:%d", o.Ref(), o.Source.File, o.Source.Line))
		})
		return out, rec.SlimPods.Len()
	}
	whole, n := refs(true)
	slim, m := refs(false)
	if n != 0 || m != 5 {
		t.Errorf("%d pods slim with WholePods, %d without (want 0 and 5)", n, m)
	}
	if !reflect.DeepEqual(slim, whole) {
		t.Errorf("slim pods read as\n %s\nwhole as\n %s", strings.Join(slim, "\n "), strings.Join(whole, "\n "))
	}
	if all := strings.Join(whole, " "); len(whole) != 9 || !strings.Contains(all, "one:cluster/pods.json") || !strings.Contains(all, "two.tar.gz:pods.json") {
		t.Errorf("objects %q", whole)
	}
}

// TestSlimNamespacesKeepOrderAndPaths: namespaces kept slim come back from
// Records.EachObject in the order they were read, among the whole objects and the slim
// pods, with the paths of whole objects (a wrapper directory stripped, the bundle's
// label prefixed when several are read), and a text table's AGE reaches the dump's copy.
func TestSlimNamespacesKeepOrderAndPaths(t *testing.T) {
	ns := func(name, extra string) string {
		return `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"` + name + `","creationTimestamp":"2026-11-01T10:00:00Z","labels":{"kubernetes.io/metadata.name":"` + name + `"}` + extra + `},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`
	}
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"nodeName":"n1"},"status":{"phase":"Running"}}`
	list := `{"apiVersion":"v1","kind":"List","items":[` + ns("a", "") + `,` + pod + `,` + ns("b", "") + `,` + ns("default", "") + `,` +
		ns("c", `,"finalizers":["x.io/f"]`) + `,` + pod + `,` + ns("d", "") + `,` + ns("e", "") + `]}`
	table := "$ kubectl get ns\nNAME      STATUS   AGE\na         Active   29d\nb         Active   30d\n"
	tmp := t.TempDir()
	one := writeTree(t, filepath.Join(tmp, "one"), []bfile{{name: "wrap/cluster/namespaces.json", data: []byte(list)},
		{name: "wrap/cluster/more.json", data: []byte(ns("f", ""))}, {name: "wrap/get-ns.txt", data: []byte(table)}})
	two := writeArchive(t, filepath.Join(tmp, "two.tar.gz"), "tar.gz", "", []bfile{{name: "w2/namespaces.json", data: []byte(list)}})
	refs := func(whole bool) (out []string, slim int, bounds []bundle.CaptureBound) {
		rec, err := bundle.LoadAll([]string{one, two}, bundle.Options{WholeNamespaces: whole})
		if err != nil {
			t.Fatal(err)
		}
		rec.EachObject(func(o *objects.Object) {
			age := ""
			if o.Ages != nil {
				age = fmt.Sprintf(" age %s at %s:%d", o.Ages.Age, o.Ages.File, o.Ages.Line)
			}
			out = append(out, fmt.Sprintf("%s %s:%d%s", o.Ref(), o.Source.File, o.Source.Line, age))
		})
		return out, rec.SlimNamespaces.Len(), rec.CaptureBounds
	}
	whole, n, wb := refs(true)
	slim, m, sb := refs(false)
	if n != 0 || m != 9 {
		t.Errorf("%d namespaces slim with WholeNamespaces, %d without (want 0 and 9)", n, m)
	}
	if !reflect.DeepEqual(slim, whole) {
		t.Errorf("slim namespaces read as\n %s\nwhole as\n %s", strings.Join(slim, "\n "), strings.Join(whole, "\n "))
	}
	if !reflect.DeepEqual(sb, wb) || len(wb) == 0 {
		t.Errorf("capture bounds %+v slim, %+v whole", sb, wb)
	}
	if all := strings.Join(whole, "\n"); len(whole) != 17 || !strings.Contains(all, "Namespace/a one:cluster/namespaces.json:1 age 696h0m0s at one:get-ns.txt") ||
		!strings.Contains(all, "two.tar.gz:namespaces.json") {
		t.Errorf("objects\n%s", all)
	}
}
