# SPDX-License-Identifier: GPL-2.0
# t-torture BUILD: the hand-over torture test (svcsock-mod/svc_torture.c):
# the build's own enqueue, dequeue and received code on synthetic
# sockets, no network, producers in kthreads and in softirq (an hrtimer),
# consumed by the service's threads.  Events: DATA on synthetic UDP
# sockets, CONN on a synthetic listener (each accept makes a connection
# that is not established, so the build closes and deletes it: a CLOSE
# event).  Every event must be handled once: none lost (each socket ends
# with a batch of two, which a lost wakeup strands for certain), no socket
# read by two threads at once, every connection deleted and freed.
# Knobs: TORTURE_S (seconds, 2), TORTURE_THREADS (4), TORTURE_SOCKETS (4).
. "$(dirname "$0")/lib.sh"
b=$1
: "${TORTURE_S:=2}"
: "${TORTURE_THREADS:=4}"
: "${TORTURE_SOCKETS:=4}"
P=/sys/module/svcsock_$b/parameters

# field NAME: NAME=VALUE of the report
field() { tr ' ' '\n' <$P/torture_report | sed -n "s/^$1=//p"; }

load_module "$b" threads="$TORTURE_THREADS" torture_sockets="$TORTURE_SOCKETS" ||
	{ not_ok "module loads"; exit 1; }
check "a ${TORTURE_S} s torture run completes" sh -c "echo $TORTURE_S >$P/torture"
diag "$(cat $P/torture_report)"
h=$(field handovers)
check "events were handed over (${h:-none})" test "${h:-0}" -gt 100
check "no event lost ($(field lost) left after the drain)" test "$(field lost)" = 0
c=$(field conns)
check "connections were made for CONN events and accepted (${c:-none})" test "${c:-0}" -gt 0
check "every one was closed, deleted and freed (closes $(field closes) = conns $c)" \
	test "$(field closes)" = "$c"
check "no socket had two owners ($(field double_owner))" test "$(field double_owner)" = 0
check "no event handled twice ($(field overrun))" test "$(field overrun)" = 0
check "the run reports ok" test "$(field result)" = ok
check "the service still answers after the run" \
	rpcload null --port $PORT --proto udp --timeout-ms 5000
unload_module "$b"
