// Package gen writes large, realistic, deterministic support bundles for benchmarking
// nsanalyze (see cmd/genbundle): the noise of a busy cluster with a few namespaces stuck
// in Terminating planted in it, and an expected.json of what was planted.
package gen

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Config is what the flags choose.
type Config struct {
	Out  string
	Size int64 // total bytes before compression
	Seed uint64
	Mix  string // "full", "logs", "objects"
	Gzip bool   // gzip the component logs
	// Pods, when > 0, is the number of pods in cluster/pods.json (the two planted ones
	// included), whatever Size says; the other object dumps still fill their share.
	Pods int
	// LogBytes, when > 0, is the size of the component logs, whatever Size and Mix say;
	// the objects fill Size minus LogBytes.
	LogBytes int64
}

// Expected is the ground truth, in the format of fixtures/*/expected.json.
type Expected struct {
	StuckNamespaces      []string `json:"stuck_namespaces"`
	RootCause            string   `json:"root_cause"`
	RootCauses           []string `json:"root_causes"`
	FailingGroupVersions []string `json:"failing_group_versions"`
	FailingAPIServices   []string `json:"failing_apiservices"`
	BlockingFinalizers   []string `json:"blocking_finalizers"`
	Notes                string   `json:"notes"`
}

// stuckNS is a planted namespace stuck in Terminating.
type stuckNS struct {
	Name      string
	Deleted   time.Time
	Finalizer bool // also holds a custom resource whose finalizer is never removed
}

// plan is everything planted, shared by the object and log writers.
type plan struct {
	cfg   Config
	End   time.Time // capture time: the newest log line is just before it
	Start time.Time // first log line
	// KedaGone: the KEDA metrics server was removed, leaving APIService
	// v1beta1.external.metrics.k8s.io with Available=False (ServiceNotFound).
	KedaGone time.Time
	// MetricsDown: metrics-server starts crash-looping; v1beta1.metrics.k8s.io fails
	// its discovery check.
	MetricsDown time.Time
	MetricsPod  string
	MetricsIP   string
	Stuck       []stuckNS
	Namespaces  []string // healthy namespaces (stuck ones are not in it)
	Ephemeral   []string // namespaces deleted cleanly before the capture (only in logs)
	Nodes       []string
	Finalizer   string
	CR          struct{ Group, Version, Kind, Plural, Name string }
}

// The two failing aggregated APIs and their group/versions.
const (
	gvMetrics   = "metrics.k8s.io/v1beta1"
	gvExternal  = "external.metrics.k8s.io/v1beta1"
	apiMetrics  = "v1beta1.metrics.k8s.io"
	apiExternal = "v1beta1.external.metrics.k8s.io"
)

// discoveryErr is client-go's ErrGroupDiscoveryFailed text after the metrics server died
// (group/versions sorted, as client-go writes them).
const discoveryErr = "unable to retrieve the complete list of server APIs: " +
	gvExternal + ": stale GroupVersion discovery: " + gvExternal + ", " +
	gvMetrics + ": stale GroupVersion discovery: " + gvMetrics

var (
	teams = []string{"checkout", "payments", "search", "catalog", "identity", "billing", "ledger", "media", "notify",
		"orders", "pricing", "profile", "ranking", "reviews", "routing", "shipping", "storage", "support", "tracking", "wallet"}
	envs  = []string{"dev", "qa", "staging", "prod", "perf", "canary"}
	apps  = []string{"web", "api", "worker", "cache", "gateway", "scheduler", "indexer", "exporter", "consumer", "sync"}
	words = []string{"alpha", "bravo", "cobalt", "delta", "ember", "falcon", "granite", "harbor", "indigo", "juniper",
		"krypton", "lumen", "meadow", "nectar", "onyx", "pylon", "quartz", "raven", "sierra", "tundra"}
)

func newPlan(cfg Config) *plan {
	r := rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))
	p := &plan{cfg: cfg}
	p.End = time.Date(2026, 11, 29, 22, 30, 0, 0, time.UTC)
	p.Start = p.End.Add(-6 * time.Hour)
	p.KedaGone = p.Start.Add(50 * time.Minute)
	p.MetricsDown = p.Start.Add(2*time.Hour + time.Duration(r.IntN(600))*time.Second)
	p.MetricsPod = "metrics-server-6d94bc8694-" + alnum(r, 5)
	p.MetricsIP = fmt.Sprintf("10.244.%d.%d", 1+r.IntN(30), 2+r.IntN(250))
	for i := 0; i < 12; i++ {
		p.Nodes = append(p.Nodes, fmt.Sprintf("node-%02d", i+1))
	}
	seen := map[string]bool{}
	for _, t := range teams {
		for _, e := range envs {
			p.Namespaces = append(p.Namespaces, t+"-"+e)
			seen[t+"-"+e] = true
		}
	}
	// Three namespaces deleted after metrics-server died (discovery failure only), and one
	// holding a custom resource whose operator is gone (finalizer never removed).
	names := []string{
		fmt.Sprintf("ci-pr-%d", 4000+r.IntN(5000)),
		fmt.Sprintf("loadtest-%s", words[r.IntN(len(words))]),
		fmt.Sprintf("%s-preview-%d", teams[r.IntN(len(teams))], 10+r.IntN(90)),
		fmt.Sprintf("vm-%s", words[r.IntN(len(words))]),
	}
	for i, n := range names {
		for seen[n] {
			n += "x"
		}
		seen[n] = true
		d := p.MetricsDown.Add(time.Duration(15+i*47)*time.Minute + time.Duration(r.IntN(60))*time.Second)
		p.Stuck = append(p.Stuck, stuckNS{Name: n, Deleted: d, Finalizer: i == len(names)-1})
	}
	for i := 0; i < 40; i++ {
		n := fmt.Sprintf("ci-pr-%d", 1000+i*61+r.IntN(50))
		if !seen[n] {
			seen[n] = true
			p.Ephemeral = append(p.Ephemeral, n)
		}
	}
	p.Finalizer = "vm.example.io/release-disks"
	p.CR.Group, p.CR.Version, p.CR.Kind, p.CR.Plural = "vm.example.io", "v1alpha1", "VirtualMachine", "virtualmachines"
	p.CR.Name = "db-" + words[r.IntN(len(words))] + "-0"
	return p
}

func (p *plan) expected() Expected {
	e := Expected{
		RootCause:            "multiple",
		RootCauses:           []string{"discovery-failure", "finalizers-remaining"},
		FailingGroupVersions: []string{gvExternal, gvMetrics},
		FailingAPIServices:   []string{apiExternal, apiMetrics},
		BlockingFinalizers:   []string{p.Finalizer},
		Notes: fmt.Sprintf("Generated by cmd/genbundle -seed %d -size %d -mix %s: APIService %s lost its service (KEDA removed) and %s fails its discovery check (metrics-server crash-looping), so every namespace deleted since hangs on discovery; %s also holds %s %s whose finalizer %s is never removed.",
			p.cfg.Seed, p.cfg.Size, p.cfg.Mix, apiExternal, apiMetrics, p.Stuck[len(p.Stuck)-1].Name, p.CR.Kind, p.CR.Name, p.Finalizer),
	}
	for _, s := range p.Stuck {
		e.StuckNamespaces = append(e.StuckNamespaces, s.Name)
	}
	sort.Strings(e.StuckNamespaces)
	return e
}

// Generate writes the bundle described by cfg and returns what it planted.
func Generate(cfg Config) (Expected, error) {
	if cfg.Mix == "" {
		cfg.Mix = "full"
	}
	var logShare float64
	switch cfg.Mix {
	case "full":
		logShare = 0.6
	case "logs":
		logShare = 1
	case "objects":
		logShare = 0
	default:
		return Expected{}, fmt.Errorf("unknown -mix %q", cfg.Mix)
	}
	if cfg.Size < 1<<20 {
		cfg.Size = 1 << 20
	}
	if ents, err := os.ReadDir(cfg.Out); err == nil && len(ents) > 0 {
		return Expected{}, fmt.Errorf("%s exists and is not empty", cfg.Out)
	}
	p := newPlan(cfg)
	logBytes := int64(float64(cfg.Size) * logShare)
	objBytes := cfg.Size - logBytes
	if cfg.Mix == "logs" {
		objBytes = 0
	}
	if cfg.Mix == "objects" {
		logBytes = 2 << 20 // the planted error lines and a little noise
	}
	if cfg.LogBytes > 0 {
		logBytes = cfg.LogBytes
		objBytes = max(cfg.Size-logBytes, 1<<20)
	}

	type job struct {
		path string
		gz   bool
		fn   func(w io.Writer, r *rand.Rand) error
	}
	var jobs []job
	add := func(rel string, gz bool, fn func(io.Writer, *rand.Rand) error) {
		if gz {
			rel += ".gz"
		}
		jobs = append(jobs, job{filepath.Join(cfg.Out, filepath.FromSlash(rel)), gz, fn})
	}
	// Component logs: kube-apiserver is the chattier one.
	add("logs/kube-apiserver.log", cfg.Gzip, func(w io.Writer, r *rand.Rand) error {
		return p.writeAPIServerLog(w, r, logBytes*65/100)
	})
	add("logs/kube-controller-manager.log", cfg.Gzip, func(w io.Writer, r *rand.Rand) error {
		return p.writeKCMLog(w, r, logBytes*35/100)
	})
	// Object dumps: the planted objects are always there; bulk fills objBytes.
	for _, f := range p.objectFiles(objBytes) {
		f := f
		add(f.rel, false, f.fn)
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r := rand.New(rand.NewPCG(cfg.Seed, uint64(i)+1))
			errs[i] = writeFile(j.path, j.gz, func(w io.Writer) error { return j.fn(w, r) })
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return Expected{}, err
		}
	}
	exp := p.expected()
	raw, _ := json.MarshalIndent(exp, "", "  ")
	if err := os.WriteFile(filepath.Join(cfg.Out, "expected.json"), append(raw, '\n'), 0o644); err != nil {
		return Expected{}, err
	}
	return exp, nil
}

func writeFile(path string, gz bool, fn func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var w io.Writer = f
	var zw *gzip.Writer
	if gz {
		zw, _ = gzip.NewWriterLevel(f, gzip.DefaultCompression)
		w = zw
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := fn(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return f.Close()
}

const alnumChars = "bcdfghjklmnpqrstvwxz2456789"

func alnum(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alnumChars[r.IntN(len(alnumChars))]
	}
	return string(b)
}

func hexStr(r *rand.Rand, n int) string {
	const h = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = h[r.IntN(16)]
	}
	return string(b)
}

func uuid(r *rand.Rand) string {
	return hexStr(r, 8) + "-" + hexStr(r, 4) + "-4" + hexStr(r, 3) + "-a" + hexStr(r, 3) + "-" + hexStr(r, 12)
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }
