# One entry point for newcomers and CI. `make test` is what .ci/run calls.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: test build setup demo lab-test bench deb install package-test example

# Everything the tests need: build headers, the lab's daemons and tools, its python venv.
setup:
	Scripts/setup --lab

build: setup
	swift build

# Unit tests, then the lab's own test, then what needs the lab: the Avahi backend against a
# real avahi-daemon hearing simulated devices over real multicast, cast-scan end to end, and a
# smoke run of the benchmarks (so they cannot rot).
test: setup
	swift test
	bash Tests/Scripts/castlab-test.sh
	bash Tests/Scripts/backend-lab-test.sh
	bash Tests/Scripts/cast-scan-lab-test.sh
	bash Tests/Scripts/watch-filter-lab-test.sh
	bash Tests/Scripts/scan-recall-lab-test.sh
	bash Tests/Scripts/known-hosts-lab-test.sh
	bash Tests/Scripts/unprivileged-lab-test.sh
	bash Tests/Scripts/report-lab-test.sh
	bash Tests/Scripts/serve-lab-test.sh
	bash Tests/Scripts/publish-lab-test.sh
	bash Tests/Scripts/soak-test.sh
	bash Tests/Scripts/benchmark-smoke-test.sh
	bash Tests/Scripts/prometheus-examples-test.sh
	bash Tests/Scripts/package-test.sh

lab-test: setup
	bash Tests/Scripts/castlab-test.sh
	bash Tests/Scripts/backend-lab-test.sh
	bash Tests/Scripts/cast-scan-lab-test.sh
	bash Tests/Scripts/watch-filter-lab-test.sh
	bash Tests/Scripts/scan-recall-lab-test.sh
	bash Tests/Scripts/known-hosts-lab-test.sh
	bash Tests/Scripts/unprivileged-lab-test.sh
	bash Tests/Scripts/report-lab-test.sh
	bash Tests/Scripts/serve-lab-test.sh
	bash Tests/Scripts/publish-lab-test.sh

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
