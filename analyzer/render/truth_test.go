package render

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
)

// rungsOf returns every rung a report holds, with where it is: the namespaces' ladders
// (the problems' rungs are theirs), the chains' fixes, the latent risks' fixes and the
// watch commands of the namespaces still being deleted.
func rungsOf(r *analyzer.Report) map[string][]analyzer.RemediationStep {
	out := map[string][]analyzer.RemediationStep{}
	for _, p := range r.Problems {
		out["problem "+p.ID] = p.Remediation
		for _, l := range p.Chain {
			if l.Fix != nil {
				out["problem "+p.ID+" chain "+l.Component] = append(out["problem "+p.ID+" chain "+l.Component], *l.Fix)
			}
		}
	}
	for _, ns := range r.Namespaces {
		out["namespace "+ns.Name] = ns.Remediation
	}
	for _, rk := range r.Risks {
		out["risk "+rk.Object] = append(out["risk "+rk.Object], rk.Fix...)
	}
	for _, d := range r.Deleting {
		out["deleting "+d.Name] = d.Watch
	}
	return out
}

// TestRungsTrue analyses every fixture and peer bundle once and checks, over every rung
// of every report, the rules a pasted rung must keep (issue #31):
//   - its label follows from what it changes (RiskOf(Changes)), and Changes is at least
//     what its command does (analyzer.CommandChanges): a deletion is never safe;
//   - /finalize only where spec.finalizers holds the namespace: never for a namespace
//     whose spec.finalizers is empty and whose own metadata.finalizers hold it, and its
//     reason says it empties spec.finalizers, not that it "removes the namespace";
//   - no rung is a comment only, except the one that refuses a name Kubernetes would not
//     accept ("# no command: ...");
//   - the summary and every problem's root are composed to fit, never cut ("…").
func TestRungsTrue(t *testing.T) {
	for _, b := range adviceBundles(t) {
		t.Run(b.name, func(t *testing.T) {
			r := adviceReport(t, b)
			for where, steps := range rungsOf(r) {
				for i, s := range steps {
					if want := analyzer.RiskOf(s.Changes); s.Risk != want {
						t.Errorf("%s rung %d: risk %s but it changes %q (risk %s): %s", where, i+1, s.Risk, s.Changes, want, s.Command)
					}
					if got := analyzer.CommandChanges(s.Command); analyzer.MoreChange(s.Changes, got) != s.Changes {
						t.Errorf("%s rung %d: declares it changes %q, its command changes %q: %s", where, i+1, s.Changes, got, s.Command)
					}
					if s.Risk == analyzer.RiskSafe && strings.Contains(" "+s.Command, " delete ") && !strings.Contains(s.Command, "--dry-run") {
						t.Errorf("%s rung %d: a deletion labelled safe: %s", where, i+1, s.Command)
					}
					if analyzer.CommentOnly(s.Command) && !strings.HasPrefix(s.Command, "# no command:") {
						t.Errorf("%s rung %d: a comment, not a command: %s", where, i+1, s.Command)
					}
				}
			}
			for _, ns := range r.Namespaces {
				heldByMeta := len(ns.SpecFinalizers) == 0 && len(ns.MetadataFinalizers) > 0
				for i, s := range ns.Remediation {
					if !strings.Contains(s.Command, "/finalize") {
						continue
					}
					if heldByMeta {
						t.Errorf("namespace %s: rung %d offers /finalize, but spec.finalizers is empty and metadata.finalizers %v hold it: %s",
							ns.Name, i+1, ns.MetadataFinalizers, s.Command)
					}
					if strings.Contains(s.Why, "it removes the namespace") {
						t.Errorf("namespace %s: rung %d says /finalize removes the namespace: %s", ns.Name, i+1, s.Why)
					}
				}
				if heldByMeta && !hasRung(ns.Remediation, `{"metadata":{"finalizers":null}}`) {
					t.Errorf("namespace %s: held by metadata.finalizers %v, no rung patches them", ns.Name, ns.MetadataFinalizers)
				}
			}
			if strings.HasSuffix(r.Summary, "…") {
				t.Errorf("summary cut: %s", r.Summary)
			}
			for _, p := range r.Problems {
				if strings.HasSuffix(p.Root, "…") || strings.HasSuffix(p.Headline, "…") {
					t.Errorf("%s root cut: %s", p.ID, p.Root)
				}
			}
		})
	}
}

func hasRung(steps []analyzer.RemediationStep, part string) bool {
	for _, s := range steps {
		if strings.Contains(s.Command, part) {
			return true
		}
	}
	return false
}

// TestCommandChanges pins what CommandChanges reads from the commands the ladders write.
func TestCommandChanges(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"kubectl get apiservices", analyzer.ChangesNothing},
		{"kubectl -n kube-system logs -l component=kube-controller-manager --tail=500 | grep -F shop", analyzer.ChangesNothing},
		{"kubectl delete apiservice v1beta1.metrics.k8s.io", analyzer.ChangesAPISurface},
		{"kubectl get validatingwebhookconfigurations -o json | jq -r '.items[].metadata.name' | xargs -r kubectl delete validatingwebhookconfiguration", analyzer.ChangesAPISurface},
		{"kubectl -n shop rollout restart deployment/web", analyzer.ChangesWorkload},
		{"kubectl -n shop patch pod web-0 --type=merge -p '{\"metadata\":{\"finalizers\":null}}'", analyzer.ChangesObject},
		{"kubectl get namespace shop -o json | jq '.spec.finalizers = []' | kubectl replace --raw /api/v1/namespaces/shop/finalize -f -", analyzer.ChangesData},
		{"kubectl delete crd widgets.example.com", analyzer.ChangesData},
		{"kubectl -n shop delete pod web-0 --grace-period=0 --force", analyzer.ChangesObject},
		{"for ns in a b; do kubectl get -n \"$ns\" pods; done", analyzer.ChangesNothing},
		{"echo 'kubectl delete ns x; rm -rf /'", analyzer.ChangesNothing},
		{"somethingunknown --flag", analyzer.ChangesObject},
		{"# just words", analyzer.ChangesNothing},
		{"kubectl get pods # ; kubectl delete ns x", analyzer.ChangesNothing},
		{"kubectl get pods; kubectl delete ns x", analyzer.ChangesData},
		{"oc adm must-gather", analyzer.ChangesNothing},
	} {
		if got := analyzer.CommandChanges(c.cmd); got != c.want {
			t.Errorf("CommandChanges(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// managedOrOwnLogs are the platforms whose control-plane logs are not kube-system pods.
var managedOrOwnLogs = map[string]bool{analyzer.PlatformAKS: true, analyzer.PlatformEKS: true, analyzer.PlatformGKE: true,
	analyzer.PlatformOpenShift: true, analyzer.PlatformK3s: true, analyzer.PlatformTalos: true}

// TestNextStepAndPlatform analyses every fixture and peer bundle once and checks that
// every inconclusive report (state unknown, or a cause undetermined) names the
// customer's next command, in the text report and in -o reply, and that a bundle of a
// platform whose control plane is not kube-system's pods (AKS, EKS, GKE, OpenShift, k3s,
// Talos) is never told to read kube-controller-manager's pods there.
func TestNextStepAndPlatform(t *testing.T) {
	platforms := map[string]int{}
	for _, b := range adviceBundles(t) {
		t.Run(b.name, func(t *testing.T) {
			r := adviceReport(t, b)
			platforms[r.Bundle.Platform]++
			inconclusive := r.State == analyzer.StateUnknown
			for _, p := range r.Problems {
				inconclusive = inconclusive || p.CauseType == analyzer.CauseUndetermined
			}
			if inconclusive {
				if r.NextStep == nil || r.NextStep.Command == "" {
					t.Fatalf("inconclusive report (%s) without the customer's next command", r.State)
				}
				for _, f := range []string{"text", "markdown", "reply"} {
					if out := string(render(t, r, f, Options{})); !strings.Contains(out, r.NextStep.Command) {
						t.Errorf("%s: the next command %q is not in the report", f, r.NextStep.Command)
					}
				}
			} else if r.NextStep != nil {
				t.Errorf("a conclusive report (%s) asks for a new bundle", r.State)
			}
			if managedOrOwnLogs[r.Bundle.Platform] {
				var cmds []string
				for _, steps := range rungsOf(r) {
					for _, s := range steps {
						cmds = append(cmds, s.Command)
					}
				}
				for _, g := range r.Coverage {
					cmds = append(cmds, g.Collect)
				}
				for _, c := range cmds {
					if strings.Contains(c, "-n kube-system logs -l component=kube-") {
						t.Errorf("%s bundle told to read kube-system's control-plane pods: %s", r.Bundle.Platform, c)
					}
				}
			}
		})
	}
	t.Logf("platforms read: %v", platforms)
}
