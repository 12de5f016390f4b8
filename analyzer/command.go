package analyzer

import (
	"fmt"

	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// Shell quoting, Kubernetes name checks and escaping live in the leaf package
// analyzer/shellsafe (shared with `nsanalyze collect` and the renderers); these are
// the names the rules use.

// Cmd joins a command's words for a POSIX shell (shellsafe.Cmd): every word that holds
// anything but letters, digits and `-_./:=,@%+` is single-quoted; a word holding a
// control or invisible character makes the command a comment that runs nothing.
func Cmd(words ...string) string { return shellsafe.Cmd(words...) }

// ShellQuote returns s as one POSIX shell word (shellsafe.Quote).
func ShellQuote(s string) string { return shellsafe.Quote(s) }

// Comment turns text into a shell comment (shellsafe.Comment).
func Comment(text string) string { return shellsafe.Comment(text) }

// NameKind says which Kubernetes naming rule a name from the bundle must follow.
type NameKind = shellsafe.NameKind

// The name kinds (see shellsafe).
const (
	NamespaceName  = shellsafe.NamespaceName
	ObjectName     = shellsafe.ObjectName
	GroupName      = shellsafe.GroupName
	FinalizerName  = shellsafe.FinalizerName
	APIServiceName = shellsafe.APIServiceName
)

// NameProblem returns why name is not a valid Kubernetes name of its kind ("" when valid).
func NameProblem(kind NameKind, name string) string { return shellsafe.NameProblem(kind, name) }

// ValidName reports whether name is a valid Kubernetes name of its kind (one pass,
// no regular expression).
func ValidName(kind NameKind, name string) bool { return shellsafe.ValidName(kind, name) }

// KubectlName returns name as a shell word for a command when it is a valid Kubernetes
// name of its kind; ok is false (and word empty) when it is not: the caller must then
// not build the command (use NotRun for the rung instead).
func KubectlName(kind NameKind, name string) (word string, ok bool) {
	if !ValidName(kind, name) {
		return "", false
	}
	return ShellQuote(name), true
}

// Name marks a word of SafeCmd as a name from the bundle, checked before it enters the
// command. Prefix and Suffix are literal text around it in the same word
// ("/api/v1/namespaces/" + name + "/finalize", "deployment/" + name).
type Name struct {
	Kind           NameKind
	Value          string
	Prefix, Suffix string
}

// NS and Obj mark names of each kind for SafeCmd.
func NS(s string) Name  { return Name{Kind: NamespaceName, Value: s} }
func Obj(s string) Name { return Name{Kind: ObjectName, Value: s} }

// In puts literal text around the name, in the same shell word.
func (n Name) In(prefix, suffix string) Name { n.Prefix, n.Suffix = prefix, suffix; return n }

// SafeCmd is Cmd for commands that use names from the bundle: every word is a literal
// string or a Name. When every Name is valid it returns the command (each word shell
// quoted) and ok; otherwise it returns NotRun for the first invalid name (a comment:
// pasting it runs nothing) and ok=false. Any other word type panics (a programming
// error).
func SafeCmd(words ...any) (cmd string, ok bool) {
	q := make([]string, len(words))
	for i, w := range words {
		switch w := w.(type) {
		case string:
			q[i] = w
		case Name:
			if !ValidName(w.Kind, w.Value) {
				return NotRun(w.Kind, w.Value), false
			}
			q[i] = w.Prefix + w.Value + w.Suffix
		case []string:
			panic("analyzer.SafeCmd: pass a []string as separate words")
		default:
			panic(fmt.Sprintf("analyzer.SafeCmd: word %d is a %T, want string or analyzer.Name", i, w))
		}
	}
	return Cmd(q...), true
}

// NotRun is the rung a ladder gives instead of a command that would have used an
// invalid name: a shell comment that shows the name escaped and says why.
func NotRun(kind NameKind, name string) string { return shellsafe.NotRun(kind, name) }

// HostileName is the warning for a name Kubernetes would not have accepted.
func HostileName(kind NameKind, name string) string { return shellsafe.HostileName(kind, name) }

// Escaping (shellsafe): the one path every output stream uses.

// Unsafe reports whether r must never reach an output raw.
func Unsafe(r rune) bool { return shellsafe.Unsafe(r) }

// NeedsEscape reports whether EscapeText would change s (newlines kept).
func NeedsEscape(s string) bool { return shellsafe.NeedsEscape(s) }

// EscapeText shows every unsafe character of s as a visible escape (newlines kept).
func EscapeText(s string) string { return shellsafe.EscapeText(s) }

// EscapeLine is EscapeText that also escapes newlines and carriage returns.
func EscapeLine(s string) string { return shellsafe.EscapeLine(s) }

// QuoteName shows a name from the bundle for prose, double-quoted and escaped.
func QuoteName(s string) string { return shellsafe.QuoteName(s) }

// EscapeJSON is shellsafe.EscapeJSON: the unsafe characters of encoded JSON as \u escapes.
func EscapeJSON(b []byte) []byte { return shellsafe.EscapeJSON(b) }

// EscapeBytes is shellsafe.EscapeBytes: bytes that are not UTF-8 spelled as \xNN.
func EscapeBytes(s string) string { return shellsafe.EscapeBytes(s) }

// EscapeNonASCII is shellsafe.EscapeNonASCII: every character outside printable ASCII escaped.
func EscapeNonASCII(s string) string { return shellsafe.EscapeNonASCII(s) }
