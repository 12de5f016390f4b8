// Command nsanalyze explains, offline, why namespaces in a Kubernetes support bundle
// are stuck in Terminating.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// Exit codes.
const (
	exitNotStuck = 0 // no namespace is stuck
	exitStuck    = 1 // at least one namespace is stuck
	exitUsage    = 2 // usage error or unreadable bundle
	// exitInconclusive: no namespace is known to be stuck, but the bundle cannot show
	// namespace state (no Namespace objects or namespace table, or -n names a namespace
	// the bundle does not hold); the report says what to collect.
	exitInconclusive = 3
	// exitWrite (streams.go) = 4: the report, --results or --output-file was not
	// written in full.
)

// usageHead and usageTail frame the commands of `nsanalyze --help` (rootUsage), which
// come from the command table (commands.go).
const usageHead = `nsanalyze explains why Kubernetes namespaces are stuck in Terminating, from a
support bundle (saved "kubectl get -o json|yaml" output, cluster-info dumps and
component logs). It never contacts a cluster and never writes into the bundle.

Usage:
  nsanalyze [flags] BUNDLE [BUNDLE...]
  nsanalyze COMMAND [flags] [ARGS]  (flags may come before or after COMMAND)

Commands:
`

const usageTail = `
A BUNDLE is a directory, an archive (.tar, .tar.gz, .tar.xz, .zip, ...) or a single
file; "-" reads an archive or file from standard input (spooled to a temporary file
outside the bundle and removed afterwards, also on SIGINT, SIGTERM and SIGHUP).
Several BUNDLEs are read as one view of one cluster (a dump and a folder of its logs);
bundles of different clusters (kube-system has another UID), given as several
arguments or as one folder holding them, are refused (exit 2): analyse them one at a
time, or count the problems of all of them with "nsanalyze scan DIR|BUNDLE...". (A
folder of archives that show no cluster identity is read as one, with a warning.)
Every -n name the bundle does not hold is named on stderr.

Examples:
  # Analyse a bundle directory and print the report
  nsanalyze ./bundle

  # Only the namespace "tobedeleted", as JSON for scripts
  nsanalyze -n tobedeleted -o json ./bundle > report.json

  # klog lines were written in the node's local time (UTC+1)
  nsanalyze --log-timezone Europe/Berlin ./bundle

  # A report to attach to a ticket, without customer names or addresses
  nsanalyze --redact -o html ./bundle > report.html

  # In CI: fail only on stuck namespaces, and also on latent risks
  nsanalyze --fail-on risk ./bundle

  # A bundle archive from another command or host
  ssh bastion cat /tmp/bundle.tar.gz | nsanalyze -

  # Which file of the bundle was read as what (or why not), on stderr
  nsanalyze -v debug ./bundle > /dev/null

  # Before and after a fix, one namespace, as Markdown
  nsanalyze -n shop diff -o markdown before.tar.gz after.tar.gz

  # The script a customer runs to make a bundle, saved to a file
  nsanalyze collect --output-file collect.sh

  # What a cause means and its ladder; help on one command
  nsanalyze explain discovery
  nsanalyze help diff

  # Shell completion (bash; also zsh and fish)
  source <(nsanalyze completion bash)

The text report is laid out for $COLUMNS columns (default 100, between 60 and 200);
commands are never wrapped.

Exit codes:
  0  no namespace is stuck (or --fail-on none)
  1  at least one namespace is stuck (--fail-on risk: or a latent risk was found)
  2  usage error, or nothing in the bundle could be read
  3  inconclusive: the bundle cannot show namespace state (or -n names a namespace it
     does not hold); the report says what to collect
  4  the report could not be written in full (a full disk, a closed stdout)

Flags:
`

// rootUsage is the text of `nsanalyze --help` above its flags.
func rootUsage() string { return usageHead + commandsHelp() + usageTail }

// memoryTarget (200 MiB) is the soft heap limit nsanalyze sets for itself (unless GOMEMLIMIT says
// otherwise): the garbage collector works harder only as the heap nears it, so large
// bundles stay within the documented memory budget without slowing small ones.
const memoryTarget = 200 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryTarget)
	}
	os.Exit(run(os.Args[1:], stdoutWriter(), os.Stderr))
}

// analyzeOptions are the flags of the analysis (the command without a name), and
// what Complete makes of them, as kubectl's Options / Complete / Validate / Run.
type analyzeOptions struct {
	output, verbosity, colorMode, failOn, profile, profileOut *string
	namespaces                                                *[]string
	quiet, version, redact                                    *bool
	load                                                      *loadFlags

	args  []string // the bundles as given
	log   *logrus.Logger
	opts  bundle.Options
	color bool
}

// analyzeFlags declares the flags of the analysis.
func analyzeFlags(fs *pflag.FlagSet) runFunc {
	a := &analyzeOptions{
		output:     enumFlag(fs, "output", "o", "text", render.OutputFormats, "output format: "+strings.Join(render.OutputFormats, "|")),
		namespaces: fs.StringSliceP("namespace", "n", nil, "only report these namespaces (repeatable, or comma-separated); each one the bundle does not hold is named on stderr"),
		verbosity:  enumFlag(fs, "verbosity", "v", "warning", verbosityLevels, "diagnostics on stderr: error|warning|info|debug (debug: how each file of the bundle was read)"),
		colorMode:  enumFlag(fs, "color", "", "auto", []string{"auto", "always", "never"}, "colours in the text report: auto (only on a terminal, off with NO_COLOR)|always|never"),
		failOn:     enumFlag(fs, "fail-on", "", "stuck", []string{"stuck", "risk", "none"}, "exit 1 when: none (never)|stuck (a namespace is stuck)|risk (stuck or a latent risk)"),
		quiet:      fs.BoolP("quiet", "q", false, "no progress indicator on stderr"),
		profile:    enumFlag(fs, "profile", "", "none", []string{"none", "cpu", "heap"}, "profile nsanalyze itself, as kubectl does: none|cpu|heap"),
		profileOut: fs.String("profile-output", "profile.pprof", "file the --profile is written to (read it with go tool pprof)"),
		version:    fs.Bool("version", false, "print the version and VCS revision of nsanalyze and exit"),
		redact:     fs.Bool("redact", false, "replace customer names, domains, IPs, hostnames, UIDs, e-mail addresses, cloud account and resource ids with stable tokens (well-known API groups and finalizers and Kubernetes' messages are kept)"),
	}
	_ = fs.SetAnnotation("verbosity", annAliases, []string{"warn", "trace", "fatal", "panic"})
	fileFlag(fs, "profile-output")
	a.load = addLoadFlags(fs)
	return runOptions(a)
}

// Complete fills in what the flags and arguments imply.
func (a *analyzeOptions) Complete(fs *pflag.FlagSet, s IOStreams) error {
	a.args = fs.Args()
	log, err := commandLogger(fs, s.ErrOut) // escapes what it prints of the bundle
	if err != nil {
		return err
	}
	a.log = log
	if *a.version {
		return nil
	}
	a.color, err = useColor(*a.colorMode, s.Out, os.Getenv)
	if err != nil {
		return err
	}
	a.opts, err = a.load.options()
	return err
}

// Validate checks the options before anything is read.
func (a *analyzeOptions) Validate() error {
	if *a.version {
		return nil
	}
	if len(a.args) < 1 {
		return usageError{fmt.Errorf("expected at least one BUNDLE argument (directory, .tar, .tar.gz, .tar.xz, .zip or file), got %d", len(a.args))}
	}
	if !slices.Contains(render.OutputFormats, *a.output) {
		return fmt.Errorf("unknown --output %q (want one of %s)", *a.output, strings.Join(render.OutputFormats, ", "))
	}
	_, err := exitCodeFor(&findings.Report{}, *a.failOn)
	return err
}

// Run analyses the bundles: the pipeline, then the report on Out.
func (a *analyzeOptions) Run(s IOStreams) int {
	if *a.version {
		printVersion(s.Out)
		return exitNotStuck
	}
	stopProfile, err := startProfile(*a.profile, *a.profileOut)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "error: %v\n", err)
		return exitUsage
	}
	defer func() {
		if err := stopProfile(); err != nil {
			a.log.Warnf("--profile: %v", err)
		}
	}()
	paths, cleanup, err := resolveStdin(a.args, s.In) // several bundles of one cluster are one view
	if err != nil {
		fmt.Fprintf(s.ErrOut, "error: %v\n", err)
		return exitUsage
	}
	defer cleanup()
	p := &pipeline{log: a.log, opts: a.opts, load: a.load, namespaces: *a.namespaces, redact: *a.redact, args: a.args}
	if !*a.quiet && isTerminal(s.ErrOut) {
		p.progress = s.ErrOut
	}
	one := newSide(a.args, paths)
	if err := p.run(one); err != nil {
		return reportPipelineError(s, err)
	}
	report := one.report
	code, _ := exitCodeFor(report, *a.failOn)
	if err := writeReport(s.Out, a.log, report, *a.output, render.Options{Color: a.color, Width: textWidth(os.Getenv)}); err != nil {
		return writeFailure(s.ErrOut, "the report", err) // a report that was not written is never a diagnosis
	}
	if *a.profile == "heap" {
		// the heap profile shows what the analysis holds: take it while the records live
		err := stopProfile()
		stopProfile = func() error { return err }
		runtime.KeepAlive(one.rec)
	}
	return code
}

// reportPipelineError says what stopped the pipeline and returns its exit code.
func reportPipelineError(s IOStreams, err error) int {
	var pe *pipelineError
	if errors.As(err, &pe) {
		fmt.Fprintf(s.ErrOut, "error: %s\n", pe.msg)
		return pe.code
	}
	fmt.Fprintf(s.ErrOut, "error: %s\n", shellsafe.EscapeLine(err.Error()))
	return exitUsage
}
