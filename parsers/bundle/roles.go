package bundle

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// File roles a layout's path gives (Hint.Role).
const (
	RoleVersion      = "version"       // the server's version (JSON with gitVersion)
	RoleClock        = "clock"         // when the collector ran (must-gather's timestamp)
	RoleLogClock     = "log-clock"     // the collector's own log: a log whose last line is its clock
	RoleContainerLog = "container-log" // a container's log, whatever its content looks like
	RoleNotLog       = "not-log"       // a debug dump beside a log (kube-apiserver's APF dumps)
)

// maxRoleFileBytes caps a version or clock file (they are a few hundred bytes).
const maxRoleFileBytes = 64 << 10

// versionFile reads a layout's version file: `{"gitVersion": ...}` (sonobuoy
// serverversion.json, /version), troubleshoot's `{"info": {"gitVersion": ...}, "string": ...}`,
// `kubectl version -o json`'s `{"serverVersion": {...}}`. The first one read wins.
func (l *loader) versionFile(rel string, r io.Reader) bool {
	data, err := io.ReadAll(io.LimitReader(r, maxRoleFileBytes))
	if err != nil {
		l.warn.Add(rel, 0, "read error: %v", err)
		return true
	}
	var v struct {
		GitVersion string `json:"gitVersion"`
		Info       struct {
			GitVersion string `json:"gitVersion"`
		} `json:"info"`
		String        string `json:"string"`
		ServerVersion struct {
			GitVersion string `json:"gitVersion"`
		} `json:"serverVersion"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		l.warn.Add(rel, 1, "version file is not the JSON of a server version: %v", err)
		return true
	}
	ver := v.GitVersion
	for _, x := range []string{v.Info.GitVersion, v.String, v.ServerVersion.GitVersion} {
		if ver == "" {
			ver = x
		}
	}
	if !strings.HasPrefix(ver, "v") || len(ver) > 64 {
		l.warn.Add(rel, 1, "version file without a server version (gitVersion)")
		return true
	}
	if l.rec.ServerVersion == "" {
		l.rec.ServerVersion, l.rec.ServerVersionFile = ver, rel
		l.serverVersionHere = true
	}
	l.readable++
	return true
}

// clockFile reads must-gather's `timestamp` file: one line per gather step,
// `2021-08-03 10:12:00.016988581 +0000 UTC m=+0.380233555`; the newest is when it ended.
func (l *loader) clockFile(rel string, r io.Reader) {
	sc := bufio.NewScanner(io.LimitReader(r, maxRoleFileBytes))
	var newest time.Time
	n, bad := 0, 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		n++
		f := strings.Fields(line)
		if len(f) < 3 {
			bad++
			continue
		}
		t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700", f[0]+" "+f[1]+" "+f[2])
		if err != nil {
			bad++
			continue
		}
		if t.After(newest) {
			newest = t
		}
	}
	if newest.IsZero() {
		l.warn.Add(rel, 1, "capture timestamp file holds no readable time")
		return
	}
	if bad > 0 {
		l.warn.Add(rel, 0, "%d of %d lines of the capture timestamp file hold no readable time", bad, n)
	}
	l.readable++
	l.noteClock(newest.UTC(), rel)
}

// noteClock records a capture clock of the bundle: the newest one wins (a must-gather
// holds a timestamp file per gather image, and one for the whole run).
func (l *loader) noteClock(t time.Time, rel string) {
	if t.After(l.rec.CaptureClock) {
		l.rec.CaptureClock, l.rec.CaptureClockSource = t, rel
		l.clockRel = rel
	}
}

// knownContainers are the container names that are the components nsanalyze reads by
// name; any other container is its own program.
var knownContainers = map[string]string{
	"kube-apiserver": "kube-apiserver", "kube-controller-manager": "kube-controller-manager",
	"cloud-controller-manager": "cloud-controller-manager", "kube-scheduler": "kube-scheduler",
	"etcd": "etcd", "metrics-server": "metrics-server", "kubelet": "kubelet",
}

// containerComponent is the component of a container's log when a layout names the
// container: the component it is, exactly, or the container's own name (velero,
// installer, kube-apiserver-cert-syncer): never the component its pod or namespace is
// named after, never one guessed from the libraries its lines come from.
func containerComponent(container string) string {
	if c, ok := knownContainers[container]; ok {
		return c
	}
	if len(container) > 63 {
		return "" // not a container name
	}
	return container
}

// isComponent reports whether c is one of the components knownContainers names.
func isComponent(c string) bool {
	_, ok := knownContainers[c]
	return ok
}
