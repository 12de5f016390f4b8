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

// collectOptions are the flags of nsanalyze collect, and what Complete makes of them.
type collectOptions struct {
	output, format, timeout, deadline, outDir *string
	namespaces                                *[]string
	logTail                                   *int

	args []string
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
	return runOptions(c)
}

// Complete keeps the arguments.
func (c *collectOptions) Complete(fs *pflag.FlagSet, _ IOStreams) error {
	c.args = fs.Args()
	return nil
}

// Validate checks there is no argument.
func (c *collectOptions) Validate() error {
	if len(c.args) > 0 {
		return fmt.Errorf("nsanalyze collect takes no arguments, got %q", c.args)
	}
	return nil
}

// Run writes the script or spec to Out or --output-file; a write that fails or is
// short (checked through Close) exits exitWrite.
func (c *collectOptions) Run(s IOStreams) int {
	opts := collect.Options{Namespaces: *c.namespaces, RequestTimeout: *c.timeout, Deadline: *c.deadline, OutDir: *c.outDir, LogTail: *c.logTail, Version: buildVersion()}
	var text string
	var err error
	mode := os.FileMode(0o644)
	switch *c.format {
	case "script", "sh":
		text, err = collect.Script(opts)
		mode = 0o755
	case "troubleshoot":
		text, err = collect.TroubleshootSpec(opts)
	default:
		err = fmt.Errorf("unknown --format %q (want script or troubleshoot)", *c.format)
	}
	if err != nil {
		fmt.Fprintf(s.ErrOut, "error: %v\n", err)
		return exitUsage
	}
	if *c.output == "" || *c.output == "-" {
		_, _ = io.WriteString(s.Out, text) // checked by the dispatcher
		return exitNotStuck
	}
	if err := writeFile(*c.output, []byte(text), mode); err != nil {
		return writeFailure(s.ErrOut, "--output-file "+*c.output, err)
	}
	fmt.Fprintf(s.ErrOut, "info: wrote %s\n", *c.output)
	return exitNotStuck
}

// writeFile is os.WriteFile with the error of Close (a full disk may only say so there).
func writeFile(name string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// buildVersion is the module version nsanalyze was built as ("(devel)" from a work tree).
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "dev"
}
