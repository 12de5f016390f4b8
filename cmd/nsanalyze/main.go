// Command nsanalyze explains, offline, why namespaces in a Kubernetes support bundle
// are stuck in Terminating.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer"
	redactpkg "github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
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
outside the bundle and removed afterwards).

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
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// analyzeOptions are the flags of the analysis (the command without a name).
type analyzeOptions struct {
	output, verbosity, colorMode, failOn, profile, profileOut *string
	namespaces                                                *[]string
	quiet, version, redact                                    *bool
	load                                                      *loadFlags
}

// analyzeFlags declares the flags of the analysis.
func analyzeFlags(fs *pflag.FlagSet) runFunc {
	a := &analyzeOptions{
		output:     enumFlag(fs, "output", "o", "text", render.OutputFormats, "output format: "+strings.Join(render.OutputFormats, "|")),
		namespaces: fs.StringSliceP("namespace", "n", nil, "only report these namespaces (repeatable, or comma-separated)"),
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
	return a.run
}

// run analyses the bundles fs.Args().
func (a *analyzeOptions) run(fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	output, namespaces, verbosity, colorMode, failOn, quiet := a.output, a.namespaces, a.verbosity, a.colorMode, a.failOn, a.quiet
	profile, profileOut, version, redact, load := a.profile, a.profileOut, a.version, a.redact, a.load
	if *version {
		printVersion(stdout)
		return exitNotStuck
	}
	log := newLogger(stderr) // escapes what it prints of the bundle
	lvl, err := logrus.ParseLevel(*verbosity)
	if err != nil {
		fmt.Fprintf(stderr, "error: invalid --verbosity %q\n", *verbosity)
		return exitUsage
	}
	log.SetLevel(lvl)
	if fs.NArg() < 1 {
		fmt.Fprintf(stderr, "error: expected at least one BUNDLE argument (directory, .tar, .tar.gz, .tar.xz, .zip or file), got %d\n\n", fs.NArg())
		fs.Usage()
		return exitUsage
	}
	known := false
	for _, f := range render.OutputFormats {
		known = known || f == *output
	}
	if !known {
		fmt.Fprintf(stderr, "error: unknown --output %q (want one of %s)\n", *output, strings.Join(render.OutputFormats, ", "))
		return exitUsage
	}
	color, err := useColor(*colorMode, stdout, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	if _, err := exitCodeFor(&analyzer.Report{}, *failOn); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	opts, err := load.options()
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	stopProfile, err := startProfile(*profile, *profileOut)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	defer func() {
		if err := stopProfile(); err != nil {
			log.Warnf("--profile: %v", err)
		}
	}()
	paths, cleanup, err := resolveStdin(fs.Args()) // several bundles are merged into one view
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	defer cleanup()
	var rd *redactpkg.Redactor // --redact: diagnostics wait for the report's tokens
	if *redact {
		rd = newRedactor(fs.Args(), *namespaces)
	}
	start := time.Now()
	prog := startProgress(stderr, paths, !*quiet && isTerminal(stderr))
	rec, err := bundle.LoadAll(paths, opts)
	prog.Stop()
	if rec != nil {
		rec.Path = strings.Join(fs.Args(), ", ") // "-" for standard input, not the spool file
	}
	if rec != nil && rd == nil {
		logBundle(log, rec)
	}
	if err != nil {
		if rd != nil {
			rd.Records(rec)
			rd.Text(err.Error())
			setLogFilter(log, rd.String)
			logBundle(log, rec)
		}
		log.Error(err)
		return exitUsage
	}
	log.WithFields(logrus.Fields{"objects": rec.ObjectCount, "logFiles": len(rec.LogFiles), "logEntries": len(rec.Entries),
		"elapsed": time.Since(start).Round(time.Millisecond)}).Info("bundle read")
	if !readable(rec) {
		shown := strings.Join(fs.Args(), ", ")
		if rd != nil {
			rd.Records(rec)
			setLogFilter(log, rd.String)
			logBundle(log, rec)
			shown = rd.String(shown)
		}
		fmt.Fprintf(stderr, "error: nothing in %s could be read as a Kubernetes support bundle (%d files looked at: no Kubernetes object, component log or kubectl output; see the warnings above). Collect one with: nsanalyze collect > collect.sh && sh collect.sh\n",
			analyzer.EscapeLine(shown), len(rec.Files))
		return exitUsage
	}
	report := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All, Namespaces: *namespaces})
	load.annotate(report)            // known issues (--known-issues), before --redact
	report = redactpkg.Scrub(report) // secrets never reach a report, --redact or not
	if rd != nil {
		report = redactReport(rd, report, rec)
		setLogFilter(log, rd.String)
		logBundle(log, rec)
	}
	report.Generator = generator()
	code, _ := exitCodeFor(report, *failOn)
	if !writeReport(stdout, log, report, *output, render.Options{Color: color, Width: textWidth(os.Getenv)}) {
		code = exitUsage // a report that was not written is never a diagnosis
	}
	if *profile == "heap" {
		// the heap profile shows what the analysis holds: take it while the records live
		err := stopProfile()
		stopProfile = func() error { return err }
		runtime.KeepAlive(rec)
	}
	return code
}

// readable reports whether anything of the bundle reads as Kubernetes evidence: an
// object, kubectl output, a collector's error, or a log with a known component, a
// timestamped line or a line a rule matched. Unrelated files and archives with no
// readable member are not a bundle (exit 2, never "no namespace is stuck").
func readable(rec *bundle.Records) bool {
	if rec.ObjectCount > 0 || len(rec.TextFiles) > 0 || len(rec.CollectorErrors) > 0 {
		return true
	}
	for _, f := range rec.LogFiles {
		if f.Matched > 0 || !f.First.IsZero() || (f.Component != "" && f.Component != "unknown") {
			return true
		}
	}
	return false
}
