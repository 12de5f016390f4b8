package text

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// render prints what Parse found, one record a line, for golden comparison.
func render(r *Result, w *diag.Sink) string {
	var b strings.Builder
	for _, o := range r.Objects {
		fmt.Fprintf(&b, "object %d %s %s %s", o.Source.Line, o.APIVersion, o.Kind, o.Name)
		if o.Namespace != "" {
			fmt.Fprintf(&b, " ns=%s", o.Namespace)
		}
		if o.Phase != "" {
			fmt.Fprintf(&b, " phase=%s", o.Phase)
		}
		if !o.DeletionTimestamp.IsZero() {
			fmt.Fprintf(&b, " deleted=%s", o.DeletionTimestamp.Format("2006-01-02T15:04:05Z"))
		}
		if o.DeletionShown {
			b.WriteString(" deletion-shown")
		}
		if o.Source.Rendering != "" {
			fmt.Fprintf(&b, " [%s]", o.Source.Rendering)
		}
		if len(o.SpecFinalizers) > 0 {
			fmt.Fprintf(&b, " spec.finalizers=%v", o.SpecFinalizers)
		}
		if a := o.APIService; a != nil {
			fmt.Fprintf(&b, " group=%s version=%s", a.Group, a.Version)
			if a.Service != nil {
				fmt.Fprintf(&b, " service=%s/%s", a.Service.Namespace, a.Service.Name)
			} else {
				b.WriteString(" service=local")
			}
		}
		if p := o.Pod; p != nil {
			fmt.Fprintf(&b, " node=%q ready=%v restarts=%d waiting=%v terminated=%v ip=%q", p.NodeName, p.Ready, p.Restarts, p.Waiting, p.Terminated, p.PodIP)
		}
		if c := o.CRD; c != nil {
			fmt.Fprintf(&b, " crd.group=%s crd.plural=%s", c.Group, c.Plural)
		}
		b.WriteByte('\n')
		for _, c := range o.Conditions {
			fmt.Fprintf(&b, "  condition line=%d %s=%s reason=%q", c.Line, c.Type, c.Status, c.Reason)
			if !c.LastTransitionTime.IsZero() {
				fmt.Fprintf(&b, " at=%s", c.LastTransitionTime.Format("2006-01-02T15:04:05Z"))
			}
			if c.Message != "" {
				fmt.Fprintf(&b, " message=%q", c.Message)
			}
			b.WriteByte('\n')
		}
	}
	if r.Log != nil {
		for _, e := range r.Log.Entries {
			fmt.Fprintf(&b, "entry %d component=%s severity=%q caller=%q %q\n", e.Line, e.Component, e.Severity, e.Caller, e.Message)
		}
	}
	for _, l := range r.NamespaceLists {
		fmt.Fprintf(&b, "namespace-list line=%d rows=%d rendering=%q command=%q\n", l.Line, l.Rows, l.Rendering, l.Command)
	}
	for _, c := range r.Commands {
		fmt.Fprintf(&b, "command %d %s verb=%q resource=%q names=%v ns=%q all=%v output=%q piped=%v\n", c.Line, c.Tool, c.Verb, c.Resource, c.Names, c.Namespace, c.AllNamespaces, c.Output, c.Piped)
	}
	for _, x := range w.List {
		fmt.Fprintf(&b, "warning %s\n", x)
	}
	return b.String()
}

func parseFile(t *testing.T, path string) (*Result, *diag.Sink, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w := &diag.Sink{}
	return Parse(strings.NewReader(string(data)), filepath.Base(path), Options{}, w), w, data
}

// TestGolden reads every paste of testdata and compares what it gives with its .golden file.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r, w, data := parseFile(t, f)
			for _, x := range w.List {
				if diag.IsInternal(x) {
					t.Fatalf("internal error: %s", x)
				}
			}
			head := data
			if len(head) > 8192 {
				head = head[:8192]
			}
			got := fmt.Sprintf("sniff %v\n", Sniff(head)) + render(r, w)
			g := strings.TrimSuffix(f, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(g, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(g)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs\n got:\n%s\nwant:\n%s", g, got, want)
			}
		})
	}
}

func find(r *Result, kind, name string) *objects.Object {
	for _, o := range r.Objects {
		if o.Kind == kind && o.Name == name {
			return o
		}
	}
	return nil
}

// TestExamples checks the records the brief's examples must give.
func TestExamples(t *testing.T) {
	parse := func(s string) (*Result, *diag.Sink) {
		w := &diag.Sink{}
		return Parse(strings.NewReader(s), "ticket.txt", Options{}, w), w
	}
	t.Run("get ns", func(t *testing.T) {
		r, _ := parse("NAME STATUS AGE\n")
		if len(r.Objects) != 0 {
			t.Fatalf("header alone: %v", r.Objects)
		}
		r, _ = parse("$ kubectl get ns\nNAME          STATUS        AGE\ndefault       Active        9d\nmonitoring    Terminating   3d\n")
		o := find(r, "Namespace", "monitoring")
		if o == nil || o.Phase != "Terminating" || !o.DeletionTimestamp.IsZero() || o.Source.Line != 4 || o.Source.File != "ticket.txt" {
			t.Fatalf("monitoring: %+v", o)
		}
		if d := find(r, "Namespace", "default"); d == nil || d.Phase != "Active" {
			t.Fatalf("default: %+v", d)
		}
		if len(r.NamespaceLists) != 1 || r.NamespaceLists[0].Line != 2 {
			t.Fatalf("namespace list: %+v", r.NamespaceLists)
		}
		// one namespace asked for by name: not the list
		r, _ = parse("$ kubectl get ns monitoring\nNAME          STATUS        AGE\nmonitoring    Terminating   3d\n")
		if len(r.NamespaceLists) != 0 || find(r, "Namespace", "monitoring") == nil {
			t.Fatalf("named: %+v %+v", r.NamespaceLists, r.Objects)
		}
	})
	t.Run("get apiservice", func(t *testing.T) {
		r, _ := parse("v1beta1.example.io   example-system/example-api   False (ServiceNotFound)   3d\n" +
			"v1.apps              Local                        True                      300d\n")
		o := find(r, "APIService", "v1beta1.example.io")
		if o == nil || o.APIService.Service == nil || o.APIService.Service.Namespace != "example-system" || o.APIService.Service.Name != "example-api" {
			t.Fatalf("%+v", o)
		}
		if c := o.Condition("Available"); c == nil || c.Status != "False" || c.Reason != "ServiceNotFound" || c.Line != 1 {
			t.Fatalf("condition %+v", c)
		}
		l := find(r, "APIService", "v1.apps")
		if l == nil || l.APIService.Service != nil || l.Condition("Available").Status != "True" || l.APIService.Group != "apps" {
			t.Fatalf("local %+v", l)
		}
	})
	t.Run("stderr", func(t *testing.T) {
		r, _ := parse("$ kubectl get pods\nerror: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n" +
			"E0312 10:11:12.123456   12345 memcache.go:255] couldn't get resource list for metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n")
		if r.Log == nil || len(r.Log.Entries) != 2 {
			t.Fatalf("%+v", r.Log)
		}
		for i, e := range r.Log.Entries {
			if e.Component != ComponentKubectl || e.Line != i+2 || e.File != "ticket.txt" {
				t.Errorf("entry %+v", e)
			}
		}
		if e := r.Log.Entries[1]; e.Severity != "E" || e.Caller != "memcache.go:255" || !strings.HasPrefix(e.Message, "couldn't get resource list") {
			t.Errorf("klog stderr %+v", e)
		}
	})
	t.Run("project yaml", func(t *testing.T) {
		r, _ := parse("$ oc get project foo -o yaml\napiVersion: project.openshift.io/v1\nkind: Project\nmetadata:\n  name: foo\n  deletionTimestamp: \"2024-01-02T03:04:05Z\"\nstatus:\n  phase: Terminating\n")
		o := find(r, "Namespace", "foo")
		if o == nil || o.Phase != "Terminating" || o.DeletionTimestamp.IsZero() || o.Source.Line != 2 {
			t.Fatalf("%+v", r.Objects)
		}
	})
	t.Run("json after prompt", func(t *testing.T) {
		r, _ := parse("$ kubectl get ns foo -o json\n{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Namespace\",\n  \"metadata\": {\"name\": \"foo\"},\n  \"status\": {\"phase\": \"Terminating\"}\n}\nnamespace/foo patched\n")
		o := find(r, "Namespace", "foo")
		if o == nil || o.Source.Line != 2 || o.Phase != "Terminating" {
			t.Fatalf("%+v", r.Objects)
		}
	})
	t.Run("describe crd", func(t *testing.T) {
		r, _ := parse("$ kubectl describe crd scaledobjects.keda.sh\nName:         scaledobjects.keda.sh\nNamespace:\nLabels:       <none>\nAnnotations:  <none>\nAPI Version:  apiextensions.k8s.io/v1\nKind:         CustomResourceDefinition\nMetadata:\n  Creation Timestamp:  2024-03-02T11:00:00Z\n  Deletion Timestamp:  2024-03-05T11:00:00Z\n  Finalizers:\n    customresourcecleanup.apiextensions.k8s.io\nSpec:\n  Conversion:\n    Strategy:  None\n  Group:       keda.sh\n  Names:\n    Kind:       ScaledObject\n    List Kind:  ScaledObjectList\n    Plural:     scaledobjects\n  Scope:        Namespaced\n  Versions:\n    Name:     v1alpha1\n    Served:   true\n    Storage:  true\nStatus:\n  Conditions:\n    Last Transition Time:  2024-03-05T11:00:01Z\n    Message:               CustomResource deletion is in progress\n    Reason:                InstanceDeletionInProgress\n    Status:                True\n    Type:                  Terminating\nEvents:  <none>\n")
		o := find(r, "CustomResourceDefinition", "scaledobjects.keda.sh")
		if o == nil || o.CRD == nil || o.CRD.Kind != "ScaledObject" || o.CRD.Group != "keda.sh" || o.CRD.StorageVersion != "v1alpha1" ||
			o.DeletionTimestamp.IsZero() || len(o.Finalizers) != 1 || o.Source.Rendering != RenderingDescribe {
			t.Fatalf("%+v %+v", o, o.CRD)
		}
		if c := o.Condition("Terminating"); c == nil || c.Line != 28 || c.Reason != "InstanceDeletionInProgress" {
			t.Fatalf("condition %+v", c)
		}
	})
}

func TestSniff(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"$ kubectl get ns\nNAME STATUS AGE\n", true},
		{"NAME           STATUS        AGE\ndefault        Active        2d\n", true},
		{"Name:         foo\nLabels:       <none>\n", true},
		{"error: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: x\n", true},
		{"E0312 10:11:12.123456   12345 memcache.go:255] couldn't get resource list for metrics.k8s.io/v1beta1: x\n", true},
		// a component's log is a log, even when kubectl is quoted in it
		{"I0312 10:11:12.123456       1 controller.go:105] OpenAPI AggregationController: Processing item\nE0312 10:11:13.1       1 memcache.go:135] couldn't get resource list\n$ kubectl get ns\n", false},
		{"E0312 10:11:13.1       1 memcache.go:135] couldn't get resource list\nI0312 10:11:12.123456       1 controller.go:105] OpenAPI\n", false},
		{"2026-03-12T10:11:12.123Z stdout F hello\n$ kubectl get ns\n", false},
		{"Mar 12 10:11:12 node1 kubelet[123]: E0312 10:11:12.1 123 kubelet.go:1] x\n", false},
		{"just some words\n", false},
		// YAML after a Markdown heading (aws/containers-roadmap#1006), with or without the command in it
		{"# ***kubectl get ns metrics -o yaml***\n\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: metrics\n", true},
		{"The namespace:\n\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: metrics\n", true},
		{"apiVersion: v1 is what it says\nand nothing else\n", false},
		// a JSON dump after `cat` (no prompt), indentation flattened (kubernetes/kubernetes#64002)
		{"cat fleet-system.json\n{\n\"apiVersion\": \"v1\",\n\"kind\": \"Namespace\",\n\"metadata\": {\n", true},
		{"", false},
	}
	for _, c := range cases {
		if got := Sniff([]byte(c.text)); got != c.want {
			t.Errorf("Sniff(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestNoCrashOnTruncation(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for n := 0; n < len(data); n += 1 + len(data)/50 {
			w := &diag.Sink{}
			Parse(strings.NewReader(string(data[:n])), "x.txt", Options{}, w)
			for _, x := range w.List {
				if diag.IsInternal(x) {
					t.Fatalf("%s[:%d]: %s", f, n, x)
				}
			}
		}
	}
}

var _ = sort.Strings

// TestSetXTrace: a `set -x` trace (kubeflow/pipelines#768's e2e log, kfctl.sh's
// delete loop): "+ CMD" lines are commands, the kubectl one names the table's
// namespace, and the next trace lines (`+ echo`, `+ sleep`, `++ date`) end the table
// instead of being read as its rows.
func TestSetXTrace(t *testing.T) {
	in := "+ kubectl get ns/kubeflow\nNAME       STATUS        AGE\nkubeflow   Terminating   1h\n+ echo 'namespace kubeflow not yet deleted. sleeping 10 seconds...'\n" +
		"namespace kubeflow not yet deleted. sleeping 10 seconds...\n+ sleep 10\n+ kubectl get ns/kubeflow\nNAME       STATUS        AGE\nkubeflow   Terminating   1h\n+ sleep 10\n++ date +%s\n"
	w := &diag.Sink{}
	r := Parse(strings.NewReader(in), "trace.txt", Options{}, w)
	var nss []string
	for _, o := range r.Objects {
		if o.Kind == "Namespace" {
			nss = append(nss, o.Name+"="+o.Phase)
		}
	}
	if strings.Join(nss, ",") != "kubeflow=Terminating,kubeflow=Terminating" || len(w.List) != 0 {
		t.Fatalf("namespaces %v, warnings %v", nss, w.List)
	}
	if len(r.Commands) < 2 || r.Commands[0].Text != "kubectl get ns/kubeflow" || r.Commands[0].Verb != "get" {
		t.Fatalf("commands %+v", r.Commands)
	}
	if len(r.NamespaceLists) != 0 {
		t.Fatalf("a namespace asked for by name is no list: %+v", r.NamespaceLists)
	}
	// a "+ " that begins a wrapped line of prose (or a Markdown list item) is no
	// trace of a command: a traced kubectl needs a verb
	for _, l := range []string{"+ kubectl v1.34.4, built from the Go module proxy) by", "+ kubectl and oc are both fine", "+ k get ns"} {
		if c := parseCommand(l, 1); c != nil {
			t.Errorf("%q read as command %+v", l, c)
		}
	}
	if c := parseCommand("++ kubectl delete ns kubeflow", 1); c == nil || c.Verb != "delete" {
		t.Errorf("nested trace: %+v", c)
	}
}

// TestRowComments: rows of a `get ns` table a ticket's author ended with a shell
// comment (the Korean blog post on KubeBlocks: `imprun-system   Terminating   18h  # 😱`)
// are read aligned, with their spaces collapsed, and with tabs; a row whose only
// content is the comment, and an events MESSAGE holding " # ", keep their reading.
func TestRowComments(t *testing.T) {
	for name, rows := range map[string]string{
		"aligned":   "imprun-system   Terminating   18h  # 😱\nkb-system       Terminating   73d  # 😱😱😱\n",
		"collapsed": "imprun-system Terminating 18h # 😱\nkb-system Terminating 73d # 😱😱😱\n",
		"tabs":      "imprun-system\tTerminating\t18h\t# 😱\nkb-system\tTerminating\t73d\t# 😱😱😱\n",
	} {
		t.Run(name, func(t *testing.T) {
			w := &diag.Sink{}
			r := Parse(strings.NewReader("$ kubectl get ns\nNAME            STATUS        AGE\n"+rows), "session.txt", Options{}, w)
			for _, ns := range []string{"imprun-system", "kb-system"} {
				if o := find(r, "Namespace", ns); o == nil || o.Phase != "Terminating" {
					t.Errorf("%s: %+v (warnings %v)", ns, o, w.List)
				}
			}
			if len(w.List) != 0 {
				t.Errorf("warnings %v", w.List)
			}
		})
	}
	for _, c := range []struct{ in, want string }{
		{"kb-system Terminating 73d # 😱", "kb-system Terminating 73d"},
		{"kb-system\tTerminating\t73d\t#", "kb-system\tTerminating\t73d"},
		{"# 30분 후...", ""},
		{"a#b c", ""},
		{"issue #123", ""},
	} {
		got, ok := cutComment(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("cutComment(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

// TestTerraformProgressLines: Terraform's "Still destroying..." line of a
// kubernetes_namespace (pangeo-data's 2020 EKS teardown) is a log line of the file,
// for the analyzer to read the namespace's deletion from; other resources' are not.
func TestTerraformProgressLines(t *testing.T) {
	in := "Error: timeout while waiting for resource to be gone (last state: 'Terminating', timeout: 5m0s)\n\n" +
		"kubernetes_namespace.support: Still destroying... [id=support, 5m0s elapsed]\n" +
		"kubernetes_deployment.web: Still destroying... [id=default/web, 5m0s elapsed]\n"
	r := Parse(strings.NewReader(in), "terraform-destroy.txt", Options{}, &diag.Sink{})
	var lines []int
	if r.Log != nil {
		for _, e := range r.Log.Entries {
			lines = append(lines, e.Line)
		}
	}
	if fmt.Sprint(lines) != "[1 3]" {
		t.Fatalf("log lines %v, want [1 3]", lines)
	}
}

func TestProjectsTable(t *testing.T) {
	w := &diag.Sink{}
	r := Parse(strings.NewReader("$ oc get projects\nNAME                DISPLAY NAME   STATUS\ndefault                            Active\nopenshift-storage                  Terminating\nmyproj              My Project     Active\nkube-system                        Active\n"), "p.txt", Options{}, w)
	if o := find(r, "Namespace", "openshift-storage"); o == nil || o.Phase != "Terminating" {
		t.Fatalf("%v %v", r.Objects, w.List)
	}
	if o := find(r, "Namespace", "myproj"); o == nil || o.Phase != "Active" {
		t.Fatalf("%v %v", r.Objects, w.List)
	}
	if len(r.NamespaceLists) != 1 || r.NamespaceLists[0].Rows != 4 || len(w.List) != 0 {
		t.Fatalf("%+v %v", r.NamespaceLists, w.List)
	}
}

// TestPastedComponentLines: klog lines of a component (pid 1 in its container) pasted
// among kubectl output keep the component their caller names; kubectl's own lines and
// the lines after `kubectl logs POD` are attributed as such.
func TestPastedComponentLines(t *testing.T) {
	in := "$ kubectl get ns\nNAME   STATUS   AGE\nx   Terminating   1h\n" +
		"E1129 22:26:15.581738       1 namespace_controller.go:164] deletion of namespace x failed: boom\n" +
		"$ kubectl -n kube-system logs kube-apiserver-node1\n" +
		"E1129 22:26:16.000000       1 controller.go:113] loading OpenAPI spec for \"v1beta1.metrics.k8s.io\" failed with: x\n"
	r := Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{})
	if r.Log == nil || len(r.Log.Entries) != 2 {
		t.Fatalf("%+v", r.Log)
	}
	if e := r.Log.Entries[0]; e.Line != 4 || e.Component != "kube-controller-manager" {
		t.Errorf("pasted KCM line %+v", e)
	}
	if e := r.Log.Entries[1]; e.Line != 6 || e.Component != "kube-apiserver" {
		t.Errorf("kubectl logs line %+v", e)
	}
}

// TestTableBlankLines: a chat client or a copy from a web page puts a blank line after
// some lines of a table; a row after it that fits the header without guessing is the
// table's, at any indent, while prose, a command or another header after a blank ends it.
func TestTableBlankLines(t *testing.T) {
	nss := func(in string) string {
		r := Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{})
		var out []string
		for _, o := range r.Objects {
			if o.Kind == "Namespace" {
				out = append(out, o.Name+"="+o.Phase)
			}
		}
		for _, l := range r.NamespaceLists {
			out = append(out, fmt.Sprintf("list of %d", l.Rows))
		}
		return strings.Join(out, ",")
	}
	for in, want := range map[string]string{
		"$ kubectl get ns\nNAME          STATUS        AGE\n\nkube-system   Active        9d\n\nkb-system     Terminating   73d\n": "kube-system=Active,kb-system=Terminating,list of 2",
		"    NAME          STATUS        AGE\n    kube-system   Active        9d\n\n\n    kb-system     Terminating   73d\n":       "kube-system=Active,kb-system=Terminating,list of 2",
		"NAME\tSTATUS\tAGE\nkube-system\tActive\t9d\n\nkb-system\tTerminating\t73d\n":                                              "kube-system=Active,kb-system=Terminating,list of 2",
		"NAME          STATUS        AGE\nkb-system     Terminating   73d\n\nthen I ran it again and it hung\n":                    "kb-system=Terminating",
		"NAME          STATUS        AGE\nkb-system     Terminating   73d\n\n$ kubectl get pods -n kb-system\nNAME   READY\n":      "kb-system=Terminating",
	} {
		if got := nss(in); got != want {
			t.Errorf("%q: namespaces %q, want %q", in, got, want)
		}
	}
}

// TestPipedConditionNoWarning: `kubectl get ns X -o yaml | yq '.status.conditions[-1]'`
// prints one condition, whose status is a string: a fragment, not an object with a
// field of the wrong type, so it warns of nothing.
func TestPipedConditionNoWarning(t *testing.T) {
	in := "$ kubectl get ns X -o yaml | yq '.status.conditions[-1]'\nlastTransitionTime: \"2024-05-02T10:11:12Z\"\n" +
		"message: 'Some content in the namespace has finalizers remaining: foo.example.com/cleanup\n  in 3 resource instances'\n" +
		"reason: SomeFinalizersRemain\nstatus: \"True\"\ntype: NamespaceFinalizersRemaining\n"
	w := &diag.Sink{}
	Parse(strings.NewReader(in), "a.txt", Options{}, w)
	if len(w.List) != 0 {
		t.Errorf("warnings: %v", w.List)
	}
}
