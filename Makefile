# wisp's build, checks and benchmarks. `make check` is what CI runs (.ci/run).

GO         ?= go
VERSION    ?= $(shell git describe --always --dirty 2>/dev/null || echo 0.1.0-dev)
# The stamps: wisp-bar's (main.version), wisp's and wisp-agent's (cli.Version), and the one
# wisp-sandbox must match (sandbox.BuildVersion).
LDFLAGS    := -X main.version=$(VERSION) -X github.com/wisp-sh/wisp/internal/cli.Version=$(VERSION) -X github.com/wisp-sh/wisp/sandbox.BuildVersion=$(VERSION)
PREFIX     ?= /usr/local
BINDIR     := $(DESTDIR)$(PREFIX)/bin
# The tests' time limit per package, and extra flags (-race, -run, -v, -exec ...).
TEST_TIMEOUT ?= 5m
# The sandbox's conformance suites get twice that, each package being one
# way of running the whole suite (one-shot, served, as a person, restricted,
# installed) in every namespace mode, as root and as the unprivileged user:
# about two minutes each on a quiet 2-core machine, where `sh -c true`
# takes 2.8 ms, so more than half of five minutes on one twice as slow, and
# cutting them further would part a mode's cases. testreport holds every
# other package to TEST_TIMEOUT.
CONFORMANCE_TIMEOUT ?= 10m
TESTFLAGS  ?=
# go test's own vet, a curated part of go vet's analyzers run again over
# every package and its dependencies' facts. make check runs the whole of
# go vet in lint before the tests, so there it is off (TEST_VET=-vet=off):
# a minute of CPU cold, on two cores.
TEST_VET   ?=
# CI sets TEST_EXEC to a wrapper that lets an unprivileged user run test binaries.
TEST_EXEC  ?=
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
ACTIONLINT  := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
HOST_GOOS  := $(shell $(GO) env GOOS)
# One set of compiler flags for everything a make step builds on Linux:
# the binaries as they ship (-trimpath, no cgo), go vet's export data, the
# packages go test compiles, and the binaries tests build with go build
# (mcp's wisp-agent, the lean wisp, wisp-sandbox), which inherit both. The
# build cache keys a compile by its flags, and with three sets (cgo on for
# vet and the tests, cgo off for the tests' builds, -trimpath for the
# binaries) make check compiled wisp-agent's dependencies three times cold.
# It also tests what ships. The Mac
# keeps cgo: its tests include the notifier's cgo.
export GOFLAGS := $(strip $(filter-out -trimpath,$(shell $(GO) env GOFLAGS)) -trimpath)
ifeq ($(HOST_GOOS),linux)
export CGO_ENABLED := 0
endif
# wisp-bar needs cgo only on macOS (notifications); elsewhere it is pure Go.
BAR_CGO    := $(if $(filter darwin,$(HOST_GOOS)),1,0)
HAVE_BAR   := $(wildcard cmd/wisp-bar/*.go)
# wisp is the lean main (cmd/wisp: internal/cli alone); the commands that
# link the model client and the MCP SDK (chat, respond, mcp, tui, doctor)
# are wisp-agent's (cmd/wisp-agent), which wisp execs; wisp-sandbox is the
# Landlock helper, Linux only. wisp finds both beside itself.
BINARIES   := bin/wisp bin/wisp-agent $(if $(filter linux,$(HOST_GOOS)),bin/wisp-sandbox) $(if $(HAVE_BAR),bin/wisp-bar)

.PHONY: all build install uninstall release-snapshot release-check release-check-if-changed deb-check package-check tidy-check test test-build test-race check compat compat-fresh lint fmt fmt-check vet vet-darwin darwincheck staticcheck bench clean $(BINARIES)

all: build

build: $(BINARIES)

# wisp is static: Landlock's all-threads calls need no cgo, and neither does anything else.
bin/wisp:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $@ ./cmd/wisp

bin/wisp-agent:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $@ ./cmd/wisp-agent

bin/wisp-sandbox:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $@ ./cmd/wisp-sandbox

bin/wisp-bar:
	CGO_ENABLED=$(BAR_CGO) $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $@ ./cmd/wisp-bar

# Everything BINARIES lists, then the completions, the AppArmor profile's
# copy, wisp-bar's autostart entry (Linux, not staged) and, as root where
# AppArmor restricts user namespaces, the profile itself: scripts/install.sh
# says what it wrote, and records it for uninstall. PREFIX=~/.local needs no root.
INSTALL_ENV = PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' AUTOSTART_DIR='$(if $(filter Linux,$(APP_OS)),$(if $(DESTDIR),,$(AUTOSTART_DIR)))'

install: build
	$(INSTALL_ENV) sh scripts/install.sh install $(BINARIES)

uninstall:
	$(INSTALL_ENV) sh scripts/install.sh uninstall $(notdir $(BINARIES))

# GoReleaser and nfpm, pinned like staticcheck and run with go run (not in go.mod).
GORELEASER := github.com/goreleaser/goreleaser/v2@v2.15.1
NFPM       := github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2

# Every release artifact in dist/ (.goreleaser.yaml), built here, published nowhere.
release-snapshot:
	$(GO) run $(GORELEASER) release --snapshot --clean

# GoReleaser's own check of .goreleaser.yaml, which records the file and
# GoReleaser's version that passed in scripts/release-check.sum; make check
# runs it only when they are not the recorded pair (scripts/release-check.sh
# says why: building GoReleaser is 1,788 packages cold).
release-check:
	GO=$(GO) GORELEASER=$(GORELEASER) scripts/release-check.sh run

release-check-if-changed:
	GO=$(GO) GORELEASER=$(GORELEASER) scripts/release-check.sh if-changed

# The .deb built with nfpm alone (faster than the whole snapshot) and its
# contents inspected with dpkg-deb: scripts/deb-check.sh.
deb-check:
	GO=$(GO) NFPM=$(NFPM) scripts/deb-check.sh

# go test -json, printed as go test prints it, then each package's time
# against its limit, slowest first, with a warning past half of it
# (internal/testreport): a suite creeping toward its limit shows in CI's
# log before it fails there.
TESTREPORT := $(GO) run ./internal/testreport

test:
	$(TESTREPORT) -limit $(TEST_TIMEOUT) -limit github.com/wisp-sh/wisp/sandbox/conformance/...=$(CONFORMANCE_TIMEOUT) -- \
		$(GO) test -json -timeout $(CONFORMANCE_TIMEOUT) $(TEST_VET) $(if $(TEST_EXEC),-exec $(TEST_EXEC)) $(TESTFLAGS) ./...

# What tests build inside their time limit, built first: the binaries as
# make builds them (which packaging's install test, the sandbox's
# wisp-sandbox tests and mcp's and wisp-bar's tests build again, from the
# cache then: GOFLAGS and CGO_ENABLED above make them one set), and every
# package as go test compiles it. Cold, that compiling took minutes of a
# test's five on two cores, and two such tests timed out on a busy machine.
test-build:
	$(call timed,$(MAKE) --no-print-directory build && $(GO) build ./...)

# The tests under the race detector: not part of check, which must fit in
# CI's minutes on two cores (a cold race build of everything alone takes
# minutes more); run it on a change to concurrent code.
test-race:
	CGO_ENABLED=1 $(GO) test -race -timeout $(TEST_TIMEOUT) $(if $(TEST_EXEC),-exec $(TEST_EXEC)) $(TESTFLAGS) ./...

# Runs a step's command, saying first what it runs and then how long it
# took: cold, a step can take minutes, and a person (or CI's log) should see
# which one is running and which one grew.
define timed
@echo '== make $@: $(strip $(1))'
@start=$$(date +%s); $(1) && echo "== make $@ took $$(( $$(date +%s) - start )) s"
endef

# Everything a change must pass. The static checks run two at a time, each
# of them mostly one go command type-checking or compiling package after
# package, so two keep both cores busy. Their lines are passed on as they
# come (--output-sync=line), not held until a step ends, which kept the log
# silent for many minutes cold.
# The tests run alone, so nothing else competes with their processes.
check: fmt-check
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j2 --output-sync=line lint && \
	$(MAKE) --no-print-directory test-build && \
	$(MAKE) --no-print-directory test TEST_VET=-vet=off && \
	$(MAKE) --no-print-directory package-check && \
	echo "== make check passed in $$(( $$(date +%s) - start )) s"

# The compatibility suite of real projects (internal/compat, docs/compat.md):
# Go modules' tests, an npm package, a Debian source package's configure,
# make and make check, Python's socketserver tests in a venv, a git session;
# each run bare, under `bin/wisp run` with the default configuration and
# under bubblewrap, as an unprivileged person in a home of its own
# (WISP_TEST_USER_UID's user when run as root), one line a project. It
# fails when a project that passes bare fails under wisp, unless trust.md
# names the difference or it is a known item of issue 32 (report-only until
# fixed: internal/compat/tables.go). What it fetched stays in COMPAT_DIR
# between runs (make clean removes it); compat-fresh runs every project in
# an account with no caches yet (no ~/.cache, ~/go, ~/.npm).
COMPAT_DIR   ?= bin/.compat
COMPAT_FLAGS ?=

compat: build
	$(GO) run ./internal/compat -dir $(COMPAT_DIR) $(COMPAT_FLAGS)

compat-fresh: build
	$(GO) run ./internal/compat -dir $(COMPAT_DIR) -account fresh $(COMPAT_FLAGS)

# The packaging's checks, each timed: the .deb built and inspected, and
# GoReleaser's check of .goreleaser.yaml where it changed.
package-check:
	@for step in deb-check release-check-if-changed; do \
		start=$$(date +%s); $(MAKE) --no-print-directory $$step || exit 1; \
		echo "== make $$step took $$(( $$(date +%s) - start )) s"; \
	done

lint: vet darwincheck staticcheck actionlint tidy-check

# Go files outside testdata/ (fixtures may be malformed on purpose) and
# bin/ (the compatibility suite's copies of other projects).
GOFILES = $(shell find . -name '*.go' -not -path './.git/*' -not -path './bin/*' -not -path '*/testdata/*' -not -path '*/node_modules/*')

fmt:
	gofmt -w $(GOFILES)

fmt-check:
	@unformatted=$$(gofmt -l $(GOFILES)); \
	if [ -n "$$unformatted" ]; then echo "gofmt: not formatted (run make fmt):"; echo "$$unformatted"; exit 1; fi

vet:
	$(call timed,$(GO) vet ./...)

# The code as it builds for macOS, on a machine with no Mac: darwin cgo
# code (and fyne.io/systray's, which wisp-bar builds on) type-checked with C
# faked, and go vet's analyzers over every other package, with cgo off and
# on, type-checked from source. `GOOS=darwin go vet` compiled every
# dependency for darwin once per cgo setting: 7 minutes of make check,
# cold on two cores, for what this does in well under one.
darwincheck:
	$(call timed,$(GO) run ./internal/darwincheck -vet arm64 ./... fyne.io/systray)

# The darwin half of lint by the name it had (scripts/vet-darwin.sh runs it
# on chosen packages).
vet-darwin: darwincheck

staticcheck:
	$(call timed,$(GO) run $(STATICCHECK) ./...)

# go.mod and go.sum as go mod tidy would leave them (it prints the diff otherwise).
tidy-check:
	$(call timed,$(GO) mod tidy -diff)

# The GitHub workflow (.github/workflows/ci.yml), as GitHub would read it.
.PHONY: actionlint
actionlint:
	$(call timed,$(GO) run $(ACTIONLINT))

bench: build
	$(GO) test -run '^$$' -bench . -benchmem -timeout 20m ./...
	@for script in scripts/bench*.sh; do \
		if [ -f "$$script" ]; then echo "== $$script"; bash "$$script" || exit 1; fi; \
	done

# bin/.compat holds Go's module cache, whose folders are read-only.
clean:
	chmod -R u+w bin 2>/dev/null || true
	rm -rf bin

-include mk/app.mk
-include mk/macos.mk
