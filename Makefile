# Entry points people type. `make test` and `make demo` work on a fresh Debian/Ubuntu or macOS
# machine with only Swift installed: they install the system packages they need first.
SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug
BUILD_FLAGS ?=
# Release binaries link the Swift runtime statically on Linux: ~20 ms less start-up per invocation.
RELEASE_FLAGS ?= $(if $(filter Linux,$(shell uname)),--static-swift-stdlib,)
# Prebuilt release binaries for dist/deb (scripts/release-build.sh); empty: `make dist`/`make deb` build them.
BIN_DIR ?=
RELEASE_BIN_DIR := .build/release-bins

.PHONY: all build deps deps-test test demo bench install format lint dashboard-shot install-daemon check-units check-ci \
  check-imports release-bins dist deb check-dist check-deb check-packages test-parallel coverage-proof key-proof \
  mapping-test mutation-proof

all: build

## deps: install system packages (libgit2, pkg-config) when missing
deps:
	@scripts/install-deps.sh

## deps-test: also what the tests use (moto_server, openssl, ffmpeg)
deps-test:
	@scripts/install-deps.sh --test

build: deps
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS)

## test: build and run every test, in parallel (Swift Testing, one process; docs/ARCHITECTURE.md, "Tests").
# SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES=false: many tests wait for a child process synchronously (git
# fixtures, the `ripple` binary), which holds a thread; Swift's cooperative pool has one per core and such waits
# starve other tests' async work, plain dispatch queues add a thread instead. At most $(TEST_WIDTH) tests at once
# (SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH): unbounded, all ~1,000 start together and for a minute almost
# none ends (most likely every dispatch thread blocked in a wait, none left to see a child's exit), until bounded
# waits time out and fail their tests.
test: deps-test
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@$(MAKE) --no-print-directory check-imports
	SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES=false SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) \
	  $(SWIFT) test --skip-build $(TEST_FLAGS) $(BUILD_FLAGS)
	@scripts/check-units.sh
	scripts/check-ci-examples.sh "$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/ripple"
TEST_FLAGS ?=

## coverage-proof: issue 42's differential proof at its size (ten packages, ten commits; ~10 min on 2 cores)
coverage-proof: deps-test
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	RIPPLE_COVERAGE_PROOF=1 SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES=false \
	  $(SWIFT) test --skip-build --filter '^RippleIntegrationTests\.CoverageProofTests' $(BUILD_FLAGS)
TEST_WIDTH ?= 8

## key-proof: issue 47's check over real history: every multi-version package of the mirror and this
## repository's last 30 commits keep a key only where `ripple affected` selects nothing (~2 min)
key-proof: deps-test
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	RIPPLE_KEY_PROOF=1 SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES=false \
	  $(SWIFT) test --skip-build --filter '^RippleIntegrationTests\.KeyHistoryProofTests' $(BUILD_FLAGS)

## mapping-test: issue 51's mapping run on a real fixture package (one small build with coverage, ~20 s)
mapping-test: deps-test
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	RIPPLE_MAPPING_TESTS=1 $(SWIFT) test --skip-build --filter '^CoverageMappingTests\.MappingIntegrationTests' $(BUILD_FLAGS)

## mutation-proof: issue 51's mutation differential: body-only mutations of Yams (and, with
## MUTATION_PACKAGES=Yams,swift-collections, BitCollections) from the mirror; no failing test may be missed.
## MUTATIONS bounds the mutations per package (the proof's size is 200 that make a test fail; ~15-30 s each);
## MUTATIONS_FROM skips the first ones (to go on where a run stopped); RIPPLE_MUTATION_MATCH=TEXT keeps matching sites.
MUTATIONS ?= 12
MUTATIONS_FROM ?= 0
MUTATION_PACKAGES ?= Yams
mutation-proof: deps-test
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	RIPPLE_MUTATION_PROOF=1 RIPPLE_MUTATIONS=$(MUTATIONS) RIPPLE_MUTATION_FROM=$(MUTATIONS_FROM) \
	  RIPPLE_MUTATION_PACKAGES=$(MUTATION_PACKAGES) \
	  $(SWIFT) test --skip-build --filter '^CoverageMappingTests\.MutationProofTests' $(BUILD_FLAGS)

## test-parallel: the same as `make test` (kept for scripts that name it)
test-parallel: test

## check-imports: every target's imports agree with its Package.swift dependencies (and the checker finds drift)
check-imports:
	@scripts/check-imports.py --self-test
	@scripts/check-imports.py --checkouts "$$(dirname "$$(dirname "$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))")")/checkouts"

## demo: run Ripple's main job on a built-in example repository
demo: deps
	$(SWIFT) build -c $(CONFIG) --product ripple $(BUILD_FLAGS)
	scripts/demo.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/ripple"

## bench: benchmarks with baselines measured in the same run
bench: deps
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product ripple $(RELEASE_FLAGS) $(BUILD_FLAGS)
	$(SWIFT) build -c release --product rippled $(RELEASE_FLAGS) $(BUILD_FLAGS)
	$(SWIFT) build -c release --product XcodeReaderBench $(RELEASE_FLAGS) $(BUILD_FLAGS)
	scripts/bench.sh "$$($(SWIFT) build -c release --show-bin-path)/ripple"

## dashboard-shot: rippled's dashboard rendered in headless Chromium (screenshots in .build/dashboard/)
dashboard-shot: deps
	@scripts/install-deps.sh --browser
	$(SWIFT) build --product rippled $(BUILD_FLAGS)
	scripts/dashboard-shot.sh "$$($(SWIFT) build --show-bin-path)/rippled" .build/dashboard

install: deps
	$(SWIFT) build -c release --product ripple $(RELEASE_FLAGS) $(BUILD_FLAGS)
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/ripple" "$(DESTDIR)$(PREFIX)/bin/ripple"

format:
	$(SWIFT) format -i -r Sources Tests Package.swift

lint:
	$(SWIFT) format lint -r --strict Sources Tests Package.swift

## install-daemon: install rippled, its systemd unit and rippled.yml (USER_UNIT=1 for a user service)
# Never overwrites an edited rippled.yml (the new default goes to rippled.yml.dist). DESTDIR only stages
# files; RIPPLED_BINARY=path skips the build. See systemd/README.md.
install-daemon: $(if $(RIPPLED_BINARY),,deps)
	DESTDIR="$(DESTDIR)" SWIFT="$(SWIFT)" RELEASE_FLAGS="$(RELEASE_FLAGS)" BUILD_FLAGS="$(BUILD_FLAGS)" \
	  USER_UNIT="$(USER_UNIT)" RIPPLED_BINARY="$(RIPPLED_BINARY)" \
	  $(if $(filter file,$(origin PREFIX)),,PREFIX="$(PREFIX)") scripts/install-daemon.sh

## check-units: systemd-analyze verify both units, security exposure at most 2.5, install-daemon test
check-units:
	@scripts/check-units.sh

## check-ci: action.yml, examples/ci/ and the generated GitLab/Buildkite pipelines against their schemas
check-ci: deps-test
	$(SWIFT) build --product ripple $(BUILD_FLAGS)
	scripts/check-ci-examples.sh "$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/ripple"

## release-bins: ripple and rippled in release, stamped with VERSION and the commit, into .build/release-bins
release-bins: deps
	SWIFT="$(SWIFT)" BUILD_FLAGS="$(BUILD_FLAGS)" RELEASE_FLAGS="$(RELEASE_FLAGS)" scripts/release-build.sh $(RELEASE_BIN_DIR)

## dist: dist/ripple-<version>-linux-<arch>.tar.gz and .sha256 (BIN_DIR=dir: from prebuilt binaries)
dist: $(if $(BIN_DIR),,release-bins)
	SWIFT="$(SWIFT)" scripts/dist.sh $(or $(BIN_DIR),$(RELEASE_BIN_DIR))

## deb: dist/ripple_<version>_<arch>.deb with dpkg-deb and dpkg-shlibdeps (BIN_DIR=dir: prebuilt binaries)
# Checks for dpkg-deb before building anything (exit 2 without it).
deb:
	@command -v dpkg-deb >/dev/null || { echo "error: make deb needs dpkg-deb (Debian's package tools), which is not on PATH: apt-get install dpkg-dev" >&2; exit 2; }
	$(if $(BIN_DIR),,$(MAKE) release-bins)
	SWIFT="$(SWIFT)" scripts/deb.sh $(or $(BIN_DIR),$(RELEASE_BIN_DIR))

## check-dist: the archive extracted and run without the toolchain, damaged archives refused
check-dist: $(if $(BIN_DIR),,release-bins)
	scripts/check-dist.sh $(or $(BIN_DIR),$(RELEASE_BIN_DIR))

## check-deb: the .deb linted, installed with apt, upgraded over an edited conffile, purged (root)
check-deb: $(if $(BIN_DIR),,release-bins)
	scripts/check-deb.sh $(or $(BIN_DIR),$(RELEASE_BIN_DIR))

## check-packages: CI: one release build, then check-dist and check-deb on it
check-packages: release-bins
	scripts/check-dist.sh $(RELEASE_BIN_DIR)
	scripts/check-deb.sh $(RELEASE_BIN_DIR)
