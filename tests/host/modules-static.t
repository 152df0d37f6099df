#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The locking builds compile against
# Debian's kernel headers with no warning under W=1, and sparse (C=2, every
# file) has nothing to say.  Built in a scratch copy, so the tree's own
# build products do not hide a recompile.
. "$(dirname "$0")/lib.sh"
plan 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r svcsock-mod "$work/"
make -C "$work/svcsock-mod" clean KDIR="$kdir" >/dev/null 2>&1

# One build does both: W=1 for the compiler, C=2 runs sparse on every file.
# Not the A/A twins (svcsock-twins emptied): a twin is its original's
# very source under another module name, so W=1 and sparse have nothing
# more to say of it (scripts/build-modules still builds it for the image).
make -j2 -C "$work/svcsock-mod" KDIR="$kdir" W=1 C=2 svcsock-twins= >"$work/build.log" 2>&1
st=$?
check "modules build (W=1, sparse C=2)" test $st -eq 0
# exactly the modules Kbuild says it makes, but the twins: the builds and
# their torture modules
built=$(cd "$work/svcsock-mod" && ls *.ko 2>/dev/null | sed 's/^svcsock_//; s/\.ko$//' | sort | xargs)
twins=$(mod_list twins "$work/svcsock-mod")
modules=$(mod_list list-modules "$work/svcsock-mod" | awk -v t=" $twins " '
	{ for (i = 1; i <= NF; i++) if (!index(t, " " $i " ")) print $i }' | xargs)
builds=$(mod_list builds "$work/svcsock-mod")
nb=$(echo $modules | wc -w)
check "one module per build and torture module in Kbuild ($modules; not the twins $twins): $built built" \
	test "$built" = "$(printf '%s\n' $modules | sort | xargs)" -a "$(echo $builds | wc -w)" -ge 5
# every object the compiler made (not the .mod.o stubs), and at least
# the shared files and a strategy file for each module
checked=$(grep -c '^ *CHECK ' "$work/build.log")
compiled=$(grep '^ *CC \[M\]' "$work/build.log" | grep -vc '\.mod\.o$')
check "sparse ran on every object ($checked checked, $compiled compiled)" \
	test "$checked" -eq "$compiled" -a "$compiled" -ge $((nb * 7))
if grep -E 'warning:|error:' "$work/build.log" >"$work/build.warn"; then
	not_ok "no warning from the compiler (W=1) or sparse"; diag <"$work/build.warn"
else
	ok "no warning from the compiler (W=1) or sparse"
fi
done_testing
