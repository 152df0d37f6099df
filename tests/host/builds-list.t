#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# builds-list.t: svcsock-mod/Kbuild is the one list of builds.  A build
# added as docs/adding-a-build.md says, by Kbuild's lines alone, is picked
# up by everything that needs the builds: svcsock-mod's `make builds`
# (list.mk), tests/run's jobs (make check), bench/compare's plan (make
# compare) and scripts/make-patches' series (make patches), and the
# lines are enough for Kbuild to build its module.  All in a scratch copy
# of the tree, with a build "scratch" that is bitflag's strategy under
# another name.  Only that module is compiled (about 10 s) and nothing is
# booted: the series is made against a stub of linux-source-6.1 (the
# three files it changes, with the lines it anchors on), unchecked and
# unbuilt; tests/host/patches.t checks the real one.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The copy: the module's sources and what reads the list.
c=$tmp/tree
mkdir -p "$c/svcsock-mod" "$c/tests" "$c/bench" "$c/scripts"
cp svcsock-mod/Kbuild svcsock-mod/Makefile svcsock-mod/list.mk svcsock-mod/*.[ch] "$c/svcsock-mod/"
rm -f "$c"/svcsock-mod/*.mod.c
cp tests/run tests/jobs.sh "$c/tests/"
cp -r bench/compare bench/comparelib bench/guest "$c/bench/"
cp scripts/make-patches "$c/scripts/"

before=$(mod_list builds "$c/svcsock-mod")
twins=$(mod_list twins "$c/svcsock-mod")
check "the tree's builds: $before" test -n "$before"

# The documented way: the build's Kbuild lines, each beside lwq's (its
# strategy bitflag's, so no source file is added); the list is the first
# svcsock-builds line (the second is the mutant's).
sed -i -e '0,/^svcsock-builds := /s/^svcsock-builds := .*/& scratch/' \
	-e '/^#   svcsock_lwq /a #   svcsock_scratch            bitflag   SVCSOCK_BITFLAG' \
	-e '/^svcsock-switches-lwq /a svcsock-strategy-scratch          := bitflag' \
	-e '/^svcsock-switches-lwq /a svcsock-switches-scratch          := SVCSOCK_BITFLAG' \
	-e '/^svcsock-kconfig-lwq /a svcsock-kconfig-scratch           := CONFIG_SVCSOCK_SCRATCH' \
	-e '/^svcsock-own-lwq /a svcsock-own-scratch := svc_wait' \
	"$c/svcsock-mod/Kbuild"
check "Kbuild has scratch's six lines (row, list, strategy, switches, kconfig, own)" \
	test "$(grep -c scratch "$c/svcsock-mod/Kbuild")" = 6

# svcsock-mod's lists
check "make builds: the tree's, then scratch" \
	test "$(mod_list builds "$c/svcsock-mod")" = "$before scratch"
check "make strategies: scratch=bitflag" \
	grep -qw 'scratch=bitflag' <<<"$(mod_list strategies "$c/svcsock-mod")"
tortures=$(for b in $before scratch; do printf '%s_torture ' "$b"; done)
tortures=${tortures% }
check "make tortures: a torture module for each build, scratch's too" \
	test "$(mod_list tortures "$c/svcsock-mod")" = "$tortures"
check "make list-modules: scratch among the modules, then the twins ($twins) and the torture modules" \
	test "$(mod_list list-modules "$c/svcsock-mod")" = "$before scratch${twins:+ $twins} $tortures"
check "make twins: unchanged, scratch no twin" \
	test "$(mod_list twins "$c/svcsock-mod")" = "$twins"

# Kbuild builds it (this module alone; static-warnings builds them all)
if [ -d "$kdir" ]; then
	make -C "$kdir" M="$c/svcsock-mod" svcsock_scratch.ko >"$tmp/build.log" 2>&1
	st=$?
	check "svcsock_scratch.ko builds against $kdir" test $st -eq 0 -a -f "$c/svcsock-mod/svcsock_scratch.ko"
	[ $st -eq 0 ] || tail -n 20 "$tmp/build.log" | diag
else
	ok "svcsock_scratch.ko builds # SKIP no kernel build tree at $kdir"
fi

# make check: tests/run's jobs, each build on the stock and debug kernels
jobs=$("$c/tests/run" --list 2>&1)
for j in stock-scratch kasan-scratch kcsan-scratch; do
	check "tests/run --list has job $j" grep -qx "$j" <<<"$jobs"
done
check "tests/run --needs stock-scratch: the stock kernel" \
	test "$("$c/tests/run" --needs stock-scratch)" = stock

# make compare: the plan, every build a server (no guest booted)
plan_out=$(python3 "$c/bench/compare" --dry-run 2>&1)
if grep -q ' server=scratch ' <<<"$plan_out"; then
	ok "bench/compare --dry-run: scratch's runs in the plan ($(grep -c ' server=scratch ' <<<"$plan_out"))"
else
	not_ok "bench/compare --dry-run: scratch's runs in the plan"
	head -n 20 <<<"$plan_out" | diag
fi
check "bench/compare --kbuild DIR --dry-run: the same from this tree's compare" \
	grep -q ' server=scratch ' <<<"$(python3 bench/compare --kbuild "$c/svcsock-mod" --dry-run 2>&1)"

# make patches: the builds it adds, then the series itself
check "make-patches --builds: the tree's, then scratch" \
	test "$("$c/scripts/make-patches" --builds)" = "$before scratch"
src=$tmp/cache/src/linux-source-6.1
mkdir -p "$src/net"
echo 'VERSION = 6' >"$src/Makefile"
echo 'source "net/ife/Kconfig"' >"$src/net/Kconfig"
printf 'obj-$(CONFIG_SUNRPC)\t\t+= sunrpc/\n' >"$src/net/Makefile"
printf 'SVGA HANDLING\nM:\tnobody\n' >"$src/MAINTAINERS"
SVCSOCK_CACHE=$tmp/cache "$c/scripts/make-patches" --no-build --no-check --out "$tmp/series" \
	>"$tmp/series.log" 2>&1
st=$?
nb=$(wc -w <<<"$before scratch")
last=$(ls "$tmp"/series/00*-scratch*.patch 2>/dev/null)
check "make-patches (stub source, no check, no build): exit 0" test $st -eq 0
[ $st -eq 0 ] || diag <"$tmp/series.log"
check "a cover letter, the shared server and one patch per build: $((nb + 2)) files" \
	test "$(ls "$tmp"/series/00*.patch 2>/dev/null | wc -l)" -eq $((nb + 2))
check "the last patch (${last##*/}) adds scratch to the Makefile's builds" \
	grep -q "^+svcsock-builds := $before scratch$" "${last:-/dev/null}"
check "the last patch adds scratch's Kconfig option" \
	grep -q '^+config SVCSOCK_SCRATCH$' "${last:-/dev/null}"
check "the cover letter lists scratch" grep -q '^  scratch ' "$tmp"/series/0000-*.patch
done_testing
