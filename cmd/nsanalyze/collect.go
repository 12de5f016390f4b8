package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/cmd/nsanalyze/collect"
)

const collectUsage = `nsanalyze collect writes what a customer runs to gather a bundle: a POSIX sh script
that only reads from the cluster (kubectl or oc: get, logs, api-resources, version, and
get --raw on /api and /apis, each with --request-timeout) and saves one
nsanalyze-<context>-<time>.tar.gz in a layout nsanalyze reads; or, with
-o troubleshoot, a troubleshoot.sh SupportBundle spec that gathers the same as far as
troubleshoot's collectors allow. nsanalyze itself contacts no cluster.

Usage:
  nsanalyze collect [flags]

Examples:
  # Print the script and run it against the current kubectl context
  nsanalyze collect | sh

  # Save it to send to a customer; they run: sh collect.sh
  nsanalyze collect --output-file collect.sh

  # Also capture two namespaces that are not Terminating, archive into /tmp
  nsanalyze collect -n kube-system -n default --out-dir /tmp --output-file collect.sh

  # A spec for kubectl support-bundle (troubleshoot.sh)
  nsanalyze collect -o troubleshoot --output-file nsanalyze-supportbundle.yaml

Flags:
`

// collectOptions are the flags of nsanalyze collect.
type collectOptions struct {
	output, format, timeout, deadline, outDir *string
	namespaces                                *[]string
	logTail                                   *int
}

// collectFlags declares the flags of nsanalyze collect. -o is the output format, as in
// every command; the file is --output-file (or --file).
func collectFlags(fs *pflag.FlagSet) runFunc {
	c := &collectOptions{
		format:     enumFlag(fs, "output", "o", "script", []string{"script", "troubleshoot"}, "what to write: script (POSIX sh) | troubleshoot (troubleshoot.sh SupportBundle spec)"),
		output:     fs.String("output-file", "", "write to FILE instead of stdout (also --file)"),
		namespaces: fs.StringSliceP("namespace", "n", nil, "also capture these namespaces in full (Terminating ones always are)"),
		timeout:    fs.String("request-timeout", "30s", "kubectl --request-timeout for every call (positive: 0 would mean none)"),
		deadline:   fs.String("deadline", "30m", "the script stops after this long in all (the call in flight is stopped; what was saved is archived)"),
		outDir:     fs.String("out-dir", ".", "directory the script writes its .tar.gz into"),
		logTail:    fs.Int("log-tail", -1, "lines kept per component log, -1 = all"),
	}
	_ = fs.SetAnnotation("output", annAliases, []string{"sh"})
	_ = fs.SetAnnotation("output", annHint, []string{"-o is the format; write the file with --output-file FILE"})
	fileFlag(fs, "output-file")
	fileFlag(fs, "out-dir")
	// --format was the format before -o meant it everywhere; --file names the file
	fs.StringVar(c.format, "format", "script", "the same as -o")
	_ = fs.MarkDeprecated("format", "use -o script|troubleshoot")
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "file" {
			name = "output-file"
		}
		return pflag.NormalizedName(name)
	})
	return c.run
}

func (c *collectOptions) run(fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	output, format, namespaces, timeout, deadline, outDir, logTail := c.output, c.format, c.namespaces, c.timeout, c.deadline, c.outDir, c.logTail
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "error: nsanalyze collect takes no arguments, got %q\n", fs.Args())
		return exitUsage
	}
	opts := collect.Options{Namespaces: *namespaces, RequestTimeout: *timeout, Deadline: *deadline, OutDir: *outDir, LogTail: *logTail, Version: buildVersion()}
	var text string
	var err error
	mode := os.FileMode(0o644)
	switch *format {
	case "script", "sh":
		text, err = collect.Script(opts)
		mode = 0o755
	case "troubleshoot":
		text, err = collect.TroubleshootSpec(opts)
	default:
		err = fmt.Errorf("unknown --format %q (want script or troubleshoot)", *format)
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	if *output == "" || *output == "-" {
		if _, err := io.WriteString(stdout, text); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		return exitNotStuck
	}
	if err := os.WriteFile(*output, []byte(text), mode); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "wrote %s\n", *output)
	return exitNotStuck
}

// buildVersion is the module version nsanalyze was built as ("(devel)" from a work tree).
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "dev"
}
