# One entry point for newcomers and CI. `make test` is what .ci/run calls.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: test build setup demo clean

setup:
	Scripts/setup

build: setup
	swift build

test: setup
	swift test

demo:
	@echo "The demo (lab + cast-scan) is coming with the CLI issue." >&2; exit 1
