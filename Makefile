# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
PORT ?= 8080
# `make run LIBRARY=~/Pictures` serves your own photos; without it, the built-in demo library.
LIBRARY ?=
# `make install` puts the program in $(PREFIX)/lib/assets-picker and a link to it in $(PREFIX)/bin.
PREFIX ?= $(HOME)/.local
# The targets whose DocC documentation `make docs` and `make test` build: every one with a catalogue,
# Sources/<Target>/<Target>.docc.
DOC_TARGETS := $(sort $(patsubst Sources/%/,%,$(dir $(wildcard Sources/*/*.docc))))
DOCC := swift package generate-documentation

.PHONY: run test build install docs dependencies e2e-dependencies

dependencies:
	@scripts/install-dependencies.sh

e2e-dependencies:
	@scripts/install-e2e-dependencies.sh

build: dependencies
	swift build

## Serves the web picker at http://127.0.0.1:$(PORT)/ on LIBRARY, or on the demo library (generated on first use).
run: build
	swift run assets-picker serve --port $(PORT) $(if $(LIBRARY),--library "$(LIBRARY)")

## Builds a release and installs it: the program and its web files in $(PREFIX)/lib/assets-picker,
## `assets-picker` on PATH through a link in $(PREFIX)/bin (~/.local/bin by default).
install: dependencies
	swift build -c release --product assets-picker
	rm -rf "$(PREFIX)/lib/assets-picker"
	mkdir -p "$(PREFIX)/lib/assets-picker" "$(PREFIX)/bin"
	cp -R "$$(swift build -c release --show-bin-path)/assets-picker" "$$(swift build -c release --show-bin-path)"/*.resources "$(PREFIX)/lib/assets-picker/"
	ln -sf "$(PREFIX)/lib/assets-picker/assets-picker" "$(PREFIX)/bin/assets-picker"
	@echo "Installed: $(PREFIX)/bin/assets-picker$$(case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "  ($(PREFIX)/bin is not on your PATH: add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\")";; esac)"

## Installs what is missing, builds, builds the DocC documentation as `make docs` does, runs every
## Swift test, the browser end-to-end test (headless Chromium; screenshots in test-artifacts/e2e/),
## a Google Photos Picker API client written from Google's reference (Tests/GooglePickerClient) and
## the OpenAPI conformance run (schemathesis) against a live server, then checks that the shared
## test corpus (../shared/testdata or $ASSETS_PICKER_TESTDATA) was only read.
test: dependencies e2e-dependencies
	@scripts/corpus.sh record .build/corpus-before-test.txt
	swift build --build-tests
	scripts/doc-names.sh
	$(DOCC) $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors
	swift test --skip-build --parallel
	scripts/e2e.sh .build/debug/assets-picker
	scripts/google-client.sh .build/debug/assets-picker
	scripts/schemathesis.sh .build/debug/assets-picker
	@scripts/corpus.sh verify .build/corpus-before-test.txt

## Builds the DocC documentation of every target with a catalogue (Sources/<Target>/<Target>.docc)
## into .build/plugins/Swift-DocC/outputs/<Target>.doccarchive; a broken symbol link or any other
## DocC warning fails it, and so does a type name in code voice in README.md, docs/ or an article that
## the code no longer has (scripts/doc-names.sh). `make test` runs both, so a moved or renamed symbol
## fails CI.
docs: dependencies
	scripts/doc-names.sh
	$(DOCC) $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors
