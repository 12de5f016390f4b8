package render

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// rungsOf returns every rung a report holds, with where it is: the namespaces' ladders
// (the problems' rungs are theirs), the chains' fixes, the latent risks' fixes and the
// watch commands of the namespaces still being deleted.
func rungsOf(r *findings.Report) map[string][]findings.RemediationStep {
	out := map[string][]findings.RemediationStep{}
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

// TestReportsTrue analyses every fixture and peer bundle once and checks, over every
// report, what issue #31 asks of every sentence a support engineer pastes (reportLies):
//   - every rung's label follows from what it changes (RiskOf(Changes)), and Changes is
//     at least what its command does (findings.CommandChanges): a deletion is never safe;
//   - /finalize only where spec.finalizers holds the namespace: never for a namespace
//     whose spec.finalizers is empty and whose own metadata.finalizers hold it, and its
//     reason says it empties spec.finalizers, not that it "removes the namespace";
//   - no rung is a comment only, except the one that refuses a name Kubernetes would not
//     accept ("# no command: ...");
//   - the summary, every problem's root, headline and short form (Problem.Short, at most
//     MaxShort) and every namespace's verdict as printed are composed to fit, never cut
//     ("…"), and no report prints a root cut;
//   - every inconclusive report (state unknown, or a cause undetermined) names the
//     customer's next command (Report.NextStep) in text, Markdown, HTML and -o reply, and
//     a conclusive one asks for no new bundle;
//   - every finalizer verdict of a problem given a section is in text, Markdown and HTML;
//   - no event is in a namespace's timeline twice, and no two timeline rows of the text
//     and Markdown reports print the same.
//
// TestReportsTrueCatches breaks each rule on a real report and requires reportLies to
// name it.
func TestReportsTrue(t *testing.T) {
	for _, b := range adviceBundles(t) {
		t.Run(b.name, func(t *testing.T) {
			r := adviceReport(t, b)
			for _, lie := range reportLies(r, renderAll(t, r)) {
				t.Error(lie)
			}
		})
	}
}

// renderAll renders r in every format a person reads.
func renderAll(t *testing.T, r *findings.Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"text", "markdown", "html", "reply"} {
		out[f] = string(render(t, r, f, Options{}))
	}
	return out
}

// reportLies lists what in r, and in its renderings (format → bytes), breaks a rule of
// TestReportsTrue.
func reportLies(r *findings.Report, out map[string]string) []string {
	var lies []string
	lie := func(format string, args ...any) { lies = append(lies, fmt.Sprintf(format, args...)) }
	for where, steps := range rungsOf(r) {
		for i, s := range steps {
			if want := findings.RiskOf(s.Changes); s.Risk != want {
				lie("%s rung %d: risk %s but it changes %q (risk %s): %s", where, i+1, s.Risk, s.Changes, want, s.Command)
			}
			if got := findings.CommandChanges(s.Command); findings.MoreChange(s.Changes, got) != s.Changes {
				lie("%s rung %d: declares it changes %q, its command changes %q: %s", where, i+1, s.Changes, got, s.Command)
			}
			if s.Risk == findings.RiskSafe && strings.Contains(" "+s.Command, " delete ") && !strings.Contains(s.Command, "--dry-run") {
				lie("%s rung %d: a deletion labelled safe: %s", where, i+1, s.Command)
			}
			if findings.CommentOnly(s.Command) && !strings.HasPrefix(s.Command, "# no command:") {
				lie("%s rung %d: a comment, not a command: %s", where, i+1, s.Command)
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
				lie("namespace %s: rung %d offers /finalize, but spec.finalizers is empty and metadata.finalizers %v hold it: %s",
					ns.Name, i+1, ns.MetadataFinalizers, s.Command)
			}
			if strings.Contains(s.Why, "it removes the namespace") {
				lie("namespace %s: rung %d says /finalize removes the namespace: %s", ns.Name, i+1, s.Why)
			}
		}
		if heldByMeta && !hasRung(ns.Remediation, `{"metadata":{"finalizers":null}}`) {
			lie("namespace %s: held by metadata.finalizers %v, no rung patches them", ns.Name, ns.MetadataFinalizers)
		}
		shown := map[string]int{}
		for k, e := range ns.Timeline {
			key := e.Time.UTC().String() + "|" + e.Component + "|" + e.Kind + "|" + e.Text
			if j, ok := shown[key]; ok {
				lie("namespace %s: timeline events %d and %d are the same event: %s %s %s", ns.Name, j+1, k+1, e.Time.UTC().Format(time.RFC3339), e.Component, e.Text)
			}
			shown[key] = k
		}
	}
	if strings.HasSuffix(r.Summary, "…") {
		lie("summary cut: %s", r.Summary)
	}
	for _, p := range r.Problems {
		for what, s := range map[string]string{"root": p.Root, "headline": p.Headline, "short form": p.Short} {
			if strings.HasSuffix(s, "…") {
				lie("%s %s cut: %s", p.ID, what, s)
			}
		}
		if r.State == findings.StateStuck && (p.Short == "" || utf8.RuneCountInString(p.Short) > findings.MaxShort) {
			lie("%s: short form empty or over %d characters: %q", p.ID, findings.MaxShort, p.Short)
		}
		if cut := clipProse(p.Root, 160); strings.HasSuffix(cut, "…") {
			for _, f := range []string{"text", "markdown", "html"} {
				if strings.Contains(strings.Join(strings.Fields(out[f]), " "), strings.TrimSuffix(cut, "…")+"…") {
					lie("%s: %s's root printed cut: %s", f, p.ID, cut)
				}
			}
		}
	}
	inconclusive := r.State == findings.StateUnknown
	for _, p := range r.Problems {
		inconclusive = inconclusive || p.CauseType == findings.CauseUndetermined
	}
	switch {
	case inconclusive && (r.NextStep == nil || r.NextStep.Command == ""):
		lie("inconclusive report (%s) without the customer's next command", r.State)
	case inconclusive:
		for _, f := range []string{"text", "markdown", "html", "reply"} {
			want := r.NextStep.Command
			if f == "html" {
				want = html.EscapeString(want)
			}
			if !strings.Contains(out[f], want) {
				lie("%s: the next command %q is not in the report", f, r.NextStep.Command)
			}
		}
	case r.NextStep != nil:
		lie("a conclusive report (%s) asks for a new bundle", r.State)
	}
	v := newView(r)
	for i := range r.Namespaces {
		if s := v.verdict(&r.Namespaces[i]); strings.HasSuffix(strings.TrimSuffix(s, "."), "…") {
			lie("namespace %s: verdict cut: %s", r.Namespaces[i].Name, s)
		}
	}
	for _, pv := range v.Full {
		if pv.Cause == nil {
			continue
		}
		for _, fv := range pv.Cause.Verdicts {
			line := verdictLine(fv)
			for f, want := range map[string]string{"text": line, "markdown": mdText(line), "html": html.EscapeString(line)} {
				if !strings.Contains(strings.Join(strings.Fields(out[f]), " "), want) {
					lie("%s: %s: the verdict on finalizer %s is not in the report: %s", f, pv.ID, fv.Finalizer, line)
				}
			}
		}
	}
	for _, f := range []string{"text", "markdown"} {
		rows := map[string]int{}
		for i, l := range strings.Split(out[f], "\n") {
			if f == "text" && !timelineRow.MatchString(l) || f == "markdown" && !mdTimelineRow.MatchString(l) {
				continue
			}
			if j, ok := rows[l]; ok {
				lie("%s: lines %d and %d are the same timeline row: %s", f, j+1, i+1, l)
			}
			rows[l] = i
		}
	}
	return lies
}

// mdTimelineRow is a row of the Markdown report's timeline tables.
var mdTimelineRow = regexp.MustCompile(`^\| \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \|`)

// TestReportsTrueCatches breaks each rule of TestReportsTrue on real reports and
// requires reportLies to name the break: a rule that cannot fail proves nothing.
func TestReportsTrueCatches(t *testing.T) {
	const conclusive, inconclusive = "realdata/b-finalizer-remaining", "realworld/agones-133-apiservice-row-only-inconclusive"
	for _, c := range []struct {
		name, bundle string
		want         string // a part of the lie
		breakIt      func(r *findings.Report, out map[string]string)
	}{
		{"label", conclusive, "risk safe but it changes", func(r *findings.Report, _ map[string]string) {
			s := &r.Problems[0].Remediation[len(r.Problems[0].Remediation)-1]
			s.Risk, s.Changes = findings.RiskSafe, findings.ChangesData
		}},
		{"changes", conclusive, "its command changes", func(r *findings.Report, _ map[string]string) {
			s := &r.Problems[0].Remediation[0]
			s.Command, s.Changes, s.Risk = "kubectl delete crd widgets.example.com", findings.ChangesNothing, findings.RiskSafe
		}},
		{"deletion safe", conclusive, "a deletion labelled safe", func(r *findings.Report, _ map[string]string) {
			s := &r.Problems[0].Remediation[0]
			s.Command, s.Risk = "kubectl delete pod x", findings.RiskSafe
		}},
		{"comment only", conclusive, "a comment, not a command", func(r *findings.Report, _ map[string]string) {
			r.Problems[0].Remediation[0].Command = "# restart the operator"
		}},
		{"finalize for metadata", conclusive, "offers /finalize", func(r *findings.Report, _ map[string]string) {
			ns := &r.Namespaces[0]
			ns.SpecFinalizers, ns.MetadataFinalizers = nil, []string{"example.com/x"}
			ns.Remediation = append(ns.Remediation, findings.RemediationStep{Command: "kubectl replace --raw /api/v1/namespaces/x/finalize -f -",
				Changes: findings.ChangesData, Risk: findings.RiskOf(findings.ChangesData)})
		}},
		{"summary cut", conclusive, "summary cut", func(r *findings.Report, _ map[string]string) { r.Summary += " and so…" }},
		{"short form cut", conclusive, "short form cut", func(r *findings.Report, _ map[string]string) { r.Problems[0].Short += " and so…" }},
		{"short form missing", conclusive, "short form empty", func(r *findings.Report, _ map[string]string) { r.Problems[0].Short = "" }},
		{"root printed cut", conclusive, "root printed cut", func(r *findings.Report, out map[string]string) {
			r.Problems[0].Root = strings.Repeat("a long root sentence ", 12)
			out["text"] += clipProse(r.Problems[0].Root, 160) + "\n"
		}},
		{"verdict cut", conclusive, "verdict cut", func(r *findings.Report, _ map[string]string) { r.Namespaces[0].Verdict += " and so…" }},
		{"root cut", conclusive, "root cut", func(r *findings.Report, _ map[string]string) { r.Problems[0].Root += " and so…" }},
		{"no next step", inconclusive, "without the customer's next command", func(r *findings.Report, _ map[string]string) { r.NextStep = nil }},
		{"next step not shown", inconclusive, "html: the next command", func(r *findings.Report, out map[string]string) {
			out["html"] = strings.ReplaceAll(out["html"], html.EscapeString(r.NextStep.Command), "")
		}},
		{"new bundle asked", conclusive, "asks for a new bundle", func(r *findings.Report, _ map[string]string) {
			r.NextStep = &findings.NextStep{Command: "kubectl get ns"}
		}},
		{"verdict not shown", conclusive, "markdown: P1: the verdict on finalizer", func(r *findings.Report, out map[string]string) {
			out["markdown"] = strings.ReplaceAll(out["markdown"], "controller: ", "")
		}},
		{"event twice", conclusive, "are the same event", func(r *findings.Report, _ map[string]string) {
			ns := &r.Namespaces[0]
			e := ns.Timeline[0]
			e.File = "elsewhere.json"
			ns.Timeline = append(ns.Timeline, e)
		}},
		{"row twice", conclusive, "the same timeline row", func(r *findings.Report, out map[string]string) {
			for _, l := range strings.Split(out["text"], "\n") {
				if timelineRow.MatchString(l) {
					out["text"] += l + "\n" + l + "\n"
					return
				}
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := copyReport(t, fixtureReport(t, c.bundle)) // fixtureReport's are shared
			out := renderAll(t, r)
			if lies := reportLies(r, out); len(lies) > 0 {
				t.Fatalf("the unbroken report already breaks a rule: %v", lies)
			}
			c.breakIt(r, out)
			lies := reportLies(r, out)
			if !strings.Contains(strings.Join(lies, "\n"), c.want) {
				t.Errorf("broken (%s), but no lie names %q: %v", c.name, c.want, lies)
			}
		})
	}
}

func hasRung(steps []findings.RemediationStep, part string) bool {
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
		{"kubectl get apiservices", findings.ChangesNothing},
		{"kubectl -n kube-system logs -l component=kube-controller-manager --tail=500 | grep -F shop", findings.ChangesNothing},
		{"kubectl delete apiservice v1beta1.metrics.k8s.io", findings.ChangesAPISurface},
		{"kubectl get validatingwebhookconfigurations -o json | jq -r '.items[].metadata.name' | xargs -r kubectl delete validatingwebhookconfiguration", findings.ChangesAPISurface},
		{"kubectl -n shop rollout restart deployment/web", findings.ChangesWorkload},
		{"kubectl -n shop patch pod web-0 --type=merge -p '{\"metadata\":{\"finalizers\":null}}'", findings.ChangesObject},
		{"kubectl get namespace shop -o json | jq '.spec.finalizers = []' | kubectl replace --raw /api/v1/namespaces/shop/finalize -f -", findings.ChangesData},
		{"kubectl delete crd widgets.example.com", findings.ChangesData},
		{"kubectl -n shop delete pod web-0 --grace-period=0 --force", findings.ChangesObject},
		{"for ns in a b; do kubectl get -n \"$ns\" pods; done", findings.ChangesNothing},
		{"echo 'kubectl delete ns x; rm -rf /'", findings.ChangesNothing},
		{"somethingunknown --flag", findings.ChangesObject},
		{"# just words", findings.ChangesNothing},
		{"kubectl get pods # ; kubectl delete ns x", findings.ChangesNothing},
		{"kubectl get pods; kubectl delete ns x", findings.ChangesData},
		{"oc adm must-gather", findings.ChangesNothing},
	} {
		if got := findings.CommandChanges(c.cmd); got != c.want {
			t.Errorf("CommandChanges(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// managedOrOwnLogs are the platforms whose control-plane logs are not kube-system pods.
var managedOrOwnLogs = map[string]bool{findings.PlatformAKS: true, findings.PlatformEKS: true, findings.PlatformGKE: true,
	findings.PlatformOpenShift: true, findings.PlatformK3s: true, findings.PlatformTalos: true}

// platformLogTool is the command that reads a control-plane component's log on each
// platform whose control plane is not kube-system's pods.
var platformLogTool = map[string]string{findings.PlatformAKS: "az", findings.PlatformEKS: "aws", findings.PlatformGKE: "gcloud",
	findings.PlatformOpenShift: "oc", findings.PlatformK3s: "journalctl", findings.PlatformTalos: "talosctl"}

// controlPlaneLog is a command that reads a control-plane component's log.
var controlPlaneLog = regexp.MustCompile(`\blogs?\b.*(?:kube-controller-manager|kube-apiserver)|journalctl|log-analytics|logging read`)

// TestPlatformLogs analyses every fixture and peer bundle once and checks that a bundle
// of a platform whose control plane is not kube-system's pods (AKS, EKS, GKE, OpenShift,
// k3s, Talos) is never told to read kube-controller-manager's pods there, every control-plane log
// command it is given is the platform's own (az, aws, gcloud, oc, journalctl, talosctl),
// and an OpenShift bundle's commands are oc's. (That every
// inconclusive report names the customer's next command is TestReportsTrue's.)
func TestPlatformLogs(t *testing.T) {
	platforms := map[string]int{}
	for _, b := range adviceBundles(t) {
		t.Run(b.name, func(t *testing.T) {
			r := adviceReport(t, b)
			platforms[r.Bundle.Platform]++
			if !managedOrOwnLogs[r.Bundle.Platform] {
				return
			}
			checkPlatformCommands(t, r)
		})
	}
	t.Logf("platforms read: %v", platforms)
}

// checkPlatformCommands checks every command of a report of a platform whose control
// plane is not kube-system's pods: never those pods' logs, every control-plane log read
// with the platform's own tool, oc on OpenShift. It returns how many read such a log.
func checkPlatformCommands(t *testing.T, r *findings.Report) (logs int) {
	t.Helper()
	var cmds []string
	for _, steps := range rungsOf(r) {
		for _, s := range steps {
			cmds = append(cmds, s.Command)
		}
	}
	for _, g := range r.Coverage {
		cmds = append(cmds, g.Collect)
	}
	tool := platformLogTool[r.Bundle.Platform]
	for _, c := range cmds {
		if strings.Contains(c, "-n kube-system logs -l component=kube-") {
			t.Errorf("%s bundle told to read kube-system's control-plane pods: %s", r.Bundle.Platform, c)
		}
		if controlPlaneLog.MatchString(c) {
			logs++
			if !strings.HasPrefix(c, tool+" ") {
				t.Errorf("%s bundle: a control-plane log command without the platform's own tool %s: %s", r.Bundle.Platform, tool, c)
			}
		}
		if r.Bundle.Platform == findings.PlatformOpenShift && strings.HasPrefix(c, "kubectl ") {
			t.Errorf("OpenShift bundle: a kubectl command where oc is the client: %s", c)
		}
	}
	return logs
}

// copyReport is a deep copy of r (through its JSON form), to break without touching
// the report other tests share.
func copyReport(t *testing.T, r *findings.Report) *findings.Report {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var c findings.Report
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}
