package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// archiveFiles lists the entries of a release archive with their mode and contents.
func archiveFiles(t *testing.T, name string, b []byte) map[string]File {
	t.Helper()
	out := map[string]File{}
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			out[f.Name] = File{Name: f.Name, Mode: int64(f.Mode().Perm()), Data: data}
		}
		return out
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		out[h.Name] = File{Name: h.Name, Mode: h.Mode, Data: data}
	}
	return out
}

// fakeRelease writes one archive per platform (a fake binary and README.md) the way
// Release does, and returns the artifacts.
func fakeRelease(t *testing.T, dir, version string) []Artifact {
	t.Helper()
	var arts []Artifact
	mtime := time.Unix(1700000000, 0)
	for _, p := range Platforms {
		files := []File{{Name: p.Bin(), Mode: 0o755, Data: []byte("binary for " + p.String())}, {Name: "README.md", Mode: 0o644, Data: []byte("# nsanalyze\n")}}
		var buf bytes.Buffer
		var err error
		if p.OS == "windows" {
			err = writeZip(&buf, files, mtime)
		} else {
			err = writeTarGz(&buf, files, mtime)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p.Archive(version)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(buf.Bytes())
		arts = append(arts, Artifact{Platform: p, File: p.Archive(version), SHA256: hex.EncodeToString(sum[:])})
	}
	return arts
}

// checkRelease holds a release directory to its promises: SHA256SUMS names every
// archive with its sha256; the krew manifest passes krew's rules, has one platform per
// archive whose uri ends with the archive's name, whose sha256 is the archive's, and
// whose bin (and README.md) are in the archive, the bin executable.
func checkRelease(t *testing.T, dir, version string, plats []Platform) {
	t.Helper()
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n") {
		sum, name, ok := strings.Cut(l, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", l)
		}
		want[name] = sum
	}
	if len(want) != len(plats) {
		t.Errorf("SHA256SUMS has %d lines, want %d", len(want), len(plats))
	}
	raw, err := os.ReadFile(filepath.Join(dir, "krew", PluginName+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckKrewManifest(raw); err != nil {
		t.Fatalf("krew manifest: %v\n%s", err, raw)
	}
	var m KrewPlugin
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.Spec.Version != version || len(m.Spec.Platforms) != len(plats) {
		t.Errorf("manifest version %s with %d platforms, want %s and %d", m.Spec.Version, len(m.Spec.Platforms), version, len(plats))
	}
	for _, p := range plats {
		name := p.Archive(version)
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(b)
		sum := hex.EncodeToString(s[:])
		if want[name] != sum {
			t.Errorf("SHA256SUMS says %q for %s, its sha256 is %s", want[name], name, sum)
		}
		found := false
		for _, kp := range m.Spec.Platforms {
			if kp.Selector.MatchLabels["os"] != p.OS || kp.Selector.MatchLabels["arch"] != p.Arch {
				continue
			}
			found = true
			if !strings.HasSuffix(kp.URI, "/"+version+"/"+name) || kp.SHA256 != sum {
				t.Errorf("%s: manifest uri %s sha256 %s, want …/%s/%s and %s", p, kp.URI, kp.SHA256, version, name, sum)
			}
			files := archiveFiles(t, name, b)
			bin, ok := files[kp.Bin]
			if !ok || bin.Mode&0o111 == 0 {
				t.Errorf("%s: bin %s not in the archive, or not executable (%v)", p, kp.Bin, ok)
			}
			for _, f := range kp.Files {
				if _, ok := files[f.From]; !ok {
					t.Errorf("%s: files from %s: not in the archive", p, f.From)
				}
			}
		}
		if !found {
			t.Errorf("no manifest platform for %s", p)
		}
	}
}

// TestKrewManifest: the manifest of a release of every platform passes krew's rules and
// points at each archive with its sha256.
func TestKrewManifest(t *testing.T) {
	dir := t.TempDir()
	arts := fakeRelease(t, dir, "v1.2.3")
	m, err := KrewManifest("v1.2.3", DefaultURL, arts)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "krew"), 0o755)
	os.WriteFile(filepath.Join(dir, "krew", PluginName+".yaml"), m, 0o644)
	os.WriteFile(filepath.Join(dir, "SHA256SUMS"), SHA256Sums(arts), 0o644)
	checkRelease(t, dir, "v1.2.3", Platforms)
	if len(Platforms) != 6 {
		t.Errorf("%d platforms, want linux, darwin, windows × amd64, arm64", len(Platforms))
	}
}

// TestCheckKrewManifestRejects: each rule of CheckKrewManifest fails a manifest that
// breaks it (so TestKrewManifest's pass means something).
func TestCheckKrewManifestRejects(t *testing.T) {
	arts := fakeRelease(t, t.TempDir(), "v1.2.3")
	good, err := KrewManifest("v1.2.3", DefaultURL, arts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"apiVersion", "krew.googlecontainertools.github.com/v1alpha2", "krew.googlecontainertools.github.com/v1", "apiVersion"},
		{"kind", "kind: Plugin", "kind: Plug", "kind"},
		{"name", "name: nsanalyze", "name: NSAnalyze", "metadata.name"},
		{"version without v", "version: v1.2.3", "version: 1.2.3", "spec.version"},
		{"version not semver", "version: v1.2.3", "version: v1.2", "spec.version"},
		{"short description", "shortDescription: " + shortDesc, "shortDescription: \"\"", "shortDescription"},
		{"os label", "os: linux", "os: Linux", "matchLabels"},
		{"arch label", "arch: arm64", "arch: aarch64", "matchLabels"},
		{"sha256", arts[0].SHA256, strings.ToUpper(arts[0].SHA256), "sha256"},
		{"uri", "uri: https://", "uri: http://", "uri"},
		{"windows bin", "bin: nsanalyze.exe", "bin: nsanalyze", "bin"},
		{"unknown field", "shortDescription:", "shortDescriptio: x\n  shortDescription:", "unknown field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(string(good), c.from, c.to, 1)
			if bad == string(good) {
				t.Fatalf("%q is not in the manifest", c.from)
			}
			if err := CheckKrewManifest([]byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %s", err, c.want)
			}
		})
	}
	if _, err := KrewManifest("1.2.3", DefaultURL, arts); err == nil {
		t.Error("a version without v made a manifest")
	}
	if err := Release(Config{Version: "latest", Out: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "semver") {
		t.Errorf("Release with version latest: %v", err)
	}
}

// TestArchivesReproducible: the same files and date give the same archive bytes.
func TestArchivesReproducible(t *testing.T) {
	files := []File{{Name: "nsanalyze", Mode: 0o755, Data: bytes.Repeat([]byte("x"), 1000)}, {Name: "README.md", Mode: 0o644, Data: []byte("r")}}
	for _, w := range []func(io.Writer, []File, time.Time) error{writeTarGz, writeZip} {
		var a, b bytes.Buffer
		if err := w(&a, files, time.Unix(1700000000, 0)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
		if err := w(&b, files, time.Unix(1700000000, 0)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Error("two archives of the same files differ")
		}
	}
}

// TestReleaseHostPlatform builds the real release for this machine's platform (make
// test-long: a cold -trimpath build of the module): the binary is static, says the
// stamped version, and kubectl runs it as the plugin `kubectl nsanalyze` (when kubectl
// is installed).
func TestReleaseHostPlatform(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the module from scratch (make test-long)")
	}
	host := Platform{runtime.GOOS, runtime.GOARCH}
	dir := t.TempDir()
	const version = "v0.0.0-test.1"
	if err := Release(Config{Version: version, Out: dir, Platforms: []Platform{host}, URL: DefaultURL}); err != nil {
		t.Fatal(err)
	}
	checkRelease(t, dir, version, []Platform{host})
	bin := filepath.Join(dir, host.OS+"_"+host.Arch, host.Bin())
	if host.OS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("the binary is dynamically linked (%s)", p.Type)
			}
		}
		f.Close()
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "nsanalyze "+version+"\n") {
		t.Errorf("nsanalyze version: %v\n%s", err, out)
	}
	// as a kubectl plugin: kubectl finds kubectl-nsanalyze on PATH and passes the rest
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Logf("kubectl not installed: the plugin run is not checked")
		return
	}
	plugins := t.TempDir()
	plugin := filepath.Join(plugins, "kubectl-"+PluginName)
	b, _ := os.ReadFile(bin)
	if err := os.WriteFile(plugin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+plugins+string(os.PathListSeparator)+os.Getenv("PATH"), "KUBECONFIG="+filepath.Join(plugins, "none"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{PluginName, "version"}, "nsanalyze " + version},
		{[]string{PluginName, "collect"}, "#!/bin/sh"},
		{[]string{PluginName, "explain", "finalizers-remaining"}, "finalizers-remaining"},
	} {
		cmd := exec.Command(kubectl, c.args...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), c.want) {
			t.Errorf("kubectl %s: %v, stdout %.300q", strings.Join(c.args, " "), err, out)
		}
	}
}

// TestContainerfile: the container recipe copies the binary from where make release
// leaves it, pulls no base image and runs as the unprivileged user 65532.
func TestContainerfile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "packaging", "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var from, user, copySrc string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "FROM":
			from = f[1]
		case "USER":
			user = f[1]
		case "COPY":
			copySrc = f[1]
		}
	}
	if from != "scratch" || user != "65532:65532" {
		t.Errorf("FROM %q USER %q, want scratch and 65532:65532", from, user)
	}
	// dist/<os>_<arch>/nsanalyze, as Release writes it
	p := Platform{"linux", "arm64"}
	got := strings.NewReplacer("${TARGETOS}", p.OS, "${TARGETARCH}", p.Arch).Replace(copySrc)
	if want := p.OS + "_" + p.Arch + "/" + p.Bin(); got != want {
		t.Errorf("COPY %s gives %s, make release writes %s", copySrc, got, want)
	}
}
