// Command bench measures nsanalyze against the tools a support engineer would use on
// the same files: grep -F / rg -F with the analyzer's own key phrases for logs,
// zcat | grep for compressed logs, jq for object dumps and tar -xzf for an archived
// bundle. Bundles are generated once by cmd/genbundle into the cache directory.
//
// Every case runs its commands interleaved (one warm-up round, then -runs rounds), so
// a busy machine slows both sides alike; each command runs under /usr/bin/time -v for
// wall time, CPU time and peak RSS. It prints a Markdown table of medians and ratios,
// and checks that nsanalyze found exactly what the generator planted.
//
// Usage: go run ./cmd/bench [-cache .cache/bench] [-runs 3] [-scale 1]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
)

var (
	cacheDir = flag.String("cache", ".cache/bench", "where bundles and binaries are kept between runs")
	runs     = flag.Int("runs", 3, "measured runs of every command (after one warm-up run)")
	scale    = flag.Float64("scale", 1, "multiply every bundle size (e.g. 0.05 for a quick smoke run)")
	only     = flag.String("only", "", "run only the cases whose name contains this")
	genOnly  = flag.Bool("generate", false, "only generate the bundles into the cache")
)

const mb = 1 << 20

func main() {
	flag.Parse()
	must(os.MkdirAll(*cacheDir, 0o755))
	abs, _ := filepath.Abs(*cacheDir)
	*cacheDir = abs
	nsa := filepath.Join(*cacheDir, "nsanalyze")
	run("go", "build", "-o", nsa, "./cmd/nsanalyze")
	parseOnly := filepath.Join(*cacheDir, "parseonly")
	run("go", "build", "-o", parseOnly, "./cmd/bench/parseonly")
	kw := filepath.Join(*cacheDir, "keywords.txt")
	must(os.WriteFile(kw, []byte(strings.Join(rules.Phrases, "\n")+"\n"), 0o644))

	size := func(n float64) int64 { return int64(n * *scale * mb) }
	// a case's bundles are generated (once, into the cache) only when it runs
	selected := func(name string) bool { return *genOnly || *only == "" || strings.Contains(name, *only) }
	type result struct {
		c     bench
		stats []stat
	}
	var cases []bench
	// Logs: klog text of kube-apiserver and kube-controller-manager.
	if name := "logs 1 GB klog"; selected(name) {
		logs1G := bundle("logs", size(1024), false)
		logFiles := glob(logs1G, "logs/*.log")
		c := bench{name: name, bundle: logs1G, bytes: sumSize(logFiles), target: "≤ 1.0× grep -F; ≤ 3× rg -F"}
		c.cmds = append(c.cmds, nsaCmd(nsa, logs1G))
		c.cmds = append(c.cmds, command{label: "grep -F -c -f keywords", argv: append([]string{"grep", "-F", "-c", "-f", kw}, logFiles...), limit: 1.0})
		if _, err := exec.LookPath("rg"); err == nil {
			c.cmds = append(c.cmds, command{label: "rg -F -c -f keywords", argv: append([]string{"rg", "-F", "-c", "-f", kw}, logFiles...), limit: 3.0})
		}
		cases = append(cases, c)
	}
	// The same logs, gzip-compressed.
	if name := "logs 1 GB klog, .gz"; selected(name) {
		logsGz := bundle("logs", size(1024), true)
		gzFiles := glob(logsGz, "logs/*.log.gz")
		cases = append(cases, bench{name: name, bundle: logsGz, bytes: sumSize(glob(bundle("logs", size(1024), false), "logs/*.log")), target: "≤ 1.0× zcat | grep -F",
			cmds: []command{nsaCmd(nsa, logsGz),
				{label: "zcat | grep -F -c -f keywords", argv: []string{"sh", "-c", "zcat " + strings.Join(gzFiles, " ") + " | grep -F -c -f " + kw}, limit: 1.0}}})
	}
	// Objects: kubectl get -o json Lists.
	if name := "objects 500 MB kubectl JSON"; selected(name) {
		objs := bundle("objects", size(500), false)
		jsonFiles := glob(objs, "cluster/*.json")
		cases = append(cases, bench{name: name, bundle: objs, bytes: sumSize(jsonFiles), target: "≤ 1/3 × jq",
			cmds: []command{nsaCmd(nsa, objs),
				{label: "jq -c '.items[] | select(.metadata.deletionTimestamp)'", argv: append([]string{"jq", "-c", ".items[] | select(.metadata.deletionTimestamp)"}, jsonFiles...), limit: 1.0 / 3}}})
	}
	// A whole bundle, archived.
	if name := "bundle 1.5 GB .tar.gz"; selected(name) {
		full := bundle("full", size(1536), false)
		tgz := archive(full)
		cases = append(cases, bench{name: name, bundle: full, archive: tgz, bytes: dirSize(full), target: "< 1.0× tar -xzf",
			cmds: []command{nsaCmd(nsa, tgz),
				{label: "nsanalyze with GOGC=50 (memory, not a target)", argv: append([]string{"env", "GOGC=50"}, nsaCmd(nsa, tgz).argv...), info: true},
				extractCmd(tgz)}})
	}
	// Scaling: 250 MB, 500 MB, 1 GB of logs.
	if name := "scaling (logs)"; selected(name) {
		scaling := bench{name: name, target: "2× input ≤ 2× time", scaling: true}
		for _, n := range []float64{256, 512, 1024} {
			d := bundle("logs", size(n), false)
			cmd := nsaCmd(nsa, d)
			cmd.label = fmt.Sprintf("nsanalyze %s", human(sumSize(glob(d, "logs/*.log"))))
			cmd.bytes = sumSize(glob(d, "logs/*.log"))
			scaling.cmds = append(scaling.cmds, cmd)
		}
		cases = append(cases, scaling)
	}
	// Kubernetes' scalability envelope (issue 16): 200,000 pods and 2 GB of component
	// logs, plain and archived, against grep + jq and tar -xzf; then how the cost grows
	// from 20,000 to 200,000 pods (with logs in proportion).
	scaleBundle := func(pods int) string {
		logs := int64(float64(pods) / 200000 * 2048 * mb)
		return bundleCfg(fmt.Sprintf("pods-%dk", pods/1000), gen.Config{Pods: pods, LogBytes: logs, Size: logs + logs/7, Mix: "full"})
	}
	pods200k := int(200000 * *scale)
	if name := "scale: 200k pods + 2 GB logs"; selected(name) {
		d := scaleBundle(pods200k)
		logFiles, jsonFiles := glob(d, "logs/*.log"), glob(d, "cluster/*.json")
		cases = append(cases, bench{name: name, bundle: d, bytes: dirSize(d), target: "≤ 0.5× (grep -F -c + jq)",
			cmds: []command{nsaCmd(nsa, d),
				{label: "grep -F -c -f keywords (logs); jq -c '.items[] | select(.metadata.deletionTimestamp)' (objects)",
					argv: []string{"sh", "-c", "grep -F -c -f " + kw + " " + strings.Join(logFiles, " ") + " && jq -c '.items[] | select(.metadata.deletionTimestamp)' " + strings.Join(jsonFiles, " ") + " >/dev/null"}, limit: 0.5}}})
	}
	if name := "scale: 200k pods + 2 GB logs, .tar.gz"; selected(name) {
		d := scaleBundle(pods200k)
		tgz := archive(d)
		cases = append(cases, bench{name: name, bundle: d, archive: tgz, bytes: dirSize(d), target: "< 1.0× tar -xzf",
			cmds: []command{nsaCmd(nsa, tgz), extractCmd(tgz)}})
	}
	if name := "scaling (pods)"; selected(name) {
		sc := bench{name: name, target: "time grows no faster than the bundle", scaling: true}
		for _, n := range []int{20000, 100000, 200000} {
			n = int(float64(n) * *scale)
			d := scaleBundle(n)
			cmd := nsaCmd(nsa, d)
			cmd.label = fmt.Sprintf("nsanalyze %dk pods, %s", n/1000, human(dirSize(d)))
			cmd.bytes = dirSize(d)
			sc.cmds = append(sc.cmds, cmd)
		}
		cases = append(cases, sc)
	}
	// Many bundles (issue 27): `nsanalyze scan` of 200 small bundles (a worker per
	// core, one process) against running nsanalyze on them one by one.
	if name := "scan 200 bundles"; selected(name) {
		dir := manyBundles(bundle("full", size(4), false), 200)
		one := []string{nsa, "-o", "json", "--exclude", "expected.json"}
		cases = append(cases, bench{name: name, bytes: dirSize(dir), target: "< 1.0× one by one (time per bundle = wall / 200)",
			cmds: []command{{label: "nsanalyze scan -o jsonl (200 bundles)", argv: []string{nsa, "scan", "-q", "-o", "jsonl", "--exclude", "expected.json", dir}},
				{label: "nsanalyze -o json, one bundle after the other", argv: []string{"sh", "-c", "for d in " + dir + "/*; do " + strings.Join(one, " ") + " \"$d\"; done; true"}, limit: 1.0, strict: true}}})
	}

	// Scale shapes (issue 22): one dimension of the analysis grows in each; nsanalyze
	// beside the reading alone of the same bundle (cmd/bench/parseonly): the analysis and
	// the report must cost less than the parse (nsanalyze < 2× parse-only). loglines
	// stays at 1,000 (the scanner keeps 1,000 lines of one shape per file and warns
	// beyond, and the bench stops on any warning); loggvs at 1,000 (one 100 KB log line
	// naming 1,000 group/versions, kept whole: a logged value is cut, with a warning,
	// past 1 MiB or the file's 8 MiB of long values).
	for _, sh := range []struct {
		shape   string
		n       int
		maxWall float64 // seconds, 0: none
		rssMB   int64
	}{
		{"finalizers", 10000, 2, 250}, {"crds", 10000, 10, 250}, {"apiservices", 200, 0, 250}, {"webhooks", 2000, 0, 250},
		{"namespaces", 500, 0, 250}, {"namespaces", 20000, 0, 500}, {"loggvs", 1000, 0, 250}, {"backendpods", 2000, 0, 250},
		{"events", 2000, 0, 250}, {"loglines", 1000, 0, 250}, {"deadnodepods", 2000, 0, 250}, {"orderedpods", 2000, 0, 250},
	} {
		n := max(1, int(float64(sh.n)**scale))
		name := fmt.Sprintf("shape %s n=%d", sh.shape, n)
		if !selected(name) {
			continue
		}
		d := shapeBundle(sh.shape, n)
		c := bench{name: name, bundle: d, bytes: dirSize(d), target: "nsanalyze < 2× parse-only (the analysis costs less than the parse)", rssMB: sh.rssMB,
			cmds: []command{nsaCmd(nsa, d), parseOnlyCmd(parseOnly, d)}}
		if sh.maxWall > 0 {
			c.cmds[0].maxWall = sh.maxWall
			c.target += fmt.Sprintf("; under %.0f s", sh.maxWall)
		}
		cases = append(cases, c)
	}
	// Doubling the objects with one finalizer in one namespace, and the stuck
	// namespaces: each doubling at most 2.2× the time.
	for _, sh := range []struct {
		shape string
		ns    []int
	}{{"finalizers", []int{2500, 5000, 10000, 20000}}, {"namespaces", []int{2500, 5000, 10000, 20000}}} {
		name := "scaling (shape " + sh.shape + ")"
		if !selected(name) {
			continue
		}
		sc := bench{name: name, target: "each doubling ≤ 2.2× time", scaling: true, growth: 2.2}
		for _, n := range sh.ns {
			n = max(1, int(float64(n)**scale))
			d := shapeBundle(sh.shape, n)
			cmd := nsaCmd(nsa, d)
			cmd.label = fmt.Sprintf("nsanalyze n=%d (%s)", n, human(dirSize(d)))
			cmd.bytes = dirSize(d)
			sc.cmds = append(sc.cmds, cmd)
		}
		cases = append(cases, sc)
	}

	if *genOnly {
		return
	}
	var results []result
	for _, c := range cases {
		if *only != "" && !strings.Contains(c.name, *only) {
			continue
		}
		matched := int64(-1)
		if c.bundle != "" {
			matched = checkFindings(nsa, c)
		}
		fmt.Fprintf(os.Stderr, "== %s\n", c.name)
		stats := measure(c)
		// grep -c and rg -c must count the very lines nsanalyze parsed (the same key
		// phrases over the same files), or the comparison is not like for like
		for i, s := range stats {
			if cmd := c.cmds[i]; strings.Contains(cmd.label, "-F -c") && s.count != matched {
				fmt.Fprintf(os.Stderr, "%s counted %d lines, nsanalyze matched %d: not the same search\n", cmd.label, s.count, matched)
				os.Exit(1)
			}
		}
		results = append(results, result{c, stats})
	}
	fmt.Printf("\nMachine: %s\n", machine())
	fmt.Printf("Runs: median of %d after 1 warm-up run, commands interleaved; wall = elapsed, CPU = user+sys, RSS = peak (/usr/bin/time -v)\n\n", *runs)
	fmt.Println("| case | command | wall | CPU | peak RSS | throughput (uncompressed) | nsanalyze ÷ this, wall (CPU) | target | met (wall) |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---|---|")
	for _, r := range results {
		base := r.stats[0]
		for i, s := range r.stats {
			cmd := r.c.cmds[i]
			bytes := r.c.bytes
			if cmd.bytes > 0 {
				bytes = cmd.bytes
			}
			ratio, met := "", ""
			switch {
			case r.c.scaling && i > 0:
				prev := r.stats[i-1]
				x := s.wall / prev.wall
				in := float64(bytes) / float64(r.c.cmds[i-1].bytes)
				ratio = fmt.Sprintf("%.2f× time for %.2f× input", x, in)
				met = yes(x <= in)
				if r.c.growth > 0 {
					ratio = fmt.Sprintf("%.2f× time for 2× n (%.2f× bytes)", x, in)
					met = yes(x <= r.c.growth)
				}
			case cmd.info:
			case i == 0 && cmd.maxWall > 0:
				met = yes(s.wall < cmd.maxWall)
			case i > 0:
				x := base.wall / s.wall
				ratio = fmt.Sprintf("%.2f× (CPU %.2f×)", x, base.cpu/s.cpu)
				if cmd.limit > 0 {
					met = yes(x <= cmd.limit && (!cmd.strict || x < cmd.limit))
				}
			}
			rss := fmt.Sprintf("%d MB", s.rss/1024)
			if i == 0 || r.c.scaling || cmd.info {
				limit := r.c.rssMB
				if limit == 0 {
					limit = 250
				}
				rss += fmt.Sprintf(" (%s <%d)", yes(s.rss/1024 < limit), limit)
			}
			tp := ""
			if bytes > 0 {
				tp = fmt.Sprintf("%.0f MB/s", float64(bytes)/mb/s.wall)
			}
			name := r.c.name
			if i > 0 {
				name = ""
			}
			esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
			fmt.Printf("| %s | %s | %.2f s | %.2f s | %s | %s | %s | %s | %s |\n", name, esc(cmd.label), s.wall, s.cpu, rss, tp, ratio, esc(tgt(i, r.c.target)), met)
		}
	}
}

func tgt(i int, t string) string {
	if i == 0 {
		return t
	}
	return ""
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

type command struct {
	label  string
	argv   []string
	limit  float64 // nsanalyze/this (wall) must stay at or under it; 0 = no target
	info   bool    // a variant of nsanalyze shown for information: no ratio
	strict bool    // ... strictly under it
	bytes  int64   // input size when it differs from the case's
	// maxWall is an absolute wall-time target in seconds (0: none), for cmds[0].
	maxWall float64
}

type bench struct {
	name, target string
	bundle       string // generated directory (expected.json inside)
	archive      string
	bytes        int64
	cmds         []command // cmds[0] is nsanalyze
	scaling      bool
	// growth is the most a scaling step may cost for 2× n (0: no more than its input).
	growth float64
	// rssMB is nsanalyze's peak RSS target (0: 250 MB).
	rssMB int64
}

type stat struct {
	wall, cpu float64 // seconds
	rss       int64   // KB
	count     int64   // sum of the counts the command printed (grep/rg -c), -1 if none
}

// parseOnlyCmd reads the bundle as nsanalyze does, without the analysis and report.
func parseOnlyCmd(bin, path string) command {
	return command{label: "parse only (cmd/bench/parseonly)", argv: []string{bin, "--exclude", "expected.json", path}, limit: 2.0, strict: true}
}

// shapeBundle generates a scale shape (cmd/genbundle -shape) once into the cache.
func shapeBundle(shape string, n int) string {
	dir := filepath.Join(*cacheDir, fmt.Sprintf("shape-%s-%d", shape, n))
	if _, err := os.Stat(filepath.Join(dir, "expected.json")); err == nil {
		return dir
	}
	os.RemoveAll(dir)
	fmt.Fprintf(os.Stderr, "generating %s\n", dir)
	_, err := gen.GenerateShape(dir, shape, n)
	must(err)
	return dir
}

func nsaCmd(nsa, path string) command {
	return command{label: "nsanalyze", argv: []string{nsa, "--exclude", "expected.json", path}}
}

// measure runs the commands of c interleaved and returns their medians.
func measure(c bench) []stat {
	all := make([][]stat, len(c.cmds))
	for round := 0; round <= *runs; round++ {
		for i, cmd := range c.cmds {
			s := timeIt(cmd.argv)
			if round > 0 {
				all[i] = append(all[i], s)
			}
			counted := ""
			if s.count >= 0 && strings.Contains(cmd.label, "-F -c") {
				counted = fmt.Sprintf(" (counted %d lines)", s.count)
			}
			fmt.Fprintf(os.Stderr, "   %-60.60s %7.2fs wall %7.2fs cpu %6d MB%s\n", cmd.label, s.wall, s.cpu, s.rss/1024, counted)
		}
	}
	out := make([]stat, len(c.cmds))
	for i, ss := range all {
		out[i] = median(ss)
	}
	return out
}

func median(ss []stat) stat {
	pick := func(f func(stat) float64) float64 {
		v := make([]float64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	var rss int64
	for _, s := range ss {
		rss = max(rss, s.rss)
	}
	return stat{wall: pick(func(s stat) float64 { return s.wall }), cpu: pick(func(s stat) float64 { return s.cpu }), rss: rss, count: ss[0].count}
}

// timeIt runs argv under /usr/bin/time -v. Its output is read through a pipe and
// dropped: GNU grep stops at the first match when its standard output is /dev/null
// (what exec.Cmd gives a nil Stdout), which would time a search that never happened.
// The output's line counts (grep/rg -c print "file:N") are summed into stat.count so
// that the table can show that every tool counted the same lines.
func timeIt(argv []string) stat {
	tf, err := os.CreateTemp("", "bench-time-*")
	must(err)
	tf.Close()
	defer os.Remove(tf.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", "-o", tf.Name()}, argv...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	var out countingWriter
	cmd.Stdout = &out
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start).Seconds()
	if err != nil {
		// nsanalyze exits 1 when it finds a stuck namespace, grep 1 when nothing matched
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			fmt.Fprintf(os.Stderr, "%s: %v\n%s", strings.Join(argv, " "), err, errb.String())
			os.Exit(1)
		}
	}
	raw, _ := os.ReadFile(tf.Name())
	s := stat{wall: wall, count: out.count()}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ": ")
		if !ok {
			continue
		}
		switch k {
		case "User time (seconds)", "System time (seconds)":
			f, _ := strconv.ParseFloat(v, 64)
			s.cpu += f
		case "Maximum resident set size (kbytes)":
			s.rss, _ = strconv.ParseInt(v, 10, 64)
		case "Elapsed (wall clock) time (h:mm:ss or m:ss)":
			s.wall = parseElapsed(v)
		}
	}
	return s
}

func parseElapsed(v string) float64 {
	parts := strings.Split(v, ":")
	total := 0.0
	for _, p := range parts {
		f, _ := strconv.ParseFloat(p, 64)
		total = total*60 + f
	}
	return total
}

// bundle generates (once) a bundle of the given mix and size and returns its directory.
func bundle(mix string, size int64, gz bool) string {
	name := fmt.Sprintf("%s-%dM", mix, size/mb)
	if gz {
		name += "-gz"
	}
	return bundleCfg(name, gen.Config{Size: size, Mix: mix, Gzip: gz})
}

// bundleCfg generates (once) the bundle cfg describes into the cache under name.
func bundleCfg(name string, cfg gen.Config) string {
	dir := filepath.Join(*cacheDir, name)
	done := filepath.Join(*cacheDir, name+".done")
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	fmt.Fprintf(os.Stderr, "generating %s ...\n", dir)
	must(os.RemoveAll(dir))
	start := time.Now()
	cfg.Out, cfg.Seed = dir, 1
	if _, err := gen.Generate(cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "generated %s in %s\n", dir, time.Since(start).Round(time.Second))
	must(os.WriteFile(done, nil, 0o644))
	return dir
}

// manyBundles makes (once) n copies of a bundle directory, as hard links, under
// <cache>/many-n: one directory per bundle, as a folder of tickets holds them.
func manyBundles(src string, n int) string {
	dir := filepath.Join(*cacheDir, fmt.Sprintf("many-%d", n))
	if _, err := os.Stat(dir + ".done"); err == nil {
		return dir
	}
	must(os.RemoveAll(dir))
	for i := 0; i < n; i++ {
		dst := filepath.Join(dir, fmt.Sprintf("bundle-%03d", i))
		must(filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			if fi.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			return os.Link(p, filepath.Join(dst, rel))
		}))
	}
	must(os.WriteFile(dir+".done", nil, 0o644))
	return dir
}

// extractCmd is `tar -xzf` of an archive into a fresh directory of the cache.
func extractCmd(tgz string) command {
	extract := filepath.Join(*cacheDir, "extract")
	return command{label: "tar -xzf", argv: []string{"sh", "-c", "rm -rf " + extract + " && mkdir -p " + extract + " && tar -xzf " + tgz + " -C " + extract}, limit: 1.0, strict: true}
}

// archive writes dir.tar.gz (once) with tar -czf, as a support tool would.
func archive(dir string) string {
	out := dir + ".tar.gz"
	if _, err := os.Stat(out + ".done"); err == nil {
		return out
	}
	fmt.Fprintf(os.Stderr, "archiving %s ...\n", out)
	run("tar", "-C", filepath.Dir(dir), "-czf", out, filepath.Base(dir))
	must(os.WriteFile(out+".done", nil, 0o644))
	return out
}

// checkFindings runs nsanalyze once with -o json and compares its findings with the
// bundle's expected.json.
// checkFindings runs nsanalyze on the case's bundle, checks its findings against the
// generator's expected.json (exits on a difference) and returns the number of log
// lines it matched.
func checkFindings(nsa string, c bench) int64 {
	target := c.bundle
	if c.archive != "" {
		target = c.archive
	}
	out, err := exec.Command(nsa, "-o", "json", "--exclude", "expected.json", target).Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		fmt.Fprintf(os.Stderr, "nsanalyze %s: %v\n", target, err)
		os.Exit(1)
	}
	var rep struct {
		Bundle struct {
			LogFiles []struct {
				Matched int64
			}
		}
		Warnings []struct {
			File    string
			Line    int
			Message string
		}
		Namespaces []struct {
			Name   string
			Causes []struct {
				Type          string
				GroupVersions []string
				Finalizers    []string
			}
		}
	}
	must(json.Unmarshal(out, &rep))
	var want gen.Expected
	raw, err := os.ReadFile(filepath.Join(c.bundle, "expected.json"))
	must(err)
	must(json.Unmarshal(raw, &want))
	var ns, gvs, fins []string
	for _, n := range rep.Namespaces {
		ns = append(ns, n.Name)
		for _, c := range n.Causes {
			gvs = append(gvs, c.GroupVersions...)
			if c.Type == "finalizers-remaining" || c.Type == "ordered-deletion" {
				fins = append(fins, c.Finalizers...)
			}
		}
	}
	// the generator writes well-formed files: a warning is a reading bug (an escaped
	// quote split by a tar read once cost two objects here, and only this caught it)
	for _, w := range rep.Warnings {
		fmt.Fprintf(os.Stderr, "warning on a generated bundle: %s:%d: %s\n", w.File, w.Line, w.Message)
	}
	ok := len(rep.Warnings) == 0 && set(ns) == set(want.StuckNamespaces) && set(gvs) == set(want.FailingGroupVersions) && set(fins) == set(want.BlockingFinalizers)
	fmt.Fprintf(os.Stderr, "findings on %s: namespaces %s, group/versions %s, finalizers %s: %s\n", filepath.Base(target), set(ns), set(gvs), set(fins), map[bool]string{true: "as planted", false: "WRONG"}[ok])
	if !ok {
		fmt.Fprintf(os.Stderr, "expected namespaces %s, group/versions %s, finalizers %s\n", set(want.StuckNamespaces), set(want.FailingGroupVersions), set(want.BlockingFinalizers))
		os.Exit(1)
	}
	var matched int64
	for _, f := range rep.Bundle.LogFiles {
		matched += f.Matched
	}
	return matched
}

func set(s []string) string {
	m := map[string]bool{}
	for _, v := range s {
		m[v] = true
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return "[" + strings.Join(out, " ") + "]"
}

func glob(dir, pattern string) []string {
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	must(err)
	if len(m) == 0 {
		fmt.Fprintf(os.Stderr, "no %s in %s\n", pattern, dir)
		os.Exit(1)
	}
	return m
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	must(err)
	return st.Size()
}

func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "expected.json" {
			if st, err := d.Info(); err == nil {
				n += st.Size()
			}
		}
		return nil
	})
	return n
}

func sumSize(files []string) int64 {
	var n int64
	for _, f := range files {
		n += fileSize(f)
	}
	return n
}

func human(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.0f MB", float64(n)/mb)
}

func machine() string {
	model := ""
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(l, "model name") {
				_, model, _ = strings.Cut(l, ": ")
				break
			}
		}
	}
	mem := ""
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		f := strings.Fields(string(raw))
		if len(f) > 1 {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			mem = fmt.Sprintf(", %d GB RAM", kb>>20)
		}
	}
	load := ""
	if raw, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = ", load average " + strings.Join(strings.Fields(string(raw))[:3], " ") + " at the end"
	}
	tools := []string{runtime.Version()}
	for _, t := range [][]string{{"grep", "--version"}, {"rg", "--version"}, {"jq", "--version"}, {"tar", "--version"}} {
		if out, err := exec.Command(t[0], t[1:]...).Output(); err == nil {
			tools = append(tools, strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0])
		}
	}
	return fmt.Sprintf("%s, %d cores%s, %s/%s%s; %s", strings.TrimSpace(model), runtime.NumCPU(), mem, runtime.GOOS, runtime.GOARCH, load, strings.Join(tools, ", "))
}

// countingWriter keeps the last incomplete line and sums the numbers that end lines
// ("path:N" or "N", as grep -c and rg -c print them); other output is dropped.
type countingWriter struct {
	partial []byte
	sum     int64
	counted bool
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(w.partial) < 4096 {
				w.partial = append(w.partial, p...)
			}
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		w.addLine(line)
		p = p[i+1:]
	}
	return n, nil
}

func (w *countingWriter) addLine(line []byte) {
	if len(line) > 4096 {
		return
	}
	f := string(line)
	if i := strings.LastIndexByte(f, ':'); i >= 0 {
		f = f[i+1:]
	}
	if v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64); err == nil {
		w.sum += v
		w.counted = true
	}
}

// count is the sum of the counts printed, or -1 when none was.
func (w *countingWriter) count() int64 {
	if len(w.partial) > 0 {
		w.addLine(w.partial)
		w.partial = nil
	}
	if !w.counted {
		return -1
	}
	return w.sum
}

func run(argv ...string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", strings.Join(argv, " "), err)
		os.Exit(1)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
