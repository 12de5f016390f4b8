// Package redact removes secrets from reports and, for --redact, replaces every value
// that comes from the bundle and is not public vocabulary with a stable token, so a
// report can be attached to a public ticket. The command uses it (the analysis never
// does): the report's typed fields (namespaces, object and node names, the Services
// APIServices and webhooks point at, webhooks, finalizers, file paths, the bundle's own
// path) are learned from the records, and the free text of messages and log lines is
// read word by word, each word tokenised by what it is:
//
//   - IPv4 and IPv6 addresses in every spelling (with ports, brackets, zones, "::"
//     endings) become ip-N, UIDs uid-N, e-mail addresses and user@host email-N;
//   - a DNS name under any top-level domain that is not a public one (Kubernetes',
//     the finalizer catalog's projects', well-known API groups, public registries and
//     clouds) gives its registrable domain domain-N and keeps its structure when the
//     rest is public (crontabs.acme-corp.io -> crontabs.domain-1), else host-N;
//   - AWS node names that embed an address (ip-10-1-2-3...), words where a host
//     stands (after "://", "@", "lookup ", before ":<port>") and the values of
//     identifying keys (cluster-name=, host=, project=, ...) become host-N or name-N;
//   - a word with a digit, a hyphen, an underscore, a dot or a character outside
//     ASCII that is not public vocabulary (vocab.txt, Kubernetes' message templates,
//     numbers, versions, times and durations) becomes name-N;
//   - AWS ARNs, account ids, AWS and Alibaba resource ids, GCP projects and resource
//     names, Azure subscriptions, resource groups and resource names keep their
//     categories (arn-N, account-N, cloudid-N, project-N, subscription-N, rg-N, cloud-N).
//
// Plain words of letters only are kept unless the bundle names something so (they are
// what messages are made of). The same value always gets the same token, in every
// field and format, in diff and on stderr. Secrets (bearer tokens, JWTs, passwords,
// key material, kubeconfig data) are removed outright by Secrets, with or without
// --redact. Values a bundle was already redacted with (***HIDDEN***) stay.
package redact

import (
	"fmt"
	"net/netip"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/resources"
	"github.com/nsanalyze/nsanalyze/parsers/strwalk"
)

// Redactor learns the values to tokenise (Records, Names, Report, Text), then, once
// sealed by the first Apply or String, replaces them. It is not safe for concurrent use.
type Redactor struct {
	kinds  map[string]string // original -> category
	tokens map[string]string // original -> token
	count  map[string]int    // tokens given per category
	sorted []string          // the learned values, sorted (prefixOf)
	sealed bool
	// paths are the bundle paths learned (File); pathRepl rewrites each, where it is
	// printed whole, with its customer words as file-N (sealPaths)
	paths    map[string]bool
	pathRepl *strings.Replacer
}

// New returns an empty Redactor.
func New() *Redactor {
	return &Redactor{kinds: map[string]string{}, tokens: map[string]string{}, count: map[string]int{}}
}

// Tokens returns the mapping applied (original -> token); it seals the Redactor.
func (r *Redactor) Tokens() map[string]string {
	r.seal()
	return r.tokens
}

// categoryRank orders the categories, most specific first: a value learned as two
// gets the first (a webhook named like a host is a webhook).
var categoryRank = map[string]int{"arn": 0, "email": 1, "uid": 2, "subscription": 3, "account": 4, "project": 5, "rg": 6,
	"cloudid": 7, "bundle": 8, "cluster": 9, "webhook": 10, "finalizer": 11, "ns": 12, "node": 13, "domain": 14, "ip": 15,
	"host": 16, "name": 17, "cloud": 18, "file": 19}

// add learns s as a value of the category kind; a value keeps its most specific kind.
func (r *Redactor) add(s, kind string) {
	if r.sealed || s == "" || IsRedactedValue(s) || isToken(s) {
		return
	}
	switch kind {
	case "ns", "name", "node", "webhook":
		if wellKnownName(s) || len(s) < 3 && !hasNonASCII(s) {
			return
		}
	case "cloud", "rg":
		if commonWords[strings.ToLower(s)] || len(s) < 3 {
			return
		}
	}
	if prev, ok := r.kinds[s]; ok && categoryRank[prev] <= categoryRank[kind] {
		return
	}
	r.kinds[s] = kind
}

// Names learns values of one category ("ns", "name", "host", ...): names the user
// gave (-n), names from another source.
func (r *Redactor) Names(kind string, values ...string) {
	for _, v := range values {
		r.add(v, kind)
	}
}

// Paths learns the bundle paths as given on the command line: the whole path, its
// base name and every directory name that is not public vocabulary.
func (r *Redactor) Paths(paths ...string) {
	for _, p := range paths {
		if p == "" || p == "-" {
			continue
		}
		r.add(p, "bundle")
		if abs, err := filepath.Abs(p); err == nil {
			r.add(abs, "bundle")
		}
		for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
			if seg != "" && seg != "." && seg != ".." && !inVocab(seg) && !commonWords[seg] {
				r.add(seg, "bundle")
			}
		}
	}
}

// Records learns the typed names of a bundle's records: namespaces, object and node
// names, the Services APIServices, webhooks and CRD conversions point at (dumped or
// not), webhook names, unknown finalizers, owner references, the bundles' names and
// wrapping directories, and the values of the identifying keys in file names.
func (r *Redactor) Records(rec *bundle.Records) {
	if rec == nil {
		return
	}
	ref := func(s *objects.ServiceReference) {
		if s != nil {
			r.add(s.Namespace, "ns")
			r.add(s.Name, "name")
		}
	}
	rec.EachObjectHead(func(o *objects.Object) {
		switch o.Kind {
		case "APIService", "CustomResourceDefinition", "Event":
			// APIService and CRD names are API group names; events are named after their object
		case "Namespace":
			r.add(o.Name, "ns")
		default:
			r.add(o.Name, "name")
		}
		r.add(o.Namespace, "ns")
		// UIDs are not taken from the records: Kubernetes makes every UID a UUID, which the
		// text pass tokenises by shape (uidRE), and pods kept slim carry none (the tokens
		// must not depend on how pods were kept)
		for _, f := range append(append([]string{}, o.Finalizers...), o.SpecFinalizers...) {
			if !WellKnownFinalizer(f) {
				r.add(f, "finalizer")
			}
		}
		if o.Kind != "Pod" { // a pod's owners (ReplicaSets, Jobs) are objects of their own, and pods kept slim carry no owners
			for _, ow := range o.OwnerReferences {
				r.add(ow.Name, "name")
			}
		}
		if o.Pod != nil {
			r.add(o.Pod.NodeName, "node")
		}
		if o.APIService != nil {
			ref(o.APIService.Service)
		}
		for _, w := range o.Webhooks {
			r.add(w.Name, "webhook")
			ref(w.Service)
		}
		if o.CRD != nil {
			ref(o.CRD.ConversionService)
		}
	})
	for _, b := range rec.Bundles {
		r.Paths(b.Path)
		if b.Root != "" {
			r.add(b.Root, "bundle")
		}
		if b.Label != "" {
			r.add(b.Label, "bundle")
		}
	}
	for _, f := range rec.Files {
		r.File(f)
	}
	for _, w := range rec.Warnings {
		r.File(w.File)
		r.learn(w.Message)
	}
}

// File learns a bundle path (a file cited as evidence, a warning's file): its words by
// what they are, as any text, and the path itself: where it is printed whole, every
// plain word of letters in it that is not public vocabulary (Kubernetes' words,
// resource names, the layouts' file and folder names) becomes file-N. A file or folder
// named after the customer (cluster/globex.json, initech/kcm.log) says who the customer
// is, where the same word in a message is only a word, so only paths are rewritten so.
func (r *Redactor) File(path string) {
	if path == "" || path == "-" || r.sealed {
		return
	}
	r.learn(path)
	if r.paths == nil {
		r.paths = map[string]bool{}
	}
	r.paths[path] = true
}

// pathWords returns the words of a path that name someone (see File): the plain words
// of each dotless segment once its file extensions are cut.
func pathWordsOf(path string) []string {
	var out []string
	for _, seg := range strings.Split(filepath.ToSlash(path), "/") {
		for {
			i := strings.LastIndexByte(seg, '.')
			if i <= 0 || !fileExt[strings.ToLower(seg[i+1:])] {
				break
			}
			seg = seg[:i]
		}
		if strings.Contains(seg, ".") {
			continue // resource.group, a host: a DNS name, which learn judged as one
		}
		for _, w := range strings.FieldsFunc(seg, func(c rune) bool { return !unicode.IsLetter(c) }) {
			if !publicPathWord(w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// sealPaths builds the rewriting of the learned paths (longest first, so a path is
// never cut by a shorter one it holds), with the file-N tokens given in sorted order.
func (r *Redactor) sealPaths() {
	paths := make([]string, 0, len(r.paths))
	for p := range r.paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	words := map[string]bool{}
	for _, p := range paths {
		for _, w := range pathWordsOf(p) {
			words[w] = true
		}
	}
	ws := make([]string, 0, len(words))
	for w := range words {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	// a word of a path keeps the token it has as a learned value (a namespace's
	// directory is its ns-N); the others get file-N, used in paths only (never in r.tokens:
	// "cloud" or "conditions" in a message stays a word)
	tok := make(map[string]string, len(ws))
	for _, w := range ws {
		if t, ok := r.tokens[w]; ok {
			tok[w] = t
		} else {
			r.count["file"]++
			tok[w] = fmt.Sprintf("file-%d", r.count["file"])
		}
	}
	sort.SliceStable(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	var pairs []string
	for _, p := range paths {
		ws := pathWordsOf(p)
		if len(ws) == 0 {
			continue
		}
		q := p
		for _, w := range ws {
			q = replaceWord(q, w, tok[w])
		}
		pairs = append(pairs, p, q)
	}
	if len(pairs) > 0 {
		r.pathRepl = strings.NewReplacer(pairs...)
	}
}

// replaceWord replaces w in s where it stands as a whole run of letters.
func replaceWord(s, w, by string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, w)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		whole := (i == 0 || !unicode.IsLetter(before)) && (end == len(s) || !unicode.IsLetter(after))
		b.WriteString(s[:i])
		if whole {
			b.WriteString(by)
		} else {
			b.WriteString(w)
		}
		s = s[end:]
	}
}

// publicPathWord: a word of a path that names no one: public vocabulary, a common
// word, a resource name Kubernetes knows, or a file extension.
func publicPathWord(w string) bool {
	if len(w) <= 2 || inVocab(w) || commonPublic(w) || fileExt[strings.ToLower(w)] || pathWords[strings.ToLower(w)] {
		return true
	}
	_, ok := resources.Lookup(w)
	return ok
}

// Report learns the typed fields of a report (namespaces, objects, webhooks,
// finalizers) and then every word of its text.
func (r *Redactor) Report(rep *findings.Report) {
	for _, ns := range rep.Namespaces {
		r.add(ns.Name, "ns")
		for _, f := range append(append([]string{}, ns.MetadataFinalizers...), ns.SpecFinalizers...) {
			if !WellKnownFinalizer(f) {
				r.add(f, "finalizer")
			}
		}
		for _, c := range ns.Causes {
			for _, w := range c.Webhooks {
				r.add(w, "webhook")
			}
			for _, f := range c.Finalizers {
				if !WellKnownFinalizer(f) {
					r.add(f, "finalizer")
				}
			}
			for _, o := range c.Objects {
				r.add(o.Namespace, "ns")
				if o.Kind != "APIService" && o.Kind != "CustomResourceDefinition" {
					r.add(o.Name, "name")
				}
				for _, f := range o.Finalizers {
					if !WellKnownFinalizer(f) {
						r.add(f, "finalizer")
					}
				}
			}
		}
	}
	for _, p := range rep.Problems {
		for _, n := range p.Namespaces {
			r.add(n.Name, "ns")
		}
	}
	r.add(rep.Bundle.Path, "bundle")
	// fingerprints and known issues are public vocabulary and hashes (kept by Apply):
	// nothing is learned from them
	c := *withoutBookkeeping(rep)
	c.Problems = append([]findings.Problem(nil), rep.Problems...)
	for i := range c.Problems {
		c.Problems[i].Fingerprint, c.Problems[i].ReadableFingerprint, c.Problems[i].KnownIssues = "", "", nil
	}
	walkStrings(reflect.ValueOf(&c).Elem(), func(s string) string { r.learn(s); return s })
}

// withoutBookkeeping returns a copy of the report (its namespaces and causes copied,
// the rest shared) without what only the analysis reads of a cause: its own ladder,
// which its problem's remediation repeats, and what it claims. No report shows them,
// so nothing is learned from them and nothing in them is rewritten.
func withoutBookkeeping(rep *findings.Report) *findings.Report {
	c := *rep
	if rep.Namespaces == nil {
		return &c
	}
	c.Namespaces = make([]findings.NamespaceReport, len(rep.Namespaces))
	copy(c.Namespaces, rep.Namespaces)
	for i := range c.Namespaces {
		if c.Namespaces[i].Causes == nil {
			continue
		}
		causes := make([]findings.Cause, len(c.Namespaces[i].Causes))
		copy(causes, c.Namespaces[i].Causes)
		for j := range causes {
			causes[j].Ladder, causes[j].Claimed = nil, nil
		}
		c.Namespaces[i].Causes = causes
	}
	return &c
}

// Text learns the identifiers of free text (a warning printed on stderr).
func (r *Redactor) Text(s string) { r.learn(s) }

func (r *Redactor) learn(s string) {
	if !r.sealed && s != "" {
		r.rewrite(Secrets(s), true)
	}
}

// seal gives tokens in a deterministic order (category, then value), whatever order
// the values were learned in.
func (r *Redactor) seal() {
	if r.sealed {
		return
	}
	r.sealed = true
	all := make([]string, 0, len(r.kinds))
	for s := range r.kinds {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if r.kinds[a] != r.kinds[b] {
			return categoryRank[r.kinds[a]] < categoryRank[r.kinds[b]]
		}
		return a < b
	})
	for _, s := range all {
		r.give(s, r.kinds[s])
	}
	r.sorted = append(r.sorted[:0], all...)
	sort.Strings(r.sorted)
	r.sealPaths()
}

func (r *Redactor) give(s, kind string) string {
	r.count[kind]++
	t := fmt.Sprintf("%s-%d", kind, r.count[kind])
	r.tokens[s] = t
	return t
}

// token returns the token of s, giving one (the next of its category) to a value
// first seen after sealing: nothing that reads as an identifier is ever printed raw.
func (r *Redactor) token(s, kind string) string {
	if t, ok := r.tokens[s]; ok {
		return t
	}
	if kind == "" {
		return s
	}
	return r.give(s, kind)
}

// String returns s with its secrets removed and every learned value replaced.
func (r *Redactor) String(s string) string {
	r.seal()
	if s == "" {
		return s
	}
	clean := Secrets(s)
	if r.pathRepl != nil {
		clean = r.pathRepl.Replace(clean)
	}
	out := r.rewrite(clean, false)
	if out != clean {
		// a placeholder can make a short value look like a secret again ("Bearer
		// 000A+00" becomes "Bearer name-1+00", long enough for the token pattern):
		// removing secrets once more keeps the promise on what is printed
		out = Secrets(out)
	}
	return out
}

// Apply returns a redacted deep copy of the report: every string rewritten in place
// (the analyzer composes its sentences and cuts them at words, so a name in them is
// whole and becomes its token) and the bundle path hidden. It composes nothing: a
// summary or short form that a token made longer than its limit is fitted again at its
// separators (findings.FitText), never rewritten from the report's other fields.
func (r *Redactor) Apply(rep *findings.Report) *findings.Report {
	r.seal()
	cp := withoutBookkeeping(findings.CloneReport(rep))
	for i := range cp.Namespaces {
		for j := range cp.Namespaces[i].Causes {
			cp.Namespaces[i].Causes[j].Related = nil // the log lines behind the evidence: no report shows them
		}
	}
	// fingerprints hold only public vocabulary and hashed placeholders, and known issues
	// are the catalog's words: both are kept as they are, so a fingerprint reads the same
	// with and without --redact
	kept := make([]findings.Problem, len(cp.Problems))
	for i, p := range cp.Problems {
		kept[i] = findings.Problem{Fingerprint: p.Fingerprint, KnownIssues: p.KnownIssues}
		cp.Problems[i].Fingerprint, cp.Problems[i].KnownIssues = "", nil
		cp.Problems[i].ReadableFingerprint = "" // it holds the names: never past redaction
	}
	walkStrings(reflect.ValueOf(cp).Elem(), r.String)
	for i := range cp.Problems {
		cp.Problems[i].Fingerprint, cp.Problems[i].KnownIssues = kept[i].Fingerprint, kept[i].KnownIssues
	}
	cp.Bundle.Path = "(redacted)"
	if utf8.RuneCountInString(cp.Summary) > findings.MaxSummary {
		cp.Summary = findings.FitText(cp.Summary, findings.MaxSummary)
	}
	for i := range cp.Problems {
		if utf8.RuneCountInString(cp.Problems[i].Short) > findings.MaxShort {
			cp.Problems[i].Short = findings.FitText(cp.Problems[i].Short, findings.MaxShort)
		}
	}
	return cp
}

// Report redacts a report with what its records and itself name, and returns the
// redacted copy and the Redactor (whose String redacts diagnostics the same way).
func Report(rep *findings.Report, rec *bundle.Records) (*findings.Report, *Redactor) {
	r := New()
	r.Records(rec)
	r.Report(rep)
	return r.Apply(rep), r
}

// Scrub returns a copy of the report without secrets (no other change): what every
// report gets, with or without --redact.
func Scrub(rep *findings.Report) *findings.Report {
	// a read-only pass first: most reports hold no secret, and are not copied
	if !strwalk.Any(rep, func(s string) bool { return Secrets(s) != s }) {
		return rep
	}
	cp := withoutBookkeeping(findings.CloneReport(rep))
	kept := make([]findings.Problem, len(cp.Problems)) // the catalog's words, as in Apply
	for i, p := range cp.Problems {
		kept[i] = findings.Problem{Fingerprint: p.Fingerprint, KnownIssues: p.KnownIssues}
		cp.Problems[i].Fingerprint, cp.Problems[i].KnownIssues = "", nil
	}
	walkStrings(reflect.ValueOf(cp).Elem(), Secrets)
	for i := range cp.Problems {
		cp.Problems[i].Fingerprint, cp.Problems[i].KnownIssues = kept[i].Fingerprint, kept[i].KnownIssues
	}
	return cp
}

// ---- the word scanner ----

var (
	uidRE = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// ipv6Cand: a run of hex digits, colons and dots with at least two colons (every
	// spelling: full, "::" inside or at either end, embedded IPv4), possibly with a zone.
	ipv6Cand = regexp.MustCompile(`(?i)[0-9a-f:.]*:[0-9a-f.]*:[0-9a-f:.]*(?:%[0-9a-z_.-]+)?`)
	arnRE    = regexp.MustCompile(`\barn:aws(?:-cn|-us-gov)?:[A-Za-z0-9-]*:[A-Za-z0-9-]*:[0-9]*:[^\s"',;()\[\]{}<>]+`)
	awsIDRE  = regexp.MustCompile(`\b(?:vpc|subnet|rtb|sg|i|eni|vol|igw|nat|snap|ami|eipalloc|eipassoc|tgw|tgw-attach|pcx|acl|vpce|lt|fs|fsmt)-(?:[0-9a-f]{17}|[0-9a-f]{8})\b`)
	aliIDRE  = regexp.MustCompile(`\b(?:vpc|vsw|sg|i|eni|lb|alb|nlb|eip|d|nat|rtb|cr|ngw)-[a-z0-9]{2}[0-9][a-z0-9]{14,}\b`)
	gcpRE    = regexp.MustCompile(`\bprojects/([a-z][a-z0-9-]{4,28}[a-z0-9])((?:/[A-Za-z0-9._-]+)*)`)
	azureRE  = regexp.MustCompile(`(?i)/subscriptions/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})((?:/[A-Za-z0-9._()-]+)*)`)
	emailRE  = regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\b`)
	awsNode  = regexp.MustCompile(`(?i)\bip-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}\b`)
	tokenRE  = regexp.MustCompile(`^(?:arn|email|uid|subscription|account|project|rg|cloudid|bundle|cluster|domain|ip|host|webhook|finalizer|ns|node|name|cloud|file)-[0-9]+$`)
)

func isToken(s string) bool { return tokenRE.MatchString(s) }

// composite finds the values whose spelling spans word separators (addresses, e-mail,
// ARNs, cloud paths) and learns or replaces them; in learn mode they are blanked, so
// their parts are not learned again as words.
func (r *Redactor) composite(s string, learn bool) string {
	if !strings.ContainsAny(s, ":@/-") {
		return s
	}
	sub := func(re *regexp.Regexp, kind string) {
		s = re.ReplaceAllStringFunc(s, func(m string) string { return r.value(m, kind, learn) })
	}
	if strings.Contains(s, "arn:") {
		sub(arnRE, "arn")
	}
	if strings.Contains(s, "/subscriptions/") || strings.Contains(s, "/SUBSCRIPTIONS/") {
		s = azureRE.ReplaceAllStringFunc(s, func(m string) string { return r.azure(m, learn) })
	}
	if strings.Contains(s, "projects/") {
		s = gcpRE.ReplaceAllStringFunc(s, func(m string) string { return r.gcp(m, learn) })
	}
	if strings.Contains(s, "@") {
		s = emailRE.ReplaceAllStringFunc(s, func(m string) string {
			if _, host, _ := strings.Cut(m, "@"); strings.HasPrefix(strings.ToLower(host), "sha") {
				return m // an image digest
			}
			return r.value(m, "email", learn)
		})
	}
	if strings.Count(s, "-") >= 4 {
		sub(uidRE, "uid")
	}
	if strings.Count(s, ":") >= 2 {
		s = ipv6Cand.ReplaceAllStringFunc(s, func(m string) string {
			addr := strings.Trim(m, ".")
			if a, err := netip.ParseAddr(addr); err == nil && a.Is6() && strings.Count(addr, ":") >= 2 {
				if a.IsLoopback() || a.IsUnspecified() {
					return m
				}
				return strings.Replace(m, addr, r.value(addr, "ip", learn), 1)
			}
			return m
		})
	}
	if strings.Contains(s, "-") {
		sub(awsIDRE, "cloudid")
		sub(aliIDRE, "cloudid")
	}
	return s
}

// value learns m as kind (learn mode: returns blanks) or returns its token.
func (r *Redactor) value(m, kind string, learn bool) string {
	if learn {
		r.add(m, kind)
		return strings.Repeat(" ", len(m))
	}
	return r.token(m, kind)
}

func (r *Redactor) azure(m string, learn bool) string {
	sm := azureRE.FindStringSubmatch(m)
	if learn {
		r.add(sm[1], "subscription")
		segs := strings.Split(strings.TrimPrefix(sm[2], "/"), "/")
		for i := 0; i+1 < len(segs); i++ {
			switch strings.ToLower(segs[i]) {
			case "resourcegroups":
				r.add(segs[i+1], "rg")
			case "providers":
			default:
				r.add(segs[i+1], "cloud")
			}
			i++
		}
		return strings.Repeat(" ", len(m))
	}
	out := "/subscriptions/" + r.value(sm[1], "subscription", false)
	segs := strings.Split(strings.TrimPrefix(sm[2], "/"), "/")
	for _, seg := range segs {
		if seg == "" {
			continue
		}
		out += "/" + r.value(seg, "", false)
	}
	return out
}

func (r *Redactor) gcp(m string, learn bool) string {
	sm := gcpRE.FindStringSubmatch(m)
	segs := strings.Split(strings.TrimPrefix(sm[2], "/"), "/")
	if learn {
		r.add(sm[1], "project")
		for i := 0; i+1 < len(segs); i++ {
			switch segs[i] {
			case "global", "":
				continue
			case "zones", "regions", "locations":
				i++ // a public zone name
				continue
			}
			r.add(segs[i+1], "cloud")
			i++
		}
		return strings.Repeat(" ", len(m))
	}
	out := "projects/" + r.value(sm[1], "project", false)
	for _, seg := range segs {
		if seg != "" {
			out += "/" + r.value(seg, "", false)
		}
	}
	return out
}

// isWordRune: the characters a name, a host or a path segment is made of.
func isWordRune(c rune) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		return true
	case c < utf8.RuneSelf:
		return false
	}
	return !unicode.IsSpace(c) && !unicode.IsPunct(c) && !unicode.IsSymbol(c) || c == utf8.RuneError
}

// hostKeys and idKeys are keys whose value identifies a host or a customer resource,
// whatever its shape (cluster-name=prod, host=bastion).
var hostKeys = map[string]bool{"host": true, "hostname": true, "server": true, "addr": true, "address": true, "endpoint": true,
	"node": true, "nodename": true, "node_name": true, "instance": true, "remote": true, "peer": true}

var idKeys = map[string]bool{"cluster": true, "cluster-name": true, "clustername": true, "cluster_name": true, "cluster-id": true,
	"clusterid": true, "cluster_id": true, "project": true, "project-id": true, "projectid": true, "project_id": true,
	"account": true, "account-id": true, "accountid": true, "account_id": true, "tenant": true, "tenant-id": true,
	"tenantid": true, "subscription": true, "user": true, "username": true, "email": true, "owner": true, "customer": true,
	"namespace": true, "name": true, "pod": true, "service": true, "context": true, "current-context": true, "org": true,
	"organization": true, "team": true, "env": true, "environment": true}

// rewrite learns (learn) or replaces the identifiers of s.
func (r *Redactor) rewrite(s string, learn bool) string {
	if !learn {
		if t, ok := r.tokens[s]; ok {
			return t
		}
	}
	s = r.composite(s, learn)
	var b strings.Builder
	prevWord := ""
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(c) {
			j := i + n
			for j < len(s) {
				c2, n2 := utf8.DecodeRuneInString(s[j:])
				if isWordRune(c2) {
					break
				}
				j += n2
			}
			if !learn {
				b.WriteString(s[i:j])
			}
			i = j
			continue
		}
		j := i
		for j < len(s) {
			c2, n2 := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(c2) {
				break
			}
			j += n2
		}
		w := s[i:j]
		before, after := s[:i], s[j:]
		ctx := context(before, prevWord)
		if strings.HasPrefix(after, "…") && !inVocab(w) && !keepShape(w) {
			ctx = ctxClipped
		}
		out := r.word(w, ctx, hostAfter(after), learn)
		if !learn {
			b.WriteString(out)
		}
		prevWord = w
		i = j
	}
	if learn {
		return s
	}
	return b.String()
}

type wordContext int

const (
	ctxNone wordContext = iota
	ctxHost
	ctxID
	ctxClipped
)

// context says whether a word stands where a host or an identifying value stands.
func context(before, prevWord string) wordContext {
	switch {
	case strings.HasSuffix(before, "://"), strings.HasSuffix(before, "@"), strings.HasSuffix(before, "lookup "),
		strings.HasSuffix(before, "dial tcp "), strings.HasSuffix(before, "dial udp "):
		return ctxHost
	}
	sep := before[len(strings.TrimRightFunc(before, func(c rune) bool { return !isWordRune(c) })):]
	sep = strings.Trim(sep, ` "'`)
	if sep == "=" || sep == ":" {
		k := strings.ToLower(strings.TrimLeft(prevWord, "-"))
		if hostKeys[k] {
			return ctxHost
		}
		if idKeys[k] {
			return ctxID
		}
	}
	return ctxNone
}

// hostAfter: a word followed by ":<port>" is a host.
func hostAfter(after string) bool {
	if len(after) < 2 || after[0] != ':' {
		return false
	}
	k := 1
	for k < len(after) && after[k] >= '0' && after[k] <= '9' {
		k++
	}
	return k > 1 && k <= 6 && (k == len(after) || !isWordRune(rune(after[k])))
}

// word learns or replaces one word.
func (r *Redactor) word(w string, ctx wordContext, portAfter, learn bool) string {
	core := strings.TrimRight(w, ".-_")
	lead := len(core) - len(strings.TrimLeft(core, ".-_"))
	tail := w[len(core):]
	core = core[lead:]
	if core == "" {
		return w
	}
	out := r.core(core, ctx, portAfter, learn)
	return w[:lead] + out + tail
}

func (r *Redactor) core(w string, ctx wordContext, portAfter, learn bool) string {
	if !learn {
		if t, ok := r.tokens[w]; ok {
			return t
		}
	}
	if isToken(w) || IsRedactedValue(w) {
		return w
	}
	kind := r.classify(w, ctx, portAfter)
	switch kind {
	case "":
		return w
	case "split":
		return r.labels(w, learn)
	case "structured":
		return r.structured(w, learn)
	case "clipped":
		// half a word cut by a clip ("acme-sh…"): the start of a learned value is
		// never shown; other halves are read as the word would be
		if learn {
			return w
		}
		if kind := r.prefixOf(w); kind != "" {
			return r.token(w, kind)
		}
		return r.core(w, ctxNone, false, false)
	}
	if learn {
		r.add(w, kind)
		return w
	}
	if IsRedactedValue(w) || kind != "account" && kind != "ip" && kind != "host" && wellKnownName(w) {
		return w
	}
	return r.token(w, kind)
}

// prefixOf returns the category of a learned value w is the start of, or "".
func (r *Redactor) prefixOf(w string) string {
	if len(w) < 2 {
		return ""
	}
	i := sort.SearchStrings(r.sorted, w) // the first learned value >= w: the one w starts, if any
	for ; i < len(r.sorted) && strings.HasPrefix(r.sorted[i], w); i++ {
		if len(r.sorted[i]) > len(w) {
			return r.kinds[r.sorted[i]]
		}
	}
	return ""
}

// classify says what a word is: "" (public, kept), a token category, "split" (a file
// name or a mixed-case dotted word: its labels are words of their own) or
// "structured" (a customer DNS name whose other labels are public).
func (r *Redactor) classify(w string, ctx wordContext, portAfter bool) string {
	lw := strings.ToLower(w)
	if a, err := netip.ParseAddr(w); err == nil {
		if a.IsLoopback() || a.IsUnspecified() || a.Is4() && w == "255.255.255.255" {
			return ""
		}
		return "ip"
	}
	if awsNode.MatchString(w) {
		return "host"
	}
	if inVocab(w) || commonPublic(w) {
		return ""
	}
	if keepShape(w) {
		if len(w) == 12 && allDigits(w) {
			return "account"
		}
		return ""
	}
	if strings.Contains(w, ".") {
		labels := strings.Split(w, ".")
		last := strings.ToLower(labels[len(labels)-1])
		mixed := lw != w && strings.ToUpper(w) != w
		if knownDomain(lw) || fileExt[last] || mixed || fieldRoot[strings.ToLower(labels[0])] || !dnsName(lw) {
			return "split" // public labels stay, a customer's name among them goes
		}
		if reg := registrable(lw); reg != "" && !knownDomain(reg) {
			if ctx == ctxHost || portAfter {
				return "host"
			}
			return "structured"
		}
		return "split"
	}
	if ctx == ctxClipped {
		return "clipped"
	}
	if ctx != ctxNone || portAfter {
		if commonWords[lw] || inVocab(lw) {
			return ""
		}
		if ctx == ctxID {
			return "name"
		}
		return "host"
	}
	if hasNonASCII(w) || strings.ContainsAny(w, "-_") && !allPartsPublic(w) || hasDigit(w) {
		return "name"
	}
	return ""
}

// labels rewrites each dot-separated label of w as a word of its own; a file name's
// extensions are cut first, so what they end is read whole (a host, a DNS name).
func (r *Redactor) labels(w string, learn bool) string {
	if i := strings.LastIndexByte(w, '.'); i > 0 && fileExt[strings.ToLower(w[i+1:])] {
		if w[i+1:] == "go" && !strings.Contains(w[:i], ".") {
			return w // a Go source file of the component that logged the line (klog's header)
		}
		return r.word(w[:i], ctxNone, false, learn) + w[i:]
	}
	parts := strings.Split(w, ".")
	for i, p := range parts {
		if p != "" {
			parts[i] = r.word(p, ctxNone, false, learn)
		}
	}
	return strings.Join(parts, ".")
}

// structured learns a customer DNS name: its registrable domain becomes domain-N; the
// labels before it stay when they are public words (crontabs.domain-1), else the whole
// name is host-N.
func (r *Redactor) structured(w string, learn bool) string {
	lw := strings.ToLower(w)
	reg := registrable(lw)
	left := strings.TrimSuffix(strings.TrimSuffix(lw, reg), ".")
	public := true
	if left != "" {
		for _, l := range strings.Split(left, ".") {
			if !(inVocab(l) || keepShape(l) || plainWord(l)) {
				public = false
				break
			}
		}
	}
	if learn {
		r.add(reg, "domain")
		if !public {
			r.add(w, "host")
		}
		return w
	}
	if !public {
		return r.token(w, "host")
	}
	t := r.token(reg, "domain")
	if left == "" {
		return t
	}
	return w[:len(left)] + "." + t
}

// plainWord: letters only (what messages are made of).
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// fileExt: a dotted word ending in one of these is a file name, not a host.
var fileExt = map[string]bool{"go": true, "log": true, "json": true, "yaml": true, "yml": true, "txt": true, "gz": true,
	"xz": true, "bz2": true, "tar": true, "tgz": true, "zip": true, "md": true, "html": true, "sh": true, "csv": true,
	"out": true, "err": true, "pprof": true, "previous": true, "crt": true, "pem": true, "conf": true, "cfg": true,
	"service": true, "socket": true, "pid": true, "1": true, "2": true, "3": true, "stderr": true, "stdout": true,
	"cmdline": true, "journal": true, "jsonl": true}

// fieldRoot: a dotted word starting with one of these is a field path.
var fieldRoot = map[string]bool{"metadata": true, "spec": true, "status": true, "data": true, "items": true, "e": true,
	"i": true}

// commonPublic: words public in any case that vocab.txt need not list.
func commonPublic(w string) bool { return commonWords[strings.ToLower(w)] }

// allPartsPublic reports whether every hyphen- or underscore-separated part of w is
// public vocabulary or a number-like shape ("fail-closed", "kube-controller-manager").
func allPartsPublic(w string) bool {
	for _, p := range strings.FieldsFunc(w, func(c rune) bool { return c == '-' || c == '_' }) {
		if !(inVocab(p) || commonPublic(p) || keepShape(p) && !(allDigits(p) && len(p) >= 5)) {
			return false
		}
		if !inVocab(p) && !keepShape(p) && hasDigit(p) {
			return false
		}
	}
	return true
}

var (
	numberish = regexp.MustCompile(`^(?:` +
		`[0-9]+(?:[.,][0-9]+)*(?:%|[KMGTP]i?B?|[kmgt]b?|x|B|ns|us|µs|ms|s|m|h|d|th|st|nd|rd)?` + // numbers, sizes, ordinals
		`|v[0-9]+(?:(?:alpha|beta)[0-9]+)?(?:\.[0-9]+)*(?:[-+][0-9A-Za-z.]+)?` + // versions
		`|(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h|d))+` + // durations
		`|[IWEF][0-9]{4}` + // klog headers
		`|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9:.]+(?:Z|[+-][0-9:]+)?)?` + // dates
		`|[0-9]{8}T[0-9]{6}Z?` + // compact times
		`|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?Z?` + // times
		`|[0-9]{1,2}(?:\.[0-9]+)?Z|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}` + // pieces of RFC 3339 times (":" separates words)
		`|P[0-9]+|x509|k8s|ipv[46]|sha[0-9]+|utf-?8|base64|u[0-9a-f]{4}|x[0-9a-f]{2}|0x[0-9a-f]+|h2|http2|oauth2|e2e|ec2|s3` +
		`)$`)
)

// keepShape: numbers, sizes, versions, durations, times, dates: public by shape.
func keepShape(w string) bool { return numberish.MatchString(w) }

func dnsName(w string) bool { return findings.DNSName(w) }

func registrable(d string) string { return findings.Registrable(d) }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// walkStrings applies f to every string reachable from v (struct fields, slices,
// pointers, maps' values), in place.
func walkStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(f(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			walkStrings(e, f)
			v.SetMapIndex(k, e)
		}
	}
}
