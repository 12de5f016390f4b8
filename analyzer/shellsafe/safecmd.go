package shellsafe

import (
	"fmt"
)

// KubectlName returns name as a shell word for a command when it is a valid Kubernetes
// name of its kind; ok is false (and word empty) when it is not: the caller must then
// not build the command (use NotRun for the rung instead).
func KubectlName(kind NameKind, name string) (word string, ok bool) {
	if !ValidName(kind, name) {
		return "", false
	}
	return Quote(name), true
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
			panic("shellsafe.SafeCmd: pass a []string as separate words")
		default:
			panic(fmt.Sprintf("shellsafe.SafeCmd: word %d is a %T, want string or shellsafe.Name", i, w))
		}
	}
	return Cmd(q...), true
}

// Escaping (shellsafe): the one path every output stream uses.
