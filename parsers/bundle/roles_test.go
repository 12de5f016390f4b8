package bundle_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// TestLayoutFileRoles: each layout's version file, clock and container logs are read as
// the layout means them (lines as the collectors wrote them: sonobuoy 0.10 and a kind
// run, must-gather 2021-08, troubleshoot 0.121, kubectl 1.13's cluster-info dump), in a
// directory and in a tar.gz with a wrapping directory.
func TestLayoutFileRoles(t *testing.T) {
	cases := []struct {
		name     string
		files    []bfile
		version  string
		clock    string // RFC3339, "" = none
		clockSrc string
		// components of log files by path; "-" = the file must not be read as a log
		components map[string]string
		formats    map[string]string // log files by path → the format they were read as (with times)
		warnings   []string          // substrings, one per warning, in order
	}{
		{name: "sonobuoy", files: []bfile{
			{name: "serverversion.json", data: []byte(`{"major":"1","minor":"21","gitVersion":"v1.21.1","gitCommit":"5e58841cce77d4bc13713ad2b91fa0d961e69192","gitTreeState":"clean","buildDate":"2021-05-21T23:01:33Z","goVersion":"go1.16.4","compiler":"gc","platform":"linux/amd64"}`)},
			{name: "meta/run.log", data: []byte(`{"level":"info","msg":"Filtering namespaces based on the following regex:.*","time":"2021-08-17T17:04:33Z"}` + "\n" +
				`{"level":"info","msg":"Log lines after this point will not appear in the downloaded tarball.","time":"2021-08-17T17:43:58Z"}` + "\n")},
			{name: "resources/cluster/core_v1_namespaces.json", data: []byte(nsListJSON("default", "kube-system"))},
			{name: "podlogs/sonobuoy/sonobuoy/logs/kube-sonobuoy.txt", data: []byte("time=\"2021-08-17T17:43:45Z\" level=info msg=\"Error: unable to retrieve the complete list of server APIs\"\n")},
			{name: "plugins/systemd-logs/results/kind-control-plane/systemd_logs", data: []byte(`{"_EXE":"/usr/bin/kubelet","SYSLOG_IDENTIFIER":"kubelet","MESSAGE":"I0817 16:07:14.536031     191 topology_manager.go:187] \"Topology Admit Handler\"","__REALTIME_TIMESTAMP":"1629216434536089","_HOSTNAME":"kind-control-plane"}` + "\n")},
		}, version: "v1.21.1", clock: "2021-08-17T17:43:58Z", clockSrc: "meta/run.log",
			components: map[string]string{"meta/run.log": "", "podlogs/sonobuoy/sonobuoy/logs/kube-sonobuoy.txt": "",
				"plugins/systemd-logs/results/kind-control-plane/systemd_logs": ""},
			formats: map[string]string{"meta/run.log": "json", "plugins/systemd-logs/results/kind-control-plane/systemd_logs": "journald"}},
		{name: "must-gather", files: []bfile{
			{name: "timestamp", data: []byte("2021-08-03 12:11:56.91501602 +0200 CEST m=+1.651641915\n2021-08-03 12:14:13.632016778 +0200 CEST m=+138.368642668\n")},
			{name: "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85/timestamp", data: []byte("2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555\n2021-08-03 10:13:47.364145495 +0000 UTC m=+1.355495176\n")},
			{name: "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85/namespaces/openshift-kube-apiserver/pods/kube-apiserver-m0/kube-apiserver/kube-apiserver/logs/current.log",
				data: []byte("2021-08-03T10:13:00.000000000Z I0803 10:13:00.000000      18 shared_informer.go:247] Caches are synced\n")},
			{name: "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85/namespaces/openshift-kube-apiserver/pods/kube-apiserver-m0/kube-apiserver/kube-apiserver/api_priority_and_fairness/queues",
				data: []byte("PriorityLevelName, Index, PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum\nworkload-low,      0,     0,               0,                 0,          0.00000000ss,  0,               0,           0.00000000ss\n")},
			{name: "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85/namespaces/openshift-kube-apiserver/pods/kube-apiserver-m0/kube-apiserver/kube-apiserver/logs/previous.log", data: nil},
			{name: "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85/namespaces/openshift-etcd/pods/etcd-m0/etcd/etcd/logs/previous.log", data: nil},
			{name: "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede85/namespaces/openshift-etcd/pods/etcd-m0/etcdctl/etcdctl/logs/previous.log", data: nil},
		}, clock: "2021-08-03T10:14:13.632016778Z", clockSrc: "timestamp",
			components: map[string]string{"kube-apiserver/logs/current.log": "kube-apiserver", "api_priority_and_fairness/queues": "-"},
			warnings:   []string{"/logs/previous.log: empty file (3 warnings of this kind, in 3 files; also "}},
		{name: "troubleshoot", files: []bfile{
			{name: "cluster-info/cluster_version.json", data: []byte("{\n  \"info\": {\n    \"major\": \"1\",\n    \"minor\": \"23\",\n    \"gitVersion\": \"v1.23.5\",\n    \"platform\": \"linux/amd64\"\n  },\n  \"string\": \"v1.23.5\"\n}\n")},
			{name: "cluster-resources/namespaces.json", data: []byte(nsListJSON("default", "kube-system", "velero"))},
			// velero's own stderr: kubectl-like words, but the container's log
			{name: "cluster-resources/pods/logs/velero/velero-6996dd565b-xl44t/velero.log", data: []byte("Error: unknown command \"server-junk\" for \"velero\"\nRun 'velero --help' for usage.\nAn error occurred: unknown command \"server-junk\" for \"velero\"\n")},
			{name: "cluster-resources/pod-disruption-budgets-errors.json", data: []byte("{\n  \"default\": \"the server could not find the requested resource\",\n  \"kube-system\": \"the server could not find the requested resource\"\n}\n")},
		}, version: "v1.23.5",
			components: map[string]string{"cluster-resources/pods/logs/velero/velero-6996dd565b-xl44t/velero.log": "velero"}},
		{name: "cluster-info dump of kubectl 1.13", files: []bfile{
			{name: "nodes.json", data: []byte(`{"selfLink": "/api/v1/nodes", "resourceVersion": "4225", "Items": [{"name": "minikube", "creationTimestamp": "2019-03-08T08:48:17Z", "Spec": {}, "Status": {"NodeInfo": {"KubeletVersion": "v1.13.3"}}}]}`)},
			{name: "kube-system/pods.json", data: []byte(`{"selfLink": "/api/v1/namespaces/kube-system/pods", "Items": [{"name": "etcd-minikube", "namespace": "kube-system", "creationTimestamp": "2019-03-08T08:49:27Z", "Spec": {"NodeName": "minikube"}, "Status": {"Phase": "Running"}}]}`)},
			{name: "kube-system/kube-addon-manager-minikube/logs.txt", data: []byte("==== START logs for container kube-addon-manager of pod kube-system/kube-addon-manager-minikube ====\nINFO: == Kubernetes addon manager started at 2019-03-08T08:48:07+0000 with ADDON_CHECK_INTERVAL_SEC=60 ==\nError from server (NotFound): namespaces \"kube-system\" not found\n==== END logs for container kube-addon-manager of pod kube-system/kube-addon-manager-minikube ====\n")},
		}, components: map[string]string{"kube-system/kube-addon-manager-minikube/logs.txt": ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTree(t, filepath.Join(t.TempDir(), "b"), c.files)
			arch := writeArchive(t, filepath.Join(t.TempDir(), "b.tar.gz"), "tar.gz", "wrapper-dir/", c.files)
			for _, p := range []string{dir, arch} {
				rec := load(t, p)
				if rec.ServerVersion != c.version {
					t.Errorf("%s: version %q (%s), want %q", p, rec.ServerVersion, rec.ServerVersionFile, c.version)
				}
				var clock string
				if !rec.CaptureClock.IsZero() {
					clock = rec.CaptureClock.Format(time.RFC3339Nano)
				}
				if clock != c.clock || c.clock != "" && rec.CaptureClockSource != c.clockSrc {
					t.Errorf("%s: clock %q from %q, want %q from %q", p, clock, rec.CaptureClockSource, c.clock, c.clockSrc)
				}
				for suffix, want := range c.components {
					found := ""
					for _, lf := range rec.LogFiles {
						if strings.HasSuffix(lf.Path, suffix) {
							found = lf.Component
							if want == "-" {
								t.Errorf("%s: %s read as a log", p, lf.Path)
							} else if lf.Component != want {
								t.Errorf("%s: %s labelled %q, want %q", p, lf.Path, lf.Component, want)
							}
						}
					}
					if found == "" && want != "-" && !hasLog(rec, suffix) {
						t.Errorf("%s: %s not read as a log", p, suffix)
					}
				}
				for suffix, want := range c.formats {
					for _, lf := range rec.LogFiles {
						if strings.HasSuffix(lf.Path, suffix) && (lf.Format != want || lf.First.IsZero() || lf.Last.IsZero()) {
							t.Errorf("%s: %s read as %q from %v to %v, want %q with times", p, lf.Path, lf.Format, lf.First, lf.Last, want)
						}
					}
				}
				for _, e := range rec.Entries {
					if e.Component == "kubectl" {
						t.Errorf("%s: a container's line labelled kubectl: %s:%d %s", p, e.File, e.Line, e.Text)
					}
				}
				var got []string
				for _, w := range rec.Warnings {
					got = append(got, w.String())
				}
				if len(got) != len(c.warnings) {
					t.Fatalf("%s: warnings %q, want %d", p, got, len(c.warnings))
				}
				for i, w := range c.warnings {
					if !strings.Contains(got[i], w) {
						t.Errorf("%s: warning %q, want %q", p, got[i], w)
					}
				}
			}
		})
	}
}

func hasLog(rec *bundle.Records, suffix string) bool {
	for _, lf := range rec.LogFiles {
		if strings.HasSuffix(lf.Path, suffix) {
			return true
		}
	}
	return false
}

// TestCollectorErrorMap: troubleshoot keeps some collectors' errors per namespace
// (`{"<ns>": "<error>"}`, troubleshoot 0.121's pod-disruption-budgets-errors.json):
// each becomes a collector error of its namespace, at its line.
func TestCollectorErrorMap(t *testing.T) {
	dir := writeTree(t, filepath.Join(t.TempDir(), "b"), []bfile{
		{name: "cluster-resources/namespaces.json", data: []byte(nsListJSON("default", "kube-system"))},
		{name: "cluster-resources/pod-disruption-budgets-errors.json", data: []byte("{\n  \"default\": \"the server could not find the requested resource\",\n  \"kube-system\": [\"the server could not find the requested resource\", \"forbidden\"]\n}\n")},
		{name: "cluster-resources/pods-errors.json", data: []byte("[\n  \"pods is forbidden: User \\\"x\\\" cannot list resource \\\"pods\\\"\"\n]\n")},
	})
	rec := load(t, dir)
	want := []bundle.CollectorError{
		{File: "cluster-resources/pod-disruption-budgets-errors.json", Line: 2, Text: "the server could not find the requested resource", Namespace: "default"},
		{File: "cluster-resources/pod-disruption-budgets-errors.json", Line: 3, Text: "the server could not find the requested resource", Namespace: "kube-system"},
		{File: "cluster-resources/pod-disruption-budgets-errors.json", Line: 3, Text: "forbidden", Namespace: "kube-system"},
		{File: "cluster-resources/pods-errors.json", Line: 2, Text: `pods is forbidden: User "x" cannot list resource "pods"`},
	}
	if !reflect.DeepEqual(rec.CollectorErrors, want) {
		t.Errorf("collector errors\n got %+v\nwant %+v", rec.CollectorErrors, want)
	}
	if len(rec.Warnings) != 0 {
		t.Errorf("warnings %v", rec.Warnings)
	}
}

// TestEmptyTarArchive: troubleshoot's copy-from-host collector writes a tar of nothing
// (1024 zero bytes) when there is nothing to copy: said as such, not "binary".
func TestEmptyTarArchive(t *testing.T) {
	dir := writeTree(t, filepath.Join(t.TempDir(), "b"), []bfile{
		{name: "cluster-resources/namespaces.json", data: []byte(nsListJSON("default", "kube-system"))},
		{name: "copy-from-host-example/primary-node/archive.tar", data: make([]byte, 1024)},
	})
	rec := load(t, dir)
	if len(rec.Warnings) != 1 || rec.Warnings[0].String() != "copy-from-host-example/primary-node/archive.tar: empty tar archive (it holds no file)" {
		t.Errorf("warnings %v", rec.Warnings)
	}
}

// TestAgesBoundCapture: a table's AGE of an object also dumped as JSON bounds the
// capture time from below (its creationTimestamp + AGE), and the dump keeps the ages.
func TestAgesBoundCapture(t *testing.T) {
	dir := writeTree(t, filepath.Join(t.TempDir(), "b"), []bfile{
		{name: "pods.json", data: []byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"shop","creationTimestamp":"2026-03-01T10:00:00Z","deletionTimestamp":"2026-03-02T10:00:00Z","finalizers":["example.com/f"]},"status":{"phase":"Running"}}]}`)},
		{name: "notes.txt", data: []byte("$ kubectl get pods -n shop\nNAME    READY   STATUS        RESTARTS   AGE\nweb-0   1/1     Terminating   0          4d13h\n")},
	})
	rec := load(t, dir)
	if len(rec.CaptureBounds) != 1 {
		t.Fatalf("capture bounds %+v", rec.CaptureBounds)
	}
	b := rec.CaptureBounds[0]
	want := time.Date(2026, 3, 5, 23, 0, 0, 0, time.UTC)
	if !b.Time.Equal(want) || b.File != "notes.txt" || b.Line != 3 ||
		b.Why() != "metadata.creationTimestamp of Pod web-0 (pods.json) + its AGE 4d13h at notes.txt:3" {
		t.Errorf("bound %v %q, want %v", b.Time, b.Why(), want)
	}
}
