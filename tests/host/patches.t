#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make patches (scripts/make-patches) writes the module as a series for
# linux-source-6.1, the shared server and then one patch per build, and
# each patch passes the tree's own checkpatch.pl --strict, which under
# net/ also holds the networking comment style.  The check bites: the same
# series made from a copy whose source has one comment in the general
# style fails on exactly that patch.  (make patches also compiles the tree
# after every patch, minutes of work left out here; the builtin kernel,
# job builtin-bitflag, compiles and boots the whole series.)
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

relay "series: " scripts/make-patches --no-build --out "$tmp/good"
n=$(ls "$tmp"/good/00*.patch 2>/dev/null | wc -l)
builds=$(mod_list builds)
check "a cover letter, the shared server and one patch per build ($builds): $n files" \
	test "$n" -eq $(($(wc -w <<<"$builds") + 2))

# A copy with one block comment in the general style, in xprt_bitflag.c.
mkdir "$tmp/copy"
cp -r scripts kconfig "$tmp/copy/"
mkdir "$tmp/copy/svcsock-mod"
cp svcsock-mod/Kbuild svcsock-mod/Makefile svcsock-mod/list.mk svcsock-mod/*.[ch] \
	"$tmp/copy/svcsock-mod/"
rm -f "$tmp"/copy/svcsock-mod/*.mod.c
git -C "$tmp/copy" init -q
sed -i '0,/^\/\* Has the socket work/s//\/*\n * Has the socket work/' \
	"$tmp/copy/svcsock-mod/xprt_bitflag.c"
"$tmp/copy/scripts/make-patches" --no-build --out "$tmp/bad" >"$tmp/bad.tap" 2>&1
st=$?
if [ $st -ne 0 ] && [ "$(grep -c '^not ok' "$tmp/bad.tap")" = 1 ] &&
	grep -q '^not ok .*checkpatch --strict: 0003-.*bitflag' "$tmp/bad.tap" &&
	grep -q "networking block comments" "$tmp/bad.tap"; then
	ok "a general-style block comment in xprt_bitflag.c fails checkpatch on the bitflag patch alone"
else
	not_ok "a general-style block comment in xprt_bitflag.c fails checkpatch on the bitflag patch alone" "exit $st"
	diag <"$tmp/bad.tap"
fi
done_testing
