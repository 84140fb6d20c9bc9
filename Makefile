# SPDX-License-Identifier: GPL-2.0
# The ftrace function-hook series on Linux 6.12: build, boot, test, export.
# `make help` lists the targets.

OUT	?= out
SRC	:= $(OUT)/src
H	:= harness
Q	:= @

define build_flavour
	$(Q)$(H)/build.sh $(SRC) $(OUT)/build-$(1) $(1)
	$(Q)echo "[initramfs] $(OUT)/initrd-$(1).cpio.gz"
	$(Q)$(H)/initramfs.sh $(SRC) $(OUT)/build-$(1) $(OUT)/initrd-$(1).cpio.gz
endef

.PHONY: help setup prepare run test nodyn stress configs arches test-arm64 test-arm test-i386 series series-check bench bench-publish trace-call check docs clean
.PHONY: clients-base bpf bpf-base configs-base distro
help:
	@echo "make run      set up, build the demo kernel, boot it in QEMU and show the hooks at work"
	@echo "make test     build the test kernel, boot it and run the test plan (harness/test-plan)"
	@echo "              CASES='kunit:* ftracetest:ftrace/*' runs only the matching cases"
	@echo "make nodyn    build and boot a kernel with function tracing but no dynamic ftrace (harness/test-plan-nodyn)"
	@echo "make stress   build and boot the stress kernel (KASAN, kmemleak, lockdep, fault injection) and run harness/test-plan-stress"
	@echo "make arches   cross-build the series for the architectures of harness/cross-compilers (ARCH_ONLY=arm64: one)"
	@echo "make test-arm64  build the arm64 test kernel, boot it in qemu-system-aarch64, run harness/test-plan-arm64"
	@echo "make test-arm  build the 32-bit arm test kernel, boot it in qemu-system-arm, run harness/test-plan-arm"
	@echo "make test-i386  build the x86-32 test kernel, boot it in qemu-system-i386, run harness/test-plan-i386"
	@echo "make clients-base  the real clients' cases of the plan (trace-cmd, bpftrace, perf, BPF, livepatch with"
	@echo "              BPF or a direct call) on the unmodified base built with the test fragments, for comparison"
	@echo "make bpf      the kernel's BPF selftests on function hooks (test_progs, harness/test-plan-bpf) on the test kernel"
	@echo "make bpf-base the same on the unmodified base"
	@echo "make configs  the configuration matrix (harness/config-matrix): each kernel built with W=1 and booted with harness/test-plan-smoke"
	@echo "              CONFIG='NAME ...' runs only those entries, CASES='livepatch:*' only those cases"
	@echo "make configs-base  the same entries built from the unmodified base, for comparison"
	@echo "make distro   Debian's own cloud-amd64 configuration (modules off but the plan's, configs/distro.config),"
	@echo "              built and booted with harness/test-plan-smoke"
	@echo "make series   the series as git format-patch files with a cover letter in $(OUT)/series"
	@echo "              (grouped by harness/series-map), checkpatch --strict on each"
	@echo "make series-check  make series, then git am each patch onto the base and build what it touches;"
	@echo "              the whole kernel after the last; the applied tree must be make prepare's"
	@echo "make bench    base vs series: instructions per call (ftrace-ops.ko, the function graph, fprobe), per site of a tracer switch,"
	@echo "              shadow-stack bytes, bytes per record; a row whose hooks did not run fails the run, a passing run writes $(OUT)/bench/table.{txt,md}"
	@echo "              BENCH_ROWS='fgraph_* nr_ops_relevant=1' runs only the matching rows (no table written)"
	@echo "make bench-publish  the last passing make bench's table into README.md and harness/cover-letter.txt (between their markers)"
	@echo "make trace-call  one hooked call of bench rows (ROWS='fgraph_1_user ...') single-stepped: instructions per function"
	@echo "make check    checkpatch --strict over the series' own files"
	@echo "make docs     kernel-doc over the series' files, htmldocs of Documentation/trace: no warning from ours"
	@echo "make setup    install the Debian packages the others need (run by them)"
	@echo "make prepare  the patched source tree in $(SRC)"
	@echo "make clean    remove $(OUT) (the cached pristine base stays)"

setup:
	$(Q)$(H)/setup.sh

prepare: setup
	$(Q)$(H)/prepare.py $(SRC)

run: prepare
	$(call build_flavour,run)
	$(Q)$(H)/boot-demo.sh $(OUT)/build-run/arch/x86/boot/bzImage \
		$(OUT)/initrd-run.cpio.gz $(OUT)/run-console.log

test: prepare
	$(call build_flavour,test)
	$(Q)$(H)/run-tests.py --kernel $(OUT)/build-test/arch/x86/boot/bzImage \
		--initrd $(OUT)/initrd-test.cpio.gz --out $(OUT)/test \
		$(if $(CASES),--cases "$(CASES)")

nodyn: prepare
	$(call build_flavour,nodyn)
	$(Q)$(H)/run-tests.py --kernel $(OUT)/build-nodyn/arch/x86/boot/bzImage \
		--initrd $(OUT)/initrd-nodyn.cpio.gz --out $(OUT)/test-nodyn \
		--plan $(H)/test-plan-nodyn --shards 1

# The unmodified base with the test kernel's fragments (less the
# symbols only the series defines, its KUnit suites), for comparing
# the real clients and the BPF selftests with the series.
BASE_SRC := $(OUT)/src-base
BASE_BUILD := $(OUT)/build-base-test
define base_test_kernel
	$(Q)$(H)/prepare.py --pristine $(BASE_SRC)
	$(Q)KCONFIG_ONLY_KNOWN=1 $(H)/build.sh $(BASE_SRC) $(BASE_BUILD) test
endef
CLIENT_CASES := script:trace-cmd script:bpftrace script:perf \
	script:bpf-kprobe-multi script:livepatch-client:*

clients-base: setup
	$(call base_test_kernel)
	$(Q)$(H)/initramfs.sh $(BASE_SRC) $(BASE_BUILD) $(OUT)/initrd-base-test.cpio.gz
	$(Q)$(H)/run-tests.py --kernel $(BASE_BUILD)/arch/x86/boot/bzImage \
		--initrd $(OUT)/initrd-base-test.cpio.gz --out $(OUT)/test-base \
		--cases "$(or $(CASES),$(CLIENT_CASES))"

# The kernel's BPF selftests on function hooks: test_progs, built by
# harness/bpf-selftests.sh, in an initramfs of its own, and the plan
# harness/test-plan-bpf.  Too long for CI; not in make test.
# $(1): tree, $(2): its test kernel's build, $(3): name of the outputs.
define bpf_selftests
	$(Q)$(H)/bpf-selftests.sh $(1) $(2) $(OUT)/bpf-selftests-$(3)
	$(Q)echo "[initramfs] $(OUT)/initrd-bpf-$(3).cpio.gz"
	$(Q)INITRAMFS_EXTRA=$(OUT)/bpf-selftests-$(3)/root $(H)/initramfs.sh \
		$(1) $(2) $(OUT)/initrd-bpf-$(3).cpio.gz
	$(Q)$(H)/run-tests.py --kernel $(2)/arch/x86/boot/bzImage \
		--initrd $(OUT)/initrd-bpf-$(3).cpio.gz --out $(OUT)/test-bpf-$(3) \
		--plan $(H)/test-plan-bpf $(if $(CASES),--cases "$(CASES)")
endef

bpf: prepare
	$(Q)$(H)/build.sh $(SRC) $(OUT)/build-test test
	$(call bpf_selftests,$(SRC),$(OUT)/build-test,series)

bpf-base: setup
	$(call base_test_kernel)
	$(call bpf_selftests,$(BASE_SRC),$(BASE_BUILD),base)

# no5lvl: under 5-level paging (TCG's -cpu max has LA57), KASAN in 6.12
# misjudges every address for the instant identify_cpu() has cleared the
# boot CPU's feature bits, LA57's included, and an interrupt taken then
# is reported as a wild-memory-access (upstream's, not the series').
stress: prepare
	$(call build_flavour,stress)
	$(Q)$(H)/run-tests.py --kernel $(OUT)/build-stress/arch/x86/boot/bzImage \
		--initrd $(OUT)/initrd-stress.cpio.gz --out $(OUT)/test-stress \
		--plan $(H)/test-plan-stress --shards 2 --append no5lvl

arches: prepare
	$(Q)$(H)/setup.sh --arches
	$(Q)$(H)/arches.sh $(SRC) $(OUT) $(ARCH_ONLY)

test-arm64: prepare
	$(Q)$(H)/setup.sh --arm64-guest
	$(Q)$(H)/test-arch.sh arm64 $(SRC) $(OUT) "$(CASES)"

test-arm: prepare
	$(Q)$(H)/setup.sh --arm-guest
	$(Q)$(H)/test-arch.sh arm $(SRC) $(OUT) "$(CASES)"

test-i386: prepare
	$(Q)$(H)/setup.sh --i386-guest
	$(Q)$(H)/test-arch.sh i386 $(SRC) $(OUT) "$(CASES)"

# Each entry of harness/config-matrix: its kernel in $(OUT)/build-cfg-*,
# its smoke boot's logs in $(OUT)/configs/NAME.  configs-base: the same
# entries from the unmodified base ($(OUT)/build-base-cfg-*,
# $(OUT)/configs-base/NAME), to tell the series' failures from upstream's.
CONFIGS_ARGS = $(if $(CONFIG),--only "$(CONFIG)") $(if $(CASES),--cases "$(CASES)")
configs: prepare
	$(Q)$(H)/configs.py --src $(SRC) --out $(OUT) $(CONFIGS_ARGS)

configs-base: setup
	$(Q)$(H)/prepare.py --pristine $(BASE_SRC)
	$(Q)$(H)/configs.py --base --src $(BASE_SRC) --out $(OUT) $(CONFIGS_ARGS)

# Debian's configuration of the base, with the series: $(OUT)/build-distro,
# the smoke boot's logs in $(OUT)/configs/distro.
distro: prepare
	$(Q)$(H)/setup.sh --distro
	$(Q)$(H)/configs.py --distro --src $(SRC) --out $(OUT) $(if $(CASES),--cases "$(CASES)")

series: setup
	$(Q)$(H)/series.sh $(OUT)/series

series-check: setup
	$(Q)$(H)/series-check.sh $(OUT)/series-check

bench: setup
	$(Q)BENCH_ROWS="$(BENCH_ROWS)" $(H)/bench.sh $(OUT)/bench

bench-publish:
	$(Q)$(H)/bench-publish.sh $(OUT)/bench

ROWS ?= nr_ops_relevant=1 fgraph_1_user fprobe_entry fprobe_entry_exit
trace-call: setup
	$(Q)$(H)/trace-call.sh $(OUT)/trace-call $(ROWS)

check: prepare
	$(Q)$(H)/check.sh $(SRC)

docs: prepare
	$(Q)$(H)/docs.sh $(SRC) $(OUT)/build-docs

clean:
	rm -rf $(OUT)
