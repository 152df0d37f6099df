# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-hostile-trickle BUILD: the send path's promise, both sides of it
# (docs/locking.md, "Slow readers").  A peer that takes less than
# SVC_SEND_MIN_RATE (16 KiB/s) of its replies over a watchdog period
# (SVC_SEND_BOUND, 1 s) is closed; one that takes them faster is not.
# First TRICKLE_CONNS clients pipeline 64 KiB ECHO calls and read their
# replies at TRICKLE_RATE (1 KiB/s, a sixteenth of the bound): each must
# be closed within TRICKLE_CLOSE_MS of the attack's start (the first
# reply parks at once, the first period ends a second later; the rest is
# slack for TCG), and slow_reader_closed must count each.  Then as many
# honest clients read theirs at HONEST_RATE (64 KiB/s, four times the
# bound) for HONEST_MS: none may be closed, and slow_reader_closed must
# not move.  The mutant bitflag_noslowclose (tests/mutants/), whose
# watchdog never finds a peer too slow, fails the first point.
# Knobs: TRICKLE_CONNS (2), TRICKLE_RATE (1024), TRICKLE_CLOSE_MS (4000),
# HONEST_RATE (65536), HONEST_MS (6000), and those of lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
b=$1
: "${TRICKLE_CONNS:=2}"
: "${TRICKLE_RATE:=1024}"
: "${TRICKLE_CLOSE_MS:=4000}"
: "${HONEST_RATE:=65536}"
: "${HONEST_MS:=6000}"

# readers OUT ERR RATE MS: TRICKLE_CONNS pipelining readers at RATE
# bytes/s, MSS 536, for at most MS ms (APID)
readers() {
	attack "$1" "$2" slowlive --conns "$TRICKLE_CONNS" --size 65536 \
		--read-rate "$3" --mss 536 --duration-ms "$4"
}

load_module "$b" threads=4 || { not_ok "module loads"; exit 1; }
kmem1=$(kmem)
closed0=$(counter slow_reader_closed)

# The trickle: the attack tool ends by itself once the server has closed
# every connection (no --reconnect), well before its own 20 s.
readers "$HT/tr.json" "$HT/tr.err" "$TRICKLE_RATE" 20000
check_attacker_exits "$APID" "$HT/tr.json" 25 \
	"the trickle readers' connections all end"
closed=$(json_field "$HT/tr.json" closed)
last_ms=$(json_field "$HT/tr.json" closed_last_ms)
if [ "${closed:-0}" -eq "$TRICKLE_CONNS" ] &&
	[ "${last_ms:-999999}" -le "$TRICKLE_CLOSE_MS" ]; then
	ok "a reader taking $TRICKLE_RATE B/s is closed: $closed of $TRICKLE_CONNS within $TRICKLE_CLOSE_MS ms (last after $last_ms ms)"
else
	not_ok "a reader taking $TRICKLE_RATE B/s is closed" \
		"closed ${closed:-none} of $TRICKLE_CONNS, the last after ${last_ms:-none} ms (bound $TRICKLE_CLOSE_MS)"
fi
closed1=$(counter slow_reader_closed)
if [ -n "$closed1" ] && [ "$closed1" -ge $((${closed0:-0} + TRICKLE_CONNS)) ]; then
	ok "slow_reader_closed counts each trickle reader (${closed0} -> ${closed1})"
else
	not_ok "slow_reader_closed counts each trickle reader" \
		"${closed0:-none} -> ${closed1:-none}, $TRICKLE_CONNS expected"
fi
wait_sockets 0 10 || diag "sockets still open: $(counter sockets)"

# The honest readers: they read four times faster than the bound asks.
readers "$HT/hr.json" "$HT/hr.err" "$HONEST_RATE" "$HONEST_MS"
check_attacker_exits "$APID" "$HT/hr.json" $((HONEST_MS / 1000 + 15)) \
	"the honest readers end after their $HONEST_MS ms"
closed=$(json_field "$HT/hr.json" closed)
read_bytes=$(json_field "$HT/hr.json" bytes_read)
closed2=$(counter slow_reader_closed)
if [ "${closed:-1}" -eq 0 ] && [ "${closed2:-x}" = "${closed1:-y}" ] &&
	[ "${read_bytes:-0}" -gt 0 ]; then
	ok "a reader taking $HONEST_RATE B/s is never closed (read $read_bytes bytes)"
else
	not_ok "a reader taking $HONEST_RATE B/s is never closed" \
		"closed ${closed:-none}, slow_reader_closed ${closed1:-none} -> ${closed2:-none}, read ${read_bytes:-none} bytes"
fi
check "still serving after the readers" rpcload null --port "$PORT" --proto tcp
wait_sockets 0 10 || diag "sockets still open: $(counter sockets)"
check_mem_returns "$kmem1" "after the readers"
unload_module "$b"
exit "$T_FAILED"
