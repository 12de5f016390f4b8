package objects

import (
	"os"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

func decodeString(t *testing.T, s string) ([]*Object, []diag.Warning) {
	t.Helper()
	var out []*Object
	w := &diag.Sink{}
	DecodeJSON(strings.NewReader(s), "f.json", Options{}, w, func(o *Object) { out = append(out, o) })
	return out, w.List
}

func TestDecodeShapes(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		kinds []string
		lines []int
		warn  int
	}{
		{"single object", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}}`, []string{"Namespace"}, []int{1}, 0},
		{"kubectl List, kind after items", "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    {\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}},\n    {\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s\"}}\n  ],\n  \"kind\": \"List\"\n}",
			[]string{"Pod", "Service"}, []int{4, 5}, 0},
		{"typed list, items without kind", `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"p1"}},{"metadata":{"name":"p2"}}]}`,
			[]string{"Pod", "Pod"}, []int{1, 1}, 0},
		{"JSON array", `[{"kind":"Namespace","metadata":{"name":"a"}},{"kind":"Namespace","metadata":{"name":"b"}}]`, []string{"Namespace", "Namespace"}, []int{1, 1}, 0},
		{"concatenated documents", "{\"kind\":\"NodeList\",\"items\":[]}\n{\"kind\":\"EventList\",\"items\":null}\n{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"x\"}}]}", []string{"Pod"}, []int{3}, 0},
		{"strings with braces and escapes", `{"kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"}\"]{["}}`, []string{"ConfigMap"}, []int{1}, 0},
		{"truncated list keeps earlier items", `{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Pod","metadata":{"na`, []string{"Pod"}, []int{1}, 1},
		{"wrong field type is read around", `{"kind":"Namespace","metadata":{"name":"a","finalizers":"kubernetes","deletionTimestamp":"2026-01-01T00:00:00Z"}}`, []string{"Namespace"}, []int{1}, 1},
		{"not JSON", `hello`, nil, nil, 1},
		// argoproj/argo-cd#7860: a Namespace cut after its first condition is read as far as it goes
		{"truncated object read as far as it goes", "{\n \"apiVersion\": \"v1\",\n \"kind\": \"Namespace\",\n \"metadata\": {\"name\": \"argocd\", \"deletionTimestamp\": \"2021-12-05T21:55:36Z\"},\n \"spec\": {\"finalizers\": [\"kubernetes\"]},\n \"status\": {\"conditions\": [{\"status\": \"False\", \"type\": \"NamespaceDeletionDiscoveryFailure\"},\n", []string{"Namespace"}, []int{1}, 1},
		{"truncated inside a string", `{"kind":"Namespace","metadata":{"name":"a","finalizers":["x"]},"status":{"phase":"Termin`, []string{"Namespace"}, []int{1}, 1},
		{"list cut before its items", `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"`, nil, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, warns := decodeString(t, tt.in)
			var kinds []string
			var lines []int
			for _, o := range objs {
				kinds = append(kinds, o.Kind)
				lines = append(lines, o.Source.Line)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("kinds %v, want %v", kinds, tt.kinds)
			}
			for i := range lines {
				if i < len(tt.lines) && lines[i] != tt.lines[i] {
					t.Errorf("lines %v, want %v", lines, tt.lines)
					break
				}
			}
			if len(warns) != tt.warn {
				t.Errorf("warnings %v, want %d", warns, tt.warn)
			}
		})
	}
}

// TestRealNamespace decodes a real kubectl dump (Kubernetes v1.34.4) and checks the
// fields and the line numbers evidence quotes.
func TestRealNamespace(t *testing.T) {
	f, err := os.Open("../../fixtures/realdata/a-discovery-failure/namespaces/tobedeleted/namespace.json")
	if err != nil {
		t.Fatal("committed fixture missing:", err)
	}
	defer f.Close()
	var objs []*Object
	DecodeJSON(f, "namespace.json", Options{}, &diag.Sink{}, func(o *Object) { objs = append(objs, o) })
	if len(objs) != 1 {
		t.Fatalf("%d objects", len(objs))
	}
	o := objs[0]
	if o.Kind != "Namespace" || o.Name != "tobedeleted" || o.Phase != "Terminating" || o.DeletionTimestamp.IsZero() {
		t.Errorf("object %+v", o)
	}
	if len(o.SpecFinalizers) != 1 || o.SpecFinalizers[0] != "kubernetes" {
		t.Errorf("spec.finalizers %v", o.SpecFinalizers)
	}
	c := o.Condition("NamespaceDeletionDiscoveryFailure")
	if c == nil || c.Status != "True" || c.Line != 26 {
		t.Errorf("condition %+v", c)
	}
	if l := o.Source.LineOf("metadata.deletionTimestamp"); l != 9 {
		t.Errorf("deletionTimestamp line %d, want 9", l)
	}
}

func TestDecodeYAML(t *testing.T) {
	in := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n# comment\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n    namespace: a\n    finalizers: [x/y]\n"
	var objs []*Object
	DecodeYAML(strings.NewReader(in), "f.yaml", Options{}, &diag.Sink{}, func(o *Object) { objs = append(objs, o) })
	if len(objs) != 2 || objs[0].Kind != "Namespace" || objs[1].Kind != "Pod" || objs[1].Finalizers[0] != "x/y" {
		t.Fatalf("objects %v", objs)
	}
	if objs[1].Source.Line != 6 {
		t.Errorf("second document line %d, want 6", objs[1].Source.Line)
	}
}

func TestSniff(t *testing.T) {
	for in, want := range map[string]string{
		`{"ts":1795991714852.3806,"caller":"x.go:1","msg":"m","v":0}`:           "jsonlog",
		`{"log":"I0101 ...\n","stream":"stderr","time":"2019-01-01T00:00:00Z"}`: "jsonlog",
		"{\n \"kind\": \"List\"": "json",
		"[{}]":                   "json",
		"apiVersion: v1\n":       "yaml",
		"I1129 22:25:53.178493    2523 flags.go:64] FLAG": "text",
		"\x00\x01binary": "binary",
	} {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestPodClaims reads the claims a pod's volumes mount (what holds a PVC's
// kubernetes.io/pvc-protection finalizer), with the fast decoder on and off.
func TestPodClaims(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"two claims among other volumes", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"volumes":[{"name":"cfg","configMap":{"name":"c"}},{"name":"data","persistentVolumeClaim":{"claimName":"data-0"}},{"name":"logs","persistentVolumeClaim":{"claimName":"logs","readOnly":true}}]}}`, []string{"data-0", "logs"}},
		{"no volumes", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":"n"}}`, nil},
		{"a claim without a name is none", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"x","persistentVolumeClaim":{}}]}}`, nil},
		{"null claim source", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"x","persistentVolumeClaim":null}]}}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if n := decodeFastAndSlow(t, "f.json", []byte(tt.in), Options{}); n != 1 {
				t.Fatalf("%d objects, want 1", n)
			}
			objs, warns := decodeString(t, tt.in)
			if len(objs) != 1 || objs[0].Pod == nil || len(warns) > 0 {
				t.Fatalf("objects %v, warnings %v", objs, warns)
			}
			if got := strings.Join(objs[0].Pod.Claims, ","); got != strings.Join(tt.want, ",") {
				t.Errorf("claims %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTruncatedObject: what a cut Namespace shows (its name, deletionTimestamp,
// finalizers, the conditions before the cut) is read, with a warning at its line;
// the condition the cut is inside is not.
func TestTruncatedObject(t *testing.T) {
	in := "{\n \"apiVersion\": \"v1\",\n \"kind\": \"Namespace\",\n \"metadata\": {\"name\": \"argocd\", \"deletionTimestamp\": \"2021-12-05T21:55:36Z\"},\n" +
		" \"spec\": {\"finalizers\": [\"kubernetes\"]},\n \"status\": {\"conditions\": [{\"status\": \"False\", \"type\": \"NamespaceDeletionDiscoveryFailure\"},\n {\"status\": \"Tr"
	objs, warns := decodeString(t, in)
	if len(objs) != 1 {
		t.Fatalf("%d objects", len(objs))
	}
	o := objs[0]
	if o.Name != "argocd" || o.DeletionTimestamp.IsZero() || len(o.SpecFinalizers) != 1 || len(o.Conditions) != 1 || o.Source.Line != 1 {
		t.Fatalf("%s: deleted %v, spec.finalizers %v, conditions %+v", o.Ref(), o.DeletionTimestamp, o.SpecFinalizers, o.Conditions)
	}
	if len(warns) != 1 || warns[0].Line != 1 || !strings.Contains(warns[0].Message, "read as far as it goes") {
		t.Fatalf("warnings %v", warns)
	}
}

// TestTruncatedObjectName: an object cut before metadata.name (kubectl sorts the keys)
// takes its name from what the API server or kubectl apply wrote of it: the
// kubernetes.io/metadata.name label of a Namespace, the last-applied-configuration.
func TestTruncatedObjectName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"apiVersion":"v1","kind":"Namespace","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"annotations\":{},\"name\":\"fleet-system\"}}\n"},"deletionTimestamp":"2021-01-11T08:41:43Z","finalizers":["controller.cattle.io/namespace-auth"],"labels":{"a":"b",`, "fleet-system"},
		{`{"apiVersion":"v1","kind":"Namespace","metadata":{"deletionTimestamp":"2021-01-11T08:41:43Z","labels":{"kubernetes.io/metadata.name":"team-a"},"nam`, "team-a"},
		{`{"apiVersion":"v1","kind":"Namespace","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"other\"}}"},"labels":{"a":"b",`, ""},
	} {
		objs, _ := decodeString(t, c.in)
		got := ""
		if len(objs) == 1 {
			got = objs[0].Name
		}
		if got != c.want || len(objs) > 1 {
			t.Errorf("%d objects, name %q; want %q: %s", len(objs), got, c.want, c.in)
		}
	}
}

// TestNameless: a whole object without metadata.name (the velero paste, cut in
// managedFields before `name:`) takes the name its kubernetes.io/metadata.name label
// gives, in YAML as in JSON, with a warning that says so; without such a label it keeps
// no name (a paste's reader may still name it from the command before it).
func TestNameless(t *testing.T) {
	yamlDoc := "apiVersion: v1\nkind: Namespace\nmetadata:\n  deletionTimestamp: \"2024-11-15T07:29:01Z\"\n  labels:\n    component: velero\n    kubernetes.io/metadata.name: velero\n"
	for _, c := range []struct {
		name, in, want string
		yaml           bool
	}{
		{"YAML, label", yamlDoc, "velero", true},
		{"JSON, label", `{"apiVersion":"v1","kind":"Namespace","metadata":{"labels":{"kubernetes.io/metadata.name":"velero"}}}`, "velero", false},
		{"YAML, no label", "apiVersion: v1\nkind: Namespace\nmetadata:\n  labels:\n    component: velero\n", "", true},
		{"label not a name", `{"kind":"Namespace","metadata":{"labels":{"kubernetes.io/metadata.name":"Not A Name"}}}`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out []*Object
			w := &diag.Sink{}
			emit := func(o *Object) { out = append(out, o) }
			if c.yaml {
				DecodeYAML(strings.NewReader(c.in), "f.yaml", Options{}, w, emit)
			} else {
				DecodeJSON(strings.NewReader(c.in), "f.json", Options{}, w, emit)
			}
			if len(out) != 1 || out[0].Name != c.want {
				t.Fatalf("objects %v, want one named %q", out, c.want)
			}
			said := len(w.List) == 1 && strings.Contains(w.List[0].Message, "kubernetes.io/metadata.name")
			if said != (c.want != "") {
				t.Errorf("warnings %v (want one naming the label: %v)", w.List, c.want != "")
			}
		})
	}
}
