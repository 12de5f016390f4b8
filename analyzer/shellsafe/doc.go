// Package shellsafe is the one place where text from a support bundle is made safe to
// show or to paste: escaping for every output stream (EscapeText, EscapeLine,
// QuoteName), POSIX shell quoting (Quote, Cmd, Comment) and the Kubernetes name rules
// (ValidName, NameProblem) that decide whether a name from the bundle may enter a
// command at all; the rules build their commands with SafeCmd, which takes each name
// from the bundle as a Name (NS, Obj) and checks it before it enters the command. It is a leaf: it imports nothing of nsanalyze, so the analyzer, the
// renderers and `nsanalyze collect` share it.
//
// Every check is linear in its input and needs no regular expression: ValidName is a
// hand-written equivalent of apimachinery's DNS-1123 and qualified-name rules
// (FuzzValidNameAgrees holds the equivalence), and Guard finds every forbidden name in
// a command in one pass over the command, whatever the number of names.
package shellsafe
