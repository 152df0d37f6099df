# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-hostile-slowlive BUILD: clients that pipeline ECHO calls of 64 KiB and
# read their replies steadily but slowly (SLOWLIVE_RATE bytes/s each),
# announcing a small MSS so that the server's send buffer stays small
# (issue 25).  Every send on such a connection makes some progress, so a
# deadline that only counts stalled sends never fires: a server thread
# that waits in sendmsg() for room is held for as long as the peer likes,
# and the others queue behind it.  The server must never wait for a peer:
# what the socket does not take at once is left to the send worker
# (send_parked), the connection is not read while it holds such a reply,
# and so with 4 threads and 4 such clients a good client keeps half its
# rate alone; rmmod returns within 5 s and memory comes back.
# Knobs: SLOWLIVE_CONNS (4), SLOWLIVE_SIZE (65536), SLOWLIVE_RATE (65536),
# SLOWLIVE_MSS (536), SLOWLIVE_MS (attack bound, 15000), and those of
# lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
: "${SLOWLIVE_CONNS:=4}"
: "${SLOWLIVE_SIZE:=65536}"
: "${SLOWLIVE_RATE:=65536}"
: "${SLOWLIVE_MSS:=536}"
: "${SLOWLIVE_MS:=15000}"

# the counters the checks below compare with their values at loading
ATTACK_COUNTERS=send_parked
# The attack is live: its replies are being read, at the rate asked.
attack_live() {
	check_counter_moved send_parked \
		"replies the slow readers' sockets did not take at once"
}

attack_judge() {
	read_bytes=$(json_field "$1" bytes_read)
	if [ "${read_bytes:-0}" -gt 0 ]; then
		ok "the slow readers read replies (${read_bytes} bytes)"
	else
		not_ok "the slow readers read replies" "bytes_read ${read_bytes:-none}"
	fi
	diag "send_errors $(counter send_errors), slow_reader_closed" \
		"$(counter_or_none slow_reader_closed), wspace_wait" \
		"$(counter_or_none wspace_wait), $(counter_change send_parked)"
}

# With 4 threads; 1 s for their calls and replies to fill the pipes; in
# the second attack, a connection the server closes is replaced
# (--reconnect), so the attack lasts until the module is gone.
ATTACK_THREADS=4 ATTACK_SETTLE_S=1 ATTACK_SOCKETS_S=10
ATTACK_WHO="the slow readers" ATTACK_WHAT="the slow readers"
ATTACK_GOOD="a good client is served beside $SLOWLIVE_CONNS slow but live readers"
ATTACK_ENDS="the slow readers end once the module is gone"
hostile_attack_test "$1" slowlive --conns "$SLOWLIVE_CONNS" \
	--size "$SLOWLIVE_SIZE" --read-rate "$SLOWLIVE_RATE" \
	--mss "$SLOWLIVE_MSS" --duration-ms "$SLOWLIVE_MS"
exit "$T_FAILED"
