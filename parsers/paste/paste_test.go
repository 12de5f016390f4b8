package paste

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func never(Cut) bool    { return false }
func always(c Cut) bool { return strings.TrimSpace(c.Next) != "" }

// TestLines: each repair on real lines (the k9s pane of fixtures/realworld/netbird-*,
// kubectl stderr wrapped at 80 columns, a Markdown quote, a web page's quotes).
func TestLines(t *testing.T) {
	cases := []struct {
		name string
		in   string
		cont func(Cut) bool
		want []string
		orig []int
	}{
		{"k9s frame", "┌──── Describe(netbird) ────┐\n│   NamespaceDeletionContentFailure   True   ContentDeletionFailed   Failed ca │\n│ lling webhook                                                               │\n└─────────────────────────────┘",
			never, []string{"  NamespaceDeletionContentFailure   True   ContentDeletionFailed   Failed ca", "lling webhook"}, []int{2, 3}},
		{"wrap at 80, mid-word", "Error from server: conversion webhook for cert-manager.io/v1alpha2, Kind=Certifi\ncate failed: Post \"https://cert-manager-webhook.cert-manager.svc:443/convert?tim\neout=30s\": service \"cert-manager-webhook\" not found",
			always, []string{"Error from server: conversion webhook for cert-manager.io/v1alpha2, Kind=Certificate failed: Post \"https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s\": service \"cert-manager-webhook\" not found"}, []int{1}},
		{"no wrap below 60 columns", "error: short\nline two", always, []string{"error: short", "line two"}, []int{1, 2}},
		{"blockquote, fence, elision", "> ```\n> $ kubectl get ns\n> NAME   STATUS\n> ...\n> x      Terminating\n> ```", never,
			[]string{"$ kubectl get ns", "NAME   STATUS", "x      Terminating"}, []int{2, 3, 5}},
		{"a prompt alone stays", "> kubectl get ns", never, []string{"> kubectl get ns"}, []int{1}},
		{"smart quotes, NBSP, Markdown escapes", "message: ‘Discovery failed’\u00a0\u00a0x \\_y\\_ “z”", never, []string{"message: 'Discovery failed'  x _y_ \"z\""}, []int{1}},
		{"shifted, leading tabs", "    a:\n    \tb: c", never, []string{"a:", "  b: c"}, []int{1, 2}},
		{"inline code over lines (kubescape stderr)", "`\nE0104 13:08:04.033120    4900 memcache.go:121] couldn't get resource list for spdx.softwarecomposition.kubescape.io/v1beta1: the server is currently unable to handle the request`", never,
			[]string{"E0104 13:08:04.033120    4900 memcache.go:121] couldn't get resource list for spdx.softwarecomposition.kubescape.io/v1beta1: the server is currently unable to handle the request"}, []int{2}},
		{"inline code opened at a line's start", "`kubectl delete ns x\nError from server (Conflict): x`", never, []string{"kubectl delete ns x", "Error from server (Conflict): x"}, []int{1, 2}},
		{"paired backticks stay", "run `kubectl get ns` then", never, []string{"run `kubectl get ns` then"}, []int{1}},
		{"one-line fence (stash#785)", "anyway:\n```error: unable to retrieve the complete list of server APIs: admission.stash.appscode.com/v1alpha1: the server is currently unable to handle the request```\nThe namespace", never,
			[]string{"anyway:", "error: unable to retrieve the complete list of server APIs: admission.stash.appscode.com/v1alpha1: the server is currently unable to handle the request", "The namespace"}, []int{1, 2, 3}},
		{"row in inline code (rio#1028)", "Everything is fine execpt this line:\n`v1alpha1.tap.linkerd.io                 linkerd/linkerd-tap          False (MissingEndpoints)   7d16h`", never,
			[]string{"Everything is fine execpt this line:", "v1alpha1.tap.linkerd.io                 linkerd/linkerd-tap          False (MissingEndpoints)   7d16h"}, []int{1, 2}},
		{"two spans on a line stay", "`a` and `b`", never, []string{"`a` and `b`"}, []int{1}},
		{"a fence's opening line goes", "```yaml\nkind: x\n```", never, []string{"kind: x"}, []int{2}},
		{"markdown table", "| NAME | STATUS |\n|------|--------|\n| x | Terminating |", never, []string{"NAME   STATUS", "x      Terminating"}, []int{1, 3}},
		{"markdown table without trailing pipes, an empty cell (Azure/AKS#705)", "| LAST SEEN  | FIRST SEEN | COUNT | NAME | KIND | SUBOBJECT | TYPE  | REASON | SOURCE | MESSAGE\n| ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- |\n| 7s | 7h  | 110 | service-name.1561188030677ac1 | Service | | Normal | DeletingLoadBalancer | service-controller | Deleting load balancer", never,
			[]string{"LAST SEEN   FIRST SEEN   COUNT   NAME                            KIND      SUBOBJECT   TYPE     REASON                 SOURCE               MESSAGE",
				"7s          7h           110     service-name.1561188030677ac1   Service   <none>      Normal   DeletingLoadBalancer   service-controller   Deleting load balancer"}, []int{1, 3}},
		{"the same table in a mail reply wrapped at 64 columns (TestDamageDrawn's mail(w=64,depth=1))", "> | LAST SEEN  | FIRST SEEN | COUNT | NAME | KIND | SUBOBJECT |\n> TYPE  | REASON | SOURCE | MESSAGE\n> | ------------- | ------------- | ------------- | -------------\n> | ------------- | ------------- | ------------- | -------------\n> | ------------- | ------------- |\n> | 7s | 7h  | 110 | service-name.1561188030677ac1 | Service | |\n> Normal | DeletingLoadBalancer | service-controller | Deleting\n> load balancer\n>", always,
			[]string{"LAST SEEN   FIRST SEEN   COUNT   NAME                            KIND      SUBOBJECT   TYPE     REASON                 SOURCE               MESSAGE",
				"7s          7h           110     service-name.1561188030677ac1   Service   <none>      Normal   DeletingLoadBalancer   service-controller   Deleting load balancer", ""}, []int{1, 6, 9}},
		{"a table in a code fence, its last row the widest, no trailing pipes", "```\n| NAME | STATUS\n|---|---\n| kube-system | Active\n| cattle-system-long-name | Terminating\n```", never,
			[]string{"NAME                      STATUS", "kube-system               Active", "cattle-system-long-name   Terminating"}, []int{2, 4, 5}},
		{"the same table quoted '>> ' (TestDamageDrawn's quote(\">> \"))", ">> | LAST SEEN  | FIRST SEEN | COUNT | NAME | KIND | SUBOBJECT | TYPE  | REASON | SOURCE | MESSAGE\n>> | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- |\n>> | 7s | 7h  | 110 | service-name.1561188030677ac1 | Service | | Normal | DeletingLoadBalancer | service-controller | Deleting load balancer\n>>", never,
			[]string{"LAST SEEN   FIRST SEEN   COUNT   NAME                            KIND      SUBOBJECT   TYPE     REASON                 SOURCE               MESSAGE",
				"7s          7h           110     service-name.1561188030677ac1   Service   <none>      Normal   DeletingLoadBalancer   service-controller   Deleting load balancer", ""}, []int{1, 3, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, orig := Lines(strings.Split(c.in, "\n"), Options{Continues: c.cont})
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(orig) != len(c.orig) {
				t.Fatalf("got %q %v, want %q %v", got, orig, c.want, c.orig)
			}
			for i := range orig {
				if orig[i] != c.orig[i] {
					t.Fatalf("orig %v, want %v", orig, c.orig)
				}
			}
		})
	}
}

// TestLinesWork: the repair is one pass over the lines; a wrapped line of n pieces
// costs n joins (counted: the joined length is the input's), never a rescan.
func TestLinesWork(t *testing.T) {
	for _, n := range []int{1000, 2000} {
		in := make([]string, n)
		for i := range in {
			in[i] = strings.Repeat("x", 80)
		}
		got, orig := Lines(in, Options{Continues: always})
		if len(got) != 1 || len(got[0]) != 80*n || orig[0] != 1 {
			t.Fatalf("%d pieces: %d lines, %d bytes", n, len(got), len(got[0]))
		}
	}
}

// FuzzLines: any text: no panic, lines map to increasing lines of the input, no
// line longer than the input, valid UTF-8 stays valid.
func FuzzLines(f *testing.F) {
	f.Add("┌─┐\n│ a │\n└─┘", true)
	f.Add("> a\n> b\n...\n```\n\tc", false)
	f.Add(strings.Repeat("y", 80)+"\n"+strings.Repeat("z", 80)+"\nq", true)
	f.Add("| a | b |\n|---|---|\n\\_x ‘y’\u00a0", false)
	f.Fuzz(func(t *testing.T, s string, wrap bool) {
		raw := strings.Split(s, "\n")
		opts := Options{KeepTabs: !wrap, JoinScalars: wrap}
		if wrap {
			opts.Continues = always
		}
		lines, orig := Lines(raw, opts)
		if len(lines) != len(orig) || len(lines) > len(raw) {
			t.Fatalf("%d lines, %d origins, %d input lines", len(lines), len(orig), len(raw))
		}
		for i, o := range orig {
			if o < 1 || o > len(raw) || i > 0 && o <= orig[i-1] {
				t.Fatalf("origins %v", orig)
			}
		}
		if utf8.ValidString(s) {
			for _, l := range lines {
				if !utf8.ValidString(l) {
					t.Fatalf("invalid UTF-8 out of valid input: %q", l)
				}
			}
		}
	})
}

// TestJoinScalars: YAML values over several lines, as the real pastes have them
// (kubevela#6688 `message: >-`, OLM#2909 a single-quoted value folded by kubectl,
// gatekeeper#3058 with ” inside), become one line at the key's line; what is not
// a multi-line value (a nested mapping, a list, a value left open by a cut) stays.
func TestJoinScalars(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
		orig []int
	}{
		{"folded block", "- type: NamespaceDeletionDiscoveryFailure\n  status: 'True'\n  message: >-\n    Discovery failed for some groups, 1 failing: unable to retrieve the\n    complete list of server APIs: cluster.core.oam.dev/v1alpha1: stale\n    GroupVersion discovery: cluster.core.oam.dev/v1alpha1\n- type: NamespaceDeletionContentFailure",
			[]string{"- type: NamespaceDeletionDiscoveryFailure", "  status: 'True'", "  message: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: cluster.core.oam.dev/v1alpha1: stale GroupVersion discovery: cluster.core.oam.dev/v1alpha1", "- type: NamespaceDeletionContentFailure"},
			[]int{1, 2, 3, 7}},
		{"single-quoted, folded by kubectl", "  - lastTransitionTime: \"2022-11-24T10:02:05Z\"\n    message: 'Discovery failed for some groups, 1 failing: unable to retrieve the\n      complete list of server APIs: packages.operators.coreos.com/v1: the server is\n      currently unable to handle the request'\n    reason: DiscoveryFailed",
			[]string{"- lastTransitionTime: \"2022-11-24T10:02:05Z\"", "  message: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: packages.operators.coreos.com/v1: the server is currently unable to handle the request", "  reason: DiscoveryFailed"},
			[]int{1, 2, 5}},
		{"'' inside", "    message: 'Failed to delete all resource types, 1 remaining: admission webhook\n      \"validation.gatekeeper.sh\" denied the request: config resource must have name\n      ''config'''",
			[]string{"message: Failed to delete all resource types, 1 remaining: admission webhook \"validation.gatekeeper.sh\" denied the request: config resource must have name 'config'"},
			[]int{1}},
		{"quoted, flattened to the margin", "message: 'Failed to delete all resource types, 1 remaining: admission webhook\n\"validation.gatekeeper.sh\" denied the request\n''config'''\nreason: X",
			[]string{"message: Failed to delete all resource types, 1 remaining: admission webhook \"validation.gatekeeper.sh\" denied the request 'config'", "reason: X"}, []int{1, 4}},
		{"tab-indented", "\t\tmessage: >-\n\t\t\tDiscovery failed\n\t\t\tfor some groups", []string{"\t\tmessage: Discovery failed for some groups"}, []int{1}},
		{"double-quoted with escapes", "message: \"a \\\"b\\\"\n  c\"", []string{"message: a \"b\" c"}, []int{1}},
		{"plain value over lines", "message: Some resources are remaining: a.example.io has 1\n  resource instances\nreason: X", []string{"message: Some resources are remaining: a.example.io has 1 resource instances", "reason: X"}, []int{1, 3}},
		{"nested mapping stays", "metadata:\n  name: x\n  labels:\n    a: b", []string{"metadata:", "  name: x", "  labels:", "    a: b"}, []int{1, 2, 3, 4}},
		{"quote left open by a cut stays", "  message: 'Some resources are remaining: cephblockpools.ceph.rook.io has 1 resource", []string{"message: 'Some resources are remaining: cephblockpools.ceph.rook.io has 1 resource"}, []int{1}},
		{"klog lines are no keys", "E1206 10:21:37.532210       1 namespace_controller.go:148] unable to retrieve\n    the complete list", []string{"E1206 10:21:37.532210       1 namespace_controller.go:148] unable to retrieve", "    the complete list"}, []int{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, orig := Lines(strings.Split(c.in, "\n"), Options{JoinScalars: true, KeepTabs: true}) // tabs kept, as for logs
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") || len(orig) != len(c.orig) {
				t.Fatalf("got %q %v,\nwant %q %v", got, orig, c.want, c.orig)
			}
			for i := range orig {
				if orig[i] != c.orig[i] {
					t.Fatalf("orig %v, want %v", orig, c.orig)
				}
			}
		})
	}
}

// TestGoDumpOverLines: cert-manager/cert-manager#1514 as published: kubectl's stderr
// wrapped by the terminal at 153 columns mid-word, its first line one short (the copy
// trimmed the space the cut fell on), its third shortened by the author's <snip>: the
// object dump left open joins them into one line.
func TestGoDumpOverLines(t *testing.T) {
	in := `Error from server: conversion webhook for &{map[apiVersion:cert-manager.io/v1alpha2 kind:Certificate metadata:map[creationTimestamp:2020-04-09T17:23:46Z
generation:1 name:ingress-tls namespace:development ownerReferences:[map[apiVersion:extensions/v1beta1 blockOwnerDeletion:true controller:true kind:Ingre
ss name:ingress uid:42957329-135a-44e4-8823-e104a94d9e74]] uid:897ca221-698a-4ea0-94b9-e092932ac467] spec:map[dnsNames:[<snip>] is
suerRef:map[group:cert-manager.io kind:ClusterIssuer name:letsencrypt-production] secretName:ingress-tls] status:map[conditions:[map[lastTransitionTime:2
020-04-09T17:23:46Z message:Certificate does not exist reason:NotFound status:False type:Ready]]]]} failed: Post https://cert-manager-webhook.cert-manage
r.svc:443/convert?timeout=30s: service "cert-manager-webhook" not found`
	got, orig := Lines(strings.Split(in, "\n"), Options{Continues: always})
	if len(got) != 1 || orig[0] != 1 || !strings.Contains(got[0], "] issuerRef:map[") || !strings.Contains(got[0], "kind:Ingress name:ingress") ||
		!strings.HasSuffix(got[0], `https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s: service "cert-manager-webhook" not found`) {
		t.Fatalf("%d lines %v: %q", len(got), orig, got)
	}
}

// TestCodeLineAnyRun: for any content without backticks and any run of n backticks
// around it (with or without spaces inside the marks, indentation before them), the
// line reads as its content; with a run of exactly n backticks inside, or different
// runs at the ends, it is no code line. Generated over the class, not listed.
func TestCodeLineAnyRun(t *testing.T) {
	contents := []string{"error: unable to retrieve the complete list of server APIs: a.b/v1: x",
		"v1beta1.metrics.k8s.io   kube-system/metrics-server   False (MissingEndpoints)   7d", "x", "a `b` c", "a ``b`` c"}
	for _, c := range contents {
		for n := 1; n <= 5; n++ {
			run := strings.Repeat("`", n)
			closes := hasRun(c, n) // the content would close the span: two spans
			for _, pad := range []string{"", " ", "  "} {
				for _, ind := range []string{"", "  ", "\t"} {
					line := ind + run + pad + c + pad + run
					got, ok := CodeLine(strings.TrimLeft(line, " \t"))
					if closes {
						if ok {
							t.Errorf("%q: read as one span %q, but its content closes the span", line, got)
						}
						continue
					}
					if !ok || got != c {
						t.Errorf("%q: got %q %v, want %q", line, got, ok, c)
					}
					if out, _ := Lines([]string{"intro", line}, Options{}); len(out) != 2 || strings.TrimSpace(out[1]) != c {
						t.Errorf("%q: Lines gives %q", line, out)
					}
					if _, ok := CodeLine(run + pad + c + pad + run + "`"); ok {
						t.Errorf("%q: unequal runs read as a span", run+c+run+"`")
					}
					if _, ok := CodeLine(run + c + run + " x " + run + "y" + run); ok {
						t.Errorf("%q: two spans read as one", run+c+run+" x "+run+"y"+run)
					}
				}
			}
		}
	}
}

// hasRun reports a run of exactly n backticks in s.
func hasRun(s string, n int) bool {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return true
		}
		i = j
	}
	return false
}
