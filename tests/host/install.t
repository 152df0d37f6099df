#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install.t: `make install DESTDIR=...` puts every module Kbuild makes
# (make -s -C svcsock-mod list-modules) under DESTDIR/lib/modules/KVER/
# extra and every tool and man page under DESTDIR/PREFIX, and nothing
# outside DESTDIR; it loads nothing (lsmod before and after).  The check
# of what landed is shown to fail once: an install told to leave one tool
# out (TOOLS=) is found incomplete.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 5

# installed ROOT: nothing missing under ROOT; prints what is
installed() {
	local root=$1 missing="" m t
	for m in $(mod_list list-modules); do
		[ -f "$root/lib/modules/$krel/extra/svcsock_$m.ko" ] || missing+=" svcsock_$m.ko"
	done
	for t in rpcload rpcsvc-ref rr-server rr-client; do
		[ -x "$root/usr/local/bin/$t" ] || missing+=" bin/$t"
	done
	for t in rpcload.1 rpcsvc-ref.1; do
		[ -f "$root/usr/local/share/man/man1/$t" ] || missing+=" man1/$t"
	done
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
}

# From the cache's stock build (scripts/build-modules stock, up to date
# under make check: the image was made from it), so that nothing is
# compiled here; the install itself is make install's own.
moddir=$(scripts/build-modules stock 2>"$tmp/build.log") ||
	{ diag <"$tmp/build.log"; not_ok "scripts/build-modules stock"; done_testing; exit 1; }
mods0=$(lsmod 2>/dev/null | grep -c '^svcsock_')
sys0=$(find "/lib/modules/$krel/extra" -name 'svcsock_*' 2>/dev/null | wc -l)
MAKEFLAGS='' make -s install MODDIR="$moddir" DESTDIR="$tmp/root" >"$tmp/log" 2>&1
st=$?
grep -v "Skipping depmod" "$tmp/log" | diag
check "make install DESTDIR=... succeeds" test "$st" = 0
check "every module, tool and man page is under DESTDIR" installed "$tmp/root"
check "nothing was installed outside DESTDIR" \
	test "$(find "/lib/modules/$krel/extra" -name 'svcsock_*' 2>/dev/null | wc -l)" = "$sys0"
check "nothing was loaded" test "$(lsmod 2>/dev/null | grep -c '^svcsock_')" = "$mods0"

# the check can fail: one tool left out
MAKEFLAGS='' make -s install MODDIR="$moddir" DESTDIR="$tmp/short" \
	TOOLS="userland-client/build/rpcload refserver/build/rpcsvc-ref bench/build/rr-server" \
	>/dev/null 2>&1
if why=$(installed "$tmp/short"); then
	not_ok "an install without rr-client is found incomplete" "the check passed it"
else
	ok "an install without rr-client is found incomplete ($why)"
fi
done_testing
