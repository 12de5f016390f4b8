package text

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// TestMessagesContext: the shapes tickets show a namespace condition message in (issue
// #30), each with the namespace its context gives it, or none.
func TestMessagesContext(t *testing.T) {
	for _, tc := range []struct {
		name, in, cond, context string
		line                    int
	}{
		{"yq of the last condition, bare mapping",
			"$ kubectl get ns shop -o yaml | yq '.status.conditions[-1]'\nlastTransitionTime: \"2024-01-01T00:00:00Z\"\nmessage: 'Some content in the namespace has finalizers remaining: kubernetes.io/pvc-protection\n  in 2 resource instances'\nreason: SomeFinalizersRemain\n",
			"NamespaceFinalizersRemaining", "shop", 3},
		{"web console export: type first, 'True', folded, four spaces",
			"- type: NamespaceDeletionDiscoveryFailure\n    status: 'True'\n    lastTransitionTime: '2021-03-01T10:00:00Z'\n    reason: DiscoveryFailed\n    message: >-\n        Discovery failed for some groups, 1 failing: unable to retrieve the\n        complete list of server APIs: metrics.k8s.io/v1beta1: the server is\n        currently unable to handle the request\n",
			"NamespaceDeletionDiscoveryFailure", "", 6},
		{"describe rows without their header, after describe ns",
			"kubectl describe ns team-a\n  NamespaceContentRemaining     True    Mon, 01 Jan 2024 10:00:00 +0000  SomeResourcesRemain   Some resources are remaining: widgets.example.com has 3 resource instances\n  NamespaceFinalizersRemaining  True    Mon, 01 Jan 2024 10:00:00 +0000  SomeFinalizersRemain  Some content in the namespace has finalizers remaining: example.com/cleanup in 3 resource instances\n",
			"NamespaceContentRemaining", "team-a", 2},
		{"inline code in a sentence, chat export",
			"[10:42 AM] Dana: the ns is stuck and shows `Some content in the namespace has finalizers remaining: foo.io/bar in 1 resource instances` forever\n",
			"NamespaceFinalizersRemaining", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := Messages([]byte(tc.in), "ticket.txt", nil, nil)
			if len(ms) == 0 {
				t.Fatal("no message")
			}
			m := ms[0]
			if m.CondType != tc.cond || m.Context != tc.context || m.Line != tc.line || !m.Deleting {
				t.Errorf("got %s context %q line %d deleting %v (%q), want %s context %q line %d", m.CondType, m.Context, m.Line, m.Deleting, m.Text, tc.cond, tc.context, tc.line)
			}
		})
	}
}

// TestMessagesReadAlready: a message a structured reader read (a condition of an
// object of the file) is not reported again.
func TestMessagesReadAlready(t *testing.T) {
	in := "status:\n  conditions:\n  - message: 'Some resources are remaining: pods. has 2 resource instances'\n    type: NamespaceContentRemaining\n"
	o := &objects.Object{Kind: "Namespace", Name: "x", Conditions: []objects.Condition{{Type: "NamespaceContentRemaining", Status: "True",
		Message: "Some resources are remaining: pods. has 2 resource instances"}}}
	if ms := Messages([]byte(in), "a.yaml", []*objects.Object{o}, nil); len(ms) != 0 {
		t.Errorf("read twice: %+v", ms)
	}
	if ms := Messages([]byte(in), "a.yaml", nil, nil); len(ms) != 1 {
		t.Errorf("%d messages without the object, want 1", len(ms))
	}
	if es := MessageEntries(Messages([]byte(in), "a.yaml", nil, nil)); len(es) != 1 || es[0].Line != 3 {
		t.Errorf("entries %+v, want one on line 3", es)
	}
}

// TestStructuredMessage: a structured line rebuilt by the scan gives its message and keys.
func TestStructuredMessage(t *testing.T) {
	msg, f, ok := structured(`"Deletion of namespace failed" err="failed calling webhook "a.b.io": x" logger="UnhandledError" namespace="shop"`)
	if !ok || msg != "Deletion of namespace failed" || f["namespace"] != "shop" || f["err"] != `failed calling webhook "a.b.io": x` {
		t.Errorf("got %q %v %v", msg, f, ok)
	}
}

// TestSameWords: a structured reader's copy holds the scan's message when the rules
// read the same from both, whatever spaces a wrap's join put or lost where they say
// nothing (real lines: fixtures/realworld/k3s-journald-helm-ns-413-metrics-log-only
// wrapped at 87 columns, the conversion stderr of handmade-stderr-wrapped-conversion).
func TestSameWords(t *testing.T) {
	const (
		deletion   = "deletion of namespace helm-ns-413 failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request"
		conversion = `conversion webhook for cert-manager.io/v1alpha2, Kind=Certificate failed: Post "https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s": service "cert-manager-webhook" not found`
	)
	for _, tc := range []struct {
		copied, fact string
		same         bool
	}{
		{deletion, deletion, true},
		{strings.ReplaceAll(deletion, "  ", " "), deletion, true},
		// a join that lost the space the wrap ate: the discovery failure is no longer read
		{strings.Replace(deletion, "unable to retrieve", "unable toretrieve", 1), deletion, false},
		// a space the scan put where a terminal cut a word: nothing the rules read changes
		{conversion, strings.Replace(conversion, "?timeout", "?tim eout", 1), true},
		// the copy kept the message's first words only
		{"Failed to delete all resource types, 1 remaining: admission", `Failed to delete all resource types, 1 remaining: admission webhook "validation.gatekeeper.sh" denied the request: [no-delete-in-prod] deleting ConfigMaps in production namespaces is not allowed`, false},
	} {
		if got := SameWords(tc.copied, tc.fact); got != tc.same {
			t.Errorf("SameWords(%q, %q) = %v, want %v", tc.copied, tc.fact, got, tc.same)
		}
	}
}

// TestMessagesNameAPIService: kube-aggregator's availability check failure names its
// APIService by its URL; it is kept as a message even when a log reader holds its line
// (the rules read it as the APIService's condition, not as a line), in the real shapes
// of fixtures/realworld/linkerd-viz-2022-* and keda-eks-119-*, and wrapped or quoted at
// any width.
func TestMessagesNameAPIService(t *testing.T) {
	ins := []string{
		"FailedDiscoveryCheck: failing or missing response from https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1: Get \"https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1\": context deadline exceeded\n",
		"√ tap API server cert is valid for at least 60 days\n                                ‼ tap API service is running\n    FailedDiscoveryCheck: failing or missing response from https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1: Get \"https://10.96.74.20:443/apis/tap.linkerd.io/v1alpha1\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\n    see https://linkerd.io/2.11/checks/#l5d-tap-api for hints\n",
		"conditions:\n  - lastTransitionTime: \"2021-05-26T13:59:23Z\"\n    message: 'failing or missing response from https://KEDA_METRICS_SERVER_IP:6443/apis/external.metrics.k8s.io/v1beta1:\n      Get \"https://KEDA_METRICS_SERVER_IP:6443/apis/external.metrics.k8s.io/v1beta1\": net/http:\n      request canceled'\n    reason: FailedDiscoveryCheck\n",
	}
	want := []string{"v1alpha1.tap.linkerd.io", "v1alpha1.tap.linkerd.io", "v1beta1.external.metrics.k8s.io"}
	for i, in := range ins {
		for w := 40; w <= 200; w += 7 {
			text := in
			if w < 200 { // wrapped at spaces at width w (w = 200: as pasted)
				var b strings.Builder
				for _, l := range strings.Split(in, "\n") {
					n := 0
					for k, word := range strings.Split(l, " ") {
						if k > 0 && n+1+len(word) > w {
							b.WriteString("\n")
							n = 0
						} else if k > 0 {
							b.WriteString(" ")
							n++
						}
						b.WriteString(word)
						n += len(word)
					}
					b.WriteString("\n")
				}
				text = b.String()
			}
			// as the text reader reads it, and as a plain log whose reader holds every line
			var entries []logs.Entry
			for k, l := range strings.Split(text, "\n") {
				entries = append(entries, logs.Entry{File: "t.txt", Line: k + 1, Text: l, Message: l})
			}
			for k, ms := range [][]Message{Parse(strings.NewReader(text), "t.txt", Options{}, &diag.Sink{}).Messages, Messages([]byte(text), "t.txt", nil, entries)} {
				got := map[string]bool{}
				for _, m := range ms {
					if m.NamesAPIService() {
						name, _ := kubemsg.ParseAvailabilityCheck(m.Text)
						got[name] = true
					}
				}
				if len(got) != 1 || !got[want[i]] {
					t.Errorf("case %d wrapped at %d, reading %d: APIServices %v, want %q\n%s", i, w, k, got, want[i], text)
				}
			}
		}
	}
}
