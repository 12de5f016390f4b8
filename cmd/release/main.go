// Command release cross-builds nsanalyze for every supported platform into one
// directory (make release: dist/, which git ignores):
//
//	nsanalyze_<version>_<os>_<arch>.tar.gz   (.zip for windows) the static binary and README.md
//	<os>_<arch>/nsanalyze[.exe]              the same binary, unpacked (the container recipe copies it)
//	SHA256SUMS                               sha256sum -c format, one line per archive
//	krew/nsanalyze.yaml                      the krew plugin manifest (kubectl nsanalyze), sha256 filled in
//
// Every binary is built with CGO_ENABLED=0 and -trimpath, with the version stamped into
// main.version (-ldflags -X), so `nsanalyze version` and every report name it. The
// archives are reproducible: entries in a fixed order, owned by root, dated at the
// commit (SOURCE_DATE_EPOCH when set).
//
//	go run ./cmd/release -version v1.2.3 [-out dist] [-platforms linux/amd64,darwin/arm64]
//
// Nothing is uploaded: publishing the archives (and the image of
// docs/packaging/Containerfile) is a step of its own; see docs/install.md.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Platforms are the release's targets: linux, darwin and windows on amd64 and arm64.
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Platform is one GOOS/GOARCH pair.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "/" + p.Arch }

// Bin is the binary's name on the platform.
func (p Platform) Bin() string {
	if p.OS == "windows" {
		return "nsanalyze.exe"
	}
	return "nsanalyze"
}

// Archive is the name of the platform's archive for version.
func (p Platform) Archive(version string) string {
	ext := ".tar.gz"
	if p.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("nsanalyze_%s_%s_%s%s", version, p.OS, p.Arch, ext)
}

// semver is a version the way krew (and Go modules) want it: v, then semantic versioning 2.0.
var semver = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// DefaultURL is where the archives of a release are published (GitHub releases).
const DefaultURL = "https://github.com/nsanalyze/nsanalyze/releases/download"

func main() {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	version := fs.String("version", "", "the release version, semver with a leading v (v1.2.3)")
	out := fs.String("out", "dist", "output directory (emptied of this version's files first)")
	plats := fs.String("platforms", "", "comma-separated os/arch list (default: all six)")
	url := fs.String("url", DefaultURL, "base URL of the published archives: the manifest's uri is URL/VERSION/ARCHIVE")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	ps, err := parsePlatforms(*plats)
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(2)
	}
	if err := Release(Config{Version: *version, Out: *out, Platforms: ps, URL: *url, Log: os.Stderr}); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func parsePlatforms(s string) ([]Platform, error) {
	if s == "" {
		return Platforms, nil
	}
	var out []Platform
	for _, f := range strings.Split(s, ",") {
		os, arch, ok := strings.Cut(strings.TrimSpace(f), "/")
		if !ok || os == "" || arch == "" {
			return nil, fmt.Errorf("platform %q: want os/arch", f)
		}
		out = append(out, Platform{os, arch})
	}
	return out, nil
}

// Config is one release build.
type Config struct {
	Version   string
	Out       string
	Platforms []Platform
	URL       string
	Log       io.Writer
	// Module is the directory of the nsanalyze module (default: found from the working directory).
	Module string
}

// Release builds, archives, sums and writes the krew manifest.
func Release(c Config) error {
	if !semver.MatchString(c.Version) {
		return fmt.Errorf("version %q is not semver with a leading v (v1.2.3, v0.1.0-rc.1)", c.Version)
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Module == "" {
		m, err := moduleRoot()
		if err != nil {
			return err
		}
		c.Module = m
	}
	out, err := filepath.Abs(c.Out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	mtime := sourceDate(c.Module)
	readme, err := os.ReadFile(filepath.Join(c.Module, "README.md"))
	if err != nil {
		return err
	}
	var arts []Artifact
	for _, p := range c.Platforms {
		dir := filepath.Join(out, p.OS+"_"+p.Arch)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		bin := filepath.Join(dir, p.Bin())
		fmt.Fprintf(c.Log, "build %s\n", p)
		if err := build(c.Module, p, c.Version, bin); err != nil {
			return err
		}
		exe, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		files := []File{{Name: p.Bin(), Mode: 0o755, Data: exe}, {Name: "README.md", Mode: 0o644, Data: readme}}
		var buf bytes.Buffer
		if p.OS == "windows" {
			err = writeZip(&buf, files, mtime)
		} else {
			err = writeTarGz(&buf, files, mtime)
		}
		if err != nil {
			return err
		}
		name := p.Archive(c.Version)
		if err := os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256(buf.Bytes())
		arts = append(arts, Artifact{Platform: p, File: name, SHA256: hex.EncodeToString(sum[:])})
		fmt.Fprintf(c.Log, "  %s %s\n", arts[len(arts)-1].SHA256, name)
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), SHA256Sums(arts), 0o644); err != nil {
		return err
	}
	m, err := KrewManifest(c.Version, strings.TrimSuffix(c.URL, "/"), arts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "krew"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "krew", PluginName+".yaml"), m, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.Log, "wrote %d archives, SHA256SUMS and krew/%s.yaml to %s\n", len(arts), PluginName, out)
	return nil
}

// Artifact is one platform's archive.
type Artifact struct {
	Platform Platform
	File     string // name in the output directory
	SHA256   string // lowercase hex
}

// SHA256Sums is the SHA256SUMS file of arts (sha256sum -c reads it), sorted by name.
func SHA256Sums(arts []Artifact) []byte {
	lines := make([]string, 0, len(arts))
	for _, a := range arts {
		lines = append(lines, a.SHA256+"  "+a.File+"\n")
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	return []byte(strings.Join(lines, ""))
}

// build compiles ./cmd/nsanalyze for p into bin: static (no cgo), paths trimmed, the
// version stamped.
func build(module string, p Platform, version, bin string) error {
	cmd := exec.Command(goTool(), "build", "-trimpath", "-buildvcs=auto",
		"-ldflags", "-s -w -X main.version="+version, "-o", bin, "./cmd/nsanalyze")
	cmd.Dir = module
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %v\n%s", p, err, stderr.String())
	}
	return nil
}

// goTool is the go command to build with: $GO (make passes its own), else go on PATH.
func goTool() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

// moduleRoot finds the nsanalyze module's directory from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module github.com/nsanalyze/nsanalyze\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the nsanalyze module (no go.mod of github.com/nsanalyze/nsanalyze above the working directory)")
		}
		dir = parent
	}
}

// sourceDate is the time the archives' entries carry: $SOURCE_DATE_EPOCH, else the
// commit time of HEAD, else the Unix epoch.
func sourceDate(module string) time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	cmd := exec.Command("git", "log", "-1", "--format=%ct")
	cmd.Dir = module
	if b, err := cmd.Output(); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Unix(0, 0).UTC()
}
