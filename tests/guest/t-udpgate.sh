# SPDX-License-Identifier: GPL-2.0
# t-udpgate BUILD: a callback's update of the flags loses no thread's
# change.  BUILD is a mutant with the wait points of
# tests/mutants/bitflag_udpgate (parameter gate): one at the top of
# svc_udp_recvfrom(), where a thread owns SK_BUSY, and one in the UDP
# data_ready callback, before it sets SK_DATA.  The interleaving is
# forced, not hoped for:
#   1. gate=1; a datagram: the thread that reads it waits, owning the
#      socket (gate reads 2);
#   2. gate=3; a second datagram: its callback waits (gate reads 4);
#   3. gate=5: the thread reads both datagrams and gives the socket back
#      (no flag set);
#   4. gate=0: the callback sets SK_DATA and enqueues.
# With set_bit() the socket is handed to a thread and UDP calls are served;
# with a plain load and store (bitflag_racy) the store writes back the
# SK_BUSY of step 2, no thread owns the socket, and no datagram is read
# again.  The callback waits at most 15 s (it spins in softirq); if that
# ran out before step 4, the order was not forced and the test fails,
# control and mutant alike.
. "$(dirname "$0")/lib.sh"
b=$1
P=/sys/module/svcsock_$b/parameters

gate_is()  { [ "$(cat $P/gate)" = "$1" ]; }
udp_idle() { [ $(($(cat $P/gate_flags) & 0xf)) -eq 0 ]; }	# BUSY CONN CLOSE DATA
udp_null() { rpcload null --port $PORT --proto udp --timeout-ms "$1"; }

load_module "$b" threads=2 || { not_ok "module loads"; exit 1; }
[ -f $P/gate ] || { not_ok "module has the wait points (gate)"; exit 1; }
check "UDP calls are served" udp_null 5000
echo 1 >$P/gate
udp_null 20000 >/tmp/udpgate.1 2>&1 &
first=$!
check "the thread that reads the first datagram waits, owning the socket" \
	wait_until 10 gate_is 2
echo 3 >$P/gate
udp_null 20000 >/tmp/udpgate.2 2>&1 &
second=$!
check "the second datagram's callback waits, the flags in hand" \
	wait_until 10 gate_is 4
diag "flags while both wait: $(cat $P/gate_flags)"
echo 5 >$P/gate
check "the thread read the datagrams and gave the socket back (no flag)" \
	wait_until 14 udp_idle
check "the callback was still waiting when released (gate 5, not -1)" gate_is 5
echo 0 >$P/gate
wait $first
check "the first call was answered" test $? -eq 0
wait $second
check "the second call was answered" test $? -eq 0
diag "flags after the callback: $(cat $P/gate_flags)"
check "UDP calls are still served after the callback's update" udp_null 5000
unload_module "$b"
