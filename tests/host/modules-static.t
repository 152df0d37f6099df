#!/bin/bash
# Both locking builds (and the deliberately broken ones) compile against
# Debian's kernel headers with no warning under W=1, and sparse (C=2, every
# file) has nothing to say.  Built in a scratch copy, so the tree's own
# build products do not hide a recompile.
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r svcsock-mod "$work/"
make -C "$work/svcsock-mod" clean KDIR="$kdir" >/dev/null 2>&1

make -C "$work/svcsock-mod" KDIR="$kdir" W=1 SVCSOCK_BUGGY=1 >"$work/w1.log" 2>&1
st=$?
check "modules build (W=1)" test $st -eq 0
n=$(ls "$work"/svcsock-mod/*.ko 2>/dev/null | wc -l)
check "seven modules built: lock, bitflag, bitlock and four test variants ($n)" test "$n" -eq 7
if grep -E 'warning:|error:' "$work/w1.log" >"$work/w1.warn"; then
	not_ok "no compiler warning with W=1"; diag <"$work/w1.warn"
else
	ok "no compiler warning with W=1"
fi

make -C "$work/svcsock-mod" KDIR="$kdir" C=2 SVCSOCK_BUGGY=1 >"$work/c2.log" 2>&1
checked=$(grep -c '^ *CHECK ' "$work/c2.log")
check "sparse ran on every object ($checked)" test "$checked" -ge 30
if grep -E 'warning:|error:' "$work/c2.log" >"$work/c2.warn"; then
	not_ok "sparse clean"; diag <"$work/c2.warn"
else
	ok "sparse clean"
fi
