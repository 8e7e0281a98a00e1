# qna — every entry point a developer or CI needs.
SWIFT ?= swift
FUZZ_SECONDS ?= 60
FUZZ_DIR := .build-fuzz
# The interop tests' independent peer (Python's websockets), the reference back end's aiohttp
# and a SOCKS5 proxy with its own user list (pproxy), in a virtualenv of our own.
VENV := .venv
PYTHON_PACKAGES := websockets==17.0 aiohttp==3.13.2 pproxy==2.7.9

.PHONY: tools packaging-tools release dist deb package-test po locales gettext all build test test-checks lint format bench bench-crowd fuzz run clean docs docs-check install uninstall conformance conformance-setup conformance-full web-test

# The Autobahn testsuite's fuzzing server (a Python 3 port beside the repository, never in it).
AUTOBAHN_DIR ?= ../shared/autobahn
AUTOBAHN_VENV ?= $(abspath .build/autobahn-venv)

# Where `make install` puts the programs (DESTDIR is prepended, for packagers).
PREFIX ?= /usr/local
DESTDIR ?=
# One release build for install, dist and deb: the Swift runtime linked in, so that the
# programs run where no Swift is installed (docs/install.md lists what stays); no $ORIGIN
# library path; symbols bound at load time then read-only (full RELRO), as Debian builds.
# No debug information: install, dist and deb strip it, and making it was a share of the
# build's time (SwiftPM asks for it with -g; the later -gnone wins). The same build is the
# tests' (`make test`): the last two flags only serve the test bundle
# (scripts/testing-modules.sh says how), and leave the programs as they were.
TESTING_MODULES := .build/testing-modules
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now \
  -Xswiftc -gnone -Xcc -g0 \
  -Xswiftc -I$(abspath $(TESTING_MODULES)) -Xlinker -L$(abspath $(TESTING_MODULES))
RELEASE_BIN = $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)
# make, named so that `make -n` does not run the line that hands it to another program.
SUBMAKE = $(MAKE)

all: build

build: gettext
	$(SWIFT) build

## msgfmt compiles the message catalogues (po/*.po) at build time; without it qna speaks English.
gettext:
	@command -v msgfmt >/dev/null || { [ "$$(id -u)" = 0 ] && { apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q gettext; }; } \
	  || echo "qna will speak English only: msgfmt is missing (apt-get install gettext)" >&2

## The translations' tests run qna with LANG=de_DE.UTF-8, es_ES.UTF-8 and pl_PL.UTF-8.
locales: gettext
	@for l in de_DE es_ES pl_PL; do locale -a | grep -qix "$$l.utf8" && continue; \
	  { [ -f /usr/share/i18n/locales/$$l ] || { [ "$$(id -u)" = 0 ] && apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q locales; }; } \
	  && { localedef -c -i $$l -f UTF-8 $$l.UTF-8; locale -a | grep -qix "$$l.utf8"; } \
	  || { echo "make test needs the $$l.UTF-8 locale (localedef -i $$l -f UTF-8 $$l.UTF-8)" >&2; exit 1; }; \
	done

## po/qna.pot extracted from the code again, and every po/LANG.po merged with it: new
## strings arrive untranslated there, and `make test` fails until they are translated.
po: gettext
	python3 scripts/po.py update

## Runs every test target, the format lint and the docs check (what CI runs). One release
## build serves all: the test bundle is built with the programs and starts them as they
## ship, as the package tests and the conformance grading use them (a debug build beside it
## cost a quarter of an hour on two cores).
test: gettext
	# Every module a target imports is declared for it in Package.swift. Before the build:
	# SwiftPM's lock on .build would hold it until the build ends.
	SWIFT=$(SWIFT) python3 scripts/check-imports.py
	# The release build, the longest step, starts first; what needs no build (the lint, the
	# tools from Debian, the pages' scripts, the catalogues) runs beside it, on the core its
	# one-module-at-a-time stretches leave idle. Its output follows theirs; a check that
	# fails stops it, and so does Ctrl-C (the build has a process group of its own, which
	# dash's kill names as -PID).
	@mkdir -p .build; setsid $(SUBMAKE) release RELEASE_EXTRA=--build-tests \
	  >.build/test-build.log 2>&1 & build=$$!; \
	  trap "kill -TERM -$$build 2>/dev/null; exit 130" INT TERM HUP; \
	  if ! $(SUBMAKE) test-checks; then kill -TERM -$$build 2>/dev/null; wait $$build; exit 1; fi; \
	  echo "make test: the checks passed; the release build:"; \
	  wait $$build; status=$$?; cat .build/test-build.log; exit $$status
	python3 scripts/docs-check.py "$(RELEASE_BIN)"
	# Suites side by side, each in a process of its own and serial inside; a few alone after
	# (scripts/run-tests.py says why, Tests/serial-suites.txt which). Beside the first: the
	# release as a user gets it, make install, make dist and make deb, each tried (on the
	# release just built: -o skips SwiftPM's no-op build).
	python3 scripts/run-tests.py "$(RELEASE_BIN)" --beside "$(SUBMAKE) -o release package-test"

## What `make test` checks beside its build.
test-checks: lint $(VENV)/.installed tools locales web-test
	python3 scripts/po.py check

## The pages' scripts (Sources/Server/Pages/Assets): each parsed as the ES module it is, the
## modules they share type-checked (its tsconfig.json says how), and the unit tests of
## Tests/Web, with Node.
web-test: tools
	@for script in Sources/Server/Pages/Assets/*.js; do node --check "$$script" || exit 1; done
	tsc -p Sources/Server/Pages/Assets/tsconfig.json
	node --test Tests/Web/

## What the tests need from Debian (scripts/install-tools.sh names each tool and why), after
## one index update when something is missing.
tools:
	@scripts/install-tools.sh test packaging

$(VENV)/.installed: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check $(PYTHON_PACKAGES)
	touch $@

lint:
	$(SWIFT) format lint --recursive --strict Sources Tests Benchmarks/Sources Fuzz

## Fails when docs/ disagree with the code (options, defaults, keys, JSON events).
docs-check: build
	python3 scripts/docs-check.py "$$($(SWIFT) build --show-bin-path)"

## Rewrites the parts of docs/ that the code decides (the programs' --help, the keys).
docs: build
	python3 scripts/docs-check.py "$$($(SWIFT) build --show-bin-path)" --write

## The release build of the three programs (their man pages are written from the programs'
## own command trees: scripts/manual_pages.py). RELEASE_EXTRA: more for SwiftPM (`make test`
## gives --build-tests).
release: gettext $(TESTING_MODULES)
	$(SWIFT) build $(RELEASE_FLAGS) $(RELEASE_EXTRA)

$(TESTING_MODULES): scripts/testing-modules.sh
	SWIFT=$(SWIFT) scripts/testing-modules.sh $@

## The programs, with man pages for every subcommand, shell completions and catalogues, into
## PREFIX (scripts/release.py says what goes where).
install: release
	python3 scripts/release.py install "$(RELEASE_BIN)" "$(DESTDIR)" "$(PREFIX)"

## Removes exactly the files `make install` writes.
uninstall: release
	python3 scripts/release.py uninstall "$(RELEASE_BIN)" "$(DESTDIR)" "$(PREFIX)"

## .build/dist/qna-VERSION-linux-ARCH.tar.gz: the programs, pages, completions, catalogues,
## licences and SHA256SUMS, runnable on a machine without Swift.
dist: release
	python3 scripts/release.py dist "$(RELEASE_BIN)" .build/dist

## .build/deb/qna_VERSION_ARCH.deb with qna-server's service, checked by lintian.
deb: release packaging-tools
	python3 scripts/release.py deb "$(RELEASE_BIN)" .build/deb

## dpkg-shlibdeps, lintian, systemd-analyze, groff and man-db, for `make deb` and its test.
packaging-tools:
	@scripts/install-tools.sh packaging

## make install and uninstall into a scratch DESTDIR, make dist run without Swift, the .deb
## installed, served from, removed and purged (root; Tests/Packaging/packaging_test.py).
package-test: dist deb locales
	python3 Tests/Packaging/packaging_test.py "$(RELEASE_BIN)"

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks/Sources Fuzz Package.swift Benchmarks/Package.swift

## Side-by-side benchmarks in release mode (benchmark-only dependencies live in Benchmarks/).
bench: $(VENV)/.installed
	# SwiftPM reuses its build plan and misses files added to a path dependency: drop it.
	rm -f Benchmarks/.build/release.yaml Benchmarks/.build/release/description.json
	cd Benchmarks && $(SWIFT) build -c release
	# The built qna and qna-server, which TerminalBenchmarks runs in tmux, and wsc, which
	# ClientBenchmarks and the deflate benchmark run as processes.
	cd Benchmarks && $(SWIFT) build -c release --product qna && $(SWIFT) build -c release --product qna-server
	cd Benchmarks && $(SWIFT) build -c release --product wsc
	Benchmarks/.build/release/CoreBenchmarks
	Benchmarks/.build/release/ClientBenchmarks
	Benchmarks/.build/release/QnABenchmarks
	Benchmarks/.build/release/ServerBenchmarks
	Benchmarks/.build/release/TerminalBenchmarks
	# permessage-deflate: the release wsc against Python websockets' client, as processes.
	$(VENV)/bin/python3 Benchmarks/deflate/deflate_bench.py Benchmarks/.build/release/wsc

## A venue's crowd behind one address (2,000 attendees over 2 minutes, one in ten a `qna
## --headless`) and an attacker with 1,000 sockets beside it for 60 s, against the release
## qna-server on its defaults (docs/benchmarks.md). CROWD_ARGS adds options
## (Benchmarks/crowd/crowd_bench.py --help).
CROWD_ARGS ?=
bench-crowd: release $(VENV)/.installed
	bin="$(RELEASE_BIN)"; $(VENV)/bin/python3 Benchmarks/crowd/crowd_bench.py "$$bin/qna-server" \
	  --qna "$$bin/qna" --attacker $(CROWD_ARGS)

## wsc against the Autobahn testsuite's fuzzing server: groups 1–7, 9, 10, 12, 13 with
## permessage-deflate and 1–7, 9, 10 without; qna-server's WebSocket layer against its fuzzing
## client. The gradings run side by side, the longest first, a few at once (scripts/
## conformance.sh says how they are cut). The suite's environment is made first, once. Fails
## unless every case is OK or INFORMATIONAL. The release build is graded, as it ships
## (`make test` has built it already, for the tests).
conformance: release
	@if [ ! -d "$(AUTOBAHN_DIR)" ]; then \
	  echo "conformance: no Autobahn suite at $(AUTOBAHN_DIR): skipped"; exit 0; fi; \
	scripts/conformance.sh "$(abspath $(AUTOBAHN_DIR))" "$(RELEASE_BIN)" "$(AUTOBAHN_VENV)" \
	  .build/conformance

## The suite's pinned Python environment and its test data, made once (.ci/run makes it
## beside the build: it waits on PyPI more than on the cores).
conformance-setup:
	@if [ -d "$(AUTOBAHN_DIR)" ]; then \
	  scripts/conformance-setup.sh "$(abspath $(AUTOBAHN_DIR))" "$(AUTOBAHN_VENV)"; fi

## The same, with every compression case of both gradings (about 25 minutes more: the client's
## 12.2–12.5, the server's 12.2–12.5 and 13.2–13.7).
conformance-full:
	COMPRESSION=all $(MAKE) conformance

## libFuzzer on the frame decoder, handshake parser and connection, then on permessage-deflate,
## then on the proxies' answers (FUZZ_SECONDS each).
fuzz:
	mkdir -p $(FUZZ_DIR)/corpus
	cp -n Fuzz/seeds/* $(FUZZ_DIR)/corpus/ 2>/dev/null || true
	swiftc -O -sanitize=fuzzer,address -parse-as-library -use-ld=lld -module-name RFC6455Fuzz \
	  Sources/RFC6455/*.swift Tests/TestSupport/SplitMix64.swift Fuzz/FuzzEntry.swift \
	  Fuzz/FuzzDecoding.swift \
	  -o $(FUZZ_DIR)/fuzz-rfc6455
	$(FUZZ_DIR)/fuzz-rfc6455 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -max_len=4096 $(FUZZ_DIR)/corpus 2>&1 | swift demangle | tee $(FUZZ_DIR)/last-run.log | grep -E 'DONE|stat::|ERROR|SUMMARY|pulse'
	# permessage-deflate: the decoder with the zlib compressor, and the inflater alone.
	mkdir -p $(FUZZ_DIR)/corpus-deflate
	cp -n Fuzz/seeds-deflate/* $(FUZZ_DIR)/corpus-deflate/ 2>/dev/null || true
	swiftc -O -sanitize=fuzzer,address -parse-as-library -use-ld=lld -module-name DeflateFuzz \
	  -I Sources/CZlib -lz Sources/RFC6455/*.swift Sources/ZlibCompression/*.swift \
	  Fuzz/DeflateFuzzEntry.swift Fuzz/FuzzDecoding.swift -o $(FUZZ_DIR)/fuzz-deflate
	$(FUZZ_DIR)/fuzz-deflate -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -max_len=4096 $(FUZZ_DIR)/corpus-deflate 2>&1 | swift demangle \
	  | tee $(FUZZ_DIR)/last-run-deflate.log | grep -E 'DONE|stat::|ERROR|SUMMARY|pulse'
	# The proxies' answers: HTTP CONNECT, then SOCKS5 (each also reads proxy URLs and no_proxy).
	set -e; for parser in http socks5; do \
	  mkdir -p $(FUZZ_DIR)/corpus-proxy-$$parser; \
	  swiftc -O -sanitize=fuzzer,address -parse-as-library -use-ld=lld -module-name ProxyFuzz \
	    $$([ $$parser = socks5 ] && echo -D FUZZ_SOCKS5) Sources/ProxyTunnel/*.swift \
	    Fuzz/ProxyFuzzEntry.swift -o $(FUZZ_DIR)/fuzz-proxy-$$parser; \
	  $(FUZZ_DIR)/fuzz-proxy-$$parser -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -max_len=1024 $(FUZZ_DIR)/corpus-proxy-$$parser 2>&1 | swift demangle \
	    | tee $(FUZZ_DIR)/last-run-proxy-$$parser.log | grep -E 'DONE|stat::|ERROR|SUMMARY|pulse'; \
	done

## Builds and starts the product: qna-server on 127.0.0.1:8080 with qna.sqlite in the
## background, and the qna terminal UI connected to it. Quitting qna stops the server.
run: build
	@./scripts/run-local.sh

clean:
	rm -rf .build $(FUZZ_DIR) Benchmarks/.build $(VENV)
