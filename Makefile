# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: run test build dependencies

dependencies:
	@scripts/install-dependencies.sh

build: dependencies
	swift build

## Runs the picker's main job on the demo library (generated on first use).
run: build
	swift run assets-picker albums
	swift run assets-picker assets --limit 20

## Installs what is missing, builds, and runs every test.
test: dependencies
	swift build --build-tests
	swift test --skip-build --parallel
