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

.PHONY: all build run test test-race vet lint fuzz fmt fmt-check clean bench fixtures-real web

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

# -timeout is per package: the slowest takes a few minutes alone on an idle 2-core
# machine, and must still pass on one loaded four times over (go test's default, 10m, did not).
TESTTIMEOUT ?= 30m
RACETIMEOUT ?= 45m

# vet, formatting, staticcheck, then every test (including the hostile-bundle corpus,
# generated at test time, and every committed fuzz crasher). No test times anything
# but a hang: linear-time tests count work (hostile.CheckLinear).
test: fmt-check vet lint
	$(GO) test -count=1 -timeout $(TESTTIMEOUT) $(PKGS)

# Every test but the long ones (-short) under the race detector, which makes Go code
# 2-20 times slower: a CI step of its own (.ci/run), after make test.
test-race:
	$(GO) test -race -short -count=1 -timeout $(RACETIMEOUT) $(PKGS)

# Every fuzz target for FUZZTIME each (default 1m). The thorough run of issue 7:
# make fuzz FUZZTIME=10m FUZZJOBS=2 (two targets at a time, one core each, ~80 min).
# Crashers are saved under <pkg>/testdata/fuzz/<Target>/: fix the bug, commit the file.
fuzz:
	FUZZTIME=$(FUZZTIME) FUZZJOBS=$(FUZZJOBS) GO=$(GO) .ci/fuzz

clean:
	rm -rf bin

# Go benchmarks of the parsers and the analyzer (-benchmem), the offline page in headless
# Chromium (docs/web.md: page interactive, a pasted ticket, a 50 MB bundle), then nsanalyze against
# grep -F, rg -F, zcat|grep, jq and tar -xzf on generated bundles (generated once into
# .cache/bench, several GB; prints a table of medians). BENCHARGS=-only=objects etc.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(BENCHFLAGS) ./parsers/logs ./parsers/objects ./cmd/genbundle
	$(GO) test -run '^$$' -bench Page -benchtime 1x ./internal/web
	$(GO) run ./bench -cache .cache/bench $(BENCHARGS)

# Rebuild real fixtures from real Kubernetes binaries (not part of `make test`):
#   make fixtures-real VERSION=v1.29.5 [LOG_FORMAT=text|json|both] [SCENARIOS="a b"]
# About 13-25 min to build a version cold (2 cores), 1.5-3 min per scenario; see
# fixtures/realcluster/README.md for disk use and the versions that build.
fixtures-real:
	@test -n "$(VERSION)" || { echo "usage: make fixtures-real VERSION=v1.xx.y"; exit 2; }
	bash fixtures/realcluster/run.sh VERSION=$(VERSION) LOG_FORMAT=$(or $(LOG_FORMAT),text) $(if $(SCENARIOS),SCENARIOS="$(SCENARIOS)")
