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

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// Exit codes.
const (
	exitNotStuck = 0 // no namespace is stuck
	exitStuck    = 1 // at least one namespace is stuck
	exitUsage    = 2 // usage error or unreadable bundle
)

const usage = `nsanalyze explains why Kubernetes namespaces are stuck in Terminating, from a
support bundle (saved "kubectl get -o json|yaml" output, cluster-info dumps and
component logs). It never contacts a cluster and never writes into the bundle.

Usage:
  nsanalyze [flags] BUNDLE [BUNDLE...]
  nsanalyze explain [CAUSE]      what a cause type means and its remediation ladder
  nsanalyze diff [flags] OLD NEW compare two bundles of the same cluster (before/after a fix)

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

Exit codes:
  0  no namespace is stuck (or --fail-on none)
  1  at least one namespace is stuck (--fail-on risk: or a latent risk was found)
  2  usage error, or nothing in the bundle could be read

Flags:
`

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

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "explain":
			return runExplain(args[1:], stdout, stderr)
		case "diff":
			return runDiff(args[1:], stdout, stderr)
		case "collect":
			return runCollect(args[1:], stdout, stderr)
		}
	}
	fs := pflag.NewFlagSet("nsanalyze", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		output     = fs.StringP("output", "o", "text", "output format: "+strings.Join(render.Formats, "|"))
		namespaces = fs.StringSliceP("namespace", "n", nil, "only report these namespaces (repeatable, or comma-separated)")
		verbosity  = fs.StringP("verbosity", "v", "warning", "diagnostics on stderr: error|warning|info|debug")
		help       = fs.BoolP("help", "h", false, "show this help")
		colorMode  = fs.String("color", "auto", "colours in the text report: auto (only on a terminal, off with NO_COLOR)|always|never")
		failOn     = fs.String("fail-on", "stuck", "exit 1 when: none (never)|stuck (a namespace is stuck)|risk (stuck or a latent risk)")
		quiet      = fs.BoolP("quiet", "q", false, "no progress indicator on stderr")
		profile    = fs.String("profile", "none", "profile nsanalyze itself, as kubectl does: none|cpu|heap")
		profileOut = fs.String("profile-output", "profile.pprof", "file the --profile is written to (read it with go tool pprof)")
		redact     = fs.Bool("redact", false, "replace customer names, IPs, hostnames and UIDs with stable tokens (API groups, well-known finalizers and Kubernetes' messages are kept)")
	)
	load := addLoadFlags(fs)
	if code, done := parseArgs(fs, args, usage, stderr); done {
		return code
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, usage)
		fs.PrintDefaults()
		return exitNotStuck
	}
	log := logrus.New()
	log.SetOutput(stderr)
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
	for _, f := range render.Formats {
		known = known || f == *output
	}
	if !known {
		fmt.Fprintf(stderr, "error: unknown --output %q (want one of %s)\n", *output, strings.Join(render.Formats, ", "))
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
	paths := fs.Args() // several bundles are merged into one view
	start := time.Now()
	prog := startProgress(stderr, paths, !*quiet && isTerminal(stderr))
	rec, err := bundle.LoadAll(paths, opts)
	prog.Stop()
	if rec != nil {
		for _, w := range rec.Warnings {
			log.Warn(w.String())
		}
	}
	if err != nil {
		log.Error(err)
		return exitUsage
	}
	log.WithFields(logrus.Fields{"objects": rec.ObjectCount, "logFiles": len(rec.LogFiles), "logEntries": len(rec.Entries),
		"elapsed": time.Since(start).Round(time.Millisecond)}).Info("bundle read")
	report := analyzer.Analyze(rec, analyzer.Options{Namespaces: *namespaces})
	if *redact {
		report = redactReport(report, rec)
	}
	if err := render.RenderWith(stdout, report, *output, render.Options{Color: color}); err != nil {
		log.Error(err)
		return exitUsage
	}
	code, _ := exitCodeFor(report, *failOn)
	if *profile == "heap" {
		// the heap profile shows what the analysis holds: take it while the records live
		err := stopProfile()
		stopProfile = func() error { return err }
		runtime.KeepAlive(rec)
	}
	return code
}
