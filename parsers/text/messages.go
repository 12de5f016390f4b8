package text

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// A Message is a catalogued message found in a text file by the message scan
// (kubemsg.Scan), with the namespace its context gives it.
type Message struct {
	kubemsg.Fact
	File string
	// Context is the namespace the text around the message gives it when the message
	// does not name one: the command that printed it (`kubectl get ns X -o yaml`,
	// `describe ns X`), the Namespace object it stands in; "" when nothing does.
	Context string
	// Logged: the file's log reader already holds the line (as a line, not as the
	// namespace's condition): it is not added to the log again.
	Logged bool
}

// MaxMessageScanBytes caps the files the message scan reads: a ticket's paste is
// small; a dump larger than this is read by the structured readers alone.
const MaxMessageScanBytes = 4 << 20

// Messages scans a text file for catalogued messages (kubemsg.Scan: invariant to
// wrapping, prefixes, indentation, blank lines, zero-width marks, entities and
// escapes) and returns those the structured readers did not already read from the same
// lines: read holds the objects and log entries they produced from this file.
func Messages(data []byte, path string, read []*objects.Object, entries []logs.Entry) []Message {
	if len(data) == 0 || len(data) > MaxMessageScanBytes {
		return nil
	}
	s := string(data)
	facts := kubemsg.Scan(s)
	if len(facts) == 0 {
		return nil
	}
	lines := strings.Split(s, "\n")
	var out []Message
	for _, f := range facts {
		byObject, byLog := readAlready(f, read, entries)
		if byObject {
			continue
		}
		m := Message{Fact: f, File: path}
		if f.Namespace == "" && f.CondType != "" {
			m.Context = contextNamespace(lines, f.Line, read)
		}
		// a log line holding a condition message says it, but not as the namespace's
		// condition: the fact is kept all the same (which lines the log reader keeps
		// depends on its prefilter, and the diagnosis must not)
		if byLog && f.CondType == "" && !namesAPIService(f) {
			continue
		}
		m.Logged = byLog
		out = append(out, m)
	}
	return out
}

// namesAPIService reports an APIService condition message that names its APIService by
// itself (kube-aggregator's "failing or missing response from URL", whose URL ends in
// /apis/GROUP/VERSION): whoever holds its line, the analysis reads it as that
// APIService's Available=False condition (kubemsg.ParseAvailabilityCheck).
func namesAPIService(f kubemsg.Fact) bool {
	return Message{Fact: f}.NamesAPIService()
}

// NamesAPIService reports a message that is an APIService's Available condition and
// names its APIService by itself (namesAPIService): evidence about that APIService
// wherever it stands, so a file that holds one was read.
func (m Message) NamesAPIService() bool {
	f := m.Fact
	if !strings.HasPrefix(f.Form, "avail-failing-response") {
		return false
	}
	_, ok := kubemsg.ParseAvailabilityCheck(f.Text)
	return ok
}

// readAlready reports a fact that a structured reader read from the same lines: a
// condition or event with the same message (byObject), a log line holding it (byLog).
// A structured copy holds the fact only when it says the same words: a reader that
// joined a wrapped line where its space was lost ("unable toretrieve") or kept a piece of
// it read the same characters but not the message, and the fact is kept (the message
// scan supplies what a reader lost, so damage costs precision, never the diagnosis).
func readAlready(f kubemsg.Fact, read []*objects.Object, entries []logs.Entry) (byObject, byLog bool) {
	sq := squeezeText(f.Text)
	if len(sq) > 80 {
		sq = sq[:80]
	}
	for _, o := range read {
		if o.Event != nil && o.Event.Message != "" && strings.Contains(squeezeText(o.Event.Message), sq) && SameWords(o.Event.Message, f.Text) {
			return true, false
		}
		for _, c := range o.Conditions {
			if c.Message != "" && strings.Contains(squeezeText(c.Message), sq) && SameWords(c.Message, f.Text) {
				return true, false
			}
		}
	}
	for i := range entries {
		e := &entries[i]
		if e.Line >= f.Line && e.Line <= f.EndLine && strings.Contains(squeezeText(e.Text), sq) && SameWords(e.Text, f.Text) {
			return false, true
		}
	}
	return false, false
}

// SameWords reports whether a structured reader's copy of a message says what the fact
// says: the same facts for the rules (the namespace, group/versions, webhooks, policies,
// conversions, resources and finalizers the catalogue's parsers read from each). Where a
// wrap left it unsure whether a space was lost, the copy and the scan may each have
// guessed differently ("unable toretrieve", "?tim eout="): only a difference the rules
// would see makes the copy another reading, and the fact is kept beside it.
func SameWords(copied, fact string) bool {
	return messageFacts(spacedText(copied)) == messageFacts(spacedText(fact))
}

// messageFacts is what the rules read from a message, in one string.
func messageFacts(msg string) string {
	var f []string
	for _, g := range kubemsg.ParseDiscoveryFailure(msg) {
		f = append(f, "gv="+g.GroupVersion)
	}
	if g, ok := kubemsg.ParseMemcacheFailure(msg); ok {
		f = append(f, "memcache="+g.GroupVersion)
	}
	if ns, _, ok := kubemsg.ParseNamespaceDeletionFailure(msg); ok {
		f = append(f, "ns="+ns)
	}
	if ns, ok := kubemsg.ParseNamespaceTerminating(msg); ok {
		f = append(f, "terminating="+ns)
	}
	for _, w := range kubemsg.ParseWebhookFailures(msg) {
		f = append(f, "webhook="+w.Webhook)
	}
	for _, d := range kubemsg.ParseAdmissionDenials(msg) {
		f = append(f, "denied="+d.Webhook+"/"+d.Engine+"/"+d.Policy)
	}
	if c, ok := kubemsg.ParseConversionFailure(msg); ok {
		f = append(f, "conversion="+c.GroupVersion+","+c.Kind)
	}
	for _, r := range kubemsg.ParseContentRemaining(msg) {
		f = append(f, fmt.Sprintf("resource=%s.%s:%d", r.Resource, r.Group, r.Count))
	}
	for _, r := range kubemsg.ParseFinalizersRemaining(msg) {
		f = append(f, fmt.Sprintf("finalizer=%s:%d", r.Finalizer, r.Count))
	}
	if n, _, ok := kubemsg.ParseContentFailure(msg); ok {
		f = append(f, fmt.Sprintf("failed=%d", n))
	}
	sort.Strings(f)
	return strings.Join(f, " ")
}

func spacedText(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, `\"`, `"`)), " ")
}

func squeezeText(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, `\"`, `"`)), "")
}

var (
	// `kubectl get ns X -o yaml`, `kubectl describe namespace X`, `oc get project X`
	reNamespaceCommand = regexp.MustCompile(`\b(?:kubectl|oc|k)\s+(?:get|describe|edit)\s+(?:ns|namespaces?|projects?)(?:/|\s+)([a-z0-9][-a-z0-9]{0,62})\b`)
	// `name: X` in a Namespace's metadata, `Name: X` of a describe block
	reNameLine = regexp.MustCompile(`^[\s>#|]*(?:"name"\s*:\s*"|name:\s*"?|Name:\s+)([a-z0-9][-a-z0-9]{0,62})"?,?\s*$`)
	reNSKind   = regexp.MustCompile(`(?:"kind"\s*:\s*"|kind:\s*)(?:Namespace|Project)\b|^[\s>#|]*Status:\s+Terminating`)
)

// contextNamespace returns the namespace the text before line (1-based) gives a
// namespace condition message: the nearest namespace command, or the name of the
// Namespace object the message stands in (a `name:` with a Namespace kind near it).
func contextNamespace(lines []string, line int, read []*objects.Object) string {
	kind, name := false, ""
	for k, n := line-1, 0; k >= 0 && n < 200; k, n = k-1, n+1 {
		if k >= len(lines) {
			continue
		}
		l := lines[k]
		if m := reNamespaceCommand.FindStringSubmatch(l); m != nil && kubemsg.IsNamespaceName(m[1]) {
			if name == "" || kind {
				return m[1]
			}
		}
		if name == "" {
			if m := reNameLine.FindStringSubmatch(l); m != nil && kubemsg.IsNamespaceName(m[1]) {
				name = m[1]
			}
		}
		if reNSKind.MatchString(l) {
			kind = true
			if name != "" {
				return name
			}
		}
	}
	// the one Namespace read from the same file
	var only string
	for _, o := range read {
		if o.Kind == "Namespace" {
			if only != "" && only != o.Name {
				return ""
			}
			only = o.Name
		}
	}
	return only
}

// MessageEntries returns the messages that hold no namespace condition for a known
// namespace as log entries of their file: the rules read them as they read a log line
// (a discovery failure, a deletion failure, the NamespaceLifecycle refusal).
func MessageEntries(ms []Message) []logs.Entry {
	var out []logs.Entry
	for _, m := range ms {
		if m.CondType != "" && m.Context != "" || weakForms[m.Form] || m.Logged {
			continue // a condition of a known namespace (the analyzer adds it there), or a line the log has
		}
		e := logs.Entry{File: m.File, Line: m.Line, Component: messageComponent(m.Family, m.Channel), Message: m.Text, Text: m.Text}
		if msg, fields, ok := structured(m.Text); ok {
			e.Message, e.Fields = msg, fields
		}
		out = append(out, e)
	}
	return out
}

// weakForms are the forms whose words are common English around a capture ("timed
// out waiting for %v"): found alone in prose they say nothing; the structured readers
// read them where they are an APIService's condition or a component's log line.
var weakForms = map[string]bool{"avail-timed-out": true, "avail-no-response": true, "avail-bad-status": true,
	"avail-bad-status-d": true, "apiservice-failed-printf": true, "apiservice-failed-unhandled": true, "kubectl-error": true,
	"avail-failing-response": true, "avail-failing-response-x509": true, "avail-failing-response-san": true}

// messageComponent: who prints a message of a family on a channel.
func messageComponent(family, channel string) string {
	switch {
	case channel == "stderr":
		return ComponentKubectl
	case channel != "log":
		return ""
	case strings.HasPrefix(family, "namespace-") && family != "namespace-terminating", family == "deleter-supported-resources",
		family == "ordered-deletion", family == "gc-discovery", family == "quota-discovery", family == "content-still-remains":
		return "kube-controller-manager"
	case strings.HasPrefix(family, "apiservice-"), family == "aggregator-proxy", family == "request-log", family == "crd-finalizer":
		return "kube-apiserver"
	}
	return ""
}

var reStructuredKey = regexp.MustCompile(`^\s*,?"?([A-Za-z][-A-Za-z0-9_]*)"?\s*[=:]\s*`)

// structured splits a structured log message rebuilt by the scan (`"Msg" key="v" ...`
// or JSON's `"Msg","key":"v"`) into its message and fields.
func structured(t string) (string, map[string]string, bool) {
	if !strings.HasPrefix(t, `"`) {
		return "", nil, false
	}
	msg, rest, ok := quoted(t)
	if !ok {
		return "", nil, false
	}
	fields := map[string]string{}
	for len(rest) > 0 {
		m := reStructuredKey.FindStringSubmatchIndex(rest)
		if m == nil {
			break
		}
		key := rest[m[2]:m[3]]
		rest = rest[m[1]:]
		var v string
		if strings.HasPrefix(rest, `"`) {
			v, rest, _ = quoted(rest)
		} else {
			k := strings.IndexAny(rest, " ,}")
			if k < 0 {
				k = len(rest)
			}
			v, rest = rest[:k], rest[k:]
		}
		fields[key] = v
	}
	return msg, fields, true
}

var reNextKey = regexp.MustCompile(`"(?:\s+|\s*,\s*"?)[A-Za-z][-A-Za-z0-9_]*"?[=:]`)

// quoted reads a double-quoted value at the start of s: up to the quote that the next
// key follows (the scan's view took the backslashes of inner quotes away), or the
// text's end; it returns the value and the rest.
func quoted(s string) (string, string, bool) {
	if loc := reNextKey.FindStringIndex(s[1:]); loc != nil {
		return s[1 : 1+loc[0]], s[1+loc[0]+1:], true
	}
	return strings.TrimSuffix(s[1:], `"`), "", true
}

// AddMessageEntries adds the entries of the messages (MessageEntries) to a file's log,
// in line order, creating it when the file had none.
func AddMessageEntries(f *logs.File, path string, ms []Message) *logs.File {
	es := MessageEntries(ms)
	if len(es) == 0 {
		return f
	}
	if f == nil {
		f = &logs.File{Info: logs.FileInfo{Path: path, Format: "plain"}}
	}
	f.Entries = append(f.Entries, es...)
	sort.SliceStable(f.Entries, func(i, j int) bool { return f.Entries[i].Line < f.Entries[j].Line })
	f.Info.Matched += len(es)
	return f
}
