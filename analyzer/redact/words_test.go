package redact

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// redactText learns and redacts one free text, as the report's fields are.
func redactText(s string) string {
	r := New()
	r.Text(s)
	return r.String(s)
}

// TestRedactByWhatAValueIs: every kind of identifier, in the spellings bundles carry it,
// is tokenised whatever list it would be missing from; public vocabulary stays.
func TestRedactByWhatAValueIs(t *testing.T) {
	for _, c := range []struct{ in, gone, kept string }{
		{"dial tcp 10.244.1.7:4443: i/o timeout", "10.244.1.7", "dial tcp ip-1:4443: i/o timeout"},
		{"route fd12:3456:789a:: unreachable", "fd12:3456:789a::", "route ip-1 unreachable"},
		{"peer [2001:db8:85a3::8a2e:370:7334]:443 refused", "2001:db8", "peer [ip-1]:443 refused"},
		{"via ::ffff:10.1.2.3 and fe80::1%eth0", "10.1.2.3", ""},
		{"node ip-10-213-47-93.eu-west-1.compute.internal is NotReady", "10-213-47-93", "node host-1 is NotReady"},
		{"node ip-10-213-47-93 is NotReady", "10-213-47-93", "node host-1 is NotReady"},
		{"Get https://portal.acmecorp-zz.xyz/x: EOF", "acmecorp", ""},
		{"ssh to bastion01.corp.acmecorp-zz.xyz failed", "bastion01", "ssh to host-1 failed"},
		{"widgets.acme-corp.io/v1 is stale", "acme-corp", "widgets.domain-1/v1 is stale"},
		{"dial tcp: lookup vaultbox on 10.96.0.10:53: no such host", "vaultbox", ""},
		{"Get https://buildhost:8443/healthz", "buildhost", ""},
		{"flags --cluster-name=zetaprod --v=2", "zetaprod", ""},
		{`"cluster-name":"zetaprod"`, "zetaprod", ""},
		{"project=zetaproject account: acmeco", "zetaproject", ""},
		{"reading eks-123456789012-zeta/kube-controller-manager.log", "123456789012", ""},
		{"owner 210987654321 said no", "210987654321", "owner account-1 said no"},
		{"service zeta-hidden-api not found", "zeta-hidden-api", "service name-1 not found"},
		{"namespace t\u043ebedeleted", "t\u043ebedeleted", "namespace name-1"},
		{"jane.doe@acmecorp-zz.xyz and deploy@bastion", "jane.doe", "email-2 and email-1"},
		{"arn:aws:iam::123456789012:role/deployer denied", "123456789012", "arn-1 denied"},
		// kept: Kubernetes' words, times, versions, durations, klog headers, public domains
		{`E0312 09:20:05.120044 1 namespace_controller.go:157] "Unhandled Error" err="v1beta1.metrics.k8s.io: stale GroupVersion discovery" logger="UnhandledError"`, "",
			`E0312 09:20:05.120044 1 namespace_controller.go:157] "Unhandled Error" err="v1beta1.metrics.k8s.io: stale GroupVersion discovery" logger="UnhandledError"`},
		{"2026-11-29T22:26:04Z kube-apiserver v1.34.4 after 1m45s, 503 x509 fail-closed kubernetes.io/pvc-protection", "",
			"2026-11-29T22:26:04Z kube-apiserver v1.34.4 after 1m45s, 503 x509 fail-closed kubernetes.io/pvc-protection"},
		{"https://metrics-server.kube-system.svc:443/apis 127.0.0.1 ::1", "", "https://metrics-server.kube-system.svc:443/apis 127.0.0.1 ::1"},
	} {
		got := redactText(c.in)
		if c.gone != "" && strings.Contains(strings.ToLower(got), strings.ToLower(c.gone)) {
			t.Errorf("%q: %q survives in %q", c.in, c.gone, got)
		}
		if c.kept != "" && got != c.kept {
			t.Errorf("%q\n got  %q\n want %q", c.in, got, c.kept)
		}
	}
}

// TestSecretsRemoved: secrets go whatever --redact says, keeping what they were.
func TestSecretsRemoved(t *testing.T) {
	for _, c := range []struct{ in, gone, want string }{
		{"Authorization: Bearer abcdef0123456789abcdef", "abcdef0123", "Authorization: Bearer " + Removed},
		{"token eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2ln", "eyJhbGci", "token " + Removed},
		{"login password=Hunter2! ok", "Hunter2", "login password=" + Removed + " ok"},
		{`{"password":"Hunter2"}`, "Hunter2", `{"password":"` + Removed + `"}`},
		{"client-key-data: LS0tLS1CRUdJTiBSU0E=", "LS0tLS1", "client-key-data: " + Removed},
		{"key ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAB user@host", "AAAAB3Nza", "key ssh-rsa " + Removed + " user@host"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "MIIEow", Removed},
		{"aws AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7", "aws " + Removed},
		{"blob QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w1234", "QUJDREVG", "blob " + Removed},
		// not secrets: hashes, UIDs, image digests, words
		{"image@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "", "image@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{"the token was rejected", "", "the token was rejected"},
	} {
		got := Secrets(c.in)
		if c.gone != "" && strings.Contains(got, c.gone) {
			t.Errorf("%q: %q survives in %q", c.in, c.gone, got)
		}
		if got != c.want {
			t.Errorf("%q\n got  %q\n want %q", c.in, got, c.want)
		}
	}
}

// TestSummaryCutAfterRedaction: the one-line summary is written from the redacted root,
// so its cut falls on tokens: no half of a name survives.
func TestSummaryCutAfterRedaction(t *testing.T) {
	node := "ip-10-20-9-99.eu-west-1.compute.internal"
	var r *findings.Report
	for n := 0; n < 300; n++ { // the root whose summary is cut inside the node name
		root := "Pods acme-shop app=web: " + strings.Repeat("x", n) + " on node " + node + ", not Ready; this blocks the namespace controller"
		r = &findings.Report{Namespaces: []findings.NamespaceReport{{Name: "acme-shop"}},
			Problems: []findings.Problem{{ID: "P1", Root: root}}}
		analyzer.Summarize(r)
		if strings.Contains(r.Summary, "ip-10") && !strings.Contains(r.Summary, node) || n == 110 {
			break
		}
	}
	// the analyzer now cuts the summary at a word; whatever the cut, the redacted
	// summary is written again from the redacted root
	if !strings.Contains(r.Summary, "acme-shop") || !strings.Contains(r.Summary, "…") {
		t.Fatalf("the test's summary is not cut or does not name the namespace: %s", r.Summary)
	}
	rd := New()
	rd.Report(r)
	red := rd.Apply(r)
	for _, leak := range []string{"ip-10", "10-20-9", "acme-shop", "eu-west-1.compute"} {
		if strings.Contains(red.Summary, leak) {
			t.Errorf("%q survives in the redacted summary %q", leak, red.Summary)
		}
	}
}

// TestRedactLinear: redacting n and 2n values costs work in proportion (the learned
// values are looked up by word, never matched one by one against each string).
func TestRedactLinear(t *testing.T) {
	work := func(n int) int {
		r := New()
		var texts []string
		for i := 0; i < n; i++ {
			name := "tenant-" + strings.Repeat("q", i%7+1) + "-" + string(rune('a'+i%26)) + "x" + itoa(i)
			r.Names("ns", name)
			texts = append(texts, "deletion of namespace "+name+" failed: content remains on 10.0."+itoa(i%250)+".1")
		}
		for _, s := range texts {
			r.Text(s)
		}
		calls := 0
		for _, s := range texts {
			calls += len(strings.Fields(r.String(s)))
		}
		return calls + len(r.Tokens())
	}
	a, b := work(2000), work(4000)
	if b > 2*a+100 {
		t.Errorf("work %d for n, %d for 2n", a, b)
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
		if i == 0 {
			return string(b)
		}
	}
}

// FuzzRedactString: on any text the redactor never panics, removes every secret it
// finds, and an address or UID it learned never survives its own rewriting.
func FuzzRedactString(f *testing.F) {
	for _, s := range []string{"dial tcp 10.244.1.7:4443: i/o timeout", "fd12::1 bastion01.corp.acme.xyz", "password=x Bearer abcdefghijklmnop",
		"t\u043ebedeleted team\xffa", "a…", "ip-10-1-2-3.ec2.internal:443", "projects/acme-prod-4711/zones/x/instances/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := New()
		r.Text(s)
		out := r.String(s)
		if Secrets(out) != out {
			t.Fatalf("a secret survives: %q -> %q", s, out)
		}
		for orig, tok := range r.Tokens() {
			if k := r.kinds[orig]; k != "uid" && k != "email" && k != "arn" {
				continue
			}
			for off := 0; ; {
				i := strings.Index(out[off:], orig)
				if i < 0 {
					break
				}
				start, end := off+i, off+i+len(orig)
				if (start == 0 || !isWordRune(rune(out[start-1]))) && (end == len(out) || !isWordRune(rune(out[end]))) {
					t.Fatalf("%q (%s) survives: %q", orig, tok, out)
				}
				off = start + 1
			}
		}
	})
}

// TestRedactFileNames: a file or folder named after the customer is rewritten wherever
// its path is printed, with the same token for the same word in every path, while the
// layouts' own words, resource names and DNS-like names keep their usual treatment and a
// common word that a path also holds stays a word in messages.
func TestRedactFileNames(t *testing.T) {
	r := New()
	r.Names("ns", "tobedeleted")
	for _, f := range []string{"cluster/globex.json", "namespaces/tobedeleted/initech.json", "logs/globex/kube-controller-manager.log",
		"cluster/conditions.txt", "namespaces/kubevirt/kubevirts.kubevirt.io.json"} {
		r.File(f)
	}
	got := r.String("cluster/globex.json:12 namespaces/tobedeleted/initech.json:3 logs/globex/kube-controller-manager.log:9 cluster/conditions.txt:1; the conditions say so")
	for _, leak := range []string{"globex", "initech", "tobedeleted"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q survives: %s", leak, got)
		}
	}
	for _, keep := range []string{"cluster/file-", "namespaces/ns-1/file-", "logs/file-", "kube-controller-manager.log:9", "the conditions say so"} {
		if !strings.Contains(got, keep) {
			t.Errorf("%q is missing: %s", keep, got)
		}
	}
	// one word, one token, in every path
	a := strings.SplitN(strings.TrimPrefix(got, "cluster/"), ".json", 2)[0]
	if !strings.Contains(got, "logs/"+a+"/") {
		t.Errorf("globex has two tokens: %s", got)
	}
}
