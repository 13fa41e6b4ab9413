# azsvc build, test and lint entry points. CI runs .ci/run, which calls the
# same commands.

GO       ?= go
BIN      ?= bin/azsvc
FUZZTIME ?= 10s
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE     ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS  := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

.PHONY: all build test lint fuzz bench bench-table ci clean

all: lint test build

## build: compile bin/azsvc with version, commit and date stamped in
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/azsvc

## test: run every test (the README's test command)
test:
	$(GO) test ./...

## lint: go vet, gofmt and staticcheck (pinned in go.mod's tool block)
lint:
	$(GO) vet ./...
	@unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) tool staticcheck ./...

## fuzz: run every Fuzz target for FUZZTIME each (make fuzz FUZZTIME=5m)
fuzz:
	./.ci/fuzz $(FUZZTIME)

## bench: run every benchmark once, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-table: the scale table through the CLI (scripts/bench.sh; N=1000 5000 10000, a few minutes)
bench-table:
	./scripts/bench.sh $(BENCH_N)

## ci: what .ci/run does
ci:
	./.ci/run

clean:
	rm -rf bin
