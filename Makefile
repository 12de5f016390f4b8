# nsanalyze — offline analyzer for Kubernetes support bundles.
# A fresh machine needs two commands: `make run` and `make test`.

GO      ?= go
BIN     := bin/nsanalyze
SAMPLE  ?= fixtures/realdata/a-discovery-failure
PKGS    := ./...
# staticcheck 2026.1, the first release that knows Go 1.26 (fetched through the module proxy)
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.7.0
FUZZTIME ?= 1m
FUZZJOBS ?= 1

.PHONY: all build run test test-long test-race vet lint fuzz fmt fmt-check clean bench fixtures-real release install-check web

all: build

build:
	$(GO) build -o $(BIN) ./cmd/nsanalyze

# Analyse a shipped real bundle (made by a real Kubernetes v1.34.4 control plane).
# nsanalyze exits 1 when it finds a stuck namespace, which is the expected outcome here.
run: build
	@./$(BIN) $(SAMPLE); rc=$$?; if [ $$rc -gt 1 ]; then exit $$rc; fi

vet:
	$(GO) vet $(PKGS)
	GOOS=js GOARCH=wasm $(GO) vet ./cmd/nsanalyze-web

# The offline page (docs/web.md): one self-contained HTML file holding nsanalyze compiled
# to WebAssembly (cmd/nsanalyze-web) and Go's wasm_exec.js; open it from file://.
WEB := bin/nsanalyze.html
web:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o bin/nsanalyze-web.wasm ./cmd/nsanalyze-web
	$(GO) run ./cmd/nsanalyze-web/mkpage -wasm bin/nsanalyze-web.wasm -wasm-exec "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" -o $(WEB)

fmt:
	gofmt -w $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

lint:
	$(STATICCHECK) $(PKGS)

# -timeout is per package, a guard against a hang only: no test's verdict depends on
# the machine's speed or load (linear-time tests count work: hostile.CheckLinear).
TESTTIMEOUT ?= 30m
RACETIMEOUT ?= 45m
LONGTIMEOUT ?= 60m

# vet, formatting, staticcheck, then the quick set of every package (-short): every
# test runs, the exhaustive ones on a part of their input (each fixture analysed once,
# a rotating sample of the damage search, one browser page, no bombs of 1 GiB, no
# million-file directory). Every committed fuzz crasher is replayed.
test: fmt-check vet lint
	$(GO) test -short -count=1 -timeout $(TESTTIMEOUT) $(PKGS)

# Everything, without -short: the full damage search, every real and peer bundle in
# every format, the heavy bombs and adversarial cases, the scale tests. CI runs it
# after make test (.ci/run).
test-long:
	$(GO) test -count=1 -timeout $(LONGTIMEOUT) $(PKGS)

# The quick set (-short) under the race detector, which makes Go code 2-20 times
# slower: a CI step of its own (.ci/run). Four corpus-wide tests of cmd/nsanalyze are
# left to make test and make test-long: they run the code TestFixtures runs under the
# detector once per fixture again (with --redact, damaged, rewritten, pasted), half the
# step's time (1003 s -> 531 s for the package) and no concurrency of their own.
RACESKIP := TestFingerprintsAcrossBundles|TestDamageDrawn|TestMetamorphicFixtures|TestPasteFixtures
test-race:
	$(GO) test -race -short -count=1 -timeout $(RACETIMEOUT) -skip '$(RACESKIP)' $(PKGS)

# Every fuzz target for FUZZTIME each (default 1m). The thorough run of issue 7:
# make fuzz FUZZTIME=10m FUZZJOBS=2 (two targets at a time, one core each, ~80 min).
# Crashers are saved under <pkg>/testdata/fuzz/<Target>/: fix the bug, commit the file.
fuzz:
	FUZZTIME=$(FUZZTIME) FUZZJOBS=$(FUZZJOBS) GO=$(GO) .ci/fuzz

clean:
	rm -rf bin dist

# Static binaries for linux, darwin, windows × amd64, arm64 (CGO_ENABLED=0, -trimpath,
# VERSION stamped into main.version) into dist/: a .tar.gz (.zip for windows) per
# platform, SHA256SUMS, the unpacked binaries (docs/packaging/Containerfile copies
# them) and the krew manifest dist/krew/nsanalyze.yaml. Nothing is uploaded.
VERSION ?= $(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null || echo v0.0.0-dev.g$$(git rev-parse --short HEAD 2>/dev/null || echo unknown))
release:
	GO=$(GO) $(GO) run ./cmd/release -version $(VERSION) -out dist

# go install of this checkout the way a user's `go install ...@latest` resolves it: the
# module served from a throw-away file proxy, into an empty GOPATH and module cache
# (dependencies from the public module proxy), then the installed binary is run.
install-check:
	GO=$(GO) .ci/install-check

# Go benchmarks of the parsers and the analyzer (-benchmem), the offline page in headless
# Chromium (docs/web.md: page interactive, a pasted ticket, a 50 MB bundle), then nsanalyze against
# grep -F, rg -F, zcat|grep, jq and tar -xzf on generated bundles (generated once into
# .cache/bench, several GB; prints a table of medians). BENCHARGS=-only=objects etc.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(BENCHFLAGS) ./parsers/logs ./parsers/objects ./cmd/genbundle
	$(GO) test -run '^$$' -bench Page -benchtime 1x ./cmd/internal/web
	$(GO) run ./cmd/bench -cache .cache/bench $(BENCHARGS)

# Rebuild real fixtures from real Kubernetes binaries (not part of `make test`):
#   make fixtures-real VERSION=v1.29.5 [LOG_FORMAT=text|json|both] [SCENARIOS="a b"]
# About 13-25 min to build a version cold (2 cores), 1.5-3 min per scenario; see
# fixtures/realcluster/README.md for disk use and the versions that build.
fixtures-real:
	@test -n "$(VERSION)" || { echo "usage: make fixtures-real VERSION=v1.xx.y"; exit 2; }
	bash fixtures/realcluster/run.sh VERSION=$(VERSION) LOG_FORMAT=$(or $(LOG_FORMAT),text) $(if $(SCENARIOS),SCENARIOS="$(SCENARIOS)")
