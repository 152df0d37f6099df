# SPDX-License-Identifier: GPL-2.0
# svcsock: the 2002 svc_sock RPC transport, in several locking builds,
# measured side by side in a QEMU guest.
#
#   make compare          the main job: boot the guest, load each server,
#                         compare the builds (bench/, results/)
#   make check            the whole test suite (tests/); T=PATTERN for some
#   make patches          the module as a patch series for linux-source-6.1
#                         (build/patches), checked and built patch by patch
#
# Both install what they need from Debian first (scripts/install-deps).

T ?=
SHELL := /bin/bash

# The guest kernels the selected tests boot (tests/run --needs: stock,
# kcsan, kasan, builtin): make check builds their images first.  The debug
# kernels, and the builtin one, take minutes to build the first time.
needs := $(shell tests/run --needs $(T))

.PHONY: all help deps modules userland image image-stock image-kcsan \
	image-kasan image-builtin debug-kernels debug-images check compare \
	patches clean soak soak-kasan hostile-rates nfs-matrix install

# make install: the modules into $(DESTDIR)/lib/modules/KVER/extra (the
# kernel's modules_install, unsigned; it runs depmod where the kernel
# tree has a System.map, which Debian's headers do not), the tools
# into $(DESTDIR)$(PREFIX)/bin, their man pages into .../share/man/man1.
# Installing loads nothing; never modprobe on a machine whose kernel you
# care about: the guest is where the modules run (initramfs/vm-run).
PREFIX ?= /usr/local
DESTDIR ?=
TOOLS := userland-client/build/rpcload refserver/build/rpcsvc-ref \
	bench/build/rr-server bench/build/rr-client
MANPAGES := docs/man/rpcload.1 docs/man/rpcsvc-ref.1

all: modules userland

help:
	@echo 'make compare       boot the guest, load each server, compare the builds'
	@echo '                   (results/compare.{json,md,png}, torture.{json,md}; QUICK=1: ~3 min)'
	@echo 'make check         the whole test suite, TAP, ending "N passed, N failed";'
	@echo '                   T=PATTERN for the tests whose name holds it (tests/run --list)'
	@echo 'make patches       the module as a patch series for linux-source-6.1 (build/patches)'
	@echo 'make all           the modules (svcsock-mod) and the user-space programs'
	@echo 'make userland      the user-space programs: rpcload (userland-client, with'
	@echo '                   the conformance suite), rpcsvc-ref (refserver), bench, tests/tools'
	@echo 'make image         the stock guest image; image-kcsan, image-kasan, image-builtin'
	@echo 'make debug-kernels the KCSAN, KASAN and builtin kernels from linux-source-6.1'
	@echo 'make deps          install what the project needs from Debian (scripts/install-deps)'
	@echo 'make clean         remove build products from the tree (the cache stays)'
	@echo 'make install       the modules and the tools (DESTDIR=, PREFIX=/usr/local);'
	@echo '                   loads nothing'
	@echo 'make soak          5 minutes per build: 10,000 connections held, 350/s'
	@echo '                   cycled, load on 64, churn, attacks (bench/soak, ~32 min)'
	@echo 'make soak-kasan    1 minute per build on the KASAN kernel, lower rates'
	@echo 'make hostile-rates the hostile tests, good client rate judged, every build (~8 min)'
	@echo 'make nfs-matrix    the 64 MiB NFS export read by the kernel client, every build and kernel'

deps:
	@scripts/install-deps

modules: deps
	$(MAKE) -C svcsock-mod

# MODDIR: the module directory to install from (default svcsock-mod, built
# first; tests/host/install.t points it at the cache's stock build, which
# make check has already made, so that the test compiles nothing)
MODDIR ?= svcsock-mod
install: userland
	$(MAKE) -C $(MODDIR) install INSTALL_MOD_PATH=$(DESTDIR) \
		KVER=$$(scripts/kernel-version)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 $(MANPAGES) $(DESTDIR)$(PREFIX)/share/man/man1/

# The programs; each Makefile brings up to date what it links first
# (protocol/: rpcgen's output for svcsock.x; conformance/; libsvcrpc/).
userland: deps
	$(MAKE) -C userland-client
	$(MAKE) -C refserver
	$(MAKE) -C bench
	$(MAKE) -C tests/tools

image: deps userland
	scripts/build-image stock

debug-kernels: deps
	scripts/build-debug-kernel all

debug-images: debug-kernels userland
	scripts/build-image kcsan
	scripts/build-image kasan

image-stock: image

image-kcsan image-kasan image-builtin: image-%: deps userland
	scripts/build-debug-kernel $*
	scripts/build-image $*

check: deps userland $(addprefix image-,$(needs))
	tests/run $(T)

patches: deps
	scripts/make-patches

# The RPC comparison, then the hand-over torture test per build beside it
# (results/compare.md, results/torture.md); fails if either does.
compare: deps userland image
	bench/compare; s=$$?; bench/torture || s=1; exit $$s

# The soak (issue 25): minutes of load, churn and attacks per build beside
# 10,000 held connections, one boot; results/soak.{json,md}, and for the
# KASAN kernel (one minute per build) results/soak-kasan/.  Benchmarks,
# not part of check.
soak: deps userland image
	bench/soak

soak-kasan: deps userland image-kasan
	RESULTS=$${RESULTS:-$(CURDIR)/results/soak-kasan} bench/soak --kernel kasan --duration 60 \
		--mem 3072 --cycle-rate 100 --load-rate 300

# The hostile tests with the good client's rate judged, every build, one
# boot with nothing beside it (issue 25); results/hostile-rates.{json,md}.
# A benchmark: make check judges rates on one build only.
hostile-rates: deps userland image
	bench/hostile-rates

# The whole NFS export (64 MiB) read through the guest kernel's NFS client,
# every build, kernel and transport (issue 26); results/nfs-matrix.{json,md}.
nfs-matrix: deps userland image debug-images
	bench/nfs-matrix

clean:
	$(MAKE) -C svcsock-mod clean
	$(MAKE) -C protocol clean
	$(MAKE) -C libsvcrpc clean
	$(MAKE) -C conformance clean
	$(MAKE) -C userland-client clean
	$(MAKE) -C refserver clean
	$(MAKE) -C bench clean
	$(MAKE) -C tests/tools clean
