package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"
)

// runFunc runs a command once its flags are parsed; its positional arguments are fs.Args().
type runFunc func(fs *pflag.FlagSet, s IOStreams) int

// cmdOptions is a command's options, run as kubectl runs its commands: Complete fills
// in what the flags and arguments imply, Validate checks them, Run does the work.
type cmdOptions interface {
	Complete(fs *pflag.FlagSet, s IOStreams) error
	Validate() error
	Run(s IOStreams) int
}

// usageError is a mistake on the command line that the command's help follows.
type usageError struct{ error }

// runOptions is the runFunc of a command with options: an error of Complete or
// Validate is a usage error (exit 2), said once on ErrOut.
func runOptions(o cmdOptions) runFunc {
	return func(fs *pflag.FlagSet, s IOStreams) int {
		err := o.Complete(fs, s)
		if err == nil {
			err = o.Validate()
		}
		if err != nil {
			fmt.Fprintf(s.ErrOut, "error: %v\n", err)
			if _, ok := err.(usageError); ok {
				fmt.Fprintln(s.ErrOut)
				fs.Usage()
			}
			return exitUsage
		}
		return o.Run(s)
	}
}

// command is one subcommand of nsanalyze. The dispatcher, `nsanalyze --help`,
// `nsanalyze help CMD` and the shell completions all read the table below, so a
// subcommand is added by one entry:
//
//	{name: "scan", args: "[flags] BUNDLE", summary: "...", run: runScan},
type command struct {
	name    string
	args    string // synopsis after the name: "[flags] OLD NEW"
	summary string // one line of `nsanalyze --help`
	usage   string // the text of `nsanalyze CMD --help` above its flags ("" = synopsis and summary)
	// flags declares the command's flags on fs and returns the function that runs it
	// once the dispatcher has parsed them (with the global flags, given before or after
	// the command name) and answered --help.
	flags func(fs *pflag.FlagSet) runFunc
	// run, for a command that parses its own arguments (flags is then nil), gets them
	// as given, the flags written before the command name first; it answers --help
	// itself (`nsanalyze help CMD` runs it with --help), and its completion offers only
	// the global flags: declaring flags in flags gives it help, checks and completion.
	run func(args []string, stdout, stderr io.Writer) int
	// complete lists the values of the command's next positional argument, given those
	// before it (nil: bundle paths, i.e. files).
	complete func(args []string) []string
	hidden   bool // not listed (the completion scripts' __complete)
}

// commands are nsanalyze's subcommands, in the order of the help.
var commands []*command

func init() { // (an initialization cycle otherwise: help and completion read the table)
	commands = []*command{
		{name: "explain", args: "[-o text|json] [CAUSE]", summary: "what a cause type means, how Kubernetes gets there, its remediation ladder",
			usage: explainUsage, flags: explainFlags, complete: func(a []string) []string {
				if len(a) > 0 {
					return nil
				}
				n, _ := causeDocs()
				return n
			}},
		{name: "diff", args: "[flags] OLD NEW", summary: "compare two bundles of the same cluster (before/after a fix)",
			usage: diffUsage, flags: diffFlags},
		{name: "scan", args: "[flags] DIR|BUNDLE...", summary: "analyse many bundles; count their problems by fingerprint",
			usage: scanUsage, flags: scanFlags},
		{name: "collect", args: "[flags]", summary: "print the read-only script (or troubleshoot spec) a customer runs to make a bundle",
			usage: collectUsage, flags: collectFlags, complete: none},
		{name: "version", args: "", summary: "the version and VCS revision of this nsanalyze (also --version)",
			flags: versionFlags, complete: none},
		{name: "help", args: "[COMMAND]", summary: "help about nsanalyze or one of its commands",
			flags: helpFlags, complete: func(a []string) []string {
				if len(a) > 0 {
					return nil
				}
				return commandNames()
			}},
		{name: "completion", args: "bash|zsh|fish", summary: "a shell completion script (commands, flags, their values)",
			usage: completionUsage, flags: completionFlags, complete: func(a []string) []string {
				if len(a) > 0 {
					return nil
				}
				return completionShells
			}},
		{name: "__complete", hidden: true, run: runComplete},
	}
}

// root is the command without a name: the analysis of bundles.
var root = &command{name: "", args: "[flags] BUNDLE [BUNDLE...]", flags: analyzeFlags}

func none([]string) []string { return []string{} }

// lookupCommand returns the subcommand called name, or nil.
func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames lists the subcommands shown to users.
func commandNames() []string {
	var out []string
	for _, c := range commands {
		if !c.hidden {
			out = append(out, c.name)
		}
	}
	return out
}

// title is how messages name the command: "nsanalyze diff".
func (c *command) title() string { return strings.TrimSpace("nsanalyze " + c.name) }

// globalFlags are accepted by every command, before or after its name.
func addGlobalFlags(fs *pflag.FlagSet) {
	if fs.Lookup("help") == nil {
		fs.BoolP("help", "h", false, "show this help")
	}
	if fs.Lookup("verbosity") == nil {
		enumFlag(fs, "verbosity", "v", "warning", verbosityLevels, "diagnostics on stderr: error|warning|info|debug")
		_ = fs.SetAnnotation("verbosity", annAliases, []string{"warn", "trace", "fatal", "panic"})
	}
}

var verbosityLevels = []string{"error", "warning", "info", "debug"}

// Flag annotations read by the dispatcher (validation) and the completions.
const (
	annValues  = "nsanalyze/values"  // the values a flag takes (completed, and checked when set)
	annAliases = "nsanalyze/aliases" // further accepted values, not completed
	annHint    = "nsanalyze/hint"    // said after a rejected value
	annFiles   = "nsanalyze/files"   // the flag names a file (completed as paths)
)

// enumFlag declares a string flag taking one of values.
func enumFlag(fs *pflag.FlagSet, name, short, def string, values []string, usage string) *string {
	p := fs.StringP(name, short, def, usage)
	_ = fs.SetAnnotation(name, annValues, values)
	return p
}

// fileFlag marks a declared flag as naming a file.
func fileFlag(fs *pflag.FlagSet, name string) {
	_ = fs.SetAnnotation(name, annFiles, []string{"true"})
}

// flagSet is the command's flag set with its flags and the global ones declared, and
// the function that runs the command (nil for a command that parses its own arguments).
func (c *command) flagSet(stderr io.Writer) (*pflag.FlagSet, runFunc) {
	fs := pflag.NewFlagSet(c.title(), pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var fn runFunc
	if c.flags != nil {
		fn = c.flags(fs)
	}
	addGlobalFlags(fs)
	return fs, fn
}

// helpText is the whole of `nsanalyze CMD --help`.
func (c *command) helpText() string {
	fs, _ := c.flagSet(io.Discard)
	var b strings.Builder
	switch {
	case c == root:
		b.WriteString(rootUsage())
	case c.usage != "":
		b.WriteString(c.usage)
	default:
		fmt.Fprintf(&b, "%s\n\nUsage:\n  %s\n\nFlags:\n", upperFirst(c.summary), strings.TrimSpace(c.title()+" "+c.args))
	}
	b.WriteString(fs.FlagUsages())
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// run is nsanalyze on its command line: it finds the command, parses its flags (the
// global ones and the command's own, before or after its name, as kubectl does),
// answers --help, checks the values of enumerated flags, and runs it.
//
// Every write to stdout is checked: when one fails or is short (a full disk, a closed
// stdout), the command's answer was not given, and the exit code is exitWrite whatever
// the command found.
func run(args []string, stdout, stderr io.Writer) int {
	out := &errWriter{w: stdout}
	code := dispatch(args, IOStreams{In: stdin, Out: out, ErrOut: stderr})
	if out.err != nil && code != exitWrite { // (exitWrite: the command said what it could not write)
		return writeFailure(stderr, "to standard output", out.err)
	}
	return code
}

// dispatch runs the command of args.
func dispatch(args []string, s IOStreams) int {
	stdout, stderr := s.Out, s.ErrOut
	c, rest := route(args)
	if c == root {
		if name, ok := mistypedCommand(args); ok {
			fmt.Fprintf(stderr, "error: unknown command %q for \"nsanalyze\"\n\nDid you mean this?\n\t%s\n\nRun 'nsanalyze --help' for usage.\n", args[firstPositional(args, allFlags())], name)
			return exitUsage
		}
	}
	if c.flags == nil {
		return c.run(rest, stdout, stderr)
	}
	fs, fn := c.flagSet(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, c.helpText()) }
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, c.helpText())
			return exitNotStuck
		}
		fmt.Fprintf(stderr, "error: %v\n\n", err) // pflag returns it without printing
		fs.Usage()
		return exitUsage
	}
	if h, _ := fs.GetBool("help"); h {
		fmt.Fprint(stdout, c.helpText())
		return exitNotStuck
	}
	if err := checkValues(c, fs); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	return fn(fs, s)
}

// checkValues rejects a value an enumerated flag does not take.
func checkValues(c *command, fs *pflag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *pflag.Flag) {
		values := f.Annotations[annValues]
		if err != nil || !f.Changed || len(values) == 0 {
			return
		}
		v := f.Value.String()
		if slices.Contains(values, v) || slices.Contains(f.Annotations[annAliases], v) {
			return
		}
		where := ""
		if c != root {
			where = " for " + c.name
		}
		err = fmt.Errorf("invalid --%s %q%s (want %s)", f.Name, v, where, orList(values))
		if h := f.Annotations[annHint]; len(h) > 0 {
			err = fmt.Errorf("%w; %s", err, h[0])
		}
	})
	return err
}

// orList is "a, b or c".
func orList(v []string) string {
	if len(v) < 2 {
		return strings.Join(v, "")
	}
	return strings.Join(v[:len(v)-1], ", ") + " or " + v[len(v)-1]
}

// route finds the command of a command line: its first positional argument when that
// names a command (flags before it are skipped with their values), else the analysis.
// rest is the command line without the command's name.
func route(args []string) (*command, []string) {
	i := firstPositional(args, allFlags())
	if i < 0 {
		return root, args
	}
	if c := lookupCommand(args[i]); c != nil {
		return c, append(append([]string{}, args[:i]...), args[i+1:]...)
	}
	return root, args
}

// firstPositional returns the index of the first argument that is not a flag or a
// flag's value ("--" ends the flags: what follows is never a command), or -1.
func firstPositional(args []string, fs *pflag.FlagSet) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return -1
		case a == "-" || !strings.HasPrefix(a, "-"):
			return i
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") && takesValue(fs.Lookup(a[2:])) {
				i++
			}
		default: // -abc: shorthands; one that takes a value takes the rest, or the next argument
			for j := 1; j < len(a); j++ {
				f := fs.ShorthandLookup(a[j : j+1])
				if f == nil {
					break
				}
				if takesValue(f) {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return -1
}

func takesValue(f *pflag.Flag) bool { return f != nil && f.NoOptDefVal == "" }

// allFlags is every flag of every command: how the dispatcher knows, before it knows
// the command, which flags take a value. (A flag means the same in every command: a
// test holds it.)
func allFlags() *pflag.FlagSet {
	all := pflag.NewFlagSet("all", pflag.ContinueOnError)
	for _, c := range append([]*command{root}, commands...) {
		fs, _ := c.flagSet(io.Discard)
		fs.VisitAll(func(f *pflag.Flag) {
			if all.Lookup(f.Name) == nil && (f.Shorthand == "" || all.ShorthandLookup(f.Shorthand) == nil) {
				all.AddFlag(f)
			}
		})
	}
	return all
}

// commandLogger is the logger of a command's diagnostics on stderr, at its --verbosity.
func commandLogger(fs *pflag.FlagSet, stderr io.Writer) (*logrus.Logger, error) {
	log := newLogger(stderr)
	v := "warning"
	if f := fs.Lookup("verbosity"); f != nil {
		v = f.Value.String()
	}
	lvl, err := logrus.ParseLevel(v)
	if err != nil {
		return nil, fmt.Errorf("invalid --verbosity %q", v)
	}
	log.SetLevel(lvl)
	return log, nil
}

// versionFlags: `nsanalyze version`.
func versionFlags(*pflag.FlagSet) runFunc {
	return func(fs *pflag.FlagSet, s IOStreams) int {
		stdout, stderr := s.Out, s.ErrOut
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "error: version takes no argument, got %q\n", fs.Args())
			return exitUsage
		}
		printVersion(stdout)
		return exitNotStuck
	}
}

// helpFlags: `nsanalyze help [COMMAND]`.
func helpFlags(*pflag.FlagSet) runFunc {
	return func(fs *pflag.FlagSet, s IOStreams) int {
		stdout, stderr := s.Out, s.ErrOut
		switch fs.NArg() {
		case 0:
			fmt.Fprint(stdout, root.helpText())
			return exitNotStuck
		case 1:
			if c := lookupCommand(fs.Arg(0)); c != nil && !c.hidden {
				if c.flags == nil {
					return c.run([]string{"--help"}, stdout, stderr) // it parses its own flags, and says its help
				}
				fmt.Fprint(stdout, c.helpText())
				return exitNotStuck
			}
			fmt.Fprintf(stderr, "error: unknown command %q; commands: %s\n", fs.Arg(0), strings.Join(commandNames(), ", "))
			return exitUsage
		}
		fmt.Fprintf(stderr, "error: help takes at most one COMMAND, got %q\n", fs.Args())
		return exitUsage
	}
}

// commandsHelp is the list of commands in `nsanalyze --help`.
func commandsHelp() string {
	var b strings.Builder
	width := 0
	for _, c := range commands {
		if !c.hidden {
			width = max(width, len(c.name)+1+len(c.args))
		}
	}
	for _, c := range commands {
		if !c.hidden {
			fmt.Fprintf(&b, "  nsanalyze %-*s  %s\n", width, strings.TrimSpace(c.name+" "+c.args), c.summary)
		}
	}
	return b.String()
}

// mistypedCommand: when the first positional argument of args is no file and is a
// command name mistyped (at most two edits, or a prefix), the command meant, as cobra
// and kubectl suggest ("Did you mean this?").
func mistypedCommand(args []string) (string, bool) {
	i := firstPositional(args, allFlags())
	if i < 0 || args[i] == stdinBundle {
		return "", false
	}
	word := args[i]
	if _, err := os.Stat(word); err == nil || strings.ContainsAny(word, "/.") {
		return "", false // a bundle
	}
	for _, name := range commandNames() {
		if levenshtein(strings.ToLower(word), name) <= 2 || (len(word) >= 2 && strings.HasPrefix(name, strings.ToLower(word))) {
			return name, true
		}
	}
	return "", false
}

// levenshtein is the edit distance of a and b.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
