package analyzer

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Cmd joins a command's words for a POSIX shell: every word that holds anything but
// letters, digits and `-_./:=,@%+` is single-quoted, so a value from the bundle (a
// namespace or object name, which a hostile bundle may fill with `$(...)`, `;` or a
// newline) is always one word and never code when the command is pasted.
//
// A word holding a newline, another control character, a bidirectional override or a
// zero-width character is never written into a command (pasted, a newline ends a
// comment the command follows, and invisible characters make the command read as
// another): Cmd then returns a comment saying so, which runs nothing.
func Cmd(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, "\n\r") || NeedsEscape(w) {
			return Comment("no command: the word " + QuoteName(w) + " holds control or invisible characters: the bundle may be damaged or hostile")
		}
		q[i] = ShellQuote(w)
	}
	return strings.Join(q, " ")
}

// ShellQuote returns s as one POSIX shell word.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=,@%+", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Comment turns text into a shell comment: a rung that tells what to do where no
// command can (every line of it starts with "# ", so pasting it runs nothing).
func Comment(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r", ""), "\n")
	return "# " + strings.Join(lines, " ")
}

// NameKind says which Kubernetes naming rule a name from the bundle must follow.
type NameKind int

const (
	// NamespaceName: a namespace, a DNS-1123 label ("team-a").
	NamespaceName NameKind = iota
	// ObjectName: the name of most objects (Deployments, Services, ConfigMaps,
	// APIServices, webhook configurations, CRDs, webhooks), a DNS-1123 subdomain.
	ObjectName
	// GroupName: an API group or a resource.group ("widgets.example.com"), a DNS-1123
	// subdomain.
	GroupName
	// FinalizerName: a finalizer, a qualified name ("kubernetes", "example.com/cleanup").
	FinalizerName
	// APIServiceName: an APIService, "<version>.<group>" ("v1beta1.metrics.k8s.io"; the
	// core group's is "v1.").
	APIServiceName
)

func (k NameKind) String() string {
	switch k {
	case NamespaceName:
		return "namespace"
	case GroupName:
		return "API group"
	case FinalizerName:
		return "finalizer"
	case APIServiceName:
		return "APIService"
	}
	return "object"
}

// NameProblem returns why name is not a valid Kubernetes name of its kind ("" when it
// is valid). A name that Kubernetes itself would have refused can only come from a
// damaged or hostile bundle: nsanalyze shows it quoted (QuoteName) and never puts it
// into a command.
func NameProblem(kind NameKind, name string) string {
	var errs []string
	switch kind {
	case NamespaceName:
		errs = validation.IsDNS1123Label(name)
	case ObjectName, GroupName:
		errs = validation.IsDNS1123Subdomain(name)
	case FinalizerName:
		errs = validation.IsQualifiedName(name)
	case APIServiceName:
		errs = validation.IsDNS1123Subdomain(strings.TrimSuffix(name, "."))
	default:
		errs = []string{"unknown name kind"}
	}
	if len(errs) == 0 {
		return ""
	}
	return strings.Join(errs, "; ")
}

// ValidName reports whether name is a valid Kubernetes name of its kind: such a name
// holds only [A-Za-z0-9._/-], never starts with "-" (it cannot be read as a flag) and
// is safe in a command.
func ValidName(kind NameKind, name string) bool { return NameProblem(kind, name) == "" }

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

// NS, Obj, Group, Fin and APISvc mark names of each kind for SafeCmd.
func NS(s string) Name     { return Name{Kind: NamespaceName, Value: s} }
func Obj(s string) Name    { return Name{Kind: ObjectName, Value: s} }
func Group(s string) Name  { return Name{Kind: GroupName, Value: s} }
func Fin(s string) Name    { return Name{Kind: FinalizerName, Value: s} }
func APISvc(s string) Name { return Name{Kind: APIServiceName, Value: s} }

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
func NotRun(kind NameKind, name string) string {
	return Comment(fmt.Sprintf("no command: %s", HostileName(kind, name)))
}

// HostileName is the warning for a name Kubernetes would not have accepted, e.g.
// `namespace name "x$(id)" is not a valid Kubernetes name: the bundle may be hostile;
// no command uses it`.
func HostileName(kind NameKind, name string) string {
	return fmt.Sprintf("%s name %s is not a valid Kubernetes name: the bundle may be damaged or hostile; no command uses it",
		kind, QuoteName(name))
}
