# Bomber: game daemon. `make run` starts bomberd on the embedded store; `make test` runs everything.
GO        ?= go
PKGS      ?= ./...
FUZZTIME  ?= 30s
BENCHTIME ?= 1s
# The version every command reports (--version, bomber_build_info, the
# start-up log line): the git tag, else devel.
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS   := -X github.com/bomber-game/bomber/cmd/internal/cli.version=$(VERSION)

.PHONY: all build bin test test-js test-browser web vet bench bench-micro attacks fuzz run deb clean

all: build

build:
	$(GO) build ./...

bin:
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/ ./cmd/...

# Start bomberd on the embedded SQLite store (var/bomber.db) with readable
# logs, on loopback only: a fresh store gets the demo accounts (password 123),
# which bomberd creates and accepts only while every listener is on loopback.
# Stop with Ctrl-C. To open it up: make run LISTEN=:20343 (see docs/operations.md).
# ADMIN_LISTEN and WEB_LISTEN move the admin listener and the web client
# (config.yaml's admin.listen, 127.0.0.1:20344, and web.listen,
# 127.0.0.1:20380, when not given).
LISTEN ?= 127.0.0.1:20343
ADMIN_LISTEN ?=
WEB_LISTEN ?=
run:
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/ ./cmd/bomberd ./cmd/bomberctl
	@echo "bomberd on $(LISTEN); the demo accounts (password 123) work on loopback only."
	@echo "To open it up: bin/bomberctl user add NAME, then make run LISTEN=:20343"
	./bin/bomberd --config config.yaml --log-format console --listen $(LISTEN) \
	  $(if $(ADMIN_LISTEN),--admin-listen $(ADMIN_LISTEN)) $(if $(WEB_LISTEN),--web-listen $(WEB_LISTEN))

# The Debian package (nfpm as a library, scripts/mkdeb): bomberd, bomberctl,
# the systemd units, /etc/bomber/config.yaml, the system user and
# /var/lib/bomber. Writes bin/bomber_VERSION_ARCH.deb; install it with
# apt install ./bin/bomber_*.deb (docs/operations.md).
deb:
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o bin/ ./cmd/bomberd ./cmd/bomberctl
	$(GO) run ./scripts/mkdeb --bin bin --output bin

# go vet, staticcheck, and no reference to an issue tracker that is not in
# the repository (the word issue and a number): code, comments and docs say
# in words what they mean.
# staticcheck is pinned and fetched through the module proxy on first use
# (go run keeps it out of go.mod); STATICCHECK= skips it offline.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
vet:
	$(GO) vet $(PKGS)
	$(if $(STATICCHECK),$(STATICCHECK) $(PKGS))
	@# bomberd, bomberctl and the terminal client build elsewhere than Linux
	@# (the net transport, no epoll); the bench tools are Linux's only
	GOOS=darwin $(GO) vet $(PKGS)
	GOOS=windows $(GO) build $(PKGS)
	@if grep -rHIiPzo '\bissues?\s+(?:(?://|#|--|\*)\s*)?#?\d+' --include='*.go' --include='*.md' --include='*.c' \
	    --include='*.lua' --include='*.sh' --include='*.yaml' --include='*.js' --include=Makefile \
	    --exclude-dir=.git --exclude-dir=node_modules --exclude-dir=dist . | tr '\0' '\n' | grep .; then \
	  echo "vet: the files above cite an issue tracker that is not in the repository; say in words what they mean"; exit 1; \
	fi

# The whole suite with the race detector: vet, the JavaScript library's
# tests, every Go test, then the leak check. Fuzz corpora under testdata/fuzz
# are replayed as ordinary tests. MySQL tests need MariaDB (scripts/mariadb.sh);
# with BOMBER_REQUIRE_MYSQL=1 they fail instead of skipping when it is absent.
# Every step runs even after one fails; scripts/testsum shows go test's
# output as without -json, ends a step that failed with each failed test's
# first messages, and counts the tests of each step; the last line is the
# total: make test: N passed, N failed, N skipped.
TESTSUM = $(GO) run ./scripts/testsum
test: vet
	@counts=$$(mktemp) && status=0; \
	echo "NODE=$(NODE) sh scripts/test-js.sh"; \
	NODE=$(NODE) $(TESTSUM) -counts $$counts -node -- sh scripts/test-js.sh || status=1; \
	echo "$(GO) test -race -count=1 -timeout 15m $(PKGS)"; \
	$(TESTSUM) -counts $$counts -- $(GO) test -race -count=1 -timeout 15m -json $(PKGS) || status=1; \
	echo "# two thousand random games through the hub, no byte leaking a secret (fast without -race)"; \
	BOMBER_LEAK_GAMES=400 $(TESTSUM) -counts $$counts -- $(GO) test -count=1 -json -run 'TestRandomGamesKeepSecrets' ./statemachine/ || status=1; \
	$(TESTSUM) -total $$counts; rm -f $$counts; exit $$status

# The JavaScript client library's tests (clients/js, Node 20 or later) with
# Node's test runner, against a bomberd built from this tree
# (scripts/test-js.sh).
NODE ?= node
test-js:
	NODE=$(NODE) sh scripts/test-js.sh

# Rebuild the web client's bundle (web/src -> web/dist, esbuild's Go API; no
# Node or npm needed). Commit web/dist: bomberd embeds it, and
# TestCommittedBundleIsFresh fails when it is stale.
web:
	$(GO) generate ./web

# The web client in headless Chromium against a real bomberd: the five
# games played to the end through the page (chromium: apt-get install
# chromium). Screenshots go to BOMBER_ARTIFACTS (default
# $$TMPDIR/bomber-browser-artifacts).
test-browser:
	$(GO) test -count=1 -v -run . ./web/browsertest

# The comparison table of docs/performance.md: the minimal relay (the floor,
# bench/relay), bomberd on the epoll reactor and on the net transport side by
# side, the table games, and docs/bench-latency.svg (BENCH_QUICK=1 for a
# shorter run).
bench:
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/bomberd ./cmd/bomberd
	$(GO) build -o bin/bomber-bench ./bench/driver
	./bin/bomber-bench

# The hardening attack set (bench/attack): one bomberd under a 1,024-descriptor
# limit, each attack for ATTACK_DURATION while witnesses log in and relay;
# prints a Markdown table and fails when an attack's aim succeeds or a
# witness login fails (docs/testing.md).
ATTACK_DURATION ?= 15s
attacks:
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/bomberd ./cmd/bomberd
	$(GO) build -o bin/bomber-attack ./bench/attack
	./bin/bomber-attack -bomberd bin/bomberd -duration $(ATTACK_DURATION)

# Every go test benchmark (state machine, rules, bots, solvers).
bench-micro:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

# Run every fuzz target for FUZZTIME each (go test allows one target per run).
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	$(GO) clean ./...
	rm -rf bin
