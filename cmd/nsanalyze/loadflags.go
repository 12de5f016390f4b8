package main

import (
	"fmt"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/knownissues"
	"github.com/nsanalyze/nsanalyze/analyzer/rules"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// loadFlags are the flags that say how a bundle is read; the analysis and diff share them.
type loadFlags struct {
	logTZ        *string
	exclude      *[]string
	maxLineBytes *int
	maxInflate   *int64
	maxNesting   *int
	fs           *pflag.FlagSet // its --verbosity debug records how each file is read
	knownIssues  *[]string
	// catalog is the known-issue catalog (shipped entries and --known-issues files),
	// loaded and validated by options().
	catalog *knownissues.Catalog
}

func addLoadFlags(fs *pflag.FlagSet) *loadFlags {
	defer fileFlag(fs, "exclude")
	return &loadFlags{fs: fs,
		logTZ:        fs.String("log-timezone", "UTC", "time zone of klog timestamps, which carry none (IANA name, e.g. Europe/Berlin)"),
		exclude:      fs.StringSlice("exclude", nil, "skip these paths of the bundle (relative, repeatable)"),
		maxLineBytes: fs.Int("max-line-bytes", logs.DefaultMaxLineBytes, "log lines longer than this are skipped with a warning"),
		maxInflate:   fs.Int64("max-decompressed-bytes", 0, "stop reading a compressed file or archive after it inflates to this many bytes (0: 200 times its compressed size, at least 1 GiB)"),
		maxNesting:   fs.Int("max-archive-nesting", bundle.DefaultMaxArchiveNesting, "how many levels of archives inside the bundle are opened"),
		knownIssues:  fs.StringArray("known-issues", nil, "add a team's known issues from this YAML file (the format of the shipped catalog, docs/fingerprint.md; repeatable)"),
	}
}

// options turns the flags into bundle options, or a usage error.
func (f *loadFlags) options() (bundle.Options, error) {
	loc, err := time.LoadLocation(*f.logTZ)
	if err != nil {
		// the time package quotes the name raw: the whole error is escaped (no ESC or
		// bidirectional override of the argument reaches the terminal)
		return bundle.Options{}, fmt.Errorf("invalid --log-timezone %q: %s", *f.logTZ, shellsafe.EscapeLine(err.Error()))
	}
	cat, err := loadCatalog(*f.knownIssues)
	if err != nil {
		return bundle.Options{}, err
	}
	f.catalog = cat
	return bundle.Options{
		Keywords:             rules.Phrases,
		LogLocation:          loc,
		MaxLineBytes:         *f.maxLineBytes,
		Exclude:              *f.exclude,
		KeepObject:           rules.KeepObject,
		MaxDecompressedBytes: *f.maxInflate,
		MaxArchiveNesting:    *f.maxNesting,
		RecordReads:          f.debug(),
	}, nil
}

// debug reports whether --verbosity asks for debug diagnostics (or more).
func (f *loadFlags) debug() bool {
	v := f.fs.Lookup("verbosity")
	if v == nil {
		return false
	}
	lvl, err := logrus.ParseLevel(v.Value.String())
	return err == nil && lvl >= logrus.DebugLevel
}

// loadCatalog returns the shipped known issues and those of the given files, each file
// validated in full (every problem named by file, entry, line and field).
func loadCatalog(files []string) (*knownissues.Catalog, error) {
	cat, err := knownissues.Builtin()
	if err != nil {
		return nil, fmt.Errorf("the shipped known-issue catalog: %v", err)
	}
	causes := []string{findings.CauseUndetermined}
	for _, r := range rules.All {
		causes = append(causes, r.Name)
	}
	for _, f := range files {
		entries, err := knownissues.LoadFile(f, causes)
		if err == nil {
			err = cat.Add(entries)
		}
		if err != nil {
			return nil, fmt.Errorf("--known-issues %s:\n%v", f, err)
		}
	}
	return cat, nil
}
