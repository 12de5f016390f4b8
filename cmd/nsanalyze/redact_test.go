package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planted are customer identifiers of each kind --redact must remove, as a bundle
// carries them in free text (condition messages, log lines, Service and pod names).
var planted = strings.Join([]string{
	"arn:aws:iam::123456789012:role/deployer",
	"owner account 210987654321",
	"vpc-0a1b2c3d4e5f60718 subnet-1a2b3c4d sg-0f1e2d3c rtb-9a8b7c6d eni-0123456789abcdef0 vol-0fedcba9876543210 i-0a1b2c3d4e5f60718",
	"vpc-bp1opxu1zkhn00gzv26cc",
	"projects/acme-prod-4711/zones/us-central1-a/instances/db-primary-01",
	"/subscriptions/0b0f6c55-1111-4222-8333-444455556666/resourceGroups/rg-acme-prod/providers/Microsoft.Network/virtualNetworks/vnet-acme-hub",
	"jane.doe@acme-corp.io",
	"deploy@bastion01",
	"https://portal.acme-corp.io/x",
}, " ")

// leaks are the parts of planted (and of the planted names) no redacted output may hold.
var leaks = []string{"123456789012", "210987654321", "arn:aws", "0a1b2c3d4e5f60718", "1a2b3c4d", "0f1e2d3c", "9a8b7c6d",
	"0123456789abcdef0", "0fedcba9876543210", "bp1opxu1zkhn00gzv26cc", "acme-prod-4711", "db-primary-01", "0b0f6c55-1111",
	"rg-acme-prod", "vnet-acme-hub", "jane.doe", "deploy@", "bastion01", "acme-corp", "customer.example", "acme-shop", "globex", "acme-billing"}

// writeRedactBundle writes a bundle whose every kind of field carries a customer
// identifier: the stuck namespace's name (acme-shop), its finalizer
// (customer.example/cleanup), the failing API group (api.customer.example, a customer
// domain), the APIService's Service, a CRD group (widgets.acme-corp.io), condition
// messages and a log line (planted).
func writeRedactBundle(t *testing.T, dir string, stuck bool) {
	t.Helper()
	del := `"deletionTimestamp":"2026-03-12T09:20:00Z",`
	phase := "Terminating"
	if !stuck {
		del, phase = "", "Active"
	}
	objs := `{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"acme-shop",` + del + `"finalizers":["customer.example/cleanup"]},"spec":{"finalizers":["kubernetes"]},
 "status":{"phase":"` + phase + `","conditions":[
  {"type":"NamespaceDeletionDiscoveryFailure","status":"True","reason":"DiscoveryFailed","lastTransitionTime":"2026-03-12T09:20:05Z","message":"Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: api.customer.example/v1: ` + planted + `"},
  {"type":"NamespaceContentRemaining","status":"True","reason":"SomeResourcesRemain","lastTransitionTime":"2026-03-12T09:20:05Z","message":"Some resources are remaining: crontabs.acme-corp.io has 1 resource instances"},
  {"type":"NamespaceFinalizersRemaining","status":"True","reason":"SomeFinalizersRemain","lastTransitionTime":"2026-03-12T09:20:05Z","message":"Some content in the namespace has finalizers remaining: acme-corp.io/cleanup in 1 resource instances, kubernetes.io/acme-billing-cleanup in 1 resource instances"}]}},
{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.api.customer.example"},
 "spec":{"group":"api.customer.example","version":"v1","service":{"name":"acme-api","namespace":"acme-system","port":443}},
 "status":{"conditions":[{"type":"Available","status":"False","reason":"FailedDiscoveryCheck","lastTransitionTime":"2026-03-12T08:58:40Z","message":"failing or missing response from https://10.244.1.7:4443/apis/api.customer.example/v1: ` + planted + `"}]}},
{"apiVersion":"acme-corp.io/v1","kind":"CronTab","metadata":{"name":"nightly-acme-billing","namespace":"acme-shop","deletionTimestamp":"2026-03-12T09:20:00Z","finalizers":["acme-corp.io/cleanup","kubernetes.io/acme-billing-cleanup"]}},
{"apiVersion":"v1","kind":"Service","metadata":{"name":"acme-api","namespace":"acme-system"},"spec":{"type":"ClusterIP","clusterIP":"10.96.0.20","selector":{"app":"acme-api"},"ports":[{"port":443}]}}
]}`
	log := "E0312 09:20:05.120044       1 namespace_controller.go:157] deletion of namespace acme-shop failed: unable to retrieve the complete list of server APIs: api.customer.example/v1: " + planted + "\n"
	for p, b := range map[string]string{"cluster/globex.json": objs, "logs/kube-controller-manager.log": log} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkNoLeak(t *testing.T, what, out string) {
	t.Helper()
	low := strings.ToLower(out)
	for _, l := range leaks {
		if i := strings.Index(low, strings.ToLower(l)); i >= 0 {
			t.Errorf("%s: %q survives --redact: %q", what, l, out[max(0, i-80):min(len(out), i+80)])
		}
	}
}

// TestRedactHolds: one identifier of each kind, planted in every kind of field of a
// bundle, is gone from every format of the redacted report and from the redacted diff;
// well-known names stay, and a customer domain keeps the structure around it.
func TestRedactHolds(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "new")
	writeRedactBundle(t, dir, true)
	old := filepath.Join(root, "old")
	writeRedactBundle(t, old, true)
	// a file under a customer-named folder that warns: its path is on stderr
	if err := os.MkdirAll(filepath.Join(dir, "acme-corp-prod"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acme-corp-prod", "globex-ns.json"), []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"acme-shop"`), 0o644); err != nil {
		t.Fatal(err)
	}
	// the bundle is analysed as it is (its names are the test's point)
	var probe, probeErr bytes.Buffer
	if code := run([]string{"-q", "-o", "text", dir}, &probe, &probeErr); code != exitStuck {
		t.Fatalf("exit %d; want the namespace stuck\n%s%s", code, probe.String(), probeErr.String())
	}
	if !strings.Contains(probeErr.String(), "acme-corp-prod/globex-ns.json") {
		t.Fatalf("no warning names the broken file:\n%s", probeErr.String())
	}
	if !strings.Contains(probe.String(), "acme-corp.io") || !strings.Contains(probe.String(), "123456789012") {
		t.Fatalf("the unredacted report does not quote the planted identifiers:\n%s", probe.String())
	}
	for _, format := range []string{"text", "markdown", "json", "html", "reply"} {
		var out, errb bytes.Buffer
		if code := run([]string{"--redact", "-o", format, dir}, &out, &errb); code != exitStuck {
			t.Errorf("--redact -o %s: exit %d\n%s", format, code, errb.String())
		}
		checkNoLeak(t, format, out.String())
		checkNoLeak(t, format+" stderr", errb.String())
		if format == "text" {
			// kept: Kubernetes' words; a customer domain keeps the structure around it
			for _, keep := range []string{"kube-controller-manager", "api.domain-", "crontabs.domain-"} {
				if !strings.Contains(out.String(), keep) {
					t.Errorf("redacted text lost %q:\n%s", keep, out.String())
				}
			}
		}
	}
	for _, format := range []string{"text", "markdown", "json"} {
		var out, errb bytes.Buffer
		if code := run([]string{"diff", "--redact", "-o", format, old, dir}, &out, &errb); code == exitUsage {
			t.Errorf("diff --redact -o %s: exit %d\n%s", format, code, errb.String())
		}
		checkNoLeak(t, "diff "+format, out.String())
		checkNoLeak(t, "diff "+format+" stderr", errb.String())
	}
}
