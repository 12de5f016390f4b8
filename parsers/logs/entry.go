// Package logs reads component logs (kube-apiserver, kube-controller-manager, ...) as
// a stream and returns typed entries for the lines the caller asks for.
//
// A log is read once, in large blocks. The caller's literal key phrases are searched
// for in each block before any line is split or parsed, so the cost of a log is close
// to that of `grep -F`; only matching lines are parsed. Line framing (CRI, docker
// json-file, kubectl --timestamps, journald) is removed first, then the record is read
// as klog text (printf or structured), component-base JSON logging, or plain text.
package logs

import (
	"strings"
	"time"
)

// Entry is one parsed log line.
type Entry struct {
	File      string // path relative to the bundle root
	Line      int    // 1-based physical line number in File
	Component string // "kube-apiserver", "kube-controller-manager", ... or "" when unknown

	Time         time.Time // zero when the line carries no time
	YearInferred bool      // klog lines carry no year: it was inferred (see Options.Reference)
	TimeSource   string    // "klog", "json", "cri", "docker", "timestamp-prefix", "journald", ""
	// YearInferred times (klog, journald short) are completed by ResolveYears; FileInfo.YearBasis
	// says from what.

	Severity string            // "I", "W", "E", "F", or "" when the format has none
	Caller   string            // source file:line of the emitting call, e.g. "namespace_controller.go:164"
	Message  string            // the message: printf text, or the structured message unquoted
	Fields   map[string]string // structured key/value pairs (err, logger, name, ...), unquoted
	Text     string            // the physical line as written (capped at MaxTextBytes)

	process string // journald/syslog identifier of the writing process ("k3s", "kube-apiserver", ...)
	badTime string // a time outside years 0001-9999 the line carried (ignored; warned about)

	// Omitted counts the lines of the same file and shape (the line as written, without
	// its klog header or CRI prefix) that matched but were not kept (see
	// MaxEntriesPerShape): the first MaxEntriesPerShape-1 lines of a shape are kept,
	// then only the latest, which carries the count of those it replaced. Count
	// 1+Omitted per entry to count the matching lines.
	Omitted int
}

// MaxTextBytes caps Entry.Text; the line number is unaffected.
const MaxTextBytes = 2000

// Detail returns the text to match message templates against: the message and the
// structured error, joined. For 1.31+ lines (`"Unhandled Error" err="..."`) that is the
// error text; for printf lines it is the message itself.
func (e *Entry) Detail() string {
	err := e.Fields["err"]
	switch {
	case e.Message == "HTTP" && e.Fields["verb"] != "":
		// kube-apiserver's request log (httplog, 1.19+): the request is in the fields;
		// its detail reads as the printf form of 1.14-1.18 did
		return "HTTP " + e.Fields["verb"] + " " + e.Fields["URI"] + " " + e.Fields["resp"] + " [" + e.Fields["userAgent"] + "]"
	case err == "":
		return e.Message
	case e.Message == "Unhandled Error" || e.Message == "":
		return err
	default:
		return e.Message + ": " + err
	}
}

// Contains reports whether the message, or any structured value, contains s.
func (e *Entry) Contains(s string) bool {
	if strings.Contains(e.Message, s) {
		return true
	}
	for _, v := range e.Fields {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// Field returns a structured value or "".
func (e *Entry) Field(k string) string { return e.Fields[k] }
