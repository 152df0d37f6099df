# SPDX-License-Identifier: GPL-2.0
# t-hostile-zerofrag BUILD: connections that send nothing but zero-length
# non-final record fragments (00 00 00 00) as fast as they can (issue 11).
# Each would keep a thread reading forever; the server must close a
# record of more than 1024 fragments (frags_too_many) and give the socket
# back after each fragment's worth of work (recv_yield), so that with 2
# threads and 2 flooders a good client is still served at half its rate
# or better, the flooders are closed, rmmod returns within 5 s and memory
# comes back.
# Knobs: ZEROFRAG_CONNS (2), ZEROFRAG_MS (attack bound, 15000), and those
# of lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
: "${ZEROFRAG_CONNS:=2}"
: "${ZEROFRAG_MS:=15000}"

# the counters the checks below compare with their values at loading
ATTACK_COUNTERS="frags_too_many recv_yield"
attack_judge() {
	closed=$(json_field "$1" closed)
	conns=$(json_field "$1" connected)
	if [ -n "$closed" ] && [ "$closed" = "$conns" ]; then
		ok "the server closed every flooder ($closed of $conns, after $(json_field "$1" closed_first_ms)..$(json_field "$1" closed_last_ms) ms)"
	else
		not_ok "the server closed every flooder" "${closed:-?} of ${conns:-?} closed; $(json_field "$1" fragments_sent) fragments sent"
	fi
	check_counter_moved frags_too_many "the flood"
	check_counter_moved recv_yield "the flood"
}

# With 2 threads; in the second flood, a flooder the server closes is
# replaced (--reconnect), so the flood lasts until the module is gone.
ATTACK_THREADS=2 ATTACK_SETTLE_S=0.5 ATTACK_SOCKETS_S=5
ATTACK_WHO="the flooder" ATTACK_WHAT="the flood"
ATTACK_GOOD="a good client is served beside $ZEROFRAG_CONNS zero-fragment flooders"
ATTACK_ENDS="the flooder ends once the module is gone"
hostile_attack_test "$1" zerofrag --conns "$ZEROFRAG_CONNS" \
	--duration-ms "$ZEROFRAG_MS"
exit "$T_FAILED"
