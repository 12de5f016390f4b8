package findings

import (
	"path"
	"strings"
)

// What a rung changes, least to most. Every rung's risk label follows from it (RiskOf),
// in one place, so the same command carries the same label in every report.
const (
	// ChangesNothing: the rung only reads (get, describe, logs, api-resources).
	ChangesNothing = "nothing"
	// ChangesWorkload: the rung restarts or scales a controller; its pods are recreated
	// and nothing stored is lost.
	ChangesWorkload = "workload"
	// ChangesObject: the rung edits or deletes an object (a finalizer removed by hand, an
	// object deleted); what the object's controller would have done is skipped.
	ChangesObject = "object"
	// ChangesAPISurface: the rung removes part of the cluster's API (an APIService, a
	// webhook configuration): every client of it (kubectl top, HPAs, admission checks)
	// loses it until it is reinstalled.
	ChangesAPISurface = "api-surface"
	// ChangesData: the rung loses stored data or what finalizers guard (/finalize, a CRD
	// deleted with all its objects, a volume claim deleted).
	ChangesData = "data"
)

var changesOrder = map[string]int{ChangesNothing: 0, ChangesWorkload: 1, ChangesObject: 2, ChangesAPISurface: 3, ChangesData: 4}

// MoreChange returns the larger of two changes.
func MoreChange(a, b string) string {
	if changesOrder[b] > changesOrder[a] {
		return b
	}
	return a
}

// RiskOf is the risk label of a rung that changes what changes says: reading and
// restarting are safe, editing or deleting an object or the API surface is caution,
// losing data is destructive. A deletion is never safe.
func RiskOf(changes string) string {
	switch changes {
	case ChangesNothing, ChangesWorkload:
		return RiskSafe
	case ChangesData:
		return RiskDestructive
	default:
		return RiskCaution
	}
}

// Label sets a rung's Changes (the most of what it declares and what its command does,
// CommandChanges) and its Risk from that.
func Label(s RemediationStep) RemediationStep {
	s.Changes = MoreChange(s.Changes, CommandChanges(s.Command))
	if s.Changes == "" {
		s.Changes = ChangesNothing
	}
	s.Risk = RiskOf(s.Changes)
	return s
}

// LabelAll is Label over every rung of steps, in place.
func LabelAll(steps []RemediationStep) []RemediationStep {
	for i := range steps {
		steps[i] = Label(steps[i])
	}
	return steps
}

// CommentOnly reports whether a command runs nothing (it is empty or only a comment).
func CommentOnly(cmd string) bool {
	for _, w := range shellWords(cmd) {
		if w != opSep {
			return false
		}
	}
	return true
}

// CommandChanges says what a shell command changes: the most of what each simple
// command in it does (pipelines, lists, xargs and loops included). A command it does not
// know changes an object, so nothing unknown is ever called safe.
func CommandChanges(cmd string) string {
	most := ChangesNothing
	for _, simple := range simpleCommands(shellWords(cmd)) {
		most = MoreChange(most, simpleChanges(simple))
	}
	return most
}

// readOnlyTools are commands that only read or format their input.
var readOnlyTools = map[string]bool{"grep": true, "jq": true, "sed": true, "awk": true, "sort": true, "uniq": true, "head": true,
	"tail": true, "cut": true, "tr": true, "wc": true, "cat": true, "echo": true, "printf": true, "base64": true, "openssl": true,
	"journalctl": true, "true": true, "test": true, "[": true, "column": true, "date": true, "tee": false, "less": true, "xxd": true,
	"nslookup": true, "dig": true, "ls": true, "find": true, "zcat": true, "crictl": true, "curl": false, "sleep": true,
	"watch": true, "nsanalyze": true, "bash": false, "sh": false, "tar": false}

// shellKeywords start or end a compound command and are skipped before a command word.
var shellKeywords = map[string]bool{"do": true, "done": true, "then": true, "else": true, "fi": true, "if": true, "while": true,
	"until": true, "{": true, "}": true, "!": true, "time": true}

func simpleChanges(w []string) string {
	for len(w) > 0 && (shellKeywords[w[0]] || strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "-")) {
		w = w[1:] // keywords and VAR=value prefixes
	}
	if len(w) == 0 {
		return ChangesNothing
	}
	switch name := path.Base(w[0]); {
	case name == "for" || name == "in" || name == "case" || name == "esac":
		return ChangesNothing // the loop's list; its body is a command of its own
	case name == "xargs":
		return simpleChanges(xargsCommand(w[1:]))
	case name == "kubectl" || name == "oc":
		return kubectlChanges(w[1:])
	case name == "gcloud" || name == "aws" || name == "az":
		return cloudChanges(w[1:])
	case readOnlyTools[name]:
		if name == "sed" && hasFlag(w, "-i") {
			return ChangesObject
		}
		return ChangesNothing
	}
	return ChangesObject
}

// xargsCommand drops xargs' own flags and returns the command it runs.
func xargsCommand(w []string) []string {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") {
		f := w[0]
		w = w[1:]
		if (f == "-n" || f == "-I" || f == "-L" || f == "-P" || f == "-d" || f == "-s" || f == "-E") && len(w) > 0 {
			w = w[1:]
		}
	}
	return w
}

func hasFlag(w []string, f string) bool {
	for _, x := range w {
		if x == f || strings.HasPrefix(x, f+"=") {
			return true
		}
	}
	return false
}

// kubectlFlagsWithValue are kubectl's global and common flags that take the next word.
var kubectlFlagsWithValue = map[string]bool{"-n": true, "--namespace": true, "--context": true, "--kubeconfig": true, "-l": true,
	"--selector": true, "-o": true, "--output": true, "-f": true, "--filename": true, "-p": true, "--patch": true, "--type": true,
	"-c": true, "--container": true, "--tail": true, "--since": true, "--field-selector": true, "--as": true, "--server": true,
	"--request-timeout": true, "--replicas": true, "--raw": true, "--for": true, "--timeout": true, "--subresource": true}

// kubectlWords splits a kubectl command's words into its verb and arguments, without flags.
func kubectlWords(w []string) (args []string, raw string) {
	for i := 0; i < len(w); i++ {
		x := w[i]
		if strings.HasPrefix(x, "-") {
			if x == "--raw" && i+1 < len(w) {
				raw = w[i+1]
			}
			if strings.HasPrefix(x, "--raw=") {
				raw = strings.TrimPrefix(x, "--raw=")
			}
			if kubectlFlagsWithValue[x] {
				i++
			}
			continue
		}
		args = append(args, x)
	}
	return args, raw
}

func kubectlChanges(w []string) string {
	args, raw := kubectlWords(w)
	if len(args) == 0 {
		return ChangesNothing
	}
	verb := args[0]
	res := ""
	if len(args) > 1 {
		res = strings.ToLower(args[1])
		if i := strings.IndexByte(res, '/'); i > 0 {
			res = res[:i]
		}
	}
	switch verb {
	case "get", "describe", "logs", "api-resources", "api-versions", "auth", "explain", "version", "cluster-info", "top",
		"events", "wait", "diff", "config", "whoami", "status", "adm": // oc adm must-gather / inspect only read
		if verb == "adm" && res != "" && res != "must-gather" && res != "inspect" && res != "node-logs" {
			return ChangesObject
		}
		if verb == "config" && res != "view" && res != "current-context" && res != "get-contexts" {
			return ChangesObject
		}
		return ChangesNothing
	case "rollout":
		if res == "status" || res == "history" {
			return ChangesNothing
		}
		return ChangesWorkload
	case "scale":
		return ChangesWorkload
	case "replace", "create":
		if strings.HasSuffix(strings.TrimRight(raw, "/"), "/finalize") {
			return ChangesData // the namespace goes with whatever is still stored for it
		}
		return ChangesObject
	case "delete":
		switch {
		case strings.HasPrefix(res, "customresourcedefinition") || res == "crd" || res == "crds",
			strings.HasPrefix(res, "namespace") || res == "ns",
			strings.HasPrefix(res, "persistentvolume") || res == "pv" || res == "pvc":
			return ChangesData
		case strings.HasPrefix(res, "apiservice"), strings.HasPrefix(res, "validatingwebhookconfiguration"),
			strings.HasPrefix(res, "mutatingwebhookconfiguration"):
			return ChangesAPISurface
		}
		return ChangesObject
	}
	return ChangesObject
}

// cloudChanges reads a cloud CLI's command: only listing, describing and reading logs
// is read-only.
func cloudChanges(w []string) string {
	for _, x := range w {
		switch x {
		case "read", "list", "describe", "show", "get-log-events", "filter-log-events", "describe-cluster", "tail", "query":
			return ChangesNothing
		}
	}
	return ChangesObject
}

// shellToken is a word of a command line, or an operator between its simple commands.
type shellToken struct {
	text       string // the word with its quotes and escapes removed (opSep for an operator)
	start, end int    // the word's bytes in the command line, quotes included
	quoted     bool   // some of the word was quoted or escaped
}

// shellTokens splits a command line as a POSIX shell does, well enough to tell what
// runs: words (quotes and backslashes removed, with where they are) and the operators
// that end a simple command (newline, ;, (, ), `, |, ||, &, &&, $( and a comment, each
// opSep). It is the one reader of command lines: shellWords reads what a command
// changes from it, ForClient which words run as a program.
func shellTokens(cmd string) []shellToken {
	var toks []shellToken
	var cur strings.Builder
	inWord, quoted, start := false, false, 0
	begin := func(i int) {
		if !inWord {
			inWord, start = true, i
		}
	}
	flush := func(end int) {
		if inWord {
			toks = append(toks, shellToken{text: cur.String(), start: start, end: end, quoted: quoted})
			cur.Reset()
			inWord, quoted = false, false
		}
	}
	op := func(i int) { toks = append(toks, shellToken{text: opSep, start: i, end: i}) }
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\'':
			begin(i)
			quoted = true
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				cur.WriteString(cmd[i+1:])
				i = len(cmd)
				break
			}
			cur.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			begin(i)
			quoted = true
			for i++; i < len(cmd) && cmd[i] != '"'; i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) {
					i++
				}
				cur.WriteByte(cmd[i])
			}
		case c == '\\' && i+1 < len(cmd):
			begin(i)
			quoted = true
			i++
			cur.WriteByte(cmd[i])
		case c == '#' && !inWord:
			at := i
			for i < len(cmd) && cmd[i] != '\n' {
				i++
			}
			op(at)
		case c == ' ' || c == '\t':
			flush(i)
		case c == '\n' || c == ';' || c == '(' || c == ')' || c == '`':
			flush(i)
			op(i)
		case c == '|' || c == '&':
			flush(i)
			op(i)
			if i+1 < len(cmd) && cmd[i+1] == c {
				i++
			}
		case c == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
			flush(i)
			op(i)
			i++
		default:
			begin(i)
			cur.WriteByte(c)
		}
	}
	flush(len(cmd))
	return toks
}

// shellWords splits a command line into its words (quotes removed) with opSep between
// simple commands, never two in a row, none first or last.
func shellWords(cmd string) []string {
	var out []string
	for _, t := range shellTokens(cmd) {
		if t.text != opSep || len(out) > 0 && out[len(out)-1] != opSep {
			out = append(out, t.text)
		}
	}
	for len(out) > 0 && out[len(out)-1] == opSep {
		out = out[:len(out)-1]
	}
	return out
}

// opSep is the word shellWords gives for an operator (no shell word holds a NUL).
const opSep = "\x00"

// simpleCommands splits shell words at the operators shellWords marks.
func simpleCommands(words []string) [][]string {
	var out [][]string
	var cur []string
	for _, w := range words {
		if w == opSep {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, w)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
