package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionStamped: the version make release stamps with -ldflags "-X main.version=…"
// is the one `nsanalyze version` prints and the reports name, whatever the build info
// says; the revision still comes from the build info.
func TestVersionStamped(t *testing.T) {
	savedInfo, savedVersion := readBuildInfo, version
	defer func() { readBuildInfo, version = savedInfo, savedVersion }()
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "5b092b4abcdef"}}}, true
	}
	version = "v1.2.3"
	if code, out, _ := runCmd("version"); code != exitNotStuck || !strings.HasPrefix(out, "nsanalyze v1.2.3\n") || !strings.Contains(out, "revision: 5b092b4abcdef") {
		t.Errorf("stamped v1.2.3: exit %d, %q", code, out)
	}
	if g := generator(); g.Version != "v1.2.3" || g.Revision != "5b092b4abcdef" {
		t.Errorf("generator %+v", g)
	}
	readBuildInfo = func() (*debug.BuildInfo, bool) { return nil, false }
	if _, out, _ := runCmd("--version"); !strings.HasPrefix(out, "nsanalyze v1.2.3\n") || !strings.Contains(out, "revision: unknown") {
		t.Errorf("stamped, without build info: %q", out)
	}
}
