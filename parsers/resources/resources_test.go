package resources

import "testing"

func TestLookup(t *testing.T) {
	for name, kind := range map[string]string{
		"ns": "Namespace", "namespaces": "Namespace", "Projects": "Namespace", "projects.project.openshift.io": "Namespace",
		"apiservices.apiregistration.k8s.io": "APIService", "apiservice": "APIService", "po": "Pod", "pods.v1.": "Pod",
		"deployments.apps": "Deployment", "deployments.v1.apps": "Deployment", "crd": "CustomResourceDefinition",
		"replication-controllers": "ReplicationController",
	} {
		if r, ok := Lookup(name); !ok || r.Kind != kind {
			t.Errorf("Lookup(%q) = %+v, %v; want %s", name, r, ok, kind)
		}
	}
	for _, name := range []string{"", "cephobjectstoreusers.ceph.rook.io", "pods.apps", "deployments.example.com", "x"} {
		if r, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %+v, want unknown", name, r)
		}
	}
	if r, _ := Lookup("pods"); !r.Namespaced || r.GroupVersion != "v1" {
		t.Errorf("pods %+v", r)
	}
	if r, _ := Lookup("apiservices"); r.Namespaced {
		t.Errorf("apiservices %+v", r)
	}
}
