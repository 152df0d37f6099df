# SPDX-License-Identifier: GPL-2.0
# t-trace BUILD: the module's tracepoints (svcsock-mod/svc_trace.h) agree
# with its counters.  With events/svcsock_BUILD enabled in tracefs, 3000
# TCP and UDP calls, two rpcload bad cases that fire defences,
# then every connection closed: one svcsock_enqueue event per enqueue
# call, its outcomes "busy" as many as enqueue_busy, its outcomes "woke"
# and the lwq build's svcsock_wake_next events as many as threads_woken,
# one svcsock_accept per tcp_accepted, one svcsock_delete
# per tcp_closed, one svcsock_defence per defence counted; and every
# hand-over ends once: dequeues (a thread takes a socket) plus accepts (a
# new socket's creator owns it) equal give-backs plus deletes.  The trace
# buffer (the default 1408 kB per CPU: resizing it under TCG once hung a
# vCPU for minutes) must not overrun.
. "$(dirname "$0")/lib.sh"
b=$1
T=/sys/kernel/tracing
E=$T/events/svcsock_$b
defences="records_too_large frags_too_many recv_yield slow_reader_closed idle_closed"

[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
load_module "$b" threads=4 || { not_ok "module loads"; exit 1; }
if [ ! -d "$E" ]; then
	not_ok "the module's events are in tracefs ($E)"
	unload_module "$b"
	exit 1
fi
ok "the module's events are in tracefs ($E)"
echo >$T/trace

# snap: the counters this test compares, "name value" a line
snap() {
	for c in enqueue_calls threads_woken enqueue_busy tcp_accepted tcp_closed $defences; do
		echo "$c $(stat $c)"
	done
}
delta() { echo $(($(awk -v n="$1" '$1 == n { print $2 }' /tmp/trace.after) - $(awk -v n="$1" '$1 == n { print $2 }' /tmp/trace.before))); }
snap >/tmp/trace.before
echo 1 >"$E/enable"
# a number of calls, not a duration: the events must fit the buffer
# however fast the guest runs (one second was 7000 enqueues in one run,
# 37000 in another, which overran it)
rpcload load --port $PORT --proto tcp --conns 4 --calls 2000 --duration 60 --no-progress >/dev/null 2>&1
rpcload load --port $PORT --proto udp --conns 2 --calls 1000 --duration 60 --no-progress >/dev/null 2>&1
# two defences: a record too large (closed), 1000 empty fragments (yields)
rpcload bad --port $PORT --case frag-huge-final,frag-long-empty-chain >/tmp/trace.bad 2>&1 ||
	diag "rpcload bad: $(tail -n 3 /tmp/trace.bad)"
# every connection deleted and freed (the counters are bumped where the
# events fire, so once these hold, no event is still to come)
all_closed() {
	[ "$(stat sockets)" = 0 ] && [ "$(stat tcp_closed)" = "$(stat tcp_accepted)" ]
}
check "every connection closed and freed" wait_until 10 all_closed
echo 0 >"$E/enable"
snap >/tmp/trace.after
cat $T/trace >/tmp/trace.txt

# events NAME [PATTERN]: trace lines of event NAME (containing PATTERN)
events() { grep " svcsock_$1: " /tmp/trace.txt | grep -c -- "${2:-}"; }
over=$(cat $T/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }')
check "the trace buffer did not overrun ($over events lost)" test "$over" = 0
for pair in "enqueue:enqueue_calls:" "enqueue:enqueue_busy: busy" \
	"accept:tcp_accepted:" "delete:tcp_closed:"; do
	ev=${pair%%:*} rest=${pair#*:} c=${rest%%:*} pat=${rest#*:}
	n=$(events "$ev" "$pat") want=$(delta "$c")
	check "svcsock_$ev${pat:+ (${pat# })} events equal $c's rise ($n, $want)" test "$n" = "$want"
done
# threads woken: by an enqueue, or (lwq) by a thread leaving work behind
wk=$(events enqueue " woke") wn=$(events wake_next)
check "svcsock_enqueue (woke) and svcsock_wake_next events equal threads_woken's rise ($wk + $wn, $(delta threads_woken))" \
	test $((wk + wn)) = "$(delta threads_woken)"
dn=0
for c in $defences; do dn=$((dn + $(delta "$c"))); done
check "svcsock_defence events equal the defences counted, and some fired ($(events defence), $dn)" \
	test "$(events defence)" = "$dn" -a "$dn" -gt 0
dq=$(events dequeue) ac=$(events accept) rc=$(events received) de=$(events delete)
check "every hand-over ends once: dequeue + accept = received + delete ($dq + $ac, $rc + $de)" \
	test $((dq + ac)) = $((rc + de))
check "the load made events ($(events enqueue) enqueues)" test "$(events enqueue)" -gt 100
# one connection's path, for the log
sk=$(grep -m1 ' svcsock_accept: ' /tmp/trace.txt >/dev/null &&
	grep ' svcsock_received: .*TEMP' /tmp/trace.txt | head -n 1 | sed 's/.*svsk=\([^ ]*\).*/\1/')
[ -n "$sk" ] && { diag "one connection's first events (svsk=$sk):"; grep "svsk=$sk " /tmp/trace.txt | head -n 8 | sed 's/^ *//' | while read -r l; do diag "  $l"; done; }
echo >$T/trace
unload_module "$b"
