package redact

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// formatBundles are the fixtures whose reports are pinned by render's goldens.
var formatBundles = []string{
	"realdata/a-discovery-failure",
	"realdata/b-finalizer-remaining",
	"realdata/c-webhook-content-failure",
	"handmade/metrics-server-unreachable-route",
	"handmade/operator-deleted-before-cr",
	"realworld/calico-apiserver-projectcalico-v3-discovery",
}

func causeTypes(ns findings.NamespaceReport) []string {
	var types []string
	for _, c := range ns.Causes {
		types = append(types, c.Type)
	}
	return types
}

func fixtureRecords(t *testing.T, rel string) (*bundle.Records, *findings.Report) {
	t.Helper()
	dir := filepath.Join("..", "..", "fixtures", filepath.FromSlash(rel))
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("committed fixture %s missing: %v", dir, err)
	}
	rec, err := bundle.Load(dir, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject,
		Exclude: []string{"raw", "expected.json", "README.md"}})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	rec.Path = rel
	return rec, analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
}

var ipv4 = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b`)

// TestRedact checks, on every golden fixture and in every format, that --redact leaves
// no original customer name or IP address (outside API group names and well-known
// finalizers, which it must keep), that it keeps the well-known names, and that the
// findings are the same: cause types and confidence, chain and evidence sizes,
// remediation risks, timeline.
func TestRedact(t *testing.T) {
	for _, b := range formatBundles {
		t.Run(b, func(t *testing.T) {
			rec, r := fixtureRecords(t, b)
			red, rd := Report(r, rec)
			tokens := rd.Tokens()
			if len(tokens) == 0 {
				t.Fatal("nothing was redacted")
			}
			// the same report redacted twice gives the same tokens
			red2, _ := Report(r, rec)
			var j1, j2 bytes.Buffer
			_ = render.JSON(&j1, red)
			_ = render.JSON(&j2, red2)
			if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
				t.Error("redaction is not deterministic")
			}
			// the namespaces themselves are redacted unless well known
			for i, ns := range r.Namespaces {
				if tok, ok := tokens[ns.Name]; ok && red.Namespaces[i].Name != tok {
					t.Errorf("namespace %s redacted as %s, want %s", ns.Name, red.Namespaces[i].Name, tok)
				}
			}
			// originals: every token's value, and the report's IP addresses
			var orig bytes.Buffer
			for _, f := range render.Formats {
				_ = render.RenderWith(&orig, r, f, render.Options{})
			}
			ips := map[string]bool{}
			for _, ip := range ipv4.FindAllString(orig.String(), -1) {
				if ip != "127.0.0.1" && ip != "0.0.0.0" {
					ips[ip] = true
				}
			}
			for _, f := range render.Formats {
				var buf bytes.Buffer
				if err := render.RenderWith(&buf, red, f, render.Options{}); err != nil {
					t.Fatal(err)
				}
				out := buf.String()
				for o := range tokens {
					if at := survivor(out, o, nil); at >= 0 {
						t.Errorf("%s: %q survives redaction: …%s…", f, o, out[max(0, at-60):min(len(out), at+len(o)+60)])
					}
				}
				for ip := range ips {
					if strings.Contains(out, ip) {
						t.Errorf("%s: IP %s survives redaction", f, ip)
					}
				}
				if strings.Contains(out, "realdata/") || strings.Contains(out, "handmade/") {
					t.Errorf("%s: the bundle path survives redaction", f)
				}
			}
			// kept: API groups and well-known system names
			for _, ns := range red.Namespaces {
				for _, c := range ns.Causes {
					for _, gv := range c.GroupVersions {
						if !strings.Contains(j1.String(), gv) {
							t.Errorf("group/version %s was altered", gv)
						}
					}
				}
			}
			// same findings
			if len(red.Namespaces) != len(r.Namespaces) || len(red.Risks) != len(r.Risks) || len(red.Coverage) != len(r.Coverage) {
				t.Fatalf("redaction changed the number of namespaces, risks or gaps")
			}
			for i, ns := range r.Namespaces {
				rn := red.Namespaces[i]
				if strings.Join(causeTypes(ns), ",") != strings.Join(causeTypes(rn), ",") {
					t.Errorf("causes changed: %v -> %v", causeTypes(ns), causeTypes(rn))
				}
				for j, c := range ns.Causes {
					rc := rn.Causes[j]
					if c.Confidence != rc.Confidence || len(c.Chain) != len(rc.Chain) || len(c.Evidence) != len(rc.Evidence) ||
						c.Occurrences != rc.Occurrences || c.SeenBeforeDeletion != rc.SeenBeforeDeletion {
						t.Errorf("cause %s changed by redaction", c.Type)
					}
					for k, gv := range c.GroupVersions {
						if rc.GroupVersions[k] != gv {
							t.Errorf("group/version %s redacted to %s", gv, rc.GroupVersions[k])
						}
					}
					for k, a := range c.APIServices {
						if rc.APIServices[k] != a {
							t.Errorf("APIService %s redacted to %s", a, rc.APIServices[k])
						}
					}
					for k, f := range c.Finalizers {
						if WellKnownFinalizer(f) && rc.Finalizers[k] != f {
							t.Errorf("well-known finalizer %s redacted to %s", f, rc.Finalizers[k])
						}
					}
				}
				if len(ns.Remediation) != len(rn.Remediation) || len(ns.Timeline) != len(rn.Timeline) || len(ns.RuledOut) != len(rn.RuledOut) {
					t.Errorf("remediation, timeline or ruled-out changed by redaction")
				}
				for k, s := range ns.Remediation {
					if s.Risk != rn.Remediation[k].Risk {
						t.Errorf("remediation step %d risk changed", k)
					}
				}
				for _, kept := range []string{"kube-system", "metrics-server", "kubernetes"} {
					if strings.Contains(orig.String(), kept) && !strings.Contains(j1.String(), kept) {
						t.Errorf("well-known name %s was redacted", kept)
					}
				}
			}
		})
	}
}

// survivor returns the offset of o standing as a whole name in s, outside the protected
// strings, or -1.
func survivor(s, o string, protected []string) int {
	isID := func(b byte) bool {
		return b == '-' || b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for off := 0; ; {
		i := strings.Index(s[off:], o)
		if i < 0 {
			return -1
		}
		start, end := off+i, off+i+len(o)
		off = start + 1
		if start > 0 && isID(s[start-1]) || end < len(s) && isID(s[end]) {
			continue
		}
		inside := false
		for _, p := range protected {
			if len(p) <= len(o) {
				continue
			}
			for ps := max(0, end-len(p)); ps <= start && ps+len(p) <= len(s); ps++ {
				if s[ps:ps+len(p)] == p {
					inside = true
					break
				}
			}
		}
		if !inside {
			return start
		}
	}
}
