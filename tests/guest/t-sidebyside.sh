# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-sidebyside BUILD: two builds serve side by side, each on its own port
# (rpcbind=0: they would fight over one registration), each with its own
# /proc/net/svcsock_BUILD counting its own calls and its own threads
# (svc_BUILD/N); each file goes with its module.
# The other build is lock, or bitflag beside lock.  What make compare
# needs to measure builds in one boot, paired (issue 24).
. "$(dirname "$0")/lib.sh"
b=$1
o=lock
[ "$b" = lock ] && o=bitflag

# nulls FILE: calls_null in /proc/net/FILE
nulls() { awk '$1 == "calls_null" { print $2 }' "/proc/net/$1"; }
threads_named() { grep -l "^svc_$1/" /proc/[0-9]*/comm 2>/dev/null | wc -l; }

load_module "$b" rpcbind=0 threads=2 || { not_ok "module loads"; exit 1; }
load_module "$o" rpcbind=0 threads=3 port=20050 ||
	{ not_ok "a second build ($o) loads beside it"; unload_module "$b"; exit 1; }
ok "a second build ($o) loads beside it, on port 20050"
check "/proc/net/svcsock_$b and /proc/net/svcsock_$o both there" \
	test -r "/proc/net/svcsock_$b" -a -r "/proc/net/svcsock_$o"
nb=$(nulls "svcsock_$b") no=$(nulls "svcsock_$o")
check "NULL to $b on 20049" rpcload null --port 20049 --proto tcp
check "NULL to $o on 20050, twice" sh -c \
	"rpcload null --port 20050 --proto tcp && rpcload null --port 20050 --proto udp"
check "each counts its own calls ($b: $nb -> $(nulls "svcsock_$b"), $o: $no -> $(nulls "svcsock_$o"))" \
	test "$(nulls "svcsock_$b")" = $((nb + 1)) -a "$(nulls "svcsock_$o")" = $((no + 2))
check "each has its own threads (svc_$b: $(threads_named "$b"), svc_$o: $(threads_named "$o"))" \
	test "$(threads_named "$b")" = 2 -a "$(threads_named "$o")" = 3
unload_module "$b"
check "/proc/net/svcsock_$b went with $b, svcsock_$o stays" \
	test ! -e "/proc/net/svcsock_$b" -a -r "/proc/net/svcsock_$o"
check "$o still serves once $b is gone" rpcload null --port 20050 --proto tcp
unload_module "$o"
check "nothing left in /proc/net" sh -c "! ls /proc/net | grep -q svcsock"

# Every module of the image at once (each build and the A/A twin), as
# make compare's paired cells load them: each needs room for its per-CPU
# counters, and a module's static per-CPU data shares one small reserved
# chunk with every other module's, which six builds once exhausted
# ("percpu: allocation failed", the sixth refused with ENOMEM).
all=$(for ko in /lib/modules/"$(uname -r)"/extra/svcsock_*.ko; do
	m=${ko##*/svcsock_}; m=${m%.ko}
	case "$m" in bitflag_aa) echo "$m" ;; *_*) ;; *) echo "$m" ;; esac
done)
p=20101 loaded="" failed=""
for m in $all; do
	if err=$(modprobe "svcsock_$m" rpcbind=0 threads=1 port="$p" 2>&1); then
		loaded="$loaded $m"
	else
		failed="$failed $m ($err)"
	fi
	p=$((p + 1))
done
n=$(echo $all | wc -w)
if [ -z "$failed" ] && [ "$n" -ge 6 ]; then
	ok "all $n modules load at once:$loaded"
else
	not_ok "all $n modules load at once" "refused:${failed:- none} (at least 6 expected)"
fi
p=20101 served=0
for m in $all; do
	rpcload null --port "$p" --proto tcp >/dev/null 2>&1 && served=$((served + 1))
	p=$((p + 1))
done
check "each of them answers on its own port ($served of $n)" test "$served" = "$n"
for m in $loaded; do rmmod "svcsock_$m"; done
check "nothing left in /proc/net after them" sh -c "! ls /proc/net | grep -q svcsock"
exit "$T_FAILED"
