package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// PluginName is the krew plugin's name: krew installs the binary as kubectl-nsanalyze,
// so kubectl runs it as `kubectl nsanalyze …` (with the arguments after the name; the
// binary behaves the same under either name).
const PluginName = "nsanalyze"

// KrewPlugin is the part of krew's Plugin manifest (krew.googlecontainertools.github.com/v1alpha2)
// a release writes and CheckKrewManifest holds to krew's rules.
type KrewPlugin struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec KrewSpec `json:"spec"`
}

// KrewSpec is a Plugin's spec.
type KrewSpec struct {
	Version          string         `json:"version"`
	Homepage         string         `json:"homepage,omitempty"`
	ShortDescription string         `json:"shortDescription"`
	Description      string         `json:"description,omitempty"`
	Caveats          string         `json:"caveats,omitempty"`
	Platforms        []KrewPlatform `json:"platforms"`
}

// KrewPlatform is one platform's download.
type KrewPlatform struct {
	Selector struct {
		MatchLabels map[string]string `json:"matchLabels"`
	} `json:"selector"`
	URI    string     `json:"uri"`
	SHA256 string     `json:"sha256"`
	Files  []KrewFile `json:"files,omitempty"`
	Bin    string     `json:"bin"`
}

// KrewFile copies a file of the archive into the plugin's directory.
type KrewFile struct {
	From string `json:"from"`
	To   string `json:"to"`
}

const (
	krewAPIVersion = "krew.googlecontainertools.github.com/v1alpha2"
	shortDesc      = "Explain why namespaces are stuck in Terminating"
	description    = `nsanalyze reads a support bundle (saved kubectl output, cluster-info dumps,
component logs) offline and explains why namespaces hang in Terminating: the root
cause with file:line evidence, its fingerprint, the known issue it matches, and a
remediation ladder from safe to destructive.

  kubectl nsanalyze collect > collect.sh   # a read-only script that makes a bundle
  kubectl nsanalyze ./bundle.tar.gz        # the report
`
	caveats = `nsanalyze never contacts a cluster: only the script of
"kubectl nsanalyze collect" does, read-only, with the kubectl on PATH.
kubectl's own flags (--context, -n) are not passed to plugins: run
"kubectl config use-context" first, or read the script's NSA_* settings.
`
)

// KrewManifest is the manifest of a release: one platform entry per archive.
func KrewManifest(version, baseURL string, arts []Artifact) ([]byte, error) {
	var p KrewPlugin
	p.APIVersion, p.Kind, p.Metadata.Name = krewAPIVersion, "Plugin", PluginName
	p.Spec = KrewSpec{Version: version, Homepage: "https://github.com/nsanalyze/nsanalyze",
		ShortDescription: shortDesc, Description: description, Caveats: caveats}
	for _, a := range arts {
		var kp KrewPlatform
		kp.Selector.MatchLabels = map[string]string{"os": a.Platform.OS, "arch": a.Platform.Arch}
		kp.URI = baseURL + "/" + version + "/" + a.File
		kp.SHA256 = a.SHA256
		kp.Bin = a.Platform.Bin()
		kp.Files = []KrewFile{{From: a.Platform.Bin(), To: "."}, {From: "README.md", To: "."}}
		p.Spec.Platforms = append(p.Spec.Platforms, kp)
	}
	b, err := yaml.Marshal(p)
	if err != nil {
		return nil, err
	}
	if err := CheckKrewManifest(b); err != nil {
		return nil, fmt.Errorf("the manifest breaks krew's rules: %w", err)
	}
	return b, nil
}

var (
	pluginNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*[a-z0-9]$`)
	sha256RE     = regexp.MustCompile(`^[0-9a-f]{64}$`)
	// the GOOS and GOARCH values krew matches the selector against (runtime.GOOS/GOARCH)
	krewOS   = map[string]bool{"linux": true, "darwin": true, "windows": true}
	krewArch = map[string]bool{"amd64": true, "arm64": true, "386": true, "arm": true, "ppc64le": true, "s390x": true}
)

// CheckKrewManifest fails on a manifest krew would refuse (its index's validation):
// apiVersion and kind, a plugin name of lower-case letters, digits and dashes, a
// semver version with a leading v, a short description, and per platform a selector
// with os and arch labels, an https uri, a sha256 of 64 hex digits and a bin (with
// .exe on windows); no two platforms with the same os/arch.
func CheckKrewManifest(b []byte) error {
	var p KrewPlugin
	if err := yaml.UnmarshalStrict(b, &p); err != nil {
		return err
	}
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if p.APIVersion != krewAPIVersion {
		bad("apiVersion %q, want %s", p.APIVersion, krewAPIVersion)
	}
	if p.Kind != "Plugin" {
		bad("kind %q, want Plugin", p.Kind)
	}
	if !pluginNameRE.MatchString(p.Metadata.Name) {
		bad("metadata.name %q: lower-case letters, digits and dashes", p.Metadata.Name)
	}
	if !semver.MatchString(p.Spec.Version) {
		bad("spec.version %q is not semver with a leading v", p.Spec.Version)
	}
	if sd := strings.TrimSpace(p.Spec.ShortDescription); sd == "" || len(sd) > 80 || strings.Contains(sd, "\n") {
		bad("spec.shortDescription %q: one line, at most 80 characters", p.Spec.ShortDescription)
	}
	if len(p.Spec.Platforms) == 0 {
		bad("spec.platforms is empty")
	}
	seen := map[string]bool{}
	for i, pl := range p.Spec.Platforms {
		os, arch := pl.Selector.MatchLabels["os"], pl.Selector.MatchLabels["arch"]
		where := fmt.Sprintf("spec.platforms[%d] (%s/%s)", i, os, arch)
		if !krewOS[os] || !krewArch[arch] {
			bad("%s: selector.matchLabels needs os and arch as Go names them", where)
		}
		if seen[os+"/"+arch] {
			bad("%s: a second entry for the same os/arch", where)
		}
		seen[os+"/"+arch] = true
		if !strings.HasPrefix(pl.URI, "https://") {
			bad("%s: uri %q is not https", where, pl.URI)
		}
		if !sha256RE.MatchString(pl.SHA256) {
			bad("%s: sha256 %q is not 64 lower-case hex digits", where, pl.SHA256)
		}
		if pl.Bin == "" || os == "windows" && !strings.HasSuffix(pl.Bin, ".exe") {
			bad("%s: bin %q (windows needs .exe)", where, pl.Bin)
		}
		for _, f := range pl.Files {
			if f.From == "" || f.To == "" {
				bad("%s: a files entry without from or to", where)
			}
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}
