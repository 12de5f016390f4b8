package logs

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// Real lines: realworld calico (1.26 klog printf), realdata (1.34 klog structured and
// JSON logging). The framings around them are the runtimes' and collectors' formats.
const (
	calicoKCM = `E0107 04:30:04.389367       1 namespace_controller.go:157] deletion of namespace client failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request`
	realKCM   = `E1129 22:26:15.581738    2557 namespace_controller.go:164] "Unhandled Error" err="deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1" logger="UnhandledError"`
	realKAS   = `I1129 22:26:04.248373    2523 remote_available_controller.go:408] "changing APIService availability" name="v1beta1.metrics.k8s.io" oldStatus="Unknown" newStatus="False" message="endpointslices for service/metrics-server in \"kube-system\" have no addresses with port name \"https\"" reason="MissingEndpoints"`
	realJSON  = `{"ts":1795991729905.163,"logger":"UnhandledError","caller":"namespace/namespace_controller.go:164","msg":"Unhandled Error","err":"deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1"}`
	noise     = `I1129 22:26:05.000000    2557 reflector.go:376] "Caches populated" type="*v1.Pod"`
)

var testKeywords = []string{"deletion of namespace", "changing APIService availability"}

func scanLog(t *testing.T, path, log string, ref time.Time) ([]Entry, FileInfo, *diag.Sink) {
	t.Helper()
	var got []Entry
	warn := &diag.Sink{}
	info, err := Scan(strings.NewReader(log), path, Options{Keywords: testKeywords, Reference: ref}, warn, func(e Entry) { got = append(got, e) })
	if err != nil {
		t.Fatal(err)
	}
	return got, info, warn
}

func TestLineFormats(t *testing.T) {
	ref := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	kcmTime := time.Date(2026, 11, 29, 22, 26, 15, 581738000, time.UTC)
	long := strings.Repeat("x", 300)
	tests := []struct {
		name      string
		path      string
		log       string
		line      int // of the first entry
		n         int // entries
		component string
		time      time.Time
		inferred  bool
		source    string
		detail    string // the first entry's Detail() contains this
	}{
		{name: "klog printf (1.26, realworld calico)", path: "logs/kube-controller-manager.log", log: noise + "\n" + calicoKCM + "\n",
			line: 2, n: 1, component: "kube-controller-manager", time: time.Date(2026, 1, 7, 4, 30, 4, 389367000, time.UTC), inferred: true, source: "klog",
			detail: "deletion of namespace client failed"},
		{name: "klog structured (1.34)", path: "logs/kcm.log", log: realKCM + "\n",
			line: 1, n: 1, component: "kube-controller-manager", time: kcmTime, inferred: true, source: "klog", detail: "stale GroupVersion discovery"},
		{name: "JSON logging (1.34)", path: "x/kube-controller-manager.log", log: realJSON + "\n",
			line: 1, n: 1, component: "kube-controller-manager", time: time.UnixMicro(1795991729905163).UTC(), source: "json", detail: "deletion of namespace tobedeleted"},
		{name: "CRI full line", path: "var/log/pods/kube-system_kube-controller-manager-n1_uid/kube-controller-manager/0.log",
			log: "2026-11-29T22:26:15.581738123Z stderr F " + realKCM + "\n", line: 1, n: 1, component: "kube-controller-manager",
			time: time.Date(2026, 11, 29, 22, 26, 15, 581738123, time.UTC), source: "cri", detail: "stale GroupVersion discovery"},
		{name: "CRI P partial lines joined, key phrase cut by the runtime", path: "pods/kube-controller-manager-n1/0.log",
			log: "2026-11-29T22:26:14Z stderr F " + noise + "\n" +
				"2026-11-29T22:26:15.5Z stderr P " + realKCM[:90] + "\n" + // cuts "deletion of namespace"
				"2026-11-29T22:26:15.5Z stderr P " + realKCM[90:200] + "\n" +
				"2026-11-29T22:26:15.5Z stderr F " + realKCM[200:] + "\n" +
				"2026-11-29T22:26:16Z stderr F " + realKAS + "\n",
			line: 2, n: 2, component: "kube-controller-manager", time: time.Date(2026, 11, 29, 22, 26, 15, 500000000, time.UTC), source: "cri",
			detail: "deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale"},
		{name: "docker json-file", path: "containers/abc/abc-json.log",
			log:  `{"log":"` + strings.ReplaceAll(realKCM, `"`, `\"`) + `\n","stream":"stderr","time":"2026-11-29T22:26:15.581738Z"}` + "\n",
			line: 1, n: 1, component: "kube-controller-manager", time: kcmTime.Truncate(time.Microsecond), source: "docker", detail: "stale GroupVersion discovery"},
		{name: "journald short, k3s (components split per line)", path: "journal/k3s.txt",
			log: "-- Logs begin at Sun 2026-11-29 20:00:00 UTC. --\n" +
				"Nov 29 22:26:04 node1 k3s[2557]: " + realKAS + "\n" +
				"Nov 29 22:26:15 node1 k3s[2557]: " + realKCM + "\n",
			line: 2, n: 2, component: "kube-apiserver", time: time.Date(2026, 11, 29, 22, 26, 4, 248373000, time.UTC), inferred: true, source: "klog",
			detail: "changing APIService availability"},
		{name: "journald short-iso, unit identifier", path: "host_service_logs/masters/node.log",
			log:  "2026-11-29T23:26:15+0100 node1 kube-controller-manager[2557]: " + calicoKCM + "\n",
			line: 1, n: 1, component: "kube-controller-manager", time: time.Date(2026, 11, 29, 22, 26, 15, 0, time.UTC), source: "journald", detail: "deletion of namespace client"},
		{name: "must-gather / kubectl --timestamps prefix", path: "namespaces/openshift-kube-controller-manager/pods/kube-controller-manager-m0/kube-controller-manager/kube-controller-manager/logs/current.log",
			log:  "2026-11-29T22:26:15.581738000Z " + realKCM + "\n",
			line: 1, n: 1, component: "kube-controller-manager", time: kcmTime, source: "timestamp-prefix", detail: "stale GroupVersion discovery"},
		{name: "line wrapped by a log viewer does not shift the next record", path: "logs/kube-controller-manager.log",
			log:  noise[:40] + "\n" + noise[40:] + "\n" + long[:80] + "\n" + long[80:] + "\n" + calicoKCM[:100] + "\n" + calicoKCM[100:] + "\n" + realKCM + "\n",
			line: 5, n: 2, component: "kube-controller-manager", time: time.Date(2026, 1, 7, 4, 30, 4, 389367000, time.UTC), inferred: true, source: "klog",
			detail: "deletion of namespace client failed"},
		{name: "cluster-info dump log block", path: "cluster-info-dump.txt",
			log: "==== START logs for container kube-apiserver of pod kube-system/kube-apiserver-n1 ====\n" + realKAS + "\n" +
				"==== END logs for container kube-apiserver of pod kube-system/kube-apiserver-n1 ====\n" +
				"==== START logs for container kube-controller-manager of pod kube-system/kube-controller-manager-n1 ====\n" + realKCM + "\n",
			line: 2, n: 2, component: "kube-apiserver", time: time.Date(2026, 11, 29, 22, 26, 4, 248373000, time.UTC), inferred: true, source: "klog",
			detail: "changing APIService availability"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, info, _ := scanLog(t, tt.path, tt.log, ref)
			if len(got) != tt.n {
				for _, e := range got {
					t.Logf("entry %d %q", e.Line, e.Detail())
				}
				t.Fatalf("%d entries, want %d", len(got), tt.n)
			}
			e := got[0]
			if e.Line != tt.line || e.Component != tt.component || e.TimeSource != tt.source || e.YearInferred != tt.inferred {
				t.Errorf("line %d component %q source %q inferred %v; want %d %q %q %v", e.Line, e.Component, e.TimeSource, e.YearInferred,
					tt.line, tt.component, tt.source, tt.inferred)
			}
			if d := e.Time.Sub(tt.time); d > time.Microsecond || d < -time.Microsecond {
				t.Errorf("time %s, want %s", e.Time, tt.time)
			}
			if !strings.Contains(e.Detail(), tt.detail) {
				t.Errorf("detail %q lacks %q", e.Detail(), tt.detail)
			}
			if want := strings.Count(tt.log, "\n"); info.Lines != want {
				t.Errorf("lines %d, want %d", info.Lines, want)
			}
		})
	}
}

func TestPerLineComponentsAndSections(t *testing.T) {
	log := "Nov 29 22:26:04 node1 k3s[2557]: " + realKAS + "\nNov 29 22:26:15 node1 k3s[2557]: " + realKCM + "\n"
	got, info, _ := scanLog(t, "journal/k3s.txt", log, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	if len(got) != 2 || got[0].Component != "kube-apiserver" || got[1].Component != "kube-controller-manager" {
		t.Fatalf("entries %+v", got)
	}
	if len(info.Sections) != 2 || info.Sections[0].Component != "kube-apiserver" || info.Sections[1].Component != "kube-controller-manager" {
		t.Errorf("sections %+v", info.Sections)
	}
	if !info.YearInferred || info.Sections[1].Last.Year() != 2026 {
		t.Errorf("year inference not reported: %+v", info)
	}
}

// TestYearRollover: a klog log that crosses New Year, read with a reference in
// January: the December lines belong to the year before.
func TestYearRollover(t *testing.T) {
	log := strings.Join([]string{
		`E1231 23:59:58.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom`,
		`I1231 23:59:59.500000       1 reflector.go:1] noise`,
		`E0101 00:00:01.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom`,
		`E0102 10:00:00.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom`,
	}, "\n") + "\n"
	tests := []struct {
		name  string
		ref   time.Time
		years []int
	}{
		{"reference just after the log", time.Date(2027, 1, 2, 12, 0, 0, 0, time.UTC), []int{2026, 2027, 2027}},
		{"reference a month later", time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC), []int{2026, 2027, 2027}},
		{"reference the next December", time.Date(2027, 12, 1, 0, 0, 0, 0, time.UTC), []int{2026, 2027, 2027}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, info, _ := scanLog(t, "logs/kube-controller-manager.log", log, tt.ref)
			if len(got) != len(tt.years) {
				t.Fatalf("%d entries", len(got))
			}
			for i, e := range got {
				if e.Time.Year() != tt.years[i] || !e.YearInferred {
					t.Errorf("entry %d: %s (inferred %v), want year %d", i, e.Time, e.YearInferred, tt.years[i])
				}
			}
			if info.First.Year() != tt.years[0] || info.Last.Year() != tt.years[len(tt.years)-1] || info.YearBasis == "" {
				t.Errorf("info first %s last %s basis %q", info.First, info.Last, info.YearBasis)
			}
		})
	}
}

// TestRotatedChainYears: the rotated file (December) and the current one (January)
// are laid on one timeline, oldest first.
func TestRotatedChainYears(t *testing.T) {
	older := `E1230 10:00:00.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom` + "\n"
	current := `E0101 10:00:00.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom` + "\n"
	var files []*File
	for _, c := range []struct{ path, log string }{{"kcm.log.1", older}, {"kcm.log", current}} {
		f, err := ScanFile(strings.NewReader(c.log), c.path, Options{Keywords: testKeywords}, &diag.Sink{})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	ResolveYears(files, time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC), "test")
	if y := files[0].Entries[0].Time.Year(); y != 2026 {
		t.Errorf("rotated file year %d, want 2026", y)
	}
	if y := files[1].Entries[0].Time.Year(); y != 2027 {
		t.Errorf("current file year %d, want 2027", y)
	}
}

// TestTraceAnchorsYear: a utiltrace line states the year (realworld calico, 2023).
func TestTraceAnchorsYear(t *testing.T) {
	log := `I0107 04:27:30.541265       1 trace.go:219] Trace[1817643909]: "Get" accept:application/json,url:/api/v1/namespaces/kube-system/pods (07-Jan-2023 04:27:29.541) (total time: 1000ms):` + "\n" + calicoKCM + "\n"
	got, info, _ := scanLog(t, "logs/kube-controller-manager.log", log, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	if len(got) != 1 || got[0].Time.Year() != 2023 {
		t.Fatalf("entries %+v", got)
	}
	if !strings.Contains(info.YearBasis, "utiltrace") {
		t.Errorf("basis %q", info.YearBasis)
	}
}

// TestHugeLine: a 20 MB line is skipped with a warning; the lines after it keep their numbers.
func TestHugeLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(calicoKCM + "\n")
	b.WriteString("E0107 04:30:05.000000       1 x.go:1] deletion of namespace huge failed: ")
	b.Write(bytes.Repeat([]byte("y"), 20<<20))
	b.WriteString("\n" + noise + "\n" + calicoKCM + "\n")
	got, info, warn := scanLog(t, "logs/kube-controller-manager.log", b.String(), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	if len(got) != 2 || got[0].Line != 1 || got[1].Line != 4 {
		t.Fatalf("entries %d, lines %v", len(got), got)
	}
	if info.Lines != 4 {
		t.Errorf("lines %d, want 4", info.Lines)
	}
	found := false
	for _, w := range warn.List {
		if w.Line == 2 && strings.Contains(w.Message, "longer than") {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning for line 2: %v", warn.List)
	}
}

func TestComponentFromPath(t *testing.T) {
	tests := map[string]string{
		"logs/kube-apiserver.log": "kube-apiserver",
		"namespaces/openshift-kube-apiserver/pods/kube-apiserver-m0/kube-apiserver/kube-apiserver/logs/current.log":                                    "kube-apiserver",
		"namespaces/openshift-kube-apiserver-operator/pods/kube-apiserver-operator-x/kube-apiserver-operator/kube-apiserver-operator/logs/current.log": "",
		"cluster-resources/pods/logs/kube-system/kube-controller-manager-node1/kube-controller-manager.log":                                            "kube-controller-manager",
		"kube-system/kube-controller-manager-node1/logs.txt":                                                                                           "kube-controller-manager",
		"host_service_logs/masters/kubelet_service.log":                                                                                                "kubelet",
		"var/log/pods/kube-system_etcd-n1_uid/etcd/0.log":                                                                                              "etcd",
		"host-collectors/run-host/k3s-journal.txt":                                                                                                     "",
		"podlogs/kube-system/cloud-controller-manager-x/logs/cloud-controller-manager.txt":                                                             "cloud-controller-manager",
	}
	for p, want := range tests {
		if got := ComponentFromPath(p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}
