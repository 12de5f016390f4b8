package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// peerBundlesDir holds real bundles other projects published (../shared/peer-bundles,
// each with a SOURCE.md). They are read where they are and never copied into the
// repository.
var peerBundlesDir = filepath.Join("..", "..", "..", "shared", "peer-bundles")

// peerExpectation is what nsanalyze must read from one peer bundle.
type peerExpectation struct {
	path     string // under peerBundlesDir
	layouts  []string
	version  string
	captured string // RFC3339
	recorded bool   // captured is the collector's own clock
	state    string
	exit     int
	deleting []string // namespaces still being deleted
	// components: log file path (suffix) → the component it must be labelled with
	components map[string]string
	// notComponents are labels no log file of the bundle may carry
	notComponents []string
	// warnings: every warning must match one of these, and each must match one
	warnings []string
	// coverage: each must match a coverage gap
	coverage []string
}

var peerBundles = []peerExpectation{
	{path: "cid-aks/bundle", layouts: []string{"cluster-info-dump"}, version: "v1.16.7", captured: "2020-06-07T08:01:03Z",
		state: findings.StateUnknown, exit: 3,
		components:    map[string]string{"kube-system/metrics-server-6df44d5569-hx8dv/logs.txt": "metrics-server"},
		notComponents: []string{"kubectl"}},
	{path: "cid-minikube/bundle", layouts: []string{"cluster-info-dump"}, version: "v1.13.3", captured: "2019-03-08T08:59:27Z",
		state: findings.StateUnknown, exit: 3,
		components: map[string]string{"kube-system/kube-apiserver-minikube/logs.txt": "kube-apiserver",
			"kube-system/kube-addon-manager-minikube/logs.txt": ""},
		notComponents: []string{"kubectl"}},
	{path: "insights-sample/bundle/insights-archive-sample", layouts: []string{"insights-operator"}, version: "v1.20.0+2817867",
		state: findings.StateUnknown, exit: 3, notComponents: []string{"kubectl"}},
	{path: "mg-aws/bundle/must-gather-aws.tar.xz", layouts: []string{"kubectl-get", "kubectl-text", "must-gather"}, version: "v1.21.1+38b3ecc",
		captured: "2021-08-03T10:14:13.632016778Z", recorded: true, state: findings.StateUnknown, exit: 3,
		components: map[string]string{"api_priority_and_fairness/queues": "-",
			// OpenShift's controller manager, an installer and a sidecar are not the components their pods are named after
			"namespaces/openshift-controller-manager/pods/controller-manager-fxcgb/controller-manager/controller-manager/logs/current.log":                                "openshift-controller-manager",
			"namespaces/openshift-etcd/pods/installer-3-ip-10-0-195-177.ec2.internal/installer/installer/logs/current.log":                                                "installer",
			"namespaces/openshift-kube-apiserver/pods/kube-apiserver-ip-10-0-187-218.ec2.internal/kube-apiserver-cert-syncer/kube-apiserver-cert-syncer/logs/current.log": "kube-apiserver-cert-syncer",
			"namespaces/openshift-kube-apiserver/pods/kube-apiserver-ip-10-0-187-218.ec2.internal/kube-apiserver/kube-apiserver/logs/current.log":                         "kube-apiserver"},
		warnings: []string{`^\S+/monitoring/alert\.stderr: empty file \(871 warnings of this kind, in 871 files; also `},
		coverage: []string{`^a listing of all namespaces: this must-gather .* covers only 56 namespaces \(default, kube-system, `}},
	{path: "omc-inspect/bundle/must-gather-multipleNS.sample", layouts: []string{"oc-adm-inspect"}, captured: "2023-01-10T01:35:44Z",
		state: findings.StateUnknown, exit: 3,
		coverage: []string{`^a listing of all namespaces: this oc adm inspect .* covers only 2 namespaces \(openshift-etcd, openshift-kube-apiserver\)`}},
	{path: "sbctl-kurl/bundle/support-bundle", layouts: []string{"troubleshoot"}, version: "v1.23.5", captured: "2024-02-17T06:16:47Z",
		state: findings.StateNoneStuck, exit: 0,
		components: map[string]string{"cluster-resources/pods/logs/velero/velero-6996dd565b-xl44t/velero.log": "velero",
			"cluster-resources/pods/logs/velero/velero-6996dd565b-xl44t/velero-previous.log": "velero"},
		// Longhorn v1beta1 keeps status.conditions as a map: a real type mismatch, said once
		warnings:      []string{`^cluster-resources/custom-resources/\S+\.longhorn\.io/longhorn-system\.yaml:1: object has a field of the wrong type \(status\.conditions: object\), the rest of it was read \(6 warnings of this kind, in 4 files`},
		notComponents: []string{"kubectl"}},
	{path: "sono-0.10/bundle/results-0.10.tar.gz", layouts: []string{"sonobuoy"}, version: "v1.8.4", captured: "2017-12-13T17:07:33Z", recorded: true,
		state: findings.StateUnknown, exit: 3,
		warnings: []string{`^\S+: empty file \(4 warnings of this kind, in 4 files`}},
	{path: "sono-e2e-4fail/bundle/results-4-e2e-failures.tar.gz", layouts: []string{"sonobuoy"}, version: "v1.21.1",
		captured: "2021-08-17T17:43:58Z", recorded: true, state: findings.StateDeleting, exit: 0, deleting: []string{"crd-publish-openapi-8311"},
		components: map[string]string{"plugins/systemd-logs/results/kind-control-plane/systemd_logs": "", "meta/run.log": ""}},
	{path: "ts-analyze-fixture/bundle/support-bundle", layouts: []string{"troubleshoot"}, version: "v1.19.3", captured: "2025-03-13T20:09:35Z",
		state: findings.StateNoneStuck, exit: 0},
	{path: "ts-baseline-2025/bundle/baseline.tar.gz", layouts: []string{"kubectl-get", "troubleshoot"}, version: "v1.31.2+k3s1", captured: "2025-12-10T17:26:43Z",
		state: findings.StateNoneStuck, exit: 0,
		warnings: []string{`^collectd/rrd/primary-node/archive\.tar: empty tar archive`, `^copy-from-host-example/primary-node/archive\.tar: empty tar archive`}},
	{path: "ts-k3s-realdir-2025/bundle/support-bundle-2025-09-11T15_54_39", layouts: []string{"troubleshoot"}, version: "v1.33.4+k3s1",
		captured: "2025-09-11T20:55:09.13904Z", state: findings.StateNoneStuck, exit: 0,
		coverage: []string{`^the bundle collector could not collect pod-disruption-budgets in namespaces default, kube-node-lease, kube-public, kube-system \(cluster-resources/pod-disruption-budgets-errors\.json:2: the server could not find the requested resource\)`}},
	{path: "ts-kots-2021/bundle/support-bundle-2021-03-24T00_39_51.tar.gz", layouts: []string{"kubectl-get", "troubleshoot"}, version: "v1.20.2+k3s1",
		captured: "2021-03-24T00:39:26Z", state: findings.StateNoneStuck, exit: 0},
}

// TestPeerBundles reads every real third-party bundle of ../shared/peer-bundles and
// fails on a wrong layout, version, capture time, state, exit code, component label or
// warning (table above: every warning must be expected, every expected one seen).
func TestPeerBundles(t *testing.T) {
	if _, err := os.Stat(peerBundlesDir); err != nil {
		t.Skipf("the shared peer bundles are not on this machine (%v)", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(peerBundlesDir, "*", "SOURCE.md"))
	if len(dirs) != len(peerBundles) {
		t.Errorf("%d peer bundles in %s, %d in the table: every bundle needs its expectations", len(dirs), peerBundlesDir, len(peerBundles))
	}
	for _, pb := range peerBundles {
		t.Run(strings.SplitN(pb.path, "/", 2)[0], func(t *testing.T) {
			t.Parallel() // independent bundles, analysed concurrently (the race detector sees it)
			var out, errb bytes.Buffer
			code := run([]string{"-o", "json", filepath.Join(peerBundlesDir, filepath.FromSlash(pb.path))}, &out, &errb)
			var rep findings.Report
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("report is not JSON: %v\nstderr: %s", err, errb.String())
			}
			if code != pb.exit {
				t.Errorf("exit code %d, want %d", code, pb.exit)
			}
			if rep.State != pb.state {
				t.Errorf("state %q, want %q (%s)", rep.State, pb.state, rep.StateReason)
			}
			if !slices.Equal(rep.Bundle.Layouts, pb.layouts) {
				t.Errorf("layouts %v, want %v", rep.Bundle.Layouts, pb.layouts)
			}
			if rep.Bundle.KubernetesVersion != pb.version {
				t.Errorf("version %q (%s), want %q", rep.Bundle.KubernetesVersion, rep.Bundle.KubernetesVersionSource, pb.version)
			}
			if pb.captured != "" {
				want, _ := time.Parse(time.RFC3339Nano, pb.captured)
				if rep.Bundle.CapturedAt == nil || !rep.Bundle.CapturedAt.Equal(want) {
					t.Errorf("captured %v (%s), want %s", rep.Bundle.CapturedAt, rep.Bundle.CapturedAtSource, pb.captured)
				}
			}
			if rep.Bundle.CapturedAtRecorded != pb.recorded {
				t.Errorf("capturedAtRecorded %v (%s), want %v", rep.Bundle.CapturedAtRecorded, rep.Bundle.CapturedAtSource, pb.recorded)
			}
			var deleting []string
			for _, d := range rep.Deleting {
				deleting = append(deleting, d.Name)
				for _, w := range d.Watch {
					if w.Risk != findings.RiskSafe || strings.Contains(w.Command, "/finalize") {
						t.Errorf("deleting namespace %s: a %s step %q", d.Name, w.Risk, w.Command)
					}
				}
			}
			if !slices.Equal(deleting, pb.deleting) {
				t.Errorf("deleting %v, want %v", deleting, pb.deleting)
			}
			if len(deleting) > 0 {
				// --redact hides the namespaces still being deleted like any other
				var red, rerr bytes.Buffer
				run([]string{"--redact", "-o", "json", filepath.Join(peerBundlesDir, filepath.FromSlash(pb.path))}, &red, &rerr)
				for _, n := range deleting {
					if red.Len() == 0 || bytes.Contains(red.Bytes(), []byte(n)) {
						t.Errorf("--redact report (%d bytes) names %s", red.Len(), n)
					}
				}
			}
			comps := map[string]string{}
			for _, f := range rep.Bundle.LogFiles {
				comps[f.File] = f.Component
				if slices.Contains(pb.notComponents, f.Component) {
					t.Errorf("%s labelled %q", f.File, f.Component)
				}
			}
			for suffix, want := range pb.components {
				found := false
				for f, c := range comps {
					if strings.HasSuffix(f, suffix) {
						found = true
						if want == "-" {
							t.Errorf("%s read as a log (component %q); it is not one", f, c)
						} else if c != want {
							t.Errorf("%s labelled %q, want %q", f, c, want)
						}
					}
				}
				if !found && want != "-" {
					t.Errorf("no log file %s", suffix)
				}
			}
			matchAll(t, "warning", warningTexts(rep.Warnings), pb.warnings)
			var gaps []string
			for _, g := range rep.Coverage {
				gaps = append(gaps, g.Missing)
			}
			for _, re := range pb.coverage {
				if !slices.ContainsFunc(gaps, regexp.MustCompile(re).MatchString) {
					t.Errorf("no coverage gap matching %s in %q", re, gaps)
				}
			}
		})
	}
}

func warningTexts(ws []diag.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.String())
	}
	return out
}

// matchAll fails unless every text matches one pattern and every pattern one text.
func matchAll(t *testing.T, what string, texts, patterns []string) {
	t.Helper()
	res := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		res[i] = regexp.MustCompile(p)
	}
	used := make([]bool, len(res))
	for _, s := range texts {
		ok := false
		for i, re := range res {
			if re.MatchString(s) {
				ok, used[i] = true, true
			}
		}
		if !ok {
			t.Errorf("unexpected %s: %s", what, s)
		}
	}
	for i, u := range used {
		if !u {
			t.Errorf("no %s matching %s", what, patterns[i])
		}
	}
}
