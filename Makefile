# p2pkb. A fresh machine with Go needs only: make site, make test.
GO       ?= go
N        ?= 10000
LOG_MB   ?= 100,1000
CHROMIUM ?= chromium

.PHONY: site test lint audit probe probe-tools bench fuzz browser slurm vocab clean

## site: build the site from the repository's kb/ and content/ into public/
site:
	$(GO) run ./cmd/p2pkb build --kb kb --content content --i18n templates --assets assets --out public

## test: every test, browser tests in headless Chromium, the Slurm recipe and the probe's cross builds included
test: browser slurm vocab probe-tools
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 45m ./...

## lint: check the KB and the articles without writing anything
lint:
	$(GO) run ./cmd/p2pkb lint --kb kb --content content

## audit: per entry, what its signature, code and rates rest on, and the totals (fails on a rate without basis or an invented code)
audit:
	$(GO) run ./cmd/p2pkb audit --kb kb
	$(GO) run ./cmd/p2pkb-reports

## probe: build bin/p2p-probe-linux-amd64 and bin/p2p-probe-linux-arm64, which start on glibc 2.17 and later (probe/glibc says how); bin/p2p-probe is this machine's
# cgo stays (go-nvml needs it); compat.h and the link flags make the binary ask
# for the oldest glibc version of each function. PROBE_BIN is where they go.
PROBE_BIN     ?= bin
PROBE_VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
PROBE_CFLAGS  := -O2 -include $(CURDIR)/probe/glibc/compat.h
PROBE_LDFLAGS := -X main.version=$(PROBE_VERSION) -extldflags '-Wl,--no-as-needed -l:libdl.so.2 -l:libpthread.so.0 -Wl,--wrap=__libc_start_main'
HOSTARCH      := $(shell $(GO) env GOHOSTARCH)
CC_amd64      ?= $(if $(filter amd64,$(HOSTARCH)),gcc,x86_64-linux-gnu-gcc)
CC_arm64      ?= $(if $(filter arm64,$(HOSTARCH)),gcc,aarch64-linux-gnu-gcc)
probe: $(PROBE_BIN)/p2p-probe-linux-amd64 $(PROBE_BIN)/p2p-probe-linux-arm64
	cp $(PROBE_BIN)/p2p-probe-linux-$(HOSTARCH) $(PROBE_BIN)/p2p-probe
$(PROBE_BIN)/p2p-probe-linux-%: FORCE
	CGO_ENABLED=1 GOOS=linux GOARCH=$* CC=$(CC_$*) CGO_CFLAGS="$(PROBE_CFLAGS)" \
		$(GO) build -trimpath -tags netgo,osusergo -ldflags "$(PROBE_LDFLAGS)" -o $@ ./probe
FORCE:

# The probe's build test needs a cross compiler for the other architecture
# and qemu to run the arm64 build; as root (CI) they are installed here.
probe-tools:
	@if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64-static >/dev/null 2>&1; then exit 0; fi; \
	if [ "$(HOSTARCH)" = amd64 ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing gcc-aarch64-linux-gnu and qemu-user-static for the probe's build test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static >/dev/null; \
	else \
		echo "the probe's build test needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user-static (it is skipped until then)"; \
	fi

## bench: explain on generated logs of LOG_MB megabytes, then one table of build, index and search figures at the KB's size and at N synthetic entries (N=1000,10000,50000 for several)
bench: browser
	$(GO) run ./cmd/p2pkb-bench -n $(N) -explain-mb $(LOG_MB)


## fuzz: every fuzz target (func FuzzXxx) whose name matches FUZZ for FUZZTIME each, FUZZPARALLEL workers (default: one per CPU), FUZZFLAGS passed on; a crasher is kept in its package's testdata/fuzz and fails make test until fixed
FUZZTIME ?= 30s
FUZZPARALLEL ?= $(shell nproc 2>/dev/null || echo 1)
FUZZ ?= .
FUZZFLAGS ?=
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' | grep -- '$(FUZZ)'); do \
			echo "== $$pkg $$t ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPARALLEL) -timeout 0 $(FUZZFLAGS) $$pkg || exit 1; \
		done; \
	done

# The structured-data test checks pages against schema.org's vocabulary as the
# schema-dts package declares it, fetched once from npm.
VOCAB = internal/build/testdata/schema-dts/package/dist/schema.d.ts
vocab: $(VOCAB)
$(VOCAB):
	@mkdir -p internal/build/testdata/schema-dts
	@if command -v npm >/dev/null 2>&1; then \
		cd internal/build/testdata/schema-dts && npm pack --silent schema-dts@2.1.0 >/dev/null && tar xzf schema-dts-2.1.0.tgz && rm schema-dts-2.1.0.tgz; \
	else echo "the structured-data test needs npm to fetch schema-dts (it is skipped until then)"; fi

# Browser tests need Debian's chromium; as root (CI) it is installed here.
browser:
	@if command -v $(CHROMIUM) >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else \
		echo "browser tests need Chromium: run 'sudo apt-get install chromium chromium-driver' (they are skipped until then)"; \
	fi

# The fleet's Slurm recipe is tested on a one-node Slurm started on this
# machine; as root (CI) its daemons are installed here.
slurm:
	@if command -v slurmctld >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 && command -v srun >/dev/null 2>&1 && command -v munged >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing slurm and munge for the fleet recipe test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null; \
	else \
		echo "the Slurm recipe test needs slurmctld, slurmd, slurm-client and munge (it is skipped until then)"; \
	fi

clean:
	rm -rf public bin
