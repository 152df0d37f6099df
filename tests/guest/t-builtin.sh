# SPDX-License-Identifier: GPL-2.0
# t-builtin BUILD: the build compiled into the kernel (the builtin flavor,
# from the series of make patches) serves from boot, configured from the
# kernel command line: no module was loaded, the thread count is the one
# svcsock_BUILD.threads= gave, and it answers NULL over TCP and UDP.  Other
# kernels (uname -r not *-builtin), which have it only as a module, skip
# this test.
. "$(dirname "$0")/lib.sh"
b=$1
m=svcsock_$b

case $(uname -r) in
*-builtin) ;;
*)
	echo "1..0 # SKIP only the builtin kernel has a build compiled in, not $(uname -r)"
	exit 0 ;;
esac
check "$m is built in: /sys/module/$m, with no initstate" built_in "$b"
check "no svcsock module was loaded" sh -c "! grep -q '^svcsock_' /proc/modules"
want=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^$m\.threads=//p")
have=$(cat "/sys/module/$m/parameters/threads")
diag "command line: $(cat /proc/cmdline)"
if [ -n "$want" ] && [ "$have" = "$want" ] && [ "$(stat threads)" = "$want" ]; then
	ok "$m.threads=$want from the command line: $have threads running"
else
	not_ok "$m.threads from the command line" \
		"asked '${want:-nothing}', parameter $have, running $(stat threads)"
fi
check "it started at boot (its line in the kernel log)" sh -c \
	"dmesg | grep -q '$m: serving program 0x20049001'"
for proto in tcp udp; do
	check "NULL over $proto, with nothing loaded" \
		rpcload null --port $PORT --proto $proto
done
check "calls counted" test "$(stat calls_null)" -ge 2
