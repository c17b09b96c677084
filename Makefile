# p2pkb. A fresh machine with Go needs only: make site, make test.
GO       ?= go
N        ?= 10000
LOG_MB   ?= 100,1000
CHROMIUM ?= chromium

.PHONY: site test lint audit probe bench fuzz browser slurm vocab clean

## site: build the site from the repository's kb/ and content/ into public/
site:
	$(GO) run ./cmd/p2pkb build --kb kb --content content --i18n templates --assets assets --out public

## test: every test, browser tests in headless Chromium and the Slurm recipe included
test: browser slurm vocab
	$(GO) vet ./...
	$(GO) test -count=1 ./...

## lint: check the KB and the articles without writing anything
lint:
	$(GO) run ./cmd/p2pkb lint --kb kb --content content

## audit: per entry, what its signature, code and rates rest on, and the totals (fails on a rate without basis or an invented code)
audit:
	$(GO) run ./cmd/p2pkb audit --kb kb

## probe: build bin/p2p-probe for linux/amd64
probe:
	CGO_ENABLED=1 GOOS=linux GOARCH=amd64 $(GO) build -trimpath -o bin/p2p-probe ./probe

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
