# SPDX-License-Identifier: GPL-2.0
#
# rcu_perf: stage the suite into a real kernel tree, build it there with
# kselftest's lib.mk, run it, and run this project's own tests.
#
#   make run            the suite on the running kernel (KTAP + JSON results),
#                       also against baselines/<machine-key>/ when recorded
#   make baseline       record BASELINE_RUNS=3 runs of a known-good kernel
#                       into baselines/<machine-key>/run-<time>-<i>/
#   make test           the tests that need no root and leave the kernel alone
#                       (tests/: unit, style, parsers, fake QEMU, the series)
#   make check          make test, then the live proofs (selftests/: root,
#                       guarded kernel changes, QEMU guests)
#   make asan           the library, unit tests and programs under ASan+UBSan
#   make fuzz           every input parser under libFuzzer, FUZZ_TIME=60 s each
#   make soak           the suite N=20 times: plain, with a CPU hog, as nobody
#   make killsweep      SIGINT/SIGTERM/SIGKILL at random points of every
#                       program, ROUNDS=5 times: all left as found
#   make kernbench      the kernbench-style build timing (long)
#   make report         SVG plots next to the newest JSON results (python3)
#   make cloud-kernel   Debian's cloud kernel for the QEMU boot tests (once)
#   make static         the programs linked statically, installed for guests
#   make matrix         the suite in QEMU guests: kernels x scenarios table
#   make kernels        small test kernels from the tree: healthy + one per
#                       injected regression in config/kernel/patches
#   make kernel-patch   the suite as a git format-patch series for the
#                       kernel tree, under build/kernel-patch
#   make ab KERNEL_A=.. KERNEL_B=.. [APPEND_A=.. APPEND_B=..]
#                       is B slower than A? both booted in instruction-
#                       counted QEMU guests, the lookups compared exactly
#
# KSRC=/path/to/linux uses that tree; otherwise Debian's linux-source-6.12
# is installed and unpacked once under build/ (RP_BUILD=DIR for another place).

SHELL := /bin/bash
TOP := $(CURDIR)
RP_BUILD ?= $(TOP)/build
BUILD := $(RP_BUILD)
SUITE := tools/testing/selftests/rcu_perf
KVER_SRC := 6.12

ifeq ($(KSRC),)
TREE := $(BUILD)/linux-source-$(KVER_SRC)
TREE_DEP := $(TREE)/.unpacked
else
TREE := $(abspath $(KSRC))
TREE_DEP :=
endif

KSFT_O := $(BUILD)/kbuild
BIN := $(KSFT_O)/kselftest/rcu_perf
INSTALL_DIR := $(BUILD)/install
RESULTS ?= $(TOP)/results/$(shell date +%Y%m%d-%H%M%S)

# Debian packages each step needs; installed only when missing.
PKGS_BUILD := gcc make libc6-dev rsync xz-utils
PKGS_CHECK := qemu-system-x86 busybox-static cpio git python3-ply python3-git
PKGS_KERNEL := gcc make bc flex bison libelf-dev xz-utils
APT_INSTALL = $(TOP)/scripts/apt-install.sh
# The builds of this Makefile use every CPU unless make -jN says otherwise.
JOBS = $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),$(shell nproc))

.PHONY: all deps build stage install run baseline check kernbench report clean distclean \
	cloud-kernel static matrix kernels ab asan fuzz fuzz-build soak sensitivity \
	kernel-patch killsweep test test-deps

all: build

deps:
	@$(APT_INSTALL) $(PKGS_BUILD) $(if $(KSRC),,linux-source-$(KVER_SRC))

$(BUILD)/linux-source-$(KVER_SRC)/.unpacked:
	@$(APT_INSTALL) linux-source-$(KVER_SRC) xz-utils
	@mkdir -p $(BUILD)
	@echo "  UNPACK  /usr/src/linux-source-$(KVER_SRC).tar.xz -> $(BUILD)"
	@rm -rf $(BUILD)/linux-source-$(KVER_SRC)
	@tar -C $(BUILD) -xJf /usr/src/linux-source-$(KVER_SRC).tar.xz
	@touch $@

# Copy the suite into the tree (a symlink would break lib.mk's ../ paths).
stage: deps $(TREE_DEP)
	@test -f $(TREE)/tools/testing/selftests/lib.mk || \
		{ echo "KSRC=$(TREE) is not a kernel tree with kselftests" >&2; exit 2; }
	@rsync -a --delete $(SUITE)/ $(TREE)/$(SUITE)/

build: stage
	@$(MAKE) --no-print-directory -j$(JOBS) -C $(TREE)/tools/testing/selftests \
		TARGETS=rcu_perf O=$(KSFT_O) all

install: stage
	@$(MAKE) --no-print-directory -j$(JOBS) -C $(TREE)/tools/testing/selftests \
		TARGETS=rcu_perf O=$(KSFT_O) INSTALL_PATH=$(INSTALL_DIR) install

# Baselines: earlier runs of known-good kernels on this machine, one
# directory per machine key (CPU model and count, HZ, preemption model:
# rcu_perf_compare --machine-key). The programs themselves check that a
# baseline matches before they use it (lib/baseline.c).
BASELINES ?= $(TOP)/baselines
BASELINE_RUNS ?= 3
MACHINE_KEY = $$($(BIN)/rcu_perf_compare --machine-key)

# kselftest's own runner, as a CI bot would run it; non-zero on any failure.
# BASELINE=DIR judges against DIR, BASELINE=none against nothing; by
# default against $(BASELINES)/<machine-key> when it exists.
run: install
	@mkdir -p $(RESULTS)
	@base='$(BASELINE)'; key=$(MACHINE_KEY); \
	if [ -z "$$base" ] && [ -d "$(BASELINES)/$$key" ]; then \
		base="$(BASELINES)/$$key"; fi; \
	if [ -n "$$base" ]; then echo "baseline: $$base"; export RCU_PERF_BASELINE="$$base"; \
	else echo "baseline: none for $$key (make baseline records one)"; fi; \
	cd $(INSTALL_DIR) && RCU_PERF_OUTDIR=$(RESULTS) \
		./run_kselftest.sh -c rcu_perf 2>&1 | tee $(RESULTS)/ktap.log
	@echo "results: $(RESULTS)"
	@! grep -q '^not ok' $(RESULTS)/ktap.log

# BASELINE_RUNS runs of the suite, without a baseline; a run with a failure
# is not recorded (a known-good kernel passes).
baseline: install
	@key=$(MACHINE_KEY); dir="$(BASELINES)/$$key"; stamp=$$(date +%Y%m%d-%H%M%S); \
	for i in $$(seq 1 $(BASELINE_RUNS)); do \
		run="$$dir/run-$$stamp-$$i"; mkdir -p "$$run.tmp"; \
		(cd $(INSTALL_DIR) && RCU_PERF_BASELINE=none RCU_PERF_OUTDIR="$$run.tmp" \
			./run_kselftest.sh -c rcu_perf 2>&1) | tee "$$run.tmp/ktap.log"; \
		if grep -q '^not ok' "$$run.tmp/ktap.log"; then \
			echo "run $$i failed: not recorded"; rm -rf "$$run.tmp"; \
		else mv "$$run.tmp" "$$run"; fi; \
	done; \
	echo "baseline: $$dir ($$(ls -d "$$dir"/run-* 2>/dev/null | wc -l) runs)"

# Debian's cloud kernel, booted under QEMU by the guest tests: fetched once
# into $(BUILD)/cloud-kernel (never installed). Offline, those tests skip.
CLOUD_KERNEL := $(BUILD)/cloud-kernel/vmlinuz

cloud-kernel: $(CLOUD_KERNEL)

$(CLOUD_KERNEL):
	@scripts/cloud-kernel.sh $(BUILD)/cloud-kernel

# Test kernels for the matrix: $(BUILD)/kernels/<name>/{bzImage,expect}, one
# build directory for all (a variant costs seconds), the tree left pristine.
# Built from Debian's source they live in RP_CACHE, outside the clone, and
# $(BUILD)/kernels links there: a fresh clone on the same machine reuses
# them while the tree, the config, the compiler and each patch are the same
# (scripts/kernels.sh's stamps); KSRC's kernels stay in $(BUILD)/kernels.
KERNEL_CONFIG := $(TOP)/config/kernel
RP_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/rcu_perf
KERNELS_OUT := $(if $(KSRC),$(BUILD)/kernels,$(RP_CACHE)/kernels-$(KVER_SRC))

kernels: deps $(TREE_DEP)
	@$(APT_INSTALL) $(PKGS_KERNEL)
	@scripts/kernels.sh $(TREE) $(KERNELS_OUT) $(KERNEL_CONFIG)/rcu_perf.config \
		$(KERNEL_CONFIG)/patches
	@if [ $(KERNELS_OUT) != $(BUILD)/kernels ]; then \
		[ -L $(BUILD)/kernels ] || rm -rf $(BUILD)/kernels; \
		ln -sfn $(KERNELS_OUT) $(BUILD)/kernels; fi

# The suite as a series for the kernel (scripts/kernel-patch.sh): the
# library with the Makefile and a MAINTAINERS entry, one patch per
# program, the tools, rcu_perf in the default TARGETS, and the
# documentation, made from this repository's current files against the
# tree's own MAINTAINERS, selftests Makefile and dev-tools index.
# t80_upstream_series.sh applies it to a pristine 6.12 and checks it.
KERNEL_PATCH_OUT := $(BUILD)/kernel-patch

kernel-patch: $(TREE_DEP)
	@scripts/kernel-patch.sh $(TOP) $(TREE) $(KERNEL_PATCH_OUT)

# The programs, libperf and the unit tests built with gcc's address and
# undefined-behaviour sanitizers into $(ASAN_O), for t05_sanitizers.sh.
ASAN_O := $(BUILD)/asan
ASAN_BIN := $(ASAN_O)/kselftest/rcu_perf
ASAN_CC := gcc -fsanitize=address,undefined -fno-omit-frame-pointer

asan: stage
	@$(MAKE) --no-print-directory -j$(JOBS) -C $(TREE)/tools/testing/selftests \
		TARGETS=rcu_perf O=$(ASAN_O) CC="$(ASAN_CC)" all >/dev/null
	@$(MAKE) --no-print-directory -j$(JOBS) -s -C tests TREE=$(TREE) \
		BIN=$(ASAN_BIN) OUT=$(ASAN_O)/tests CC="$(ASAN_CC)" \
		SUITE_DIR=$(TREE)/$(SUITE) all

# libFuzzer harnesses of the parsers of outside input (tests/fuzz/), built
# with clang; "make fuzz" runs each FUZZ_TIME seconds from the seed corpus
# in tests/fuzz/corpus/ and reports executions, coverage and crashes.
FUZZ_O := $(BUILD)/fuzz
FUZZ_TIME ?= 60

fuzz-build: build
	@$(APT_INSTALL) clang libclang-rt-dev
	@$(MAKE) --no-print-directory -j$(JOBS) -s -C tests/fuzz TREE=$(TREE) BIN=$(BIN) \
		OUT=$(FUZZ_O) SUITE_DIR=$(TREE)/$(SUITE) all

fuzz: fuzz-build
	@nice -n 10 tests/fuzz/run.sh $(FUZZ_O) $(FUZZ_TIME)

# The default suite N times back to back, beside one CPU hog, and as an
# unprivileged user: counts per check, spread per measurement, kernel
# state before and after (selftests/soak.sh). For a quiet machine.
N ?= 20

soak: build
	@bash selftests/soak.sh $(BIN) $(N)

# Detection and false-alarm rates of graded injected regressions, N runs
# each (default 10; minutes, not in make check): selftests/sensitivity.sh.
# ONLY=REGEX: only the injections whose name or program matches.
sensitivity: build
	@ONLY='$(ONLY)' bash selftests/sensitivity.sh $(BIN) $(if $(filter command line environment,$(origin N)),$(N),10)

# The kill sweeps of make check, ROUNDS rounds instead of one: the tests
# (t21_guard_live.sh), kernbench and a CPU offlined by --knob
# (t22_kill_sweep.sh), then tracefs unmounted mid-run (t23).
ROUNDS ?= 5

killsweep:
	@KILL_SWEEP=$(ROUNDS) $(MAKE) --no-print-directory check \
		T="t21_guard_live t22_kill_sweep t23_tracefs_gone"

# make test: tests/ only (the unit tests, style, the parsers, rcu_perf_compare
# and bisect.sh on synthetic results, the matrix with a fake QEMU, the
# kernel series). make check: also selftests/, the live proofs, which need
# root and QEMU. T=name runs only the tests whose file name contains name.
RUN_TESTS = RP_TREE=$(TREE) RP_BIN=$(BIN) RP_BUILD=$(BUILD) RP_TOP=$(TOP) \
	RP_SUITE=$(TOP)/$(SUITE) RP_CLOUD_KERNEL=$(CLOUD_KERNEL) \
	RP_STATIC=$(STATIC_BIN) RP_TOP_CONFIG=$(TOP)/config \
	RP_ASAN_BIN=$(ASAN_BIN) RP_ASAN_TESTS=$(ASAN_O)/tests \
	RP_FUZZ=$(FUZZ_O) tests/run.sh $(T)

# The unit test binaries and what every test needs installed.
test-deps: build static fuzz-build
	@$(APT_INSTALL) $(PKGS_CHECK)
	@$(MAKE) --no-print-directory -j$(JOBS) -C tests TREE=$(TREE) BIN=$(BIN) \
		BUILD=$(BUILD) SUITE_DIR=$(TREE)/$(SUITE) all

test: test-deps
	@$(RUN_TESTS)

# The live proofs boot the test kernels of `make kernels` too (built once,
# ~8 minutes; later runs rebuild only what changed). They build, with the
# cloud kernel's download, beside the tests of tests/ (tests/run.sh
# RP_BACKGROUND), which time nothing and do not use them.
CHECK_BACKGROUND = $(MAKE) --no-print-directory kernels && \
	{ $(MAKE) --no-print-directory cloud-kernel || \
	  echo "  (no cloud kernel: the QEMU boot tests will skip)" >&2; }

check: test-deps asan
	@$(APT_INSTALL) $(PKGS_KERNEL)
	@RP_LIVE=1 RP_BACKGROUND='$(CHECK_BACKGROUND)' $(RUN_TESTS)

# The programs linked statically (libperf is static already) and installed
# for busybox initramfs guests, with this project's QEMU scripts (qemu/:
# guest.sh, matrix.sh, ab.sh, which are not part of the kernel's suite)
# beside them, where they find the programs.
STATIC_O := $(BUILD)/static
STATIC_BIN := $(BUILD)/static-install/rcu_perf
QEMU_SCRIPTS := $(wildcard $(TOP)/qemu/*.sh)

static: stage
	@$(MAKE) --no-print-directory -j$(JOBS) -C $(TREE)/tools/testing/selftests \
		TARGETS=rcu_perf O=$(STATIC_O) LDFLAGS=-static \
		INSTALL_PATH=$(dir $(STATIC_BIN)) install >/dev/null
	@install -m 755 $(QEMU_SCRIPTS) $(STATIC_BIN)/

# The kernel matrix: every kernel x every scenario of config/matrix/ in a
# QEMU guest, one at a time. KERNELS= narrows Debian's kernels (fetched
# once into $(BUILD), never installed; offline, their cells SKIP),
# SCENARIOS= the scenarios, KERNEL="bzImage or dir..." adds kernels (a
# directory may hold bzImage and an "expect" file; a kernel of `make
# kernels` by name: healthy, ref-walk-only, ...), PROGS= the programs,
# MATRIX_ARGS= their options (e.g. --quick), BOOTS=N boots per cell,
# REFERENCE=NAME the kernel the others are judged against in the icount
# scenarios (default: the one their expect files name, healthy); make -jN
# (or MATRIX_JOBS=N) runs N instruction-counted cells at once.
MATRIX_KERNELS := 6.12-cloud 6.1-cloud 6.1-rt
KERNELS ?= $(MATRIX_KERNELS)
MATRIX_RESULTS ?= $(TOP)/results/matrix-$(shell date +%Y%m%d-%H%M%S)
MATRIX_JOBS ?= $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))
deb_kernel_re.6.12-cloud := ^linux-image-6\.12\..*-cloud-amd64-unsigned$$
deb_kernel_re.6.1-cloud := ^linux-image-6\.1\.0-.*-cloud-amd64-unsigned$$
deb_kernel_re.6.1-rt := ^linux-image-6\.1\.0-.*-rt-amd64-unsigned$$
deb_kernel = $(BUILD)/deb-kernels/$(1)

$(BUILD)/deb-kernels/%/vmlinuz:
	@test -n '$(deb_kernel_re.$*)' || \
		{ echo "unknown kernel $* (known: $(MATRIX_KERNELS))" >&2; exit 2; }
	@scripts/cloud-kernel.sh $(BUILD)/deb-kernels/$* '$(deb_kernel_re.$*)'

matrix: static
	@$(APT_INSTALL) $(PKGS_CHECK)
	@for k in $(KERNELS); do \
		$(MAKE) --no-print-directory $(call deb_kernel,$$k)/vmlinuz || \
		echo "  (no $$k kernel: its cells will SKIP)" >&2; \
	done
	@$(STATIC_BIN)/matrix.sh --scenarios $(TOP)/config/matrix \
		--results $(MATRIX_RESULTS) \
		$(if $(SCENARIOS),--only "$(SCENARIOS)") \
		$(if $(MATRIX_ARGS),--args "$(MATRIX_ARGS)") \
		$(foreach k,$(KERNELS),--kernel $(k)=$(call deb_kernel,$(k))) \
		$(foreach k,$(foreach g,$(KERNEL),$(or $(wildcard $(g)),$(wildcard \
			$(KERNELS_OUT)/$(g)),$(g))),--kernel $(k)) \
		$(if $(BOOTS),--boots $(BOOTS)) $(if $(REFERENCE),--reference $(REFERENCE)) \
		$(if $(MATRIX_JOBS),--jobs $(MATRIX_JOBS)) -- $(PROGS)

# A/B in instruction-counted guests (ab.sh). KERNEL_A and KERNEL_B: a
# bzImage, a directory holding one, a Debian kernel of the matrix
# (6.12-cloud, ...: fetched once) or a kernel of `make kernels` (healthy,
# ref-walk-only, ...); KERNEL_B defaults to KERNEL_A. APPEND_A/APPEND_B:
# their command lines; AB_ARGS: ab.sh's options (--boots 2, --quick, ...).
AB_RESULTS ?= $(TOP)/results/ab-$(shell date +%Y%m%d-%H%M%S)
ab_kernel = $(if $(deb_kernel_re.$(1)),$(call deb_kernel,$(1)),$(if \
	$(wildcard $(1)),$(1),$(if $(wildcard $(KERNELS_OUT)/$(1)/bzImage),$(KERNELS_OUT)/$(1),$(1))))

ab: static
	@test -n '$(KERNEL_A)' || { echo "make ab KERNEL_A=... [KERNEL_B=...]" >&2; exit 2; }
	@$(APT_INSTALL) $(PKGS_CHECK)
	@for k in $(KERNEL_A) $(KERNEL_B); do \
		case " $(MATRIX_KERNELS) " in *" $$k "*) \
			$(MAKE) --no-print-directory $(call deb_kernel,$$k)/vmlinuz || exit 2 ;; \
		esac; \
	done
	@$(STATIC_BIN)/ab.sh --outdir $(AB_RESULTS) \
		--kernel-a '$(call ab_kernel,$(KERNEL_A))' \
		$(if $(KERNEL_B),--kernel-b '$(call ab_kernel,$(KERNEL_B))') \
		$(if $(APPEND_A),--append-a '$(APPEND_A)') \
		$(if $(APPEND_B),--append-b '$(APPEND_B)') $(AB_ARGS)

# Timed builds at each CPU count; KB_ARGS="--quick" and "--set NAME=VALUE"
# pass through.
kernbench: build
	@$(BIN)/kernbench $(KB_ARGS)

# Plots of the newest results (or DIR=...) next to them; BASE=DIR compares.
# scripts/plot.py draws them: a project tool, not part of the suite.
# With BASE, rcu_perf_compare then judges the change (non-zero on a regression).
report: $(if $(BASE),build)
	@command -v python3 >/dev/null || $(APT_INSTALL) python3
	@dir='$(or $(DIR),$(lastword $(sort $(wildcard $(TOP)/results/*))))'; \
	test -n "$$dir" || { echo "no results yet: make run (or DIR=...)" >&2; exit 2; }; \
	python3 $(TOP)/scripts/plot.py -o "$$dir" $(if $(BASE),$(BASE) --) "$$dir" \
	$(if $(BASE),&& $(BIN)/rcu_perf_compare --table $(BASE) -- "$$dir")

clean:
	rm -rf $(KSFT_O) $(INSTALL_DIR) $(BUILD)/tests $(STATIC_O) \
		$(dir $(STATIC_BIN)) $(ASAN_O) $(FUZZ_O)

distclean:
	rm -rf $(BUILD) $(if $(KSRC),,$(KERNELS_OUT))
