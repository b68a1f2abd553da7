# One entry point for newcomers and CI. `make test` is what .ci/run calls.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: test build setup demo lab-test bench deb install package-test example sanitize docs format lint

# Everything the tests need: build headers, the lab's daemons and tools, its python venv.
setup:
	Scripts/setup --lab

# .build/debug is built with coverage, as make test builds it, so that no target rebuilds it
# for another (switching the flag recompiles everything).
build: setup
	swift build --enable-code-coverage

# The script suites run side by side, each lab suite in a lab of its own (Tests/Scripts/run-suites;
# the plans in Tests/Scripts/plans say which suites and how). The binaries are built once,
# before them (swift test's debug build with the tests; build.plan's release and example
# builds), and the scripts are told where: run alone, each script builds what it needs.
SUITES_BUILD = $(CURDIR)/.build/suites
RUN_SUITES = Tests/Scripts/run-suites --jobs 3 --timeout 1800
test lab-test: export CAST_SCAN_BIN_DIR = $(CURDIR)/.build/debug
# The binaries of .build/debug are built with coverage: those the script suites run (cast-scan,
# as nobody too, in the lab's namespaces; the test bundle of swift test --skip-build) would
# write default.profraw into their working directory, or print "LLVM Profile Error" where they
# cannot. swift test --enable-code-coverage sets its own for the unit tests and their children.
test lab-test: export LLVM_PROFILE_FILE = /dev/null
test: export CAST_SCAN_RELEASE_DIR = $(SUITES_BUILD)/release
test: export SUITES_BUILD := $(SUITES_BUILD)
test: export LIST_DEVICES_BIN = $(SUITES_BUILD)/example/debug/list-devices

# The house style (lint), the unit tests with coverage and its floor on the parsers of untrusted
# input (Scripts/coverage), every fuzz target for a few seconds (so none rots), then the lab's own test and
# what needs the lab: the Avahi backend against a real avahi-daemon hearing simulated devices
# over real multicast, cast-scan end to end; a soak run,
# a smoke run of the benchmarks (so they cannot rot), the Prometheus examples and the package.
test: setup lint
	Scripts/unit-tests --enable-code-coverage
	Scripts/coverage
	Scripts/fuzz quick
	$(RUN_SUITES) Tests/Scripts/plans/build.plan Tests/Scripts/plans/lab.plan Tests/Scripts/plans/more.plan

# Line coverage of the unit tests (with the cast-scan children of the end-to-end ones) per module
# and per folder of the core; the parsers of untrusted input must reach 85% (Scripts/coverage
# says which). make test prints the same from its own run.
.PHONY: coverage
coverage: setup
	Scripts/coverage --run

# The house style (.swift-format: 4 spaces, lines of at most 120 columns), checked: make test
# starts with it. `make format` rewrites the files in place.
FORMAT_PATHS = Sources Tests Benchmarks Examples Fuzz
lint:
	swift format lint --strict --recursive --parallel $(FORMAT_PATHS)
format:
	swift format format --in-place --recursive --parallel $(FORMAT_PATHS)

# ThreadSanitizer, then AddressSanitizer (LeakSanitizer with it, Tests/Sanitizers says what it
# is told to ignore and why), over the unit suites, each built in a scratch path of its own so
# the normal build is not rebuilt; a report fails the run.
# Left out: the end-to-end suites, which spawn cast-scan and hold it to latencies of a second or
# two, and the querier flood's CPU bound: a sanitizer slows code 5 to 20 times. The lab suites
# show as skipped, as in a plain swift test.
SANITIZE_SKIP = --skip 'EndToEnd' --skip 'MDNSQuerierTests/flood'
sanitize: setup
	swift build --build-tests --sanitize=thread --scratch-path .build/sanitize-thread
	TSAN_OPTIONS=halt_on_error=0:exitcode=66 UNIT_TEST_LOG=.build/sanitize-thread.log Scripts/unit-tests --skip-build --sanitize=thread --scratch-path .build/sanitize-thread $(SANITIZE_SKIP)
	swift build --build-tests --sanitize=address --scratch-path .build/sanitize-address
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan-suppressions.txt UNIT_TEST_LOG=.build/sanitize-address.log Scripts/unit-tests --skip-build --sanitize=address --scratch-path .build/sanitize-address $(SANITIZE_SKIP)

lab-test: setup
	swift build --build-tests --enable-code-coverage
	$(RUN_SUITES) Tests/Scripts/plans/lab.plan

# The lab's devices listed by cast-scan, as a Linux sender and as iOS apps granted and denied.
demo: setup
	Scripts/demo

# The benchmarks against the peers (minutes; not part of make test, which runs a smoke run).
bench: setup
	Benchmarks/run --sizes 1,50,500 --runs 5

# The Debian package (dist/cast-scan_VERSION_ARCH.deb): a binary that needs no Swift toolchain,
# the man page and completions generated from the command declarations, the README, the
# systemd unit (installed disabled) with /etc/default/cast-scan, and the examples.
deb: setup
	Scripts/build-deb dist

# The same files under PREFIX (default /usr/local), for people who build from source.
PREFIX ?= /usr/local
install: setup
	Scripts/install-release $(PREFIX)

# The package, install/remove, man page, completions, make install and the example package;
# lintian, the systemd unit, and the Prometheus examples with promtool.
package-test: setup
	bash Tests/Scripts/prometheus-examples-test.sh
	bash Tests/Scripts/package-test.sh

# The library used from another package (Examples/list-devices), against a recorded replay.
example: setup
	swift build --package-path Examples/list-devices
	swift run --package-path Examples/list-devices list-devices Fixtures/replay/living-room.json

# The documentation site (Scripts/docs): a DocC archive for each library in .build/docs and an
# index.html linking them, from the symbols of the debug build (brought up to date first, with
# coverage as make test builds it); DocC's warnings, such as a broken link, fail it. Serve it with, e.g.,
# python3 -m http.server --bind 127.0.0.1 --directory .build/docs
docs: setup
	Scripts/docs

# Coverage-guided fuzzing of every parser of untrusted input (Fuzz/, Scripts/fuzz): the targets
# built with -sanitize=fuzzer,address, each run for FUZZ_SECONDS, two at a time. A crash, a leak,
# a time-out or a property that fails is minimised into Fixtures/fuzz/<target>/ (which swift test
# replays) and fails the run; the end is one line per target: exec/s and libFuzzer's cov/ft.
.PHONY: fuzz fuzz-quick
FUZZ_SECONDS ?= 60
fuzz: setup
	Scripts/fuzz build
	Scripts/fuzz run --seconds $(FUZZ_SECONDS)

# What make test runs so that no target rots: every target for 3 s (fewer, at least 1, when the
# build took long). Budget: at most 90 s in all, the instrumented build included. Measured on
# this machine (2 cores, otherwise idle): with .build/fuzz up to date, the build ~3 s and the
# runs ~22 s (25 s in all); from a clean .build/fuzz, the instrumented build ~77 s and the
# targets' links ~5 s, then 1 s a target: ~93 s, over the budget by a few seconds that once.
fuzz-quick:
	Scripts/fuzz quick
