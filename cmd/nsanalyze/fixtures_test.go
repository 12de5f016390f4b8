package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/admissionwebhook"
	"github.com/nsanalyze/nsanalyze/analyzer/rules/apidiscovery"
	"github.com/nsanalyze/nsanalyze/fixtures"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// expectation is the ground truth every fixture bundle ships as expected.json.
type expectation struct {
	StuckNamespaces      []string  `json:"stuck_namespaces"`
	RootCause            string    `json:"root_cause"`
	RootCauses           []string  `json:"root_causes"`
	FailingGroupVersions []string  `json:"failing_group_versions"`
	FailingAPIServices   *[]string `json:"failing_apiservices"`
	BlockingFinalizers   []string  `json:"blocking_finalizers"`
	FailingWebhooks      []string  `json:"failing_webhooks"`
	FailingCRDs          []string  `json:"failing_crds"`
	// ExitCode, when set, is the exit code expected (3: the bundle cannot show
	// namespace state); otherwise 1 when a namespace is stuck, else 0.
	ExitCode *int `json:"exit_code"`
}

// legacyCauseWords are the ground truth's older words for cause types (every rule's
// own name, from the registry, is accepted as it is).
var legacyCauseWords = map[string]string{
	"discovery-failure": apidiscovery.Name,
	"webhook":           admissionwebhook.Name,
}

// causeType maps a ground-truth root_cause word to a report cause type.
func causeType(word string) (string, bool) {
	if ct, ok := legacyCauseWords[word]; ok {
		return ct, true
	}
	if word == findings.CauseUndetermined || rules.ByName(word) != nil {
		return word, true
	}
	return "", false
}

// fixtureDirs lists every bundle under fixtures/ that has an expected.json.
func fixtureDirs(t testing.TB) []string {
	t.Helper()
	root := filepath.Join("..", "..", "fixtures")
	rel, err := fixtures.Bundles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rel) < 10 {
		t.Fatalf("found only %d fixture bundles under %s", len(rel), root)
	}
	dirs := make([]string, len(rel))
	for i, d := range rel {
		dirs[i] = filepath.Join(root, filepath.FromSlash(d))
	}
	return dirs
}

// TestFixtures runs nsanalyze on every fixture bundle (without its raw/ pastes and
// without expected.json) and compares the JSON report with the bundle's ground truth.
func TestFixtures(t *testing.T) {
	dirs := fixtureDirs(t)
	warmFixtureRuns(dirs)
	for _, dir := range dirs {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "fixtures"), dir)
		t.Run(rel, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			var want expectation
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("expected.json: %v", err)
			}
			wantTypes := map[string]bool{}
			roots := want.RootCauses
			if len(roots) == 0 && want.RootCause != "" && want.RootCause != "none" && want.RootCause != "multiple" {
				roots = []string{want.RootCause}
			}
			for _, rc := range roots {
				ct, ok := causeType(rc)
				if !ok {
					t.Fatalf("expected.json names unknown root cause %q (no rule of that name)", rc)
				}
				wantTypes[ct] = true
			}

			code, out, errb := runFixtureJSON(dir)
			var rep findings.Report
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatalf("report is not JSON: %v\nstderr: %s", err, errb)
			}
			wantCode := 0
			if len(want.StuckNamespaces) > 0 {
				wantCode = 1
			}
			if want.ExitCode != nil {
				wantCode = *want.ExitCode
			}
			if code != wantCode {
				t.Errorf("exit code %d, want %d", code, wantCode)
			}
			var stuck []string
			gotTypes := map[string]bool{}
			var gvs, apis, fins, hooks, crds []string
			for _, ns := range rep.Namespaces {
				stuck = append(stuck, ns.Name)
				for _, c := range ns.Causes {
					gotTypes[c.Type] = true
					if c.Type == apidiscovery.Name { // failing_group_versions are discovery failures
						gvs = append(gvs, c.GroupVersions...)
						apis = append(apis, c.APIServices...)
					}
					for _, o := range c.Objects {
						if o.Kind == "CustomResourceDefinition" {
							crds = append(crds, o.Name)
						}
					}
					hooks = append(hooks, c.Webhooks...)
					fins = append(fins, c.Finalizers...)
					if len(c.Evidence) == 0 && c.Type != findings.CauseUndetermined {
						t.Errorf("%s: cause %s has no evidence", ns.Name, c.Type)
					}
				}
				if len(ns.SpecFinalizers) == 0 && len(ns.MetadataFinalizers) > 0 {
					// held by its own metadata.finalizers: /finalize would change nothing
					if len(ns.Remediation) == 0 || !strings.Contains(ns.Remediation[len(ns.Remediation)-1].Command, `{"metadata":{"finalizers":null}}`) {
						t.Errorf("%s: held by metadata.finalizers, the ladder must end with their patch", ns.Name)
					}
				} else if len(ns.Remediation) == 0 || ns.Remediation[len(ns.Remediation)-1].Risk != findings.RiskDestructive ||
					!strings.Contains(ns.Remediation[len(ns.Remediation)-1].Command, "/finalize") {
					t.Errorf("%s: the remediation ladder must end with the /finalize last resort", ns.Name)
				}
			}
			if len(rep.Namespaces) == 0 && want.ExitCode != nil && *want.ExitCode == 3 { // inconclusive: a broken APIService is a latent risk
				for _, rk := range rep.Risks {
					if name, ok := strings.CutPrefix(rk.Object, "APIService/"); ok {
						apis = append(apis, name)
						gvs = append(gvs, kubemsg.GroupVersionOfAPIService(name))
					}
				}
			}
			for _, rk := range rep.Risks { // a broken conversion webhook with no stuck namespace is a latent risk
				if strings.HasPrefix(rk.Object, "CustomResourceDefinition/") {
					crds = append(crds, strings.TrimPrefix(rk.Object, "CustomResourceDefinition/"))
				}
			}
			assertSet(t, "stuck namespaces", stuck, want.StuckNamespaces)
			assertSet(t, "cause types", keys(gotTypes), keys(wantTypes))
			assertSet(t, "failing group/versions", gvs, want.FailingGroupVersions)
			if want.FailingAPIServices != nil {
				assertSet(t, "failing APIServices", apis, *want.FailingAPIServices)
			}
			assertSet(t, "blocking finalizers", fins, want.BlockingFinalizers)
			if want.FailingWebhooks != nil {
				assertSet(t, "failing webhooks", hooks, want.FailingWebhooks)
			}
			if want.FailingCRDs != nil {
				assertSet(t, "failing CRDs", crds, want.FailingCRDs)
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func assertSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := uniq(got), uniq(want)
	if strings.Join(g, ",") != strings.Join(w, ",") {
		t.Errorf("%s: got %v, want %v", what, g, w)
	}
}

func uniq(in []string) []string {
	m := map[string]bool{}
	for _, s := range in {
		m[s] = true
	}
	out := []string{}
	for s := range m {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
