// Command genbundle writes a large, realistic, deterministic support bundle for
// benchmarking nsanalyze: the noise of a busy cluster (kube-apiserver HTTP access and
// trace lines, reflector warnings, controller sync lines, flags; tens of thousands of
// pods, events, endpoints, config maps and replica sets as `kubectl get -o json` Lists)
// with a few namespaces stuck in Terminating planted in it, and the real error lines
// (shapes copied from fixtures/realdata and fixtures/realworld) spread through it.
//
// What was planted is written to DIR/expected.json in the fixtures' format. The same
// flags always produce the same bytes.
//
// Usage:
//
//	genbundle -o DIR [-size 1G] [-seed 1] [-mix full|logs|objects] [-gz] [-pods N] [-logs SIZE]
//	genbundle -o DIR -shape finalizers|crds|apiservices|webhooks|namespaces|loggvs|backendpods|events|loglines|activenamespaces -n N
//
// -shape writes a small bundle in which one dimension of the analysis grows to N
// (issue 22): N objects with one finalizer in one namespace, N CRDs with one object
// each, N failing APIServices, N fail-closed webhooks, N stuck namespaces across 20
// problems, N group/versions in log lines, N pods behind one Service, N events, N log
// lines of one cause, N Active namespaces beside one stuck one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nsanalyze/nsanalyze/cmd/genbundle/gen"
)

func main() {
	var cfg gen.Config
	var size string
	flag.StringVar(&cfg.Out, "o", "", "output directory (created; must not exist or be empty)")
	flag.StringVar(&size, "size", "64M", "total size of the generated files before compression (e.g. 250M, 1G, 1.5G)")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed: the same seed and flags give the same bytes")
	flag.StringVar(&cfg.Mix, "mix", "full", "what fills the size: full (logs and objects), logs (klog text; objects minimal), objects (kubectl JSON; logs minimal)")
	flag.BoolVar(&cfg.Gzip, "gz", false, "write the component logs gzip-compressed (kube-apiserver.log.gz, ...)")
	flag.IntVar(&cfg.Pods, "pods", 0, "number of pods in cluster/pods.json, whatever -size says (0: the pods fill their share of -size)")
	var logSize string
	flag.StringVar(&logSize, "logs", "", "size of the component logs, whatever -size and -mix say (e.g. 2G); the objects fill the rest of -size")
	shape := flag.String("shape", "", "write a scale shape instead: "+strings.Join(gen.Shapes, ", "))
	shapeN := flag.Int("n", 1000, "with -shape: how many of the shape's growing thing")
	flag.Parse()
	if cfg.Out != "" && *shape != "" && flag.NArg() == 0 {
		exp, err := gen.GenerateShape(cfg.Out, *shape, *shapeN)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genbundle:", err)
			os.Exit(2)
		}
		fmt.Printf("wrote %s: shape %s, n=%d, %d stuck namespaces\n", cfg.Out, *shape, *shapeN, len(exp.StuckNamespaces))
		return
	}
	if cfg.Out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: genbundle -o DIR [-size 1G] [-seed 1] [-mix full|logs|objects] [-gz] [-pods N] [-logs SIZE]")
		os.Exit(2)
	}
	n, err := parseSize(size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbundle:", err)
		os.Exit(2)
	}
	cfg.Size = n
	if logSize != "" {
		if cfg.LogBytes, err = parseSize(logSize); err != nil {
			fmt.Fprintln(os.Stderr, "genbundle: -logs:", err)
			os.Exit(2)
		}
	}
	exp, err := gen.Generate(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genbundle:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d stuck namespaces %v, failing group/versions %v\n", cfg.Out, len(exp.StuckNamespaces), exp.StuckNamespaces, exp.FailingGroupVersions)
}

// parseSize reads 1048576, 64K, 250M, 1G, 1.5G (binary units).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "IB"), "B")
	mult := 1.0
	if s != "" {
		switch s[len(s)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		}
		if mult != 1 {
			s = s[:len(s)-1]
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return 0, errors.New("invalid -size (want e.g. 250M, 1G, 1.5G)")
	}
	return int64(f * mult), nil
}
