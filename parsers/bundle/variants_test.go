package bundle_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"

	"github.com/ulikunitz/xz"
	"sigs.k8s.io/yaml"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// realdataDir returns the directory of the real bundles, the repository's own copy
// (nothing outside the repository is read); missing, it fails the test.
func realdataDir(t *testing.T) string {
	t.Helper()
	d := "../../fixtures/realdata"
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Fatalf("committed fixtures %s missing: %v", d, err)
	}
	return d
}

func realBundles(t *testing.T) []string {
	dir := realdataDir(t)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		t.Fatal("no real bundle under fixtures/realdata")
	}
	return out
}

// bfile is one file of a bundle being re-packed.
type bfile struct {
	name string
	data []byte
	link string // symlink target when set
}

// readTree reads a bundle directory into memory (the real bundles are small).
func readTree(t *testing.T, root string) []bfile {
	t.Helper()
	var out []bfile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, bfile{name: filepath.ToSlash(rel), data: b})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeTree(t *testing.T, dir string, files []bfile) string {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if f.link != "" {
			err = os.Symlink(f.link, p)
		} else {
			err = os.WriteFile(p, f.data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeTar(t *testing.T, w io.Writer, prefix string, files []bfile) {
	t.Helper()
	tw := tar.NewWriter(w)
	mt := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)
	if prefix != "" {
		if err := tw.WriteHeader(&tar.Header{Name: prefix, Typeflag: tar.TypeDir, Mode: 0o755, ModTime: mt}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		h := &tar.Header{Name: prefix + f.name, Mode: 0o644, Size: int64(len(f.data)), ModTime: mt, Typeflag: tar.TypeReg}
		if f.link != "" {
			h = &tar.Header{Name: prefix + f.name, Mode: 0o777, Linkname: f.link, ModTime: mt, Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if f.link == "" {
			if _, err := tw.Write(f.data); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeArchive(t *testing.T, p, format, prefix string, files []bfile) string {
	t.Helper()
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	switch format {
	case "tar":
		writeTar(t, out, prefix, files)
	case "tar.gz":
		zw := gzip.NewWriter(out)
		writeTar(t, zw, prefix, files)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	case "tar.xz":
		zw, err := xz.NewWriter(out)
		if err != nil {
			t.Fatal(err)
		}
		writeTar(t, zw, prefix, files)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	case "zip":
		zw := zip.NewWriter(out)
		for _, f := range files {
			h := &zip.FileHeader{Name: prefix + f.name, Method: zip.Deflate}
			data := f.data
			if f.link != "" {
				h.SetMode(fs.ModeSymlink | 0o777)
				data = []byte(f.link)
			}
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// ---- layout renderings ----

var klogHead = regexp.MustCompile(`^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})`)

// lineTime gives a log line of a real bundle its real time: the JSON ts, or the klog
// header completed with the bundle's year.
func lineTime(line string, year int) (time.Time, bool) {
	if strings.HasPrefix(line, `{"ts":`) {
		var d struct {
			TS float64 `json:"ts"`
		}
		if json.Unmarshal([]byte(line), &d) == nil {
			return time.UnixMicro(int64(d.TS * 1000)).UTC(), true
		}
	}
	m := klogHead.FindStringSubmatch(line)
	if m == nil {
		return time.Time{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	return time.Date(year, time.Month(n(2)), n(3), n(4), n(5), n(6), n(7)*1000, time.UTC), true
}

// reframe rewrites every line of a log with a line framing, carrying the previous
// time over to header-less continuation lines.
func reframe(data []byte, year int, frame func(t time.Time, line string) string) []byte {
	var out bytes.Buffer
	last := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" {
			continue
		}
		l := strings.TrimSuffix(line, "\n")
		if t, ok := lineTime(l, year); ok {
			last = t
		}
		out.WriteString(frame(last, l))
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// logFramings are the ways a runtime or collector writes a component's lines.
var logFramings = map[string]func(t time.Time, l string) string{
	// CRI, long lines split into P records of 150 bytes (joined again by the reader)
	"cri": func(t time.Time, l string) string {
		ts := t.Format(time.RFC3339Nano)
		var parts []string
		for len(l) > 150 {
			parts = append(parts, ts+" stderr P "+l[:150])
			l = l[150:]
		}
		return strings.Join(append(parts, ts+" stderr F "+l), "\n")
	},
	"docker": func(t time.Time, l string) string {
		b, _ := json.Marshal(map[string]string{"log": l + "\n", "stream": "stderr", "time": t.Format(time.RFC3339Nano)})
		return string(b)
	},
	"journald": func(t time.Time, l string) string {
		return t.Format("Jan 02 15:04:05") + " node1 k3s[2557]: " + l
	},
	"journald-iso": func(t time.Time, l string) string {
		return t.Format("2006-01-02T15:04:05-0700") + " node1 k3s[2557]: " + l
	},
	"timestamps": func(t time.Time, l string) string {
		return t.Format("2006-01-02T15:04:05.000000000Z07:00") + " " + l
	},
}

// bundleYear is the year of the real bundles' klog lines (from their objects).
func bundleYear(t *testing.T, files []bfile) int {
	for _, f := range files {
		if m := regexp.MustCompile(`"creationTimestamp": "(\d{4})-`).FindSubmatch(f.data); m != nil {
			y, _ := strconv.Atoi(string(m[1]))
			return y
		}
	}
	return time.Now().Year()
}

func isLog(name string) bool {
	return strings.HasPrefix(name, "logs/") && strings.HasSuffix(name, ".log")
}

// withFraming renders the logs/*.log files of a bundle in a framing. journald logs
// mix components in one k3s process: both logs go into one journal file.
func withFraming(files []bfile, year int, framing string) []bfile {
	var out []bfile
	var journal bytes.Buffer
	for _, f := range files {
		if !isLog(f.name) {
			out = append(out, f)
			continue
		}
		data := reframe(f.data, year, logFramings[framing])
		if strings.HasPrefix(framing, "journald") {
			journal.Write(data)
			continue
		}
		out = append(out, bfile{name: f.name, data: data})
	}
	if journal.Len() > 0 {
		out = append(out, bfile{name: "host/journal-k3s.txt", data: journal.Bytes()})
	}
	return out
}

// asTroubleshoot renders a kubectl-get bundle as a Replicated support bundle: lists
// under cluster-resources/, per-namespace files as <kind>/<ns>.json, logs under
// cluster-resources/pods/logs with the logs collector's symlinks.
func asTroubleshoot(files []bfile) []bfile {
	out := []bfile{{name: "version.yaml", data: []byte("apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n")}}
	for _, f := range files {
		segs := strings.Split(f.name, "/")
		switch {
		case isLog(f.name):
			comp := strings.TrimSuffix(segs[1], ".log")
			target := "cluster-resources/pods/logs/kube-system/" + comp + "-node1/" + comp + ".log"
			out = append(out, bfile{name: target, data: f.data},
				bfile{name: "kube-system-logs/" + comp + "-node1/" + comp + ".log", link: "../../" + target})
		case len(segs) == 2 && segs[0] == "cluster":
			out = append(out, bfile{name: "cluster-resources/" + segs[1], data: f.data})
		case len(segs) == 3 && segs[0] == "namespaces" && strings.HasSuffix(segs[2], ".json"):
			res := strings.TrimSuffix(segs[2], ".json")
			out = append(out, bfile{name: "cluster-resources/" + res + "/" + segs[1] + ".json", data: f.data})
		case len(segs) == 2 && segs[0] == "kube-system" || len(segs) >= 2 && strings.HasSuffix(f.name, ".json"):
			// cluster-info dump: <ns>/<kind>.json
			res := strings.TrimSuffix(segs[len(segs)-1], ".json")
			out = append(out, bfile{name: "cluster-resources/" + res + "/" + strings.Join(segs[:len(segs)-1], "_") + ".json", data: f.data})
		case len(segs) == 1 && strings.HasSuffix(f.name, ".json"):
			out = append(out, bfile{name: "cluster-resources/" + f.name, data: f.data})
		case strings.HasSuffix(f.name, "logs.txt"):
			out = append(out, bfile{name: "cluster-resources/pods/logs/" + f.name, data: f.data})
		}
	}
	return out
}

// asMustGather renders a bundle as an OpenShift must-gather: YAML, one file per
// Namespace (namespaces/<ns>/<ns>.yaml), per-object YAML for cluster-scoped kinds,
// List YAML per namespace and kind, and pod logs with RFC3339Nano prefixes.
func asMustGather(t *testing.T, files []bfile, year int) []bfile {
	const img = "quay-io-openshift-must-gather-sha256-0123abcd/"
	out := []bfile{{name: img + "version", data: []byte("openshift/must-gather\n4.16.0\n")}}
	toYAML := func(b []byte) []byte {
		y, err := yaml.JSONToYAML(b)
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	for _, f := range files {
		segs := strings.Split(f.name, "/")
		switch {
		case isLog(f.name):
			comp := strings.TrimSuffix(segs[1], ".log")
			ns := "openshift-" + comp
			p := img + "namespaces/" + ns + "/pods/" + comp + "-m0/" + comp + "/" + comp + "/logs/current.log"
			out = append(out, bfile{name: p, data: reframe(f.data, year, logFramings["timestamps"])})
		case strings.HasSuffix(f.name, ".json") && f.name != "expected.json":
			var list struct {
				Kind  string            `json:"kind"`
				Items []json.RawMessage `json:"items"`
			}
			if json.Unmarshal(f.data, &list) != nil {
				continue
			}
			if !strings.HasSuffix(list.Kind, "List") {
				list.Items = []json.RawMessage{f.data}
			}
			res := strings.TrimSuffix(segs[len(segs)-1], ".json")
			for i, it := range list.Items {
				var meta struct {
					Kind     string `json:"kind"`
					Metadata struct {
						Name      string `json:"name"`
						Namespace string `json:"namespace"`
					} `json:"metadata"`
				}
				_ = json.Unmarshal(it, &meta)
				name := meta.Metadata.Name
				if name == "" {
					name = fmt.Sprintf("item-%d", i)
				}
				switch {
				case meta.Kind == "Namespace":
					out = append(out, bfile{name: img + "namespaces/" + name + "/" + name + ".yaml", data: toYAML(it)})
				case meta.Metadata.Namespace == "":
					out = append(out, bfile{name: img + "cluster-scoped-resources/" + res + "/" + name + ".yaml", data: toYAML(it)})
				default:
					// per-namespace List files: namespaces/<ns>/<group>/<res>.yaml (one doc per object here)
					p := img + "namespaces/" + meta.Metadata.Namespace + "/core/" + res + "/" + name + ".yaml"
					out = append(out, bfile{name: p, data: toYAML(it)})
				}
			}
		}
	}
	return out
}

// asClusterInfoStdout renders a bundle as `kubectl cluster-info dump` written to
// stdout: every JSON list (NodeList first), then each log as a container log block.
func asClusterInfoStdout(files []bfile, year int) []bfile {
	var b bytes.Buffer
	var jsons, logsOut []bfile
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.name, ".json") && f.name != "expected.json":
			jsons = append(jsons, f)
		case isLog(f.name) || strings.HasSuffix(f.name, "/logs.txt"):
			logsOut = append(logsOut, f)
		}
	}
	sort.SliceStable(jsons, func(i, j int) bool {
		return path.Base(jsons[i].name) == "nodes.json" && path.Base(jsons[j].name) != "nodes.json"
	})
	for _, f := range jsons {
		var v any
		if json.Unmarshal(f.data, &v) != nil {
			continue
		}
		enc, _ := json.MarshalIndent(v, "", "    ")
		b.Write(enc)
		b.WriteByte('\n')
	}
	for _, f := range logsOut {
		if strings.HasSuffix(f.name, "logs.txt") {
			b.Write(f.data)
			continue
		}
		comp := strings.TrimSuffix(path.Base(f.name), ".log")
		fmt.Fprintf(&b, "==== START logs for container %s of pod kube-system/%s-node1 ====\n", comp, comp)
		b.Write(f.data)
		fmt.Fprintf(&b, "==== END logs for container %s of pod kube-system/%s-node1 ====\n", comp, comp)
	}
	return []bfile{{name: "cluster-info-dump.txt", data: b.Bytes()}}
}

// ---- findings ----

// findings is what must not change between renderings of one bundle.
func findings(t *testing.T, paths ...string) (string, *bundle.Records) {
	t.Helper()
	rec, err := bundle.LoadAll(paths, bundle.Options{Keywords: rules.Phrases, KeepObject: rules.KeepObject})
	if err != nil {
		t.Fatalf("load %v: %v", paths, err)
	}
	r := analyzer.Analyze(rec, analyzer.Options{Rules: rules.All})
	var lines []string
	for _, ns := range r.Namespaces {
		for _, c := range ns.Causes {
			gv := append([]string(nil), c.GroupVersions...)
			fin := append([]string(nil), c.Finalizers...)
			sort.Strings(gv)
			sort.Strings(fin)
			lines = append(lines, fmt.Sprintf("%s: %s gv=%v finalizers=%v", ns.Name, c.Type, gv, fin))
		}
		lines = append(lines, fmt.Sprintf("%s: spec.finalizers=%v", ns.Name, ns.SpecFinalizers))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), rec
}

// logLines summarises the key log lines read: how many per component and message.
func logLines(rec *bundle.Records, perComponent bool) string {
	count := map[string]int{}
	for _, e := range rec.Entries {
		if !strings.HasSuffix(e.File, ".log") && !strings.HasSuffix(e.File, ".txt") || strings.Contains(e.File, "commands.txt") {
			continue
		}
		k := e.Detail()
		if perComponent {
			k = e.Component + " " + k
		}
		count[k]++
	}
	var out []string
	for k, n := range count {
		out = append(out, fmt.Sprintf("%d× %.120s", n, k))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func recDir(t *testing.T, dir string) *bundle.Records {
	_, rec := findings(t, dir)
	return rec
}

type expected struct {
	Stuck []string `json:"stuck_namespaces"`
}

// TestRealBundleVariants re-packs every real bundle in each archive form and layout
// and requires the same findings from all of them.
func TestRealBundleVariants(t *testing.T) {
	for _, dir := range realBundles(t) {
		dir := dir
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			files := readTree(t, dir)
			year := bundleYear(t, files)
			want, rec := findings(t, dir)
			if strings.HasSuffix(dir, "-clusterinfo") {
				if !contains(rec.Layouts, bundle.LayoutClusterInfo) {
					t.Errorf("layouts %v, want %s", rec.Layouts, bundle.LayoutClusterInfo)
				}
			} else {
				var exp expected
				if b, err := os.ReadFile(filepath.Join(dir, "expected.json")); err == nil && json.Unmarshal(b, &exp) == nil {
					for _, ns := range exp.Stuck {
						if !strings.Contains(want, ns+":") {
							t.Errorf("directory: stuck namespace %s not found in\n%s", ns, want)
						}
					}
				}
				if want == "" {
					t.Fatalf("no finding from the directory itself")
				}
			}
			tmp := t.TempDir()
			variants := map[string]string{
				"tar (wrapped)":     writeArchive(t, filepath.Join(tmp, "b.tar"), "tar", "support-bundle-2026-11-29T23_00_00/", files),
				"tar.gz (./ names)": writeArchive(t, filepath.Join(tmp, "b.tar.gz"), "tar.gz", "./", files),
				"tgz (wrapped)":     writeArchive(t, filepath.Join(tmp, "b.tgz"), "tar.gz", filepath.Base(dir)+"/", files),
				"tar.xz":            writeArchive(t, filepath.Join(tmp, "b.tar.xz"), "tar.xz", "", files),
				"zip (wrapped)":     writeArchive(t, filepath.Join(tmp, "b.zip"), "zip", "must-gather.local.42/", files),
				"troubleshoot dir":  writeTree(t, filepath.Join(tmp, "ts"), asTroubleshoot(files)),
				"troubleshoot tgz":  writeArchive(t, filepath.Join(tmp, "ts.tgz"), "tar.gz", "support-bundle-2026-11-29T23_00_00/", asTroubleshoot(files)),
				"must-gather dir":   writeTree(t, filepath.Join(tmp, "mg"), asMustGather(t, files, year)),
				"must-gather tgz":   writeArchive(t, filepath.Join(tmp, "mg.tgz"), "tar.gz", "must-gather.local.5/", asMustGather(t, files, year)),
				"cluster-info stdout": writeTree(t, filepath.Join(tmp, "stdout"), asClusterInfoStdout(files, year)) +
					"/cluster-info-dump.txt",
			}
			for name := range logFramings {
				variants["logs as "+name] = writeArchive(t, filepath.Join(tmp, name+".zip"), "zip", "", withFraming(files, year, name))
			}
			names := make([]string, 0, len(variants))
			for n := range variants {
				names = append(names, n)
			}
			sort.Strings(names)
			wantLines := logLines(rec, true)
			for _, n := range names {
				got, rec := findings(t, variants[n])
				if got != want {
					t.Errorf("%s: findings differ\n got: %s\nwant: %s\nlayouts %v", n, got, want, rec.Layouts)
				}
				// the same key lines are read from every rendering of the logs (CRI P
				// fragments joined, framings removed); journald mixes components in one file
				perComponent := !strings.HasPrefix(n, "logs as journald")
				if gl := logLines(rec, perComponent); gl != logLines(recDir(t, dir), perComponent) {
					t.Errorf("%s: log lines differ\n got: %s\nwant: %s", n, gl, wantLines)
				}
				for _, f := range rec.Files {
					if strings.HasPrefix(f, "support-bundle-") || strings.HasPrefix(f, "must-gather.local") || strings.HasPrefix(f, "./") {
						t.Errorf("%s: wrapping directory kept in path %s", n, f)
						break
					}
				}
			}
		})
	}
}

// TestLayoutsDetected checks the layout names reported for each rendering.
func TestLayoutsDetected(t *testing.T) {
	dirs := realBundles(t)
	var src string
	for _, d := range dirs {
		if filepath.Base(d) == "a-discovery-failure" {
			src = d
		}
	}
	if src == "" {
		t.Fatal("committed fixture realdata/a-discovery-failure missing")
	}
	files := readTree(t, src)
	year := bundleYear(t, files)
	tmp := t.TempDir()
	tests := []struct {
		name string
		path string
		want []string
	}{
		{"kubectl dumps", src, []string{bundle.LayoutKubectl}},
		{"troubleshoot", writeArchive(t, filepath.Join(tmp, "ts.tgz"), "tar.gz", "support-bundle-x/", asTroubleshoot(files)), []string{bundle.LayoutTroubleshoot}},
		{"must-gather", writeArchive(t, filepath.Join(tmp, "mg.tar"), "tar", "must-gather.local.1/", asMustGather(t, files, year)), []string{bundle.LayoutMustGather}},
		{"cluster-info stdout", writeTree(t, filepath.Join(tmp, "s"), asClusterInfoStdout(files, year)) + "/cluster-info-dump.txt", []string{bundle.LayoutClusterInfoStdout}},
	}
	for _, d := range dirs {
		if strings.HasSuffix(d, "-clusterinfo") {
			tests = append(tests, struct {
				name string
				path string
				want []string
			}{"cluster-info dir " + filepath.Base(d), d, []string{bundle.LayoutClusterInfo}})
			break
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rec := findings(t, tt.path)
			for _, l := range tt.want {
				if !contains(rec.Layouts, l) {
					t.Errorf("layouts %v, want %s", rec.Layouts, l)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
