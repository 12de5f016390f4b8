package text

import (
	"bytes"
	"strings"
)

// Sniff reports whether the start of a file (its first KBs) is a kubectl text rendering:
// a command line after a shell prompt, a `kubectl get` table header, a `kubectl
// describe` block, kubectl's stderr, or a headerless apiservice/namespace row. A real
// log (klog or timestamped lines from a component) is not: it goes to the log parser,
// even when a kubectl line appears in it.
func Sniff(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && len(head) >= 4096 {
		head = head[:i] // the last line may be cut
	}
	lines := strings.Split(string(head), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	// judged as the readers will see it: unframed, unquoted, unshifted
	lines, _ = normalize(lines)
	n, logLike, strong, klogKubectl, stamped := 0, 0, 0, 0, 0
	for i, l := range lines {
		l = strings.TrimRight(l, "\r")
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		n++
		if n > 200 {
			break
		}
		sig := false
		if logLine(l) {
			stamped++
		}
		switch {
		case reKlog.MatchString(l):
			m := reKlog.FindStringSubmatch(l)
			caller, _, _ := strings.Cut(m[2], ":")
			// kubectl's own klog lines; a component in a container logs as pid 1
			if kubectlCallers[caller] && m[1] != "1" {
				klogKubectl++
				sig = true
			} else {
				logLike++
			}
		case yamlObjectStart(lines, i):
			// a Kubernetes object pasted as YAML in prose (after a Markdown heading,
			// no prompt): the text reader reads it, whatever surrounds it
			strong++
			sig = true
		case parseCommand(l, 0) != nil, stderrLine(l), headerColumns(l) != nil,
			strings.HasPrefix(l, "Name:") && (len(l) == 5 || l[5] == ' ' || l[5] == '\t'),
			reAPIServiceRow.MatchString(l), reNamespaceRow.MatchString(l), len(apiServiceRowsAt(lines, i)) > 0, isKnsk(l), lostBrace(l) >= 0:
			strong++
			sig = true
		case logLine(l):
			logLike++
		}
		if n == 1 && !sig && (logLine(l) || reKlog.MatchString(l)) {
			return false // a log that may quote kubectl later
		}
	}
	if stamped >= 2 {
		// lines with full times (a timestamped transcript, a component log): the log
		// parser keeps their times
		return false
	}
	if strong > 0 {
		return logLike*2 < n
	}
	return klogKubectl > 0 && logLike == 0
}

// logLine recognises the timestamped lines of component logs (RFC 3339 prefixes, CRI,
// journald short format), which make a file a log.
func logLine(l string) bool {
	if len(l) < 20 {
		return false
	}
	// 2026-03-12T10:11:12.123Z ..., 2026-03-12 10:11:12 ...
	if l[4] == '-' && l[7] == '-' && (l[10] == 'T' || l[10] == ' ') && isDigits(l[:4]) && isDigits(l[11:13]) {
		return true
	}
	// Mar 12 10:11:12 host proc[pid]: ...
	if len(l) > 16 && l[3] == ' ' && l[9] == ':' && l[12] == ':' && isUpper(l[:1]) {
		return true
	}
	return false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// yamlObjectStart reports a YAML object's `apiVersion:` (or `kind:`) line at the margin
// with the other key on the next non-blank line, as kubectl prints them, or a JSON
// object's opening brace with both keys on its next lines.
func yamlObjectStart(lines []string, i int) bool {
	if strings.TrimSpace(lines[i]) == "{" {
		// the same as JSON: `{` then "apiVersion" and "kind" (a dump pasted after a
		// `cat`, which no prompt marks as a command)
		keys := 0
		for j := i + 1; j < len(lines) && j <= i+3; j++ {
			t := strings.TrimSpace(lines[j])
			if strings.HasPrefix(t, `"apiVersion":`) || strings.HasPrefix(t, `"kind":`) {
				keys++
			}
		}
		return keys == 2
	}
	other := ""
	switch {
	case strings.HasPrefix(lines[i], "apiVersion: "):
		other = "kind: "
	case strings.HasPrefix(lines[i], "kind: "):
		other = "apiVersion: "
	default:
		return false
	}
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		if t := strings.TrimSpace(lines[j]); t != "" {
			return strings.HasPrefix(lines[j], other)
		}
	}
	return false
}

func isKnsk(l string) bool {
	_, ok := knskNamespace(l)
	return ok
}
