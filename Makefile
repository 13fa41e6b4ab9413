# azsvc build, test and lint entry points. CI runs .ci/run, which calls the
# same commands.

GO       ?= go
BIN      ?= bin/azsvc
FUZZTIME ?= 10s
# VERSION: the nearest v* tag (vX.Y.Z, or vX.Y.Z-N-gHASH after it, -dirty
# with local changes); v0.0.0-gHASH before the first tag; VERSION=v1.2.3
# overrides it. DATE is the commit's time, not the build's, so that one
# commit always builds the same bytes.
VERSION  ?= $(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null || \
              { c=$$(git describe --always --dirty 2>/dev/null) && echo v0.0.0-g$$c; } || echo dev)
COMMIT   ?= $(shell git rev-parse HEAD 2>/dev/null)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)
DATE     ?= $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null)
# Each is computed once (git runs once per make, whatever uses it).
VERSION  := $(VERSION)
COMMIT   := $(COMMIT)
SOURCE_DATE_EPOCH := $(SOURCE_DATE_EPOCH)
DATE     := $(DATE)
LDFLAGS  := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

# Release builds (archives and image): static, stripped, no build paths, no
# VCS stamp (the commit is in LDFLAGS), so that they are reproducible.
# .goreleaser.yaml takes RELEASE_LDFLAGS from the environment and repeats
# RELEASE_FLAGS.
RELEASE_FLAGS   := -trimpath -buildvcs=false
RELEASE_LDFLAGS := -s -w $(LDFLAGS)
TOOLS           := $(CURDIR)/bin/tools
CA_CERTS        ?= /etc/ssl/certs/ca-certificates.crt
IMAGE_PLATFORMS ?= linux/amd64 linux/arm64
IMAGE           := dist/azsvc_$(VERSION:v%=%)_image.oci.tar

.PHONY: all build test lint fuzz bench bench-table ci clean release image tools

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

## tools: goreleaser and cyclonedx-gomod, pinned in tools/go.mod, into bin/tools
## (-trimpath: each SBOM names cyclonedx-gomod by its hash, the same in any clone)
tools:
	$(GO) -C tools build $(RELEASE_FLAGS) -o $(TOOLS)/ github.com/goreleaser/goreleaser/v2 \
		github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod

## release: dist/ archives for linux, darwin, windows x amd64, arm64, SBOMs,
## the image and SHA256SUMS of them all (goreleaser in snapshot mode, then
## make image: nothing is published)
release: tools
	PATH="$(TOOLS):$$PATH" VERSION="$(VERSION)" RELEASE_LDFLAGS="$(RELEASE_LDFLAGS)" \
		DATE="$(DATE)" SOURCE_DATE_EPOCH="$(SOURCE_DATE_EPOCH)" GOMODCACHE="$$($(GO) env GOMODCACHE)" \
		$(TOOLS)/goreleaser release --snapshot --clean
	$(MAKE) image VERSION="$(VERSION)"

## image: dist/azsvc_VERSION_image.oci.tar, the container image (an OCI
## archive), its line added to dist/SHA256SUMS
image:
	rm -rf bin/image
	for p in $(IMAGE_PLATFORMS); do \
		GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) build $(RELEASE_FLAGS) \
			-ldflags "$(RELEASE_LDFLAGS)" -o bin/image/$${p%/*}_$${p#*/}/azsvc ./cmd/azsvc || exit; \
	done
	$(GO) -C hack/image run . -out $(CURDIR)/$(IMAGE) -sums $(CURDIR)/dist/SHA256SUMS \
		-version $(VERSION) -revision "$(COMMIT)" -created $(DATE) -cacerts $(CA_CERTS) \
		-doc $(CURDIR)/LICENSE -doc $(CURDIR)/NOTICE \
		$(foreach p,$(IMAGE_PLATFORMS),$(p)=$(CURDIR)/bin/image/$(subst /,_,$(p))/azsvc)
	@echo "wrote $(IMAGE)"

clean:
	rm -rf bin dist
