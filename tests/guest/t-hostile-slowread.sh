# SPDX-License-Identifier: GPL-2.0
# t-hostile-slowread BUILD: clients that send ECHO calls of 64 KiB back to
# back and never read a reply (issue 11).  A thread that blocks sending
# a reply to such a client is lost to everyone else; the server must stop
# reading a socket whose send buffer has no room for the reply
# (wspace_wait) and close one whose reply cannot be sent within its bound
# (slow_reader_closed), so that with 4 threads and 8 such clients a good
# client is still served at half its rate or better, with no timeout;
# rmmod returns within 5 s and memory comes back.
# Knobs: SLOWREAD_CONNS (8), SLOWREAD_SIZE (65536), SLOWREAD_MS (attack
# bound, 15000), and those of lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
: "${SLOWREAD_CONNS:=8}"
: "${SLOWREAD_SIZE:=65536}"
: "${SLOWREAD_MS:=15000}"

attack_before() {
	wait0=$(counter wspace_wait)
	slow0=$(counter slow_reader_closed)
}

# Either defence may be the one that acted; both counters must exist.
attack_judge() {
	diag "send_errors $(counter send_errors)," \
		"wspace_wait ${wait0:-none} -> $(counter_or_none wspace_wait)," \
		"slow_reader_closed ${slow0:-none} -> $(counter_or_none slow_reader_closed)"
	w=$(counter wspace_wait)
	s=$(counter slow_reader_closed)
	miss=
	[ -n "$w" ] || miss="$miss wspace_wait"
	[ -n "$s" ] || miss="$miss slow_reader_closed"
	if [ -n "$miss" ]; then
		not_ok "the slow readers: wspace_wait or slow_reader_closed counted" \
			"no counter$miss in $(svc_proc)"
	elif [ $((w - ${wait0:-0} + s - ${slow0:-0})) -gt 0 ]; then
		ok "the slow readers: wspace_wait or slow_reader_closed counted (wspace_wait +$((w - ${wait0:-0})), slow_reader_closed +$((s - ${slow0:-0})))"
	else
		not_ok "the slow readers: wspace_wait or slow_reader_closed counted" "neither moved"
	fi
}

# With 4 threads; 1 s for their calls to fill the server's send buffers;
# in the second attack, one the server closes is replaced (--reconnect),
# so the attack lasts until the module is gone.
ATTACK_THREADS=4 ATTACK_SETTLE_S=1 ATTACK_SOCKETS_S=10
ATTACK_WHO="the slow readers" ATTACK_WHAT="the slow readers"
ATTACK_GOOD="a good client is served beside $SLOWREAD_CONNS clients that never read"
ATTACK_ENDS="the slow readers end once the module is gone"
hostile_attack_test "$1" slowread --conns "$SLOWREAD_CONNS" \
	--size "$SLOWREAD_SIZE" --duration-ms "$SLOWREAD_MS"
exit "$T_FAILED"
