# svcsock: the 2002 svc_sock RPC transport, in several locking builds,
# measured side by side in a QEMU guest.
#
#   make compare          the main job: boot the guest, load each server,
#                         compare the builds (bench/, results/)
#   make check            the whole test suite (tests/); T=PATTERN for some
#
# Both install what they need from Debian first (scripts/install-deps).

T ?=
SHELL := /bin/bash

# The debug kernels take minutes to build the first time: build them when
# the selected tests need them (all of them do, without T).
debug_needed := $(if $(T),$(filter kcsan kasan racy,$(foreach p,$(T),$(if $(findstring kcsan,$(p)),kcsan)$(if $(findstring kasan,$(p)),kasan)$(if $(findstring racy,$(p)),racy))),all)

.PHONY: all deps modules userland image debug-kernels debug-images check compare clean

all: modules userland

deps:
	@scripts/install-deps

modules: deps
	$(MAKE) -C svcsock-mod

userland: deps
	$(MAKE) -C userland-client
	$(MAKE) -C bench
	$(MAKE) -C tests/tools

image: deps userland
	scripts/build-image stock

debug-kernels: deps
	scripts/build-debug-kernel all

debug-images: debug-kernels userland
	scripts/build-image kcsan
	scripts/build-image kasan

check: deps userland image $(if $(debug_needed),debug-images)
	tests/run $(T)

compare: deps userland image
	bench/compare

clean:
	$(MAKE) -C svcsock-mod clean
	$(MAKE) -C userland-client clean
	$(MAKE) -C bench clean
	$(MAKE) -C tests/tools clean
