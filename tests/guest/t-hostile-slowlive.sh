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
b=$1
: "${SLOWLIVE_CONNS:=4}"
: "${SLOWLIVE_SIZE:=65536}"
: "${SLOWLIVE_RATE:=65536}"
: "${SLOWLIVE_MSS:=536}"
: "${SLOWLIVE_MS:=15000}"

# slowlive OUT ERR [HOSTILE-ARGS...]: start the attack (APID)
slowlive() {
	_so=$1 _se=$2
	shift 2
	attack "$_so" "$_se" slowlive --conns "$SLOWLIVE_CONNS" \
		--size "$SLOWLIVE_SIZE" --read-rate "$SLOWLIVE_RATE" \
		--mss "$SLOWLIVE_MSS" --duration-ms "$SLOWLIVE_MS" "$@"
}

hostile_load "$b" threads=4
parked0=$(counter send_parked)

good_baseline
slowlive "$HT/sl1.json" "$HT/sl1.err"
sleep 1		# let their calls and replies fill the pipes
good_load_under "$HT/under.json"
under=$GOOD_RATE
# The attack is live: its replies are being read, at the rate asked.
check_counter_moved send_parked "${parked0:-0}" \
	"replies the slow readers' sockets did not take at once"
stop_attack "$APID" "$HT/sl1.json" || diag "the slow readers had to be killed"
read_bytes=$(json_field "$HT/sl1.json" bytes_read)
if [ "${read_bytes:-0}" -gt 0 ]; then
	ok "the slow readers read replies (${read_bytes} bytes)"
else
	not_ok "the slow readers read replies" "bytes_read ${read_bytes:-none}"
fi
diag "send_errors $(counter send_errors), slow_reader_closed" \
	"$(counter_or_none slow_reader_closed), wspace_wait" \
	"$(counter_or_none wspace_wait), send_parked ${parked0:-none} ->" \
	"$(counter_or_none send_parked)"
check "still serving after the slow readers" rpcload null --port "$PORT" --proto tcp
wait_sockets 0 10 || diag "sockets still open: $(counter sockets)"
good_alone "$HT/alone2.json"
check_good "a good client is served beside $SLOWLIVE_CONNS slow but live readers" \
	"$HT/under.json" "$under" "$alone" "$GOOD_RATE"
check_mem_returns "$kmem1" "after the slow readers"

# Again, and rmmod while they read: a connection the server closes is
# replaced (--reconnect), so the attack lasts until the module is gone.
slowlive "$HT/sl2.json" "$HT/sl2.err" --reconnect
sleep 1
rmmod_under_attack "$b" "$HT/sl2.json" 5 "the slow readers end once the module is gone" \
	"after rmmod under the slow readers (against before loading)"
exit "$T_FAILED"
