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

# the counters the checks below compare with their values at loading
ATTACK_COUNTERS="wspace_wait slow_reader_closed"
attack_judge() {
	diag "send_errors $(counter send_errors)"
	check_any_counter_moved "the slow readers" wspace_wait slow_reader_closed
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
