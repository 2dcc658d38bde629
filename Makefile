# SPDX-License-Identifier: GPL-2.0
# The checks, one target each: `scripts/test` runs the ones CI runs (`make -k -j2 ci`) and adds up
# their results. Each target runs its command through scripts/step, which names the files the
# check reads (git pathspecs, declared generously) and reports a check whose inputs are those of a
# run that passed on this cache from that run, counted as skipped. `scripts/test NAME...` runs
# some; results and logs are in $FLEXL4_CACHE/results. Checks on lines CI leaves out run the same
# way by hand (e.g. `scripts/test check-6.12 check-6.1 loadtest-6.18 loadtest-7.3`).

# A check's own makes start at level 0, as by hand: kselftest's lib.mk, below level 0, takes its
# OUTPUT from a parent that is not there and writes its programs to /
STEP = env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS scripts/step

# What the series are made of, and what makes a kernel tree of them; the faults' lists
# (patches/*/faults) are inputs of the fault runs only
SERIES = patches drivers include net Documentation tools/testing MAINTAINERS
TREE = scripts/get-sources scripts/apply $(SERIES) :!patches/*/faults

TOOLS = flexl4 hw-firstrun rsspick steer-persist
CI = kunit-7.3 check-7.3 nipa-builds-7.3 psp-test kunit-6.18 check-6.18 \
     loadtest-6.1 loadtest-6.12 loadtest-dkms refresh wiring doccheck step-test faults-anchors \
     $(addprefix tools-,$(TOOLS))

.PHONY: ci list
ci: $(CI)
list:
	@echo $(CI)

# KUnit: the suites of every series the line carries, in one UML kernel
kunit-%:
	@$(STEP) $@ "$(TREE) scripts/kunit scripts/kunit-um.config scripts/debug.config scripts/psp/uml.config" --source $* scripts/kunit $*

# Every commit of every series built (W=1, sparse) and each series checked as it would be sent
check-%:
	@$(STEP) $@ "$(TREE) scripts/check scripts/nipa-light scripts/export scripts/deps" --source $* \
		scripts/check --series "net net-next devlink psp" $*

# NIPA's i386 and clang builds of what each series touches
nipa-builds-%: | check-%
	@$(STEP) $@ "$(TREE) scripts/nipa-builds" --source $* scripts/nipa-builds $*

# The faults planted in the series' new code, which KUnit must catch, in the kernel scripts/kunit
# builds. About 50 minutes on 7.3: run by hand before sending (HACKING); CI checks that each still
# plants in its function
faults-%:
	@$(STEP) $@ "scripts/get-sources scripts/apply $(SERIES) scripts/faults scripts/kunit scripts/kunit-um.config scripts/debug.config scripts/psp/uml.config" \
		--source $* scripts/faults $*
faults-anchors: | kunit-7.3
	@$(STEP) $@ "scripts/get-sources scripts/apply $(SERIES) scripts/faults scripts/kunit-um.config scripts/debug.config scripts/psp/uml.config" \
		--source 7.3 scripts/faults --anchors 7.3

# The PSP series' selftests, in the 7.3 KUnit kernel (psp's Toeplitz suite runs in kunit-7.3)
psp-test: | kunit-7.3
	@$(STEP) $@ "$(TREE) scripts/psp-test scripts/psp scripts/kunit-um.config scripts/debug.config" --source 7.3 scripts/psp-test

# The out-of-tree module on Debian's newest release of the line: built (also by the real dkms),
# its refusals, and loaded in QEMU beside the image's mlx5_ib
loadtest-%:
	@$(STEP) $@ "$(TREE) dist tools/VERSION tools/flexl4/flexl4-loaded" \
		dist/loadtest $$(bash -c '. scripts/lib.sh && loadtest_release $*' | grep . || echo lookup-failed)

# Every series' export and each backport line's derivation; the init and teardown wiring, read
# from the branches refresh leaves applied
LINES = 7.3 6.12 6.18 6.1
refresh:
	@$(STEP) $@ "$(TREE) scripts/refresh scripts/export" --source "$(LINES)" \
		scripts/refresh --check $(LINES)
wiring: | refresh
	@$(STEP) $@ "$(TREE) scripts/wiring" --source "$(LINES)" scripts/wiring --self-test $(LINES)

# kernel-doc, the rst page, the operator guide's messages, the hardware selftest's skips
doccheck:
	@$(STEP) $@ "$(TREE) scripts/doccheck docs dist/README.md README.md HACKING.md" --source 7.3 scripts/doccheck 7.3

# A pass is reused only for the same inputs: each declared file changes a check's key
step-test:
	@$(STEP) $@ "Makefile scripts/step scripts/step-test" scripts/step-test

# The DKMS tree built by the real dkms for a second release of each Debian line, no boot: the
# oldest 6.1 the archive still has, and the pinned 6.12 (the load tests boot the newest of each)
loadtest-dkms:
	@$(STEP) $@ "$(TREE) dist tools/VERSION tools/flexl4/flexl4-loaded" --source 6.12 \
		dist/loadtest --dkms-only $$(bash -c '. scripts/lib.sh && oldest_release 6.1' | grep . || \
			echo lookup-failed) 6.12

# Each operator tool's own tests (rsspick compiles the kernel's Toeplitz solver)
tools-%:
	@$(STEP) $@ "tools :!tools/testing scripts/deps net/core/toeplitz.c include" \
		make -s -C tools/$* test
