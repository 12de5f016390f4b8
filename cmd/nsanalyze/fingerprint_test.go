package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// -update rewrites testdata/fingerprints.golden (registered once: another test file of
// this package may declare it too).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// fixtureFingerprints runs nsanalyze -o json on a fixture bundle (with extra flags) and
// returns the report.
func fixtureReport(t *testing.T, dir string, extra ...string) findings.Report {
	t.Helper()
	_, out, errb := runFixtureJSON(dir, extra...)
	var rep findings.Report
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%s: report is not JSON: %v\nstderr: %s", dir, err, errb)
	}
	return rep
}

func fingerprints(rep findings.Report) []string {
	var fps []string
	for _, p := range rep.Problems {
		fps = append(fps, p.Fingerprint)
	}
	sort.Strings(fps)
	return fps
}

// knownIDs lists, per problem (in fingerprint order), the ids of its known issues.
func knownIDs(rep findings.Report) []string {
	ps := append([]findings.Problem{}, rep.Problems...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Fingerprint < ps[j].Fingerprint })
	var out []string
	for _, p := range ps {
		var ids []string
		for _, k := range p.KnownIssues {
			ids = append(ids, k.ID)
		}
		out = append(out, "["+strings.Join(ids, ",")+"]")
	}
	return out
}

// scenarioKey names the story a real fixture tells, whatever the version and the log
// format it was captured with: real/v1.26.13/a-discovery-failure-json and
// realdata/a-discovery-failure-clusterinfo are both "a-discovery-failure", with the
// cause type the ground truth expects (g-ordered-deletion is ordered-deletion from 1.33
// and finalizers-remaining before: two stories).
func scenarioKey(t *testing.T, rel, dir string) string {
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want expectation
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(rel)
	for _, suffix := range []string{"-clusterinfo", "-json"} {
		name = strings.TrimSuffix(name, suffix)
	}
	return name + " (" + want.RootCause + ")"
}

var (
	volatileIP   = regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}\b`)
	volatileTime = regexp.MustCompile(`\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}`)
	volatileNum  = regexp.MustCompile(`\d{3,}`)
	hashedName   = regexp.MustCompile(`~[0-9a-f]{16}`)
)

// TestFingerprintsAcrossBundles holds the fingerprint (and the known issues) of every fixture's problems:
// the same with and without --redact for every fixture, the same for the same story
// across every Kubernetes version's real bundles, klog text and JSON logging and
// cluster-info dump siblings (those that find a problem), free of timestamps, counts,
// addresses and namespace names; and the list as a whole in testdata/fingerprints.golden
// (go test ./cmd/nsanalyze -run TestFingerprintsAcrossBundles -update).
func TestFingerprintsAcrossBundles(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures")
	var golden, owners strings.Builder
	stories := map[string]map[string][]string{} // story -> fingerprints joined -> bundles
	dirs := fixtureDirs(t)
	warmFixtureRuns(dirs, nil, []string{"--redact"})
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		rel = filepath.ToSlash(rel)
		rep := fixtureReport(t, dir)
		fps := fingerprints(rep)
		red := fingerprints(fixtureReport(t, dir, "--redact"))
		if strings.Join(fps, " ") != strings.Join(red, " ") {
			t.Errorf("%s: --redact changes the fingerprints:\n  plain  %v\n  redact %v", rel, fps, red)
		}
		for _, p := range rep.Problems {
			fp := p.Fingerprint
			if _, _, err := findings.ParseFingerprint(fp); err != nil || !strings.HasPrefix(fp, p.CauseType) {
				t.Errorf("%s: %s: fingerprint %q does not parse as one of cause %s (%v)", rel, p.ID, fp, p.CauseType, err)
			}
			bare := hashedName.ReplaceAllString(fp, "~")
			for _, re := range []*regexp.Regexp{volatileIP, volatileTime, volatileNum} {
				if m := re.FindString(bare); m != "" {
					t.Errorf("%s: fingerprint %q holds %q (an address, a time or a count)", rel, fp, m)
				}
			}
			_, segs, _ := findings.ParseFingerprint(fp)
			for _, ns := range rep.Namespaces {
				for _, s := range segs {
					if s.Value == ns.Name || strings.Contains(s.Value, ns.Name+"/") && s.Key != findings.FPFinalizer {
						t.Errorf("%s: fingerprint %q names namespace %q", rel, fp, ns.Name)
					}
				}
			}
		}
		golden.WriteString(rel + "\t" + strings.Join(fps, " ") + "\t" + strings.Join(knownIDs(rep), " ") + "\n")
		owners.WriteString(ownership(rel, rep))
		for _, w := range rep.Warnings {
			if w.File == analyzer.RuleWarningFile { // a claim the rules' declarations do not order (analyzer/order.go)
				t.Errorf("%s: %s", rel, w.Message)
			}
		}
		if (strings.HasPrefix(rel, "real/") || strings.HasPrefix(rel, "realdata/")) && len(fps) > 0 {
			k := scenarioKey(t, rel, dir)
			if stories[k] == nil {
				stories[k] = map[string][]string{}
			}
			j := strings.Join(fps, " ")
			stories[k][j] = append(stories[k][j], rel)
		}
	}
	// every story of the real bundles reads the same everywhere it was captured
	seen := 0
	for story, byFP := range stories {
		if len(byFP) > 1 {
			t.Errorf("story %s has %d fingerprints across its bundles: %v", story, len(byFP), byFP)
		}
		for _, bundles := range byFP {
			seen += len(bundles)
		}
	}
	for _, story := range []string{"a-discovery-failure (discovery-failure)", "b-finalizer-remaining (finalizers-remaining)", "c-webhook-content-failure (webhook)"} {
		n := 0
		for _, b := range stories[story] {
			n += len(b)
		}
		if n < 7 { // 4 versions of real/ (text, and JSON for 3), realdata text and JSON
			t.Errorf("story %s: only %d real bundles found (want ≥ 7): %v", story, n, stories[story])
		}
	}
	if seen < 45 {
		t.Errorf("only %d real bundles with a problem compared, want ≥ 45", seen)
	}
	checkGolden(t, filepath.Join("testdata", "fingerprints.golden"), golden.String())
	checkGolden(t, filepath.Join("testdata", "ownership.golden"), owners.String())
}

// ownership writes which rule owns what in one fixture: for each stuck namespace, the
// cause types its causes have, in reporting order, and the rules that ruled themselves
// out. A rule that takes over another's case (a new specific rule claiming what the
// generic finalizers rule explained) changes a line of testdata/ownership.golden; one
// that claims it without declaring so leaves a rule warning, which fails the test above
// (analyzer/rules TestTakeoverDetected).
func ownership(rel string, rep findings.Report) string {
	var b strings.Builder
	for _, ns := range rep.Namespaces {
		var causes, out []string
		for _, c := range ns.Causes {
			causes = append(causes, c.Type)
		}
		for _, r := range ns.RuledOut {
			out = append(out, r.Type)
		}
		b.WriteString(rel + "\t" + ns.Name + "\t" + strings.Join(causes, ",") + "\truled out: " + strings.Join(out, ",") + "\n")
	}
	if len(rep.Namespaces) == 0 {
		b.WriteString(rel + "\t-\t" + rep.State + "\n")
	}
	return b.String()
}

// checkGolden compares got with the golden file at path (or rewrites it under -update),
// naming every line that differs.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./cmd/nsanalyze -run TestFingerprintsAcrossBundles -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s line %d:\n  want %s\n  got  %s", path, i+1, w, g)
			}
		}
	}
}

// TestKnownIssuesOnFixtures: real and real-world bundles that tell a catalogued story
// show that known issue first on their problem (in every format's first screen), and
// bundles whose story is not catalogued show none. A team's own file adds entries.
func TestKnownIssuesOnFixtures(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures")
	for _, tc := range []struct {
		bundle string
		want   []string // the first known issue of each problem, in fingerprint order; "" none
	}{
		{"realdata/a-discovery-failure", []string{"metrics-server-apiservice-unavailable"}},
		{"real/v1.26.13/b-finalizer-remaining-json", []string{"kubevirt-operator-finalizer"}},
		{"real/v1.35.8/g-ordered-deletion", []string{"ordered-deletion-conditions-say-removed"}},
		{"real/v1.29.5/d-conversion-webhook", []string{"conversion-webhook-service-gone"}},
		{"handmade/namespace-finalizer-rancher", []string{"harvester-namespace-auth-after-rancher-disconnect"}},
		{"handmade/content-remaining-dead-node", []string{"pods-on-dead-node"}},
		{"realworld/calico-apiserver-projectcalico-v3-discovery", []string{"calico-apiserver-uninstall"}},
		{"realworld/cert-manager-challenge-conversion-webhook-placeholders", []string{"cert-manager-challenge-conversion-webhook"}},
		{"realworld/cert-manager-legacy-admission-apiservice-servicenotfound", []string{"cert-manager-legacy-admission-apiservice-self"}},
		{"realworld/kubevirt-microk8s-virt-api-servicenotfound-self", []string{"kubevirt-virt-api-apiservice-self"}},
		{"realworld/microk8s-keda-external-metrics-and-scaledobject-finalizer", []string{"keda-external-metrics-apiservice", "keda-scaledobject-finalizer"}},
		{"realworld/rook-cephobjectstoreuser-finalizer-openshift-storage", []string{"rook-ceph-resources-finalizers"}},
		{"realworld/osm-meshconfig-conversion-webhook-condition", []string{"osm-meshconfig-conversion-webhook"}},
		{"realworld/netbird-operator-validating-webhook-k9s-describe", []string{"netbird-operator-webhook"}},
		{"realworld/tap-kapp-controller-finalizer-condition-fragment", []string{"kapp-controller-packageinstall-finalizer"}},
		{"realworld/kubeflow-kfctl-cert-manager-webhook-memcache", []string{"cert-manager-webhook-apiservice"}},
		{"realworld/agones-system-2020-table-and-api-resources-stderr", []string{"agones-allocation-apiservice"}},
		// stories the catalog does not hold: nothing fits
		{"realdata/c-webhook-content-failure", []string{""}},
		{"real/v1.35.8/e-namespace-finalizer-json", []string{""}},
		{"real/v1.31.4/f-controller-not-running", []string{""}},
		{"real/v1.31.4/g-ordered-deletion", []string{""}},
		{"realworld/ibm-satellite-trident-finalizer-malformed-yaml", []string{""}},
		{"handmade/undetermined-bare-namespace", []string{""}},
	} {
		t.Run(tc.bundle, func(t *testing.T) {
			rep := fixtureReport(t, filepath.Join(root, filepath.FromSlash(tc.bundle)))
			ps := append([]findings.Problem{}, rep.Problems...)
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].Fingerprint < ps[j].Fingerprint })
			var got []string
			for _, p := range ps {
				first := ""
				if len(p.KnownIssues) > 0 {
					first = p.KnownIssues[0].ID
					if p.KnownIssues[0].URL == "" || p.KnownIssues[0].Title == "" {
						t.Errorf("%s: known issue without title or url: %+v", p.ID, p.KnownIssues[0])
					}
				}
				got = append(got, first)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("first known issues %q, want %q", got, tc.want)
			}
		})
	}
	// the first screen of every format names the known issue and its link
	dir := filepath.Join(root, "realdata", "b-finalizer-remaining")
	for _, format := range []string{"text", "markdown", "html"} {
		var out, errb bytes.Buffer
		run([]string{"-o", format, "--exclude", "expected.json", "--exclude", "README.md", dir}, &out, &errb)
		s := out.String()
		first := s[:min(len(s), strings.Index(s, "kubectl")+1+4000)] // before the ladder's commands end
		for _, want := range []string{"finalizers-remaining/finalizer=kubevirt.io/virtOperatorFinalize/controller=absent", "kubevirt-operator-finalizer", "https://github.com/kubevirt/kubevirt/issues/2605"} {
			if !strings.Contains(first, want) {
				t.Errorf("-o %s: the first screen lacks %q", format, want)
			}
		}
	}
	// a team's own entry fits a hashed customer name; --redact keeps it
	team := filepath.Join(t.TempDir(), "team.yaml")
	entry := "- id: acme-guard\n  title: the configmap guard of team A\n  pattern: admission-webhook/webhook=" + findings.HashedName("configmap-guard.example.io") +
		"\n  affects: our clusters\n  url: https://wiki.example.com/kb/guard\n  fix: scale the guard up\n"
	if err := os.WriteFile(team, []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{{"--known-issues", team}, {"--known-issues", team, "--redact"}} {
		rep := fixtureReport(t, filepath.Join(root, "realdata", "c-webhook-content-failure"), extra...)
		if len(rep.Problems) != 1 || len(rep.Problems[0].KnownIssues) != 1 || rep.Problems[0].KnownIssues[0].ID != "acme-guard" || rep.Problems[0].KnownIssues[0].Source != team {
			t.Errorf("%v: %+v", extra, rep.Problems)
		}
	}
	// a bad file is a usage error naming file, entry and field
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("- id: x\n  title: t\n  pattern: api-discovery-failure/backnd=x\n  affects: a\n  url: https://x.example.com\n  fix: f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--known-issues", bad, dir}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), bad+`: entry 1 (line 1, id "x"): pattern:`) || out.Len() != 0 {
		t.Errorf("bad --known-issues: exit %d, stderr %q", code, errb.String())
	}
}
