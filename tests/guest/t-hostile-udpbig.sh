# SPDX-License-Identifier: GPL-2.0
# t-hostile-udpbig BUILD: a datagram larger than max_record (issue 11).
# With max_record=1024, a 2000-byte ECHO call does not fit the receive
# buffer: the module must drop the truncated datagram (no reply, not even
# GARBAGE_ARGS) and count it in udp_truncated, answer a datagram that
# fits, and serve a good UDP client beside a stream of oversized ones.
# Knobs: UDPBIG_SIZE (2000), UDPBIG_MAX_RECORD (1024), UDPBIG_STREAM (1;
# 0 skips the good client beside the stream: over UDP with max_record
# 1024 the socket's receive buffer, 2 x max_record, holds one such
# datagram, and a call that arrives while it is queued is dropped), and
# those of lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
b=$1
: "${UDPBIG_SIZE:=2000}"
: "${UDPBIG_MAX_RECORD:=1024}"
: "${UDPBIG_STREAM:=1}"

# stream SECS: oversized datagrams one after the other for SECS seconds;
# stop when no server is there (hostile exits 3)
stream() {
	_end=$(($(cut -d. -f1 /proc/uptime) + $1))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$_end" ]; do
		hostile udpbig --size "$UDPBIG_SIZE" --timeout-ms 50 >/dev/null 2>&1
		[ $? = 3 ] && break
	done
}

kmem0=$(kmem)
load_module "$b" max_record="$UDPBIG_MAX_RECORD" ||
	{ not_ok "module loads"; exit 1; }
snapshot_counters udp_truncated
check "a $UDPBIG_SIZE-byte ECHO datagram (max_record $UDPBIG_MAX_RECORD) gets no reply" \
	hostile udpbig --size "$UDPBIG_SIZE" --timeout-ms 1000
check "a $UDPBIG_SIZE-byte NULL call padded with junk gets no reply" \
	hostile udpbig --size "$UDPBIG_SIZE" --call null --timeout-ms 1000
check_counter_moved udp_truncated "the oversized datagrams"
check "a $((UDPBIG_MAX_RECORD - 24))-byte ECHO datagram is answered" \
	hostile udpbig --size $((UDPBIG_MAX_RECORD - 24)) --expect-reply
check "a good UDP NULL call is answered" rpcload null --proto udp --port "$PORT"

if [ "$UDPBIG_STREAM" = 1 ]; then
	good_baseline --proto udp
	stream "$((HOSTILE_GOOD_S + 2))" &
	good_beside $! "$alone" \
		"a good UDP client is served beside a stream of oversized datagrams" --proto udp
fi
diag "$(counter_change udp_truncated)," \
	"udp_datagrams $(counter udp_datagrams), reply_garbage_args $(counter reply_garbage_args)"
# rmmod while they come
stream 20 &
APID=$!
sleep 0.5
rmmod_under_attack "$b" /dev/null 10 "the stream ends once the module is gone" \
	"after the oversized datagrams and rmmod (against before loading)"
exit "$T_FAILED"
