package text

import (
	"regexp"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
)

// The shapes of the lines a support ticket's text is made of.

var (
	// a shell prompt: "$ ", "# ", "> ", "› ", "% ", "❯ ", "user@host:~$ ",
	// "[root@node1 tmp]# ", "PS C:\> ", "➜  dir ", and redacted: "{USER}@<host>:~$ "
	rePrompt = regexp.MustCompile(`^\s*(?:(?:\[[^\]]{1,80}\]|\([^)]{1,40}\)\s?[\w.@~:/\\{}<>-]{0,80}|[\w.@~:/\\{}<>-]{0,80})\s?[$#%>›❯»]|(?:➜\s+)?(?:[\w.~/-]{1,80}\s+)?git:\([^)\s]{1,80}\)(?:\s*✗)?|➜\s+\S*|PS [^>]{0,80}>)\s+`)
	// a shell's `set -x` trace: the command after PS4's "+ ", one "+" per level of nesting
	reTrace = regexp.MustCompile(`^\s*\++ +\S`)
	// an RFC 3339 time before a prompt
	reStamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)\s+`)
	// kubectl / oc after the prompt (sudo, microk8s, k3s and k0s wrappers allowed)
	reKube = regexp.MustCompile(`^(?:sudo\s+(?:-\S+\s+)*)?(?:(?:microk8s|k0s|k3s|k8s)[ .])?(kubectl|oc|kubectl\.exe|oc\.exe|k)(?:\s+(.*))?$`)
	// klog header: "E0312 10:11:12.123456   12345 memcache.go:255] "
	reKlog = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+(\d+) ([\w.-]+:\d+)\] `)
	// a headerless `kubectl get apiservice` row: NAME SERVICE AVAILABLE AGE
	reAPIServiceRow = regexp.MustCompile(`^\s*(v\d\w*\.[\w.-]*)\s+(Local|[\w.-]+/[\w.-]+)\s+(True|False|Unknown)(?:\s+\((\w+)\))?\s+(\S+)\s*$`)
	// a headerless `kubectl get ns` row: NAME STATUS AGE
	reNamespaceRow = regexp.MustCompile(`^\s*([a-z0-9]([-a-z0-9]*[a-z0-9])?)\s+(Active|Terminating)\s+(\S+)\s*$`)
	// a row of a namespace's describe Conditions table: Type Status LastTransitionTime Reason Message
	reCondRow = regexp.MustCompile(`^\s*(Namespace\w+)\s+(True|False|Unknown)\s+(\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}|\S+)\s+(\w+)\s+(.*)$`)
	// `-o name` output: "namespace/foo", "apiservice.apiregistration.k8s.io/v1.foo"
	reNameOutput = regexp.MustCompile(`^([a-z0-9.-]+)/([a-z0-9.:-]+)$`)
)

// kubectl verbs that make a command line without a prompt recognisable.
var kubeVerbs = map[string]bool{"get": true, "describe": true, "delete": true, "logs": true, "api-resources": true,
	"api-versions": true, "version": true, "patch": true, "edit": true, "replace": true, "apply": true, "top": true,
	"wait": true, "explain": true, "cluster-info": true, "adm": true, "rollout": true, "scale": true, "label": true,
	"annotate": true, "create": true, "auth": true, "events": true, "projects": true, "project": true, "status": true}

// other programs whose prompt lines end the output of the kubectl command before them
var shellTools = map[string]bool{"curl": true, "jq": true, "cat": true, "grep": true, "echo": true, "helm": true,
	"for": true, "export": true, "sudo": true, "watch": true, "systemctl": true, "journalctl": true, "crictl": true,
	"docker": true, "etcdctl": true, "ssh": true, "ls": true, "cd": true, "vi": true, "vim": true, "less": true,
	"tail": true, "head": true, "time": true, "while": true, "kubectx": true, "kubens": true, "ps": true, "virtctl": true}

// Command is one command line of the file (after a prompt, or bare).
type Command struct {
	Line int
	Text string // the command as typed, without its prompt
	// Tool is "kubectl" (also for oc and wrappers) or the other program's name.
	Tool          string
	Verb          string   // get, describe, logs, ...
	Resource      string   // first resource argument ("ns", "apiservice", "pods,svc")
	Names         []string // names after the resource
	Namespace     string   // -n / --namespace
	AllNamespaces bool     // -A / --all-namespaces
	Output        string   // -o value: "", "wide", "yaml", "json", "name", ...
	Selector      bool     // -l / --selector / --field-selector
	Piped         bool     // output went through a pipe (| grep ...): a table may lack its header and rows
}

// parseCommand recognises a command line; nil when the line is none.
func parseCommand(line string, n int) *Command {
	if m := reStamp.FindStringIndex(line); m != nil {
		line = line[m[1]:] // a transcript with times: "2026-11-29T22:26:10Z  $ kubectl ..."
	}
	rest := line
	prompted, traced := false, false
	if m := rePrompt.FindStringIndex(line); m != nil {
		rest, prompted = line[m[1]:], true
	} else if m := reTrace.FindStringIndex(line); m != nil {
		rest, prompted, traced = line[m[1]-1:], true, true
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || len(rest) > 4096 {
		return nil
	}
	rest = unemphasize(rest)
	m := reKube.FindStringSubmatch(rest)
	if m == nil {
		if !prompted {
			return nil
		}
		w := rest
		if i := strings.IndexAny(w, " \t"); i >= 0 {
			w = w[:i]
		}
		if shellTools[w] {
			return &Command{Line: n, Text: rest, Tool: w}
		}
		return nil
	}
	c := &Command{Line: n, Text: rest, Tool: "kubectl"}
	args := m[2]
	if i := unquotedIndex(args, "|"); i >= 0 {
		c.Piped = true
		args = args[:i]
	}
	if i := unquotedIndex(args, ">;&"); i >= 0 {
		args = args[:i]
	}
	f := shellFields(args)
	pos := []string{}
	for i := 0; i < len(f); i++ {
		a := f[i]
		val := func() string {
			if j := strings.IndexByte(a, '='); j >= 0 {
				return a[j+1:]
			}
			if i+1 < len(f) {
				i++
				return f[i]
			}
			return ""
		}
		switch {
		case a == "-n" || a == "--namespace" || strings.HasPrefix(a, "--namespace="):
			c.Namespace = namespaceArg(val())
		case strings.HasPrefix(a, "-n") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			c.Namespace = namespaceArg(a[2:])
		case a == "-A" || a == "--all-namespaces" || a == "--all-namespaces=true":
			c.AllNamespaces = true
		case a == "-o" || a == "--output" || strings.HasPrefix(a, "--output="):
			c.Output = val()
		case strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--"):
			c.Output = strings.TrimPrefix(a[2:], "=")
		case a == "-l" || a == "--selector" || a == "--field-selector" || strings.HasPrefix(a, "--selector=") ||
			strings.HasPrefix(a, "--field-selector=") || strings.HasPrefix(a, "-l"):
			c.Selector = true
			if !strings.Contains(a, "=") && len(a) <= 2 || a == "--selector" || a == "--field-selector" {
				i++
			}
		case a == "-c" || a == "--container" || a == "--context" || a == "--kubeconfig" || a == "-f" || a == "--filename" ||
			a == "--sort-by" || a == "--since" || a == "--tail" || a == "--request-timeout" || a == "--type" || a == "-p":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 {
		if !prompted {
			return nil
		}
		return c
	}
	c.Verb = pos[0]
	// (a trace's "+ " is also a Markdown list item or a wrapped line's "+":
	// "+ kubectl v1.34.4, built from ..." is prose, so a traced kubectl needs a verb)
	if (!prompted || traced) && (!kubeVerbs[c.Verb] || m[1] == "k") {
		return nil
	}
	if c.Verb == "adm" && len(pos) > 1 {
		c.Verb = "adm " + pos[1]
		pos = pos[1:]
	}
	if c.Verb == "projects" || c.Verb == "project" {
		c.Verb, c.Resource = "get", "projects" // `oc projects`
		return c
	}
	if len(pos) > 1 {
		r := pos[1]
		if c.Verb == "get" || c.Verb == "describe" || c.Verb == "delete" {
			// "ns/foo" names the resource and the object at once
			if res, name, ok := strings.Cut(r, "/"); ok {
				c.Resource, c.Names = res, append(c.Names, name)
			} else {
				c.Resource = r
			}
			c.Names = append(c.Names, pos[2:]...)
		} else {
			c.Resource = r
			c.Names = pos[2:]
		}
	}
	return c
}

// stderrLine reports whether a line is what kubectl or oc write on stderr.
func stderrLine(l string) bool {
	switch {
	case strings.HasPrefix(l, "error: "), strings.HasPrefix(l, "Error: "), strings.HasPrefix(l, "Error from server"),
		strings.HasPrefix(l, "Unable to connect to the server"), strings.HasPrefix(l, "The connection to the server "),
		strings.HasPrefix(l, "Warning: "), strings.HasPrefix(l, "No resources found"),
		strings.HasPrefix(l, "couldn't get resource list for "), strings.HasPrefix(l, "unable to retrieve the complete list"):
		return true
	}
	return reKlog.MatchString(l)
}

// kubectlCallers are the client-side source files of kubectl's own klog lines.
var kubectlCallers = map[string]bool{"memcache.go": true, "cached_discovery.go": true, "round_trippers.go": true,
	"request.go": true, "helpers.go": true, "discovery_client.go": true, "aggregated_discovery.go": true,
	"reflector.go": false, "loader.go": true, "get.go": true, "warnings.go": true, "exec.go": true}

// headerColumns splits a table header ("NAME   STATUS   AGE", "NAMESPACE  NAME  CREATED AT")
// into its columns and their offsets; nil when the line is no table header.
func headerColumns(l string) []column {
	t := strings.TrimRight(l, " \t\r")
	if t == "" || len(t) > 2000 {
		return nil
	}
	lead := len(t) - len(strings.TrimLeft(t, " "))
	if lead > 4 {
		return nil
	}
	if strings.ContainsRune(t, '\t') {
		t = expandTabs(t)
	}
	cols := splitCells(t)
	if len(cols) == 1 && strings.Contains(t, " ") {
		cols = singleSpaced(t) // a header whose padding was collapsed: "NAME STATUS AGE"
	}
	if len(cols) < 2 || cols[0].name != "NAME" && cols[0].name != "NAMESPACE" && !(cols[0].name == "LAST SEEN" && eventColumns(cols)) {
		return nil
	}
	for _, c := range cols {
		for _, w := range strings.Split(c.name, " ") {
			if !headerWord(w) {
				return nil
			}
		}
	}
	return cols
}

// eventColumns reports the columns of `kubectl get events`, the one table kubectl starts
// with another column than NAME or NAMESPACE: LAST SEEN, then (before 1.14) FIRST SEEN
// COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE, or (1.14+) TYPE REASON OBJECT
// MESSAGE.
func eventColumns(cols []column) bool {
	has := map[string]bool{}
	for _, c := range cols {
		has[c.name] = true
	}
	return has["REASON"] && has["MESSAGE"] && (has["OBJECT"] || has["KIND"])
}

func headerWord(w string) bool {
	if w == "" || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_()./-", c) >= 0) {
			return false
		}
	}
	return true
}

type column struct {
	name  string
	start int
}

// twoWordColumns are the column names kubectl prints with a space inside.
var twoWordColumns = map[string]bool{"CREATED AT": true, "DISPLAY NAME": true, "NOMINATED NODE": true,
	"READINESS GATES": true, "LAST SEEN": true, "LAST SCHEDULE": true, "INTERNAL IP": true, "EXTERNAL IP": true,
	"OS IMAGE": true, "KERNEL VERSION": true, "CONTAINER RUNTIME": true, "ACCESS MODES": true, "RECLAIM POLICY": true,
	"VOLUME MODE": true, "LAST TRANSITION TIME": false}

// singleSpaced splits a header whose columns are one space apart into its column names
// (the known two-word names kept whole); the offsets are of no use for its rows, which
// are split at their spaces (splitLoose).
func singleSpaced(t string) []column {
	w := strings.Fields(t)
	var out []column
	for i := 0; i < len(w); i++ {
		if i+1 < len(w) && twoWordColumns[w[i]+" "+w[i+1]] {
			out = append(out, column{name: w[i] + " " + w[i+1], start: -1})
			i++
			continue
		}
		out = append(out, column{name: w[i], start: -1})
	}
	return out
}

// splitCells splits a line at runs of two or more spaces (tabwriter pads columns with
// three); single spaces stay inside a cell ("CREATED AT", "False (ServiceNotFound)").
func splitCells(l string) []column {
	var out []column
	i := 0
	for i < len(l) {
		for i < len(l) && l[i] == ' ' {
			i++
		}
		if i >= len(l) {
			break
		}
		start := i
		for i < len(l) && !(l[i] == ' ' && (i+1 >= len(l) || l[i+1] == ' ')) {
			i++
		}
		out = append(out, column{name: l[start:i], start: start})
	}
	return out
}

func expandTabs(l string) string {
	var b strings.Builder
	col := 0
	for _, r := range l {
		if r == '\t' {
			n := 8 - col%8
			if n < 2 {
				n += 8 // a tab separates columns: never narrower than two spaces
			}
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// describeKey splits a `kubectl describe` line "  Key:   value" into its key and
// value. Keys at the left margin start upper case ("Name", "Status", "API Version");
// nested ones may be lower case without spaces (container names).
func describeKey(t string, indent int) (key, val string, ok bool) {
	i := strings.IndexByte(t, ':')
	if i <= 0 || i > 60 {
		return "", "", false
	}
	key = t[:i]
	rest := t[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false // "https://...", "10.0.0.1:443"
	}
	first := key[0]
	upper := first >= 'A' && first <= 'Z'
	if !upper && (indent == 0 || strings.Contains(key, " ")) {
		return "", "", false
	}
	for j := 0; j < len(key); j++ {
		c := key[j]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte(" ()/._-", c) >= 0) {
			return "", "", false
		}
	}
	if strings.Contains(key, "  ") || strings.HasSuffix(key, " ") {
		return "", "", false
	}
	if upper && strings.Contains(key, " ") {
		// "Last Transition Time": every word capitalised or an acronym
		for _, w := range strings.Split(key, " ") {
			if w == "" || w[0] < 'A' || w[0] > 'Z' && (w[0] < '0' || w[0] > '9') {
				return "", "", false
			}
		}
	}
	return key, strings.TrimSpace(rest), true
}

// unquotedIndex is the index of the first of chars outside shell quotes, or -1.
func unquotedIndex(s, chars string) int {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case strings.IndexByte(chars, c) >= 0:
			return i
		}
	}
	return -1
}

// shellFields splits a command's arguments as a shell does: at blanks outside quotes,
// the quotes removed (-o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' is
// one argument).
func shellFields(s string) []string {
	var out []string
	var b strings.Builder
	var q byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// unemphasize removes the Markdown around a command written as prose: bold or italic
// markers on both sides (`# ***kubectl get ns x -o yaml***`, a heading), or backticks
// left open (“ `kubectl delete ns x “, an inline code span whose end went to the next
// line).
func unemphasize(s string) string {
	lead := len(s) - len(strings.TrimLeft(s, "*_`"))
	if lead == 0 {
		return s
	}
	mark := s[:lead]
	inner := strings.TrimSpace(s[lead:])
	if strings.Trim(mark, "`") == "" {
		return strings.TrimSpace(strings.TrimRight(inner, "`"))
	}
	if strings.HasSuffix(inner, mark) {
		return strings.TrimSpace(strings.TrimSuffix(inner, mark))
	}
	return s
}

// namespaceArg is the value of a command's -n flag when it can name a namespace (a
// DNS-1123 label), else "": "-n -", "-n <ns>" or "-n $NS" name none.
func namespaceArg(s string) string {
	if kubemsg.IsNamespaceName(s) {
		return s
	}
	return ""
}
