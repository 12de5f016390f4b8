package objects

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestNotObjectsNoTypeWarning: JSON that is not a Kubernetes object (a sonobuoy
// healthz.json, Prometheus alerts of a must-gather, sonobuoy's results YAML as JSON) is
// no object and gives no "wrong type" warning; an object with a wrong type still does.
func TestNotObjectsNoTypeWarning(t *testing.T) {
	for _, in := range []string{
		`{"status":200}`,
		`{"status":"success","data":{"alerts":[{"labels":{"alertname":"Watchdog"},"state":"firing"}]}}`,
		`{"name":"e2e","status":"failed","meta":{"type":"summary"},"items":[{"name":"global","status":"failed"}]}`,
	} {
		for _, fast := range []bool{true, false} {
			disableFastDecode.Store(!fast)
			objs, warns := decodeString(t, in)
			disableFastDecode.Store(false)
			if len(objs) != 0 || len(warns) != 0 {
				t.Errorf("%s (fast %v): objects %v, warnings %v", in, fast, objs, warns)
			}
		}
	}
	_, warns := decodeString(t, `{"apiVersion":"longhorn.io/v1beta1","kind":"Volume","metadata":{"name":"pvc-1","namespace":"longhorn-system"},"status":{"conditions":{"scheduled":{"type":"scheduled","status":"True"}}}}`)
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "wrong type (status.conditions: object)") {
		t.Errorf("warnings %v", warns)
	}
}

// TestInternalTypeItems: kubectl 1.13's cluster-info dump writes internal types:
// `"Items"`, metadata inlined, "Spec"/"Status" (lines from a minikube v1.13.3 dump).
func TestInternalTypeItems(t *testing.T) {
	in := "{\n    \"selfLink\": \"/api/v1/namespaces/kube-system/pods\",\n    \"resourceVersion\": \"4225\",\n    \"Items\": [\n        {\n" +
		"            \"name\": \"etcd-minikube\",\n            \"namespace\": \"kube-system\",\n            \"uid\": \"f0c7a2b7-417e-11e9-9e86-00155d700139\",\n" +
		"            \"creationTimestamp\": \"2019-03-08T08:49:27Z\",\n            \"labels\": {\"component\": \"etcd\", \"tier\": \"control-plane\"},\n" +
		"            \"Spec\": {\"NodeName\": \"minikube\", \"Containers\": [{\"Name\": \"etcd\", \"Image\": \"k8s.gcr.io/etcd:3.2.24\"}]},\n" +
		"            \"Status\": {\"Phase\": \"Running\", \"Conditions\": [{\"Type\": \"Ready\", \"Status\": \"True\"}]}\n        }\n    ]\n}\n"
	for _, fast := range []bool{true, false} {
		disableFastDecode.Store(!fast)
		var out []*Object
		w := &diag.Sink{}
		DecodeJSON(strings.NewReader(in), "kube-system/pods.json", Options{KindHint: "Pod"}, w, func(o *Object) { out = append(out, o) })
		disableFastDecode.Store(false)
		if len(out) != 1 || len(w.List) != 0 {
			t.Fatalf("fast %v: objects %v warnings %v", fast, out, w.List)
		}
		o := out[0]
		if o.Kind != "Pod" || o.Name != "etcd-minikube" || o.Namespace != "kube-system" || o.CreationTimestamp.IsZero() ||
			o.Labels["component"] != "etcd" || o.Phase != "Running" || o.Pod == nil || o.Pod.NodeName != "minikube" || !o.Pod.Ready || o.Source.Line != 5 {
			t.Errorf("fast %v: %+v %+v", fast, o, o.Pod)
		}
	}
}

// TestNodeKubeletVersion: a Node's status.nodeInfo.kubeletVersion is read, by both decoders.
func TestNodeKubeletVersion(t *testing.T) {
	in := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"aks-nodepool1-28869405-vmss000000"},"status":{"nodeInfo":{"architecture":"amd64","kubeletVersion":"v1.16.7","kubeProxyVersion":"v1.16.7"}}}`
	for _, fast := range []bool{true, false} {
		disableFastDecode.Store(!fast)
		objs, warns := decodeString(t, in)
		disableFastDecode.Store(false)
		if len(objs) != 1 || objs[0].KubeletVersion != "v1.16.7" || len(warns) != 0 {
			t.Errorf("fast %v: %v %v", fast, objs, warns)
		}
	}
}

// TestRedactedYAML: troubleshoot's redactors write `***HIDDEN***` unquoted, which YAML
// reads as an alias (lines of a Longhorn engines.longhorn.io file of a kURL bundle):
// the document is read, the values are the marker.
func TestRedactedYAML(t *testing.T) {
	in := "apiVersion: v1\nitems:\n- apiVersion: longhorn.io/v1beta1\n  kind: Engine\n  metadata:\n    finalizers:\n    - longhorn.io\n    name: pvc-1-e-0\n    namespace: longhorn-system\n" +
		"  spec:\n    replicaAddressMap:\n      pvc-1-r-1: ***HIDDEN***:10000\n    salt: ***HIDDEN***\n    tags:\n    - ***HIDDEN***\n    note: 'quoted ***HIDDEN*** stays'\n    url: tcp://***HIDDEN***:10000\nkind: List\n"
	var out []*Object
	w := &diag.Sink{}
	DecodeYAML(strings.NewReader(in), "engines.yaml", Options{}, w, func(o *Object) { out = append(out, o) })
	if len(w.List) != 0 || len(out) != 1 || out[0].Name != "pvc-1-e-0" || len(out[0].Finalizers) != 1 {
		t.Fatalf("objects %v warnings %v", out, w.List)
	}
	got := string(quoteRedacted([]byte(in)))
	for _, want := range []string{"pvc-1-r-1: '***HIDDEN***:10000'\n", "salt: '***HIDDEN***'\n", "- '***HIDDEN***'\n",
		"note: 'quoted ***HIDDEN*** stays'\n", "url: tcp://***HIDDEN***:10000\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("quoted YAML lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != strings.Count(in, "\n") {
		t.Errorf("line count changed")
	}
}

// TestSniffJSONLogs: logrus/zap JSON and journalctl -o json files are logs, not objects.
func TestSniffJSONLogs(t *testing.T) {
	for in, want := range map[string]string{
		`{"level":"info","msg":"Filtering namespaces based on the following regex:.*","time":"2021-08-17T17:04:33Z"}` + "\n":                                         "jsonlog",
		`{"_EXE":"/usr/bin/kubelet","SYSLOG_IDENTIFIER":"kubelet","MESSAGE":"I0817 16:07:14.536031 191 x.go:1] y","__REALTIME_TIMESTAMP":"1629216434536089"}` + "\n": "jsonlog",
		`{"apiVersion":"v1","kind":"Event","level":"info","msg":"x","time":"2021-08-17T17:04:33Z"}` + "\n":                                                           "json",
		"{\n  \"level\": \"info\",\n  \"msg\": \"x\",\n  \"time\": \"2021-08-17T17:04:33Z\"\n}\n":                                                                    "json",
	} {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %q, want %q", in, got, want)
		}
	}
}
