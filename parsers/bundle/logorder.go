package bundle

import (
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Rotated logs: `kube-apiserver.log.1`, `kube-apiserver.log.2.gz`, `kubelet.log-20260101.gz`,
// CRI `0.log.20260101-120000.gz`, must-gather `logs/rotated/*.log`, troubleshoot
// `<container>-previous.log`, and the restart-numbered CRI files `<n>.log`. The files of
// one log form a chain, read oldest first, so that year rollovers between them are seen.

var (
	reNumbered = regexp.MustCompile(`^(.*\.log)\.(\d+)$`)                        // x.log.1
	reCRIDate  = regexp.MustCompile(`^(.*\.log)\.(\d{8}-\d{6})$`)                // 0.log.20260101-120000
	reDashDate = regexp.MustCompile(`^(.*?)[-_.](\d{8}(?:-?\d{4,6})?)(\.log)?$`) // kubelet.log-20260101, x-20260101.log
	reRestart  = regexp.MustCompile(`^(\d+)\.log$`)                              // CRI restart count
)

// chainKey returns the log a file belongs to and its age rank in the chain (smaller =
// older). The current file of a log ranks highest.
func chainKey(rel string) (key string, rank string) {
	name := rel
	for _, ext := range compressedExt {
		name = strings.TrimSuffix(name, ext)
	}
	dir, base := path.Split(name)
	const current = "9"
	if path.Base(strings.TrimSuffix(dir, "/")) == "rotated" {
		// must-gather: logs/rotated/<x> are older than logs/current.log
		parent := path.Dir(strings.TrimSuffix(dir, "/"))
		_, r := chainKey(path.Join(parent, base))
		return path.Join(parent, "current.log"), "1" + r
	}
	switch {
	case base == "previous.log":
		return dir + "current.log", "2"
	case strings.HasSuffix(base, "-previous.log"):
		return dir + strings.TrimSuffix(base, "-previous.log") + ".log", "2"
	}
	if m := reCRIDate.FindStringSubmatch(base); m != nil {
		k, r := chainKey(dir + m[1])
		return k, r[:len(r)-1] + "3" + m[2] // before the current file of the same restart
	}
	if m := reNumbered.FindStringSubmatch(base); m != nil {
		n, _ := strconv.Atoi(m[2])
		return dir + m[1], "5" + strconv.Itoa(1e9-n) // .log.9 is older than .log.1
	}
	if m := reRestart.FindStringSubmatch(base); m != nil {
		n, _ := strconv.Atoi(m[1])
		return dir + "*.log", fmtRank(n)
	}
	if m := reDashDate.FindStringSubmatch(base); m != nil {
		return dir + m[1] + m[3], "4" + m[2]
	}
	return name, current
}

func fmtRank(n int) string { return "8" + strconv.Itoa(1e9+n) + "9" }

// rotationChains groups log files into chains, each ordered oldest first; chains are
// ordered by key.
func rotationChains(files []*logFile) [][]*logFile {
	type keyed struct {
		lf   *logFile
		rank string
	}
	groups := map[string][]keyed{}
	var keys []string
	for _, lf := range files {
		k, r := chainKey(lf.rel)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], keyed{lf, r})
	}
	sort.Strings(keys)
	out := make([][]*logFile, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		sort.SliceStable(g, func(i, j int) bool {
			if g[i].rank != g[j].rank {
				return g[i].rank < g[j].rank
			}
			return g[i].lf.rel < g[j].lf.rel
		})
		ch := make([]*logFile, len(g))
		for i, x := range g {
			ch[i] = x.lf
		}
		out = append(out, ch)
	}
	return out
}
