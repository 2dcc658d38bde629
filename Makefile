# SPDX-License-Identifier: GPL-2.0
# The checks, one target each: `scripts/test` runs the ones CI runs (`make -k -jNPROC ci`) and adds
# up their results; `scripts/test NAME...` runs some (checks on lines CI leaves out too, e.g.
# check-6.12, loadtest-7.3). Each runs through scripts/step, keyed on what it consumes (SERIES@LINE:
# the trees of that series' commits on the line; @LINE: of every series it carries; .mbox: their
# mails; other words: git pathspecs), and reuses a pass of the same key. '+': every check joins
# the run's pool of jobs (make's jobserver). A check's own makes start at level 0, as by hand:
# kselftest's lib.mk, below level 0, takes its OUTPUT from a parent that is not there.
STEP = +env -u MAKELEVEL -u MFLAGS scripts/step

KUNIT = scripts/kunit-um.config scripts/debug.config scripts/psp/uml.config
DIST = dist tools/VERSION tools/flexl4/flexl4-loaded
DIST_PATCHES = patches/net-next/series patches/net-next/*.patch
TOOLS = flexl4 hw-firstrun rsspick steer-persist
CI = kunit-7.3 psp-test faults-net-next faults-net faults-devlink faults-psp check-7.3 patches-7.3 \
     nipa-builds-7.3 kunit-6.18 check-6.18 patches-6.18 loadtest-6.1 loadtest-6.12 loadtest-dkms \
     refresh wiring doccheck step-test $(addprefix tools-,$(TOOLS))
# The checks of the 7.3 KUnit kernel's build run one after another, in one job: they share the
# build, and one waiting for its lock would hold a job idle (make 4.3 orders them no better: it
# goes back to a check that waited for another only after starting every later one)
KUNIT73 = $(wordlist 1,6,$(CI))

.PHONY: ci list kunit-7.3-chain
ci: kunit-7.3-chain $(filter-out $(KUNIT73),$(CI))
kunit-7.3-chain:
	@for c in $(KUNIT73); do $(MAKE) --no-print-directory $$c; done
list:
	@echo $(CI)

# KUnit: the suites of every series the line carries, in one UML kernel
kunit-%:
	@$(STEP) $@ "@$* scripts/kunit $(KUNIT)" --source $* scripts/kunit $*

# The faults planted in a series' code (patches/SERIES/faults), which KUnit must catch, in 7.3's
# KUnit kernel: keyed on the series, the fixes and the feature the others sit on
faults-%:
	@$(STEP) $@ "$*@7.3 net@7.3 net-next@7.3 patches/$*/faults scripts/faults $(KUNIT)" \
		--source 7.3 scripts/faults 7.3 $*

# Every commit of every series built (W=1, sparse); each series' mails checked as they would be sent
check-%:
	@$(STEP) $@ "@$* patches/*/check.config scripts/check scripts/deps" --source $* \
		scripts/check --builds $*
patches-%:
	@$(STEP) $@ "@$*.mbox scripts/check scripts/nipa-light scripts/deps" --source $* \
		scripts/check --patches $*

# NIPA's i386 and clang builds of what each series touches
nipa-builds-%: | check-%
	@$(STEP) $@ "@$* patches/*/check.config scripts/nipa-builds" --source $* scripts/nipa-builds $*

# The PSP series' selftests, in the 7.3 KUnit kernel (psp's Toeplitz suite runs in kunit-7.3)
psp-test:
	@$(STEP) $@ "@7.3 scripts/psp-test scripts/psp $(KUNIT)" --source 7.3 scripts/psp-test

# The out-of-tree module on Debian's newest release of the line: built (also by the real dkms) and
# loaded in QEMU beside the image's mlx5_ib; on 6.1, dist-build's refusals and planted drifts. The
# series is applied to that release, not to the pinned one: its patches are inputs too
loadtest-%:
	@$(STEP) $@ "net-next@$* $(DIST_PATCHES) patches/net-next/$* $(DIST)" --source $* \
		dist/loadtest $$(bash -c '. scripts/lib.sh && loadtest_release $*' | grep . || echo lookup-failed)

# The DKMS tree built by the real dkms for a second release of each Debian line, no boot: the
# oldest 6.1 the archive still has, and the pinned 6.12 (the load tests boot the newest of each)
loadtest-dkms:
	@$(STEP) $@ "net-next@6.1 net-next@6.12 $(DIST_PATCHES) patches/net-next/6.1 \
		patches/net-next/6.12 $(DIST)" --source "6.1 6.12" \
		dist/loadtest --dkms-only $$(bash -c '. scripts/lib.sh && oldest_release 6.1' | grep . || \
			echo lookup-failed) 6.12

# Every series' export and each backport line's derivation, from the repo's files; the init and
# teardown wiring, read from each line's net-next branch
LINES = 7.3 6.12 6.18 6.1
refresh:
	@$(STEP) $@ "patches :!patches/*/cover-letter :!patches/*/faults drivers include net \
		Documentation tools/testing MAINTAINERS scripts/refresh scripts/export scripts/apply" \
		--source "$(LINES)" scripts/refresh --check $(LINES)
wiring:
	@$(STEP) $@ "$(addprefix net-next@,$(LINES)) scripts/wiring" --source "$(LINES)" \
		scripts/wiring --self-test $(LINES)

# kernel-doc, the rst page, the operator guide's messages, the hardware selftest's skips
doccheck:
	@$(STEP) $@ "@7.3 scripts/doccheck docs dist/README.md README.md HACKING.md" --source 7.3 \
		scripts/doccheck 7.3

# What scripts/step reuses and how scripts/test counts it
step-test:
	@$(STEP) $@ "scripts/step-test" scripts/step-test

# Each operator tool's own tests (rsspick compiles the kernel's Toeplitz solver)
tools-%:
	@$(STEP) $@ "tools :!tools/testing scripts/deps net/core/toeplitz.c include" \
		make -s -C tools/$* test
