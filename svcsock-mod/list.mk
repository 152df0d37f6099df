# SPDX-License-Identifier: GPL-2.0
# list.mk: Kbuild's lists, printed; needs no kernel tree.  Read after
# Kbuild (svcsock-mod/Makefile does it for `make -s builds` and the
# others; scripts/make-patches for the in-tree Makefile it writes), so
# that a list is the very variable Kbuild builds from, not a copy of it.
# Each prints one line, its words separated by spaces:
#
#   builds        the locking builds, in the lineage's order
#   shared        the objects every build links (svcsock-shared), its
#                 entry aside
#   strategies    BUILD=STRATEGY for each build (xprt_STRATEGY.c)
#   own           BUILD=OBJ[,OBJ...] for each build: the objects it adds
#                 to the shared ones (svcsock-own-BUILD)
#   twins         the A/A twins (modules out of tree only; no build)
#   tortures      the torture modules, BUILD_torture for each build (out
#                 of tree only; no build)
#   list-modules  every module Kbuild makes: out of tree (KBUILD_EXTMOD
#                 set) the builds, the twins and the torture modules, in
#                 a kernel tree the builds

.PHONY: builds shared strategies own twins tortures list-modules
svcsock-list-comma := ,
svcsock-list-space := $(subst ,, )
# $(1): build; its own objects, separated by commas
svcsock-list-own = $(subst $(svcsock-list-space),$(svcsock-list-comma),$(strip $(svcsock-own-$(1))))

builds:
	@echo $(svcsock-builds)
shared:
	@echo $(svcsock-shared)
strategies:
	@echo $(foreach b,$(svcsock-builds),$(b)=$(svcsock-strategy-$(b)))
own:
	@echo $(foreach b,$(svcsock-builds),$(b)=$(call svcsock-list-own,$(b)))
twins:
	@echo $(svcsock-twins)
tortures:
	@echo $(svcsock-tortures)
list-modules:
	@echo $(svcsock-modules)
