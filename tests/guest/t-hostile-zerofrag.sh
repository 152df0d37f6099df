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
b=$1
: "${ZEROFRAG_CONNS:=2}"
: "${ZEROFRAG_MS:=15000}"

hostile_load "$b" threads=2
frags0=$(counter frags_too_many)
yield0=$(counter recv_yield)

good_baseline
attack "$HT/zf1.json" "$HT/zf1.err" zerofrag --conns "$ZEROFRAG_CONNS" \
	--duration-ms "$ZEROFRAG_MS"
sleep 0.5
good_load_under "$HT/under.json"
under=$GOOD_RATE
stop_attack "$APID" "$HT/zf1.json" || diag "the flooder had to be killed"
closed=$(json_field "$HT/zf1.json" closed)
conns=$(json_field "$HT/zf1.json" connected)
if [ -n "$closed" ] && [ "$closed" = "$conns" ]; then
	ok "the server closed every flooder ($closed of $conns, after $(json_field "$HT/zf1.json" closed_first_ms)..$(json_field "$HT/zf1.json" closed_last_ms) ms)"
else
	not_ok "the server closed every flooder" "${closed:-?} of ${conns:-?} closed; $(json_field "$HT/zf1.json" fragments_sent) fragments sent"
fi
check_counter_moved frags_too_many "$frags0" "the flood"
check_counter_moved recv_yield "$yield0" "the flood"
check "still serving after the flood" rpcload null --port "$PORT" --proto tcp
wait_sockets 0 5 || diag "sockets still open: $(counter sockets)"
good_alone "$HT/alone2.json"
check_good "a good client is served beside $ZEROFRAG_CONNS zero-fragment flooders" \
	"$HT/under.json" "$under" "$alone" "$GOOD_RATE"
check_mem_returns "$kmem1" "after the flood"

# Again, and rmmod while it floods: a flooder the server closes is
# replaced (--reconnect), so the flood lasts until the module is gone.
attack "$HT/zf2.json" "$HT/zf2.err" zerofrag --conns "$ZEROFRAG_CONNS" \
	--duration-ms "$ZEROFRAG_MS" --reconnect
sleep 0.5
rmmod_under_attack "$b" "$HT/zf2.json" 5 "the flooder ends once the module is gone" \
	"after rmmod under the flood (against before loading)"
exit "$T_FAILED"
