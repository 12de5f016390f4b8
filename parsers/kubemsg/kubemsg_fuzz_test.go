package kubemsg

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Fuzz targets for the message parsers. Seeds are the lines of the real fixtures
// (logs, condition messages, kubectl describe pastes) that contain one of the phrases
// these parsers look for; crashers found by `go test -fuzz` are committed under
// testdata/fuzz/<Target>/ and run by every plain `go test`.

var seedPhrases = []string{"Some resources are remaining", "finalizers remaining", "Failed to delete all resource types",
	"All content successfully deleted", "successfully discovered", "All content-preserving finalizers",
	"eletion of namespace", "unable to retrieve the complete list of server APIs", "failed to discover some groups",
	"nable to get all supported resources from server", "unexpected items still remain in namespace", "failed to delete pods for namespace",
	"pods still remain, delaying deletion", "unable to fetch metrics from", "Discovery failed for some groups",
	"couldn't get resource list for", "failed with: ", "changing APIService availability", "error resolving ",
	"ailed calling webhook", "conversion webhook", "Namespace has been deleted", "currently unable to handle the request",
	"reconcile node routes", "UnauthorizedOperation", "AccessDenied"}

// fixtureLines returns up to max fixture lines containing one of the seed phrases.
func fixtureLines(f *testing.F, max int) []string {
	f.Helper()
	var out []string
	seen := map[string]bool{}
	for _, root := range []string{"../../fixtures/realdata", "../../fixtures/realworld", "../../fixtures/handmade"} {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || len(out) >= max {
				return nil
			}
			fh, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer fh.Close()
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() && len(out) < max {
				l := sc.Text()
				for _, k := range seedPhrases {
					if strings.Contains(l, k) && !seen[l] && len(l) < 8<<10 {
						seen[l] = true
						out = append(out, l)
						break
					}
				}
			}
			return nil
		})
	}
	if len(out) == 0 {
		f.Log("no fixture lines found; fuzzing from the hand-written seeds only")
	}
	return out
}

func addSeeds(f *testing.F, hand ...string) {
	for _, s := range hand {
		f.Add(s)
	}
	for _, s := range fixtureLines(f, 300) {
		f.Add(s)
	}
}

// a group/version: the version a DNS-1035 label (hyphens allowed: "v0-0" is a valid
// CRD version name), "v<digit>..." unless the group is dotted
var gvShape = regexp.MustCompile(`^(?:(?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?/)?v[0-9](?:[-a-z0-9]*[a-z0-9])?|[a-z0-9](?:[-a-z0-9]*[a-z0-9])?\.[-a-z0-9.]*[a-z0-9]/[a-z](?:[-a-z0-9]*[a-z0-9])?)$`)

// FuzzParseDiscoveryFailure: every group/version returned is well-formed, quoted from
// the text, listed once, with a non-empty error; valid UTF-8 in gives valid UTF-8 out.
func FuzzParseDiscoveryFailure(f *testing.F) {
	addSeeds(f,
		"unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1",
		`failed to discover some groups map["metrics.k8s.io/v1beta1":"stale GroupVersion discovery: metrics.k8s.io/v1beta1"]`,
		"failed to discover some groups: map[projectcalico.org/v3:the server is currently unable to handle the request]",
		"unable to retrieve the complete list of server APIs: ",
		"failed to discover some groups map[",
		"unable to retrieve the complete list of server APIs: v1: \xff\xfe, a/v2:")
	f.Fuzz(func(t *testing.T, text string) {
		got := ParseDiscoveryFailure(text)
		seen := map[string]bool{}
		for _, g := range got {
			if !gvShape.MatchString(g.GroupVersion) {
				t.Fatalf("malformed group/version %q", g.GroupVersion)
			}
			if !strings.Contains(text, g.GroupVersion) {
				t.Fatalf("group/version %q not in the text", g.GroupVersion)
			}
			if seen[g.GroupVersion] {
				t.Fatalf("group/version %q listed twice", g.GroupVersion)
			}
			seen[g.GroupVersion] = true
			if g.Err == "" {
				t.Fatalf("empty error for %q", g.GroupVersion)
			}
			if utf8.ValidString(text) && !utf8.ValidString(g.Err) {
				t.Fatalf("invalid UTF-8 out of valid UTF-8 in: %q", g.Err)
			}
			// APIServiceName and its inverse agree on every well-formed group/version.
			if back := GroupVersionOfAPIService(APIServiceName(g.GroupVersion)); back != g.GroupVersion {
				t.Fatalf("APIServiceName(%q) does not round-trip: %q", g.GroupVersion, back)
			}
		}
		if !strings.Contains(text, discoveryListPrefix) && !strings.Contains(text, "failed to discover some groups") && got != nil {
			t.Fatalf("failures %v from a text without a discovery error", got)
		}
	})
}

// FuzzParseNamespaceMessages covers the namespace controller's condition and log
// messages: counts are never negative, names are quoted from the text, and nothing is
// found in a text without the message's fixed prefix.
func FuzzParseNamespaceMessages(f *testing.F) {
	addSeeds(f,
		"Some resources are remaining: pods. has 2 resource instances, widgets.example.io has 1 resource instances",
		"Some content in the namespace has finalizers remaining: kubevirt.io/virtOperatorFinalize in 1 resource instances",
		"Some finalizers are remaining: a in 99999999999999999999999 resource instances",
		"Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook \"x\": context deadline exceeded",
		"deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: v1: x",
		"deletion of namespace {root 0} failed: x", // kcp's logical-cluster form
		"All content successfully deleted, may be waiting on finalization",
		"All content-preserving finalizers finished",
		`Error from server: Namespace "thtest" cannot be updated: Termination is in progress, waiting for [kubernetes]`)
	f.Fuzz(func(t *testing.T, text string) {
		if ns, ok := ParseNamespaceTerminating(text); ok && (!IsNamespaceName(ns) || !strings.Contains(text, ns)) {
			t.Fatalf("namespace terminating %q not quoted from the text", ns)
		}
		rc := ParseContentRemaining(text)
		if rc != nil && !strings.Contains(text, contentRemainingPrefix) {
			t.Fatalf("content remaining %v without the prefix", rc)
		}
		for _, r := range rc {
			if r.Count < 0 || r.Resource == "" || !strings.Contains(text, r.GroupResource()) && !strings.Contains(text, r.Resource+".") {
				t.Fatalf("bad resource count %+v", r)
			}
		}
		for _, fc := range ParseFinalizersRemaining(text) {
			if fc.Count < 0 || fc.Finalizer == "" || !strings.Contains(text, fc.Finalizer) {
				t.Fatalf("bad finalizer count %+v", fc)
			}
		}
		if n, errText, ok := ParseContentFailure(text); ok {
			if n < 0 || !strings.HasSuffix(text, errText) {
				t.Fatalf("content failure %d %q", n, errText)
			}
		}
		if ns, errText, ok := ParseNamespaceDeletionFailed(text); ok {
			if ns == "" || strings.ContainsAny(ns, " \t\n") || !strings.Contains(text, "deletion of namespace "+ns+" failed: ") && !strings.Contains(text, " "+ns+"} failed: ") || !strings.HasSuffix(strings.TrimSpace(text), errText) {
				t.Fatalf("deletion failed %q %q", ns, errText)
			}
		}
		for _, ct := range []string{CondDiscoveryFailure, CondGVParsingFailure, CondContentFailure, CondContentRemaining, CondFinalizersRemaining} {
			// "False" (or anything but "True") never reads as the problem.
			if ConditionMeaning(ct, text) == ConditionMeaning(ct, "True") && text != "True" {
				t.Fatalf("status %q explained as the problem state of %s", text, ct)
			}
		}
	})
}

// FuzzParseBackendFailures covers the webhook, conversion and APIService parsers and
// the error classifier: names are quoted from the text, details are bounded.
func FuzzParseBackendFailures(f *testing.F) {
	addSeeds(f,
		`admission webhook "x" denied; failed calling webhook "configmap-guard.example.io": failed to call webhook: Post "https://svc:443/?timeout=10s": context deadline exceeded`,
		`Failed calling webhook, failing closed configmap-guard.example.io: failed calling webhook "configmap-guard.example.io": x`,
		`conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://x": no route to host`,
		`calling to conversion webhook failed for crontabs.stable.example.com: x`,
		`v1beta1.metrics.k8s.io failed with: failing or missing response from https://10.96.0.1:443/apis/metrics.k8s.io/v1beta1: bad status from https://10.96.0.1:443/apis/metrics.k8s.io/v1beta1: 503`,
		`loading OpenAPI spec for "v1beta1.metrics.k8s.io" failed with: failed to retrieve openAPI spec, http error: ResponseCode: 503`,
		`error resolving kube-system/metrics-server: no endpoints available for service "metrics-server"`,
		`failed to call webhook: Post "https://hook-svc.team-a.svc:443/validate?timeout=10s": service "hook-svc" not found`,
		`failed calling webhook "`+strings.Repeat("é", 400)+`": `+strings.Repeat("é", 400),
		`failed calling webhook "x": a`+strings.Repeat("é", 400)) // regression: the 300-byte cut split a character
	f.Fuzz(func(t *testing.T, text string) {
		valid := utf8.ValidString(text)
		checkDetail := func(what, d string) {
			if len(d) > 300+len("…") {
				t.Fatalf("%s detail of %d bytes", what, len(d))
			}
			if valid && !utf8.ValidString(d) {
				t.Fatalf("%s detail is invalid UTF-8 from valid input: %q", what, d)
			}
		}
		seen := map[string]bool{}
		for _, w := range ParseWebhookFailures(text) {
			if w.Webhook == "" || !strings.Contains(text, w.Webhook) || seen[w.Webhook] {
				t.Fatalf("webhook %+v", w)
			}
			seen[w.Webhook] = true
			checkDetail("webhook", w.Detail)
		}
		if c, ok := ParseConversionFailure(text); ok {
			if c.Kind == "" || !strings.Contains(text, c.Kind) || !strings.Contains(text, c.GroupVersion) {
				t.Fatalf("conversion %+v", c)
			}
			checkDetail("conversion", c.Detail)
		}
		if a, ok := ParseAPIServiceFailure(text); ok {
			if a.APIService == "" || !strings.Contains(text, a.APIService) || (a.Source != "openapi" && a.Source != "availability") {
				t.Fatalf("apiservice %+v", a)
			}
			checkDetail("apiservice", a.Detail)
		}
		if ns, name, ok := ParseErrorResolving(text); ok {
			if ns == "" || name == "" || !strings.Contains(text, ns+"/"+name) {
				t.Fatalf("error resolving %q %q", ns, name)
			}
		}
		if s, ok := ParseCalledService(text); ok {
			if s.Name == "" || s.Namespace == "" || !strings.Contains(text, s.Name+"."+s.Namespace+".svc") {
				t.Fatalf("called service %+v", s)
			}
		}
		if c := ClassifyError(text); c.Code == "" || (c.Code != "unknown" && c.Meaning == "") {
			t.Fatalf("class %+v", c)
		}
		_ = GroupOf(text)
		_ = WellKnownGroupOwner(text)
		_ = SortedUnique(strings.Fields(text))
	})
}

// FuzzParseNewMessages covers the parsers added with the message catalogue: every
// name returned is quoted from the text and valid for its slot, details are bounded,
// valid UTF-8 in gives valid UTF-8 out, and nothing is found without the message's
// fixed phrase. Seeds are the catalogue's examples.
func isGroupName(s string) bool { return len(validation.IsDNS1123Subdomain(s)) == 0 }

func FuzzParseNewMessages(f *testing.F) {
	if c, err := Catalog(); err == nil {
		for _, m := range c.Messages {
			for _, fm := range m.Forms {
				f.Add(fm.Example)
			}
		}
	}
	addSeeds(f,
		"unexpected items still remain in namespace: demo for gvr: { v1 pods}",
		"unexpected items still remain in namespace: demo for gvr: example.com/v1, Resource=widgets",
		`"Deletion of namespace failed" err="\xff" namespace="a"`,
		`err="couldn't get resource list for v1: \"x`,
		`k="abc\"def" z`,
		"failed to delete pods for namespace: a, err: ",
		"module.cluster.kubernetes_namespace.gibson: Still destroying... [id=gibson, 04m50s elapsed]")
	f.Fuzz(func(t *testing.T, text string) {
		valid := utf8.ValidString(text)
		// quoted: v is in the text as is, or is the unquoted value of the text's key=
		// (klog quotes values, so namespace="\x7a\x7a" names namespace zz, a seed)
		quoted := func(key, v string) bool {
			fv, ok := fieldValue(text, key)
			return strings.Contains(text, v) || ok && fv == v
		}
		utf := func(what, s string) {
			if valid && !utf8.ValidString(s) {
				t.Fatalf("%s: invalid UTF-8 %q from valid input", what, s)
			}
		}
		if ns, d, ok := ParseTerraformNamespaceWait(text); ok && (!IsNamespaceName(ns) || d < 0 || !strings.Contains(text, "[id="+ns+", ")) {
			t.Fatalf("terraform wait %q %v not from the text", ns, d)
		}
		if r, ok := ParseNewFinalizersForbidden(text); ok {
			if !strings.Contains(text, NewFinalizersForbidden) || !strings.Contains(text, r.Finalizers) ||
				r.Name != "" && !strings.Contains(text, `"`+r.Name) || (r.Kind == "") != (r.Name == "") {
				t.Fatalf("finalizers refusal %+v not from the text", r)
			}
			utf("finalizers refusal", r.Finalizers)
		}
		if g, ok := ParseGVR(text); ok {
			if !strings.Contains(text, g.Resource) || !strings.Contains(text, g.Version) || !strings.Contains(text, g.Group) || g.Group != "" && !isGroupName(g.Group) {
				t.Fatalf("ParseGVR %+v", g)
			}
		}
		if ns, gvr, ok := ParseContentStillRemains(text); ok {
			if !IsNamespaceName(ns) || !strings.Contains(text, "unexpected items still remain in namespace: "+ns+" for gvr: ") || !strings.Contains(text, gvr.Resource) {
				t.Fatalf("ParseContentStillRemains %q %+v", ns, gvr)
			}
		}
		if m, ok := ParseMemcacheFailure(text); ok {
			structured := strings.Contains(text, MemcacheStructured) && strings.Contains(text, m.GroupVersion)
			if !structured && !strings.Contains(text, "couldn't get resource list for "+m.GroupVersion+": ") || m.Err == "" || len(m.Err) > 300+len("…") {
				t.Fatalf("ParseMemcacheFailure %+v", m)
			}
			utf("memcache", m.Err)
		}
		if g, ok := ParseFeatureGateRefusal(text); ok {
			if g.Gate == "" || !strings.Contains(text, g.Text) || !strings.Contains(g.Text, g.Gate) || !strings.Contains(text, "feature gate") {
				t.Fatalf("ParseFeatureGateRefusal %+v", g)
			}
		}
		if w, ok := ParseCRDWaiting(text); ok {
			// a plural is a DNS-1123 label (what IsNamespaceName checks), a group a subdomain
			if !IsNamespaceName(w.Resource) || !isGroupName(w.Group) || w.Count < 0 || !quoted("resource", w.Resource) || !quoted("group", w.Group) || !strings.Contains(strings.ToLower(text), "waiting for") {
				t.Fatalf("ParseCRDWaiting %+v", w)
			}
			utf("crd waiting", w.Resource+w.Group)
		}
		if v, ok := IsCRDTerminatingRefusal(text); ok {
			if !strings.Contains(text, v+" "+CRDTerminatingRefusal) && !strings.Contains(text, v+CRDTerminatingRefusal) {
				t.Fatalf("IsCRDTerminatingRefusal %q", v)
			}
		}
		if ns, e, ok := ParseOrderedDeletionFailure(text); ok {
			if !IsNamespaceName(ns) || !strings.Contains(text, "failed to delete pods for namespace: "+ns+", err: ") {
				t.Fatalf("ParseOrderedDeletionFailure %q", ns)
			}
			utf("ordered", e)
		}
		if ns, ok := ParsePodsStillRemain(text); ok {
			if !strings.Contains(text, podsStillRemain) || ns != "" && !quoted("namespace", ns) {
				t.Fatalf("ParsePodsStillRemain %q", ns)
			}
		}
		if ns, e, ok := ParseNamespaceDeletionFailure(text); ok {
			if !IsNamespaceName(ns) || !quoted("namespace", ns) || !strings.Contains(strings.ToLower(text), "eletion of namespace") {
				t.Fatalf("ParseNamespaceDeletionFailure %q %q", ns, e)
			}
			utf("deletion", e)
		}
		if ns, ok := ParseNamespaceDeleted(text); ok {
			if !IsNamespaceName(ns) || !quoted("namespace", ns) || !strings.Contains(text, "Namespace has been deleted") {
				t.Fatalf("ParseNamespaceDeleted %q", ns)
			}
		}
		if m, ok := ParseMetricsAPIFailure(text); ok {
			if m.Group != "" && !strings.Contains(text, m.Group) && metricsAPIGroups[m.API] != m.Group || len(m.Detail) > 300+len("…") {
				t.Fatalf("ParseMetricsAPIFailure %+v", m)
			}
			utf("metrics", m.Detail)
		}
		if a, ok := ParseAPIServiceAvailabilityChange(text); ok {
			if a.APIService == "" || len(a.Message) > 300+len("…") {
				t.Fatalf("ParseAPIServiceAvailabilityChange %+v", a)
			}
			utf("availability", a.Message)
		}
		if v, ok := fieldValue(text, "err"); ok {
			utf("fieldValue", v)
		}
		for i := 0; i <= len(text); i += 1 + len(text)/8 {
			if i == len(text) || utf8.RuneStart(text[i]) { // callers cut at ASCII matches
				utf("quotedTail", quotedTail(text, i))
			}
		}
	})
}

// FuzzParseDenials: admission denials and request-log lines: no panic, every name found
// is a DNS subdomain of the text, every request-log namespace a namespace name of its URI.
func FuzzParseDenials(f *testing.F) {
	addSeeds(f,
		`admission webhook "validation.gatekeeper.sh" denied the request: [denied by ns-must-have-gk] you must provide labels`,
		"admission webhook \"validate.kyverno.svc\" denied the request: \n\nresource Pod/a/b was blocked due to the following policies\n\np:\n  r: m",
		`admission webhook "clusterwide-x.kubewarden.admission" denied the request without explanation`,
		`rejected by webhook "a.b": &errors.StatusError{}`,
		`"HTTP" verb="DELETE" URI="/api/v1/namespaces/a/pods" userAgent="x/namespace-controller" resp=403`,
		`DELETE /apis/a/v1/namespaces/b/c: (1ms) 422 [x namespace-controller 1.2.3.4:5]`,
		`[denied by `, `"HTTP" verb="`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, d := range ParseAdmissionDenials(text) {
			if d.Webhook != "" && !strings.Contains(text, d.Webhook) {
				t.Fatalf("webhook %q not in the text", d.Webhook)
			}
			if d.Policy != "" && !strings.Contains(text, d.Policy) {
				t.Fatalf("policy %q not in the text", d.Policy)
			}
			_ = d.Named()
		}
		if r, ok := ParseRequestLog(text); ok {
			// The namespace is read from the URI, which is in the text as is (printf) or
			// quoted (URI="..."): its unquoted value may spell the name with escapes
			// (`\x7a\x7a` for "zz", a seed), so the name is in the URI, and the URI is the
			// text's or its URI field's value.
			uri, _ := fieldValue(text, "URI")
			if r.Namespace != "" && (!IsNamespaceName(r.Namespace) || !strings.Contains(r.URI, "/namespaces/"+r.Namespace+"/") ||
				!strings.Contains(text, r.URI) && r.URI != uri) {
				t.Fatalf("namespace %q of URI %q", r.Namespace, r.URI)
			}
			_ = r.NamespaceControllerDenied()
		}
	})
}
