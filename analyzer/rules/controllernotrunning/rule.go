package controllernotrunning

import (
	"fmt"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Name is the cause type this rule reports.
const Name = "controller-not-running"

// Rule finds a namespace controller that does not run.
var Rule = &analyzer.Rule{
	Name: Name,
	Doc: `The namespace controller (in kube-controller-manager) is not running.

Nothing deletes a namespace's content while kube-controller-manager is down, crash-
looping, or has lost its leader election: the namespace keeps its deletion timestamp
and never gets (new) deletion conditions. Signs: the kube-system/kube-controller-manager
Lease not renewed long before the bundle was captured, a kube-controller-manager pod
that is missing or not Ready, its log ending before the namespace was deleted, or a
namespace deleted minutes ago with no deletion conditions at all on a version that
sets them (1.16+), or a kube-controller-manager log that ends with its refusal of its
own --feature-gates flag (component-base: "cannot set feature gate
OrderedNamespaceDeletion to false, feature is locked to true" on 1.34-1.36,
"unrecognized feature gate: OrderedNamespaceDeletion" on 1.37+): the process exits
at start-up, every time it is restarted.`,
	Lines: []index.Match{{Phrases: []string{"cannot set feature gate", "unrecognized feature gate"}, // component-base featuregate: start-up refusal, the process exits
		Keys: gateKeys}},
	Kinds:   []string{"Lease", "Pod"},
	Run:     runControllerNotRunning,
	Claims:  []findings.ClaimKind{findings.ClaimsContent},
	Ladder:  ladder,
	Example: func(*analyzer.Pass) findings.Cause { return findings.Cause{} },
}

// gateKey keeps kube-controller-manager's refusals of its --feature-gates flag.
const gateKey = "feature-gates"

func gateKeys(e *logs.Entry, d string) []string {
	if e.Component != "kube-controller-manager" {
		return nil // another component's refusal says nothing about the namespace controller
	}
	if _, ok := kubemsg.ParseFeatureGateRefusal(d); ok {
		return []string{gateKey}
	}
	return nil
}

// gateRefusal returns kube-controller-manager's last refusal of its --feature-gates
// flag when its log ends there (within a minute: the process exited right after), with
// the evidence and the fix.
func gateRefusal(p *analyzer.Pass) (signal, code string, ev findings.Evidence, fix *findings.RemediationStep, ok bool) {
	lines := append([]*logs.Entry{}, p.Lines(gateKey)...)
	if len(lines) == 0 {
		return "", "", findings.Evidence{}, nil, false
	}
	findings.SortEntries(lines)
	e := lines[len(lines)-1]
	r, _ := kubemsg.ParseFeatureGateRefusal(e.Detail())
	for _, f := range p.Index.Records.LogFiles {
		if f.Path == e.File && !f.Last.IsZero() && !e.Time.IsZero() && f.Last.Sub(e.Time) > time.Minute {
			return "", "", findings.Evidence{}, nil, false // it ran again after the refusal
		}
	}
	v := p.Index.KubernetesVersion
	why := ""
	switch {
	case r.Gate == "OrderedNamespaceDeletion" && r.Kind == "locked":
		why = "OrderedNamespaceDeletion is GA and locked to true from 1.34 (pods-first deletion cannot be turned off)"
	case r.Gate == "OrderedNamespaceDeletion":
		why = "OrderedNamespaceDeletion was removed in 1.37 (pods-first deletion is unconditional)"
	case r.Kind == "locked":
		why = "the gate " + r.Gate + " is locked to its default in this version"
	default:
		why = "the gate " + r.Gate + " does not exist in this version (removed or misspelt)"
		code = findings.CodeNotFound
	}
	if v != "" {
		why += "; the cluster runs " + v
	}
	n := len(lines)
	signal = fmt.Sprintf("kube-controller-manager refused its own --feature-gates flag at start-up and exited (%q, %d time(s), last at %s): %s", r.Text, n, findings.FmtTime(e.Time), why)
	ev = findings.SampleLines([]*logs.Entry{e}, 1)[0]
	fix = &findings.RemediationStep{Risk: findings.RiskSafe,
		Command: shellsafe.Cmd("kubectl", "-n", "kube-system", "get", "pods", "-l", "component=kube-controller-manager",
			"-o", `jsonpath={range .items[*]}{.metadata.name}{": "}{.spec.containers[0].command}{"\n"}{end}`) + " | grep -F -- --feature-gates",
		Why: fmt.Sprintf("kube-controller-manager exits at start-up because of its flag (%s), so the namespace controller never runs. Remove %s from --feature-gates in its manifest on every control-plane node (kubeadm: /etc/kubernetes/manifests/kube-controller-manager.yaml; managed control planes: the provider's settings); it then starts, takes the leadership and finishes the deletion on its own.", why, r.Gate)}
	if code == "" {
		code = findings.ErrorCode(r.Text)
	}
	return signal, code, ev, fix, true
}

func ladder(*analyzer.Pass, *findings.Cause) []findings.RemediationStep {
	return []findings.RemediationStep{{Risk: findings.RiskSafe,
		Command: "kubectl -n kube-system get pods -l component=kube-controller-manager -o wide && kubectl -n kube-system get lease kube-controller-manager -o yaml",
		Why:     "Bring kube-controller-manager back (static pod manifest on the control-plane nodes, or the provider's control plane); the namespace controller resumes on its own and finishes the deletion."}}
}

// leaseGrace is how long after its last renewal a leader Lease counts as abandoned
// beyond its own duration: kube-controller-manager renews every 2s (lease 15s).
const leaseGrace = 2 * time.Minute

func runControllerNotRunning(p *analyzer.Pass) ([]findings.Cause, string) {
	ix := p.Index
	capture := ix.CapturedAt
	var signals, codes []string
	var ev []findings.Evidence
	var checked []string

	// 1. the leader-election Lease
	if l := ix.Find("Lease", "kube-system", "kube-controller-manager"); l != nil && l.Lease != nil && !l.Lease.RenewTime.IsZero() {
		dur := time.Duration(l.Lease.DurationSecs) * time.Second
		text := fmt.Sprintf("Lease kube-system/kube-controller-manager: holder %q, renewTime %s, leaseDurationSeconds %d",
			l.Lease.Holder, findings.FmtTime(l.Lease.RenewTime), l.Lease.DurationSecs)
		// Compare with the Leases dumped at the same moment (kube-apiserver renews its
		// own every 10s), which is immune to how long the bundle took to collect;
		// without them, with the capture time and a wider margin.
		// A healthy kube-controller-manager renews every 2s, kube-apiserver its own Lease
		// every 10s: a gap beyond the lease duration plus those 10s is an abandoned Lease.
		ref, refWhat, limit := newestOtherLease(ix, l), "", dur+10*time.Second
		if !ref.IsZero() {
			refWhat = "than other Leases dumped with it (newest renewTime " + findings.FmtTime(ref) + ")"
		} else {
			ref, refWhat, limit = capture, "before the bundle was captured", dur+leaseGrace
		}
		age := ref.Sub(l.Lease.RenewTime)
		if !ref.IsZero() && age > limit {
			codes = append(codes, findings.CodeNoLeader)
			signals = append(signals, fmt.Sprintf("its leader Lease was last renewed at %s, %s earlier %s, although it must be renewed every few seconds: no kube-controller-manager holds the leadership", findings.FmtTime(l.Lease.RenewTime), findings.FmtDuration(age), refWhat))
			ev = append(ev, findings.Evidence{File: l.Source.File, Line: l.Source.Line, Object: l.Ref(), Field: "spec.renewTime", Text: text})
		} else {
			if age < 0 {
				checked = append(checked, fmt.Sprintf("the leader Lease was renewed at %s, after %s", findings.FmtTime(l.Lease.RenewTime), findings.OrDefault(fmtTimeIf(ref), "capture")))
			} else {
				checked = append(checked, fmt.Sprintf("the leader Lease was renewed %s before %s", findings.FmtDuration(age), findings.OrDefault(fmtTimeIf(ref), "capture")))
			}
		}
	}
	// 2. the kube-controller-manager pods
	var kcmPods []*objects.Object
	for _, pod := range ix.InNamespace("kube-system", "Pod") {
		if strings.HasPrefix(pod.Name, "kube-controller-manager") || pod.Labels["component"] == "kube-controller-manager" {
			kcmPods = append(kcmPods, pod)
		}
	}
	readyPods := 0
	for _, pod := range kcmPods {
		if pod.Pod != nil && pod.Pod.Ready {
			readyPods++
			continue
		}
		codes = append(codes, findings.PodsCode([]*objects.Object{pod}))
		signals = append(signals, fmt.Sprintf("pod %s is not Ready (%s)", pod.Name, mechanism.PodState(pod)))
		ev = append(ev, findings.Evidence{File: pod.Source.File, Line: pod.Source.Line, Object: pod.Ref(), Text: "Pod " + pod.Name + ": " + mechanism.PodState(pod)})
	}
	if readyPods > 0 {
		checked = append(checked, fmt.Sprintf("%d kube-controller-manager pod(s) Ready", readyPods))
	}
	// 3. the log stops before the deletion
	for _, f := range ix.Records.LogFiles {
		if f.Component != "kube-controller-manager" || f.Last.IsZero() {
			continue
		}
		if !p.Deletion.IsZero() && f.Last.Before(p.Deletion) && capture.Sub(p.Deletion) > leaseGrace {
			codes = append(codes, findings.CodeStopped)
			signals = append(signals, fmt.Sprintf("its log %s ends at %s, before the namespace was deleted at %s", f.Path, findings.FmtTime(f.Last), findings.FmtTime(p.Deletion)))
			ev = append(ev, findings.Evidence{File: f.Path, Line: f.Lines, Time: findings.TimePtr(f.Last), Component: f.Component, Text: "last line of the kube-controller-manager log"})
		} else if !p.Deletion.IsZero() && f.Last.After(p.Deletion) {
			checked = append(checked, fmt.Sprintf("the kube-controller-manager log runs until %s, after the deletion", findings.FmtTime(f.Last)))
		}
	}
	// 4. no deletion conditions on a version that sets them
	if p.Object != nil && len(p.Object.Conditions) == 0 && !p.Deletion.IsZero() && capture.Sub(p.Deletion) > leaseGrace {
		if v := ix.KubernetesVersion; index.MinorAtLeast(v, 16) {
			codes = append(codes, findings.CodeNoConditions)
			signals = append(signals, fmt.Sprintf("the namespace was deleted %s before capture but has no deletion conditions, which the namespace controller of %s sets on its first pass", findings.FmtDuration(capture.Sub(p.Deletion)), v))
			ev = append(ev, findings.FieldEvidence(p.Object, "status.phase", "Namespace "+p.Namespace+": phase "+p.Object.Phase+", no status.conditions"))
		}
	}
	// 5. the process refuses its flags at start-up
	gateSignal, gateCode, gateEv, gateFix, gated := gateRefusal(p)
	if gated { // the most specific signal: first
		codes = append(codes, gateCode)
		signals = append([]string{gateSignal}, signals...)
		ev = append([]findings.Evidence{gateEv}, ev...)
	}
	// 6. conditions that describe objects the dump no longer has
	if c := p.ConditionTrue(kubemsg.CondContentRemaining); c != nil && len(signals) > 0 {
		if files := p.Index.StaleContent(p.Namespace, c); files != nil {
			codes = append(codes, findings.CodeStaleConditions)
			signals = append(signals, fmt.Sprintf("the namespace's conditions are stale: %s says %q, but the dumps of those resources are empty (%s), so the controller has not re-examined the namespace since", c.Type, c.Message, strings.Join(files, ", ")))
			ev = append(ev, findings.ConditionEvidence(p.Object, c))
		}
	}
	if len(signals) == 0 {
		if len(checked) == 0 {
			return nil, "no sign of kube-controller-manager trouble (no Lease, pods or log of it in the bundle to say otherwise)"
		}
		return nil, strings.Join(checked, "; ")
	}
	confidence := "medium"
	if len(signals) >= 2 {
		confidence = "high"
	}
	cause := findings.Cause{Confidence: confidence, GroupVersions: []string{}, APIServices: []string{},
		Finalizers: []string{}, Objects: []findings.ObjectRef{}, Evidence: ev}
	cause.Summary = "The namespace controller is not running: " + strings.Join(signals, "; ") + ". Nothing deletes the namespace's content until kube-controller-manager runs and holds the leadership again."
	cause.Chain = []findings.Link{{Component: "kube-controller-manager", Finding: strings.Join(signals, "; "), Evidence: ev, Fault: true,
		Code: findings.FirstCode(codes...)}}
	if gated {
		cause.Chain[0].Fix = gateFix // the flag is the root: remove it first
	}
	cause.ClaimContent() // nothing is deleted while the controller is not running
	return []findings.Cause{cause}, ""
}

// newestOtherLease returns the newest renewTime of the other Leases read from the same
// file as l (zero when there are none).
func newestOtherLease(ix *index.Index, l *objects.Object) time.Time {
	var t time.Time
	for _, o := range ix.ByKind["Lease"] {
		if o == l || o.Source.File != l.Source.File || o.Lease == nil {
			continue
		}
		if o.Lease.RenewTime.After(t) {
			t = o.Lease.RenewTime
		}
	}
	return t
}

func fmtTimeIf(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return findings.FmtTime(t)
}
