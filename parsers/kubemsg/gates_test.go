package kubemsg

import (
	"strings"
	"testing"
)

// TestMemcacheStructured: client-go v0.37's "Couldn't get resource list" names its
// group/version in a key of its own (groupVersion= at memcache.go:403, gv= at :133), in
// klog text and JSON; a value that is no group/version, or no key at all, is no finding.
func TestMemcacheStructured(t *testing.T) {
	for _, tc := range []struct{ line, gv, err string }{
		{`E1202 06:14:09.207731   48213 memcache.go:403] "Couldn't get resource list" err="the server is currently unable to handle the request" logger="UnhandledError" groupVersion="metrics.k8s.io/v1beta1"`, "metrics.k8s.io/v1beta1", "the server is currently unable to handle the request"},
		{`E1202 06:14:09.251904   48213 memcache.go:133] "Couldn't get resource list" err="stale GroupVersion discovery: custom.metrics.k8s.io/v1beta2" gv="custom.metrics.k8s.io/v1beta2"`, "custom.metrics.k8s.io/v1beta2", "stale GroupVersion discovery: custom.metrics.k8s.io/v1beta2"},
		{`{"ts":1796105649207.731,"caller":"memory/memcache.go:403","msg":"Couldn't get resource list","err":"the server is currently unable to handle the request","logger":"UnhandledError","groupVersion":"metrics.k8s.io/v1beta1"}`, "metrics.k8s.io/v1beta1", "the server is currently unable to handle the request"},
		{`E1202 06:14:09.207731   48213 memcache.go:403] "Couldn't get resource list" err="x" groupVersion="Not A GV/v1"`, "", ""},
		{`E1202 06:14:09.207731   48213 memcache.go:381] "Couldn't get current server API group list" err="Get \"https://127.0.0.1:1/api\": dial tcp 127.0.0.1:1: connect: connection refused"`, "", ""},
		{`"Couldn't get resource list" groupVersion="metrics.k8s.io/v1beta1"`, "", ""},
	} {
		f, ok := ParseMemcacheFailure(tc.line)
		if ok != (tc.gv != "") || f.GroupVersion != tc.gv || f.Err != tc.err {
			t.Errorf("ParseMemcacheFailure(%q) = %+v, %v; want %q %q", tc.line, f, ok, tc.gv, tc.err)
		}
	}
	// through a log entry's message and fields (the rule's path)
	fields := map[string]string{"err": "the server is currently unable to handle the request", "gv": "metrics.k8s.io/v1beta1"}
	if f, ok := MemcacheFailureOf(MemcacheStructured, func(k string) string { return fields[k] }); !ok || f.GroupVersion != "metrics.k8s.io/v1beta1" {
		t.Errorf("MemcacheFailureOf = %+v, %v", f, ok)
	}
	if _, ok := MemcacheFailureOf("Couldn't get current server API group list", func(k string) string { return fields[k] }); ok {
		t.Error("MemcacheFailureOf took another message")
	}
}

func TestFeatureGateRefusal(t *testing.T) {
	for _, tc := range []struct{ line, gate, kind, value string }{
		{`E1202 06:20:11.482915   51027 run.go:72] "command failed" err="cannot set feature gate OrderedNamespaceDeletion to false, feature is locked to true"`, "OrderedNamespaceDeletion", "locked", "false"},
		{`Error: invalid argument "OrderedNamespaceDeletion=false" for "--feature-gates" flag: unrecognized feature gate: OrderedNamespaceDeletion`, "OrderedNamespaceDeletion", "unrecognized", ""},
		{`{"ts":1796105649207.731,"caller":"cli/run.go:72","msg":"command failed","err":"unrecognized feature gate: OrderedNamespaceDeletion"}`, "OrderedNamespaceDeletion", "unrecognized", ""},
		{`I1202 06:20:11.482915   51027 feature_gate.go:385] feature gates: {map[OrderedNamespaceDeletion:true]}`, "", "", ""},
	} {
		r, ok := ParseFeatureGateRefusal(tc.line)
		if ok != (tc.gate != "") || r.Gate != tc.gate || r.Kind != tc.kind || r.Value != tc.value {
			t.Errorf("ParseFeatureGateRefusal(%q) = %+v, %v", tc.line, r, ok)
		}
	}
}

func TestCRDWaiting(t *testing.T) {
	for _, tc := range []struct {
		line            string
		resource, group string
		count           int
	}{
		{`I1202 06:22:05.118274   50112 crd_finalizer.go:245] "Waiting for items to be removed" resource="widgets" group="example.com" count=2`, "widgets", "example.com", 2},
		{`{"ts":1796105649207.731,"caller":"finalizer/crd_finalizer.go:245","msg":"Waiting for items to be removed","v":2,"resource":"widgets","group":"example.com","count":7}`, "widgets", "example.com", 7},
		{`I0312 10:02:40.000123       1 crd_finalizer.go:219] etcdclusters.etcd.database.coreos.com waiting for 1 items to be removed`, "etcdclusters", "etcd.database.coreos.com", 1},
		{`I1202 06:22:05.118274   50112 crd_finalizer.go:245] "Waiting for items to be removed"`, "", "", 0},
		// names that cannot be a plural and a group: an invalid byte unquoted to U+FFFD,
		// a key inside another value (FuzzParseNewMessages); a plural of 64 bytes
		{"Waiting for items to be removed resource=\"\x82 group=0\" count=0", "", "", 0},
		{`"Waiting for items to be removed" resource="Widgets" group="example.com" count=2`, "", "", 0},
		{strings.Repeat("a", 64) + ".example.com waiting for 1 items to be removed", "", "", 0},
	} {
		w, ok := ParseCRDWaiting(tc.line)
		if ok != (tc.resource != "") || w.Resource != tc.resource || w.Group != tc.group || w.Count != tc.count {
			t.Errorf("ParseCRDWaiting(%q) = %+v, %v", tc.line, w, ok)
		}
	}
	if v, ok := IsCRDTerminatingRefusal(`widgets.example.com "w1" is forbidden: create not allowed while custom resource definition is terminating`); !ok || v != "create" {
		t.Errorf("IsCRDTerminatingRefusal = %q, %v", v, ok)
	}
	if _, ok := IsCRDTerminatingRefusal(`create not allowed while CustomResourceDefinition is terminating`); ok {
		t.Error("the 1.10 wording (one word) is not the catalogued phrase")
	}
}

// TestNewFinalizersForbidden: apimachinery's refusal to add finalizers to an object
// being deleted, on the real kubectl stderr of rook/rook.github.io#117 (one line, and
// as kubectl printed it: the header line, then one `* ` item per field error).
func TestNewFinalizersForbidden(t *testing.T) {
	for _, c := range []struct {
		in, kind, name, fins string
		ok                   bool
	}{
		{`The CephCluster "rook-ceph" is invalid: * metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{""}`, "CephCluster", "rook-ceph", `[]string{""}`, true},
		{"The CephBlockPool \"replicapool\" is invalid:\n* metadata.finalizers: Invalid value: \"\": name part must be non-empty\n* metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"\"}\nThe CephCluster \"rook-ceph\" is invalid:", "CephBlockPool", "replicapool", `[]string{""}`, true},
		{`metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/x"}`, "", "", `[]string{"example.com/x"}`, true},
		{`The CephCluster "rook-ceph" is invalid: metadata.finalizers: Invalid value: "": name part must be non-empty`, "", "", "", false},
	} {
		r, ok := ParseNewFinalizersForbidden(c.in)
		if ok != c.ok || r.Kind != c.kind || r.Name != c.name || r.Finalizers != c.fins {
			t.Errorf("ParseNewFinalizersForbidden(%q) = %+v, %v; want %s %s %s %v", c.in, r, ok, c.kind, c.name, c.fins, c.ok)
		}
	}
}
