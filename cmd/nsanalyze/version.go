package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
)

// buildInfo is what the binary knows of itself: the module version ("(devel)" for a
// build from a work tree) and the VCS revision it was built from, when recorded.
type buildInfo struct {
	Version  string
	Revision string
	Modified bool
	Go       string
}

var readBuildInfo = debug.ReadBuildInfo

// version is the release's version, stamped at link time by make release
// (go build -ldflags "-X main.version=v1.2.3"). Empty in any other build: the module
// version of the build info is used (v1.2.3 from go install ...@v1.2.3, "(devel)" from
// a work tree).
var version string

func currentBuild() buildInfo {
	b := buildInfo{Version: "(devel)", Go: runtime.Version()}
	info, ok := readBuildInfo()
	if ok {
		if v := info.Main.Version; v != "" {
			b.Version = v
		}
	}
	if version != "" {
		b.Version = version
	}
	if !ok {
		return b
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// generator identifies this nsanalyze in the reports it writes.
func generator() *findings.Generator {
	b := currentBuild()
	rev := b.Revision
	if rev != "" && b.Modified {
		rev += "-dirty"
	}
	return &findings.Generator{Name: "nsanalyze", Version: b.Version, Revision: rev}
}

// printVersion answers `nsanalyze version` and `nsanalyze --version`.
func printVersion(w io.Writer) {
	b := currentBuild()
	fmt.Fprintf(w, "nsanalyze %s\n", b.Version)
	if b.Revision != "" {
		mod := ""
		if b.Modified {
			mod = " (modified work tree)"
		}
		fmt.Fprintf(w, "revision: %s%s\n", b.Revision, mod)
	} else {
		fmt.Fprintln(w, "revision: unknown (built without VCS information)")
	}
	fmt.Fprintf(w, "go: %s\n", b.Go)
}

// textWidth is the text report's width: $COLUMNS when it is a number (clamped to a
// sane range), else the default.
func textWidth(getenv func(string) string) int {
	n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS")))
	if err != nil || n <= 0 {
		return render.TextWidth
	}
	return render.ClampWidth(n)
}

var _ = os.Getenv
