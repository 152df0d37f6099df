# SPDX-License-Identifier: GPL-2.0
# t-gate BUILD: a listener handed over with nothing to do is not read.
# BUILD is a mutant with the wait point of tests/mutants/bitflag_widewin
# (parameter gate) in svc_sock_enqueue(), between its test of the flags
# and SK_BUSY.  The interleaving is forced, not hoped for:
#   1. gate=1; a connection: the thread that accepts it gives the listener
#      back with SK_CONN set and waits at the gate (gate reads 2);
#   2. a second connection: another thread accepts it, tries once more,
#      finds none and gives the listener back with no flag set;
#   3. gate=0: the waiting enqueue takes SK_BUSY and hands that idle
#      listener to a thread.
# With the guard the thread gives it straight back (listener_idle) and new
# connections are served; without it the listener is read as a data
# socket, deleted, and every later connect refused.
. "$(dirname "$0")/lib.sh"
b=$1
P=/sys/module/svcsock_$b/parameters

gate_is()       { [ "$(cat $P/gate)" = "$1" ]; }
listener_idle() { [ $(($(cat $P/gate_flags) & 0xf)) -eq 0 ]; }	# BUSY CONN CLOSE DATA
handed_over()   { [ "$(stat listener_idle)" -gt 0 ] || ! listening; }
listening()     { grep -q ':4E51 00000000:0000 0A' /proc/net/tcp; }	# 20049

load_module "$b" threads=2 || { not_ok "module loads"; exit 1; }
[ -f $P/gate ] || { not_ok "module has the wait point (gate)"; exit 1; }
echo 1 >$P/gate
check "a first connection is served" rpcload null --port $PORT --proto tcp
check "the thread that accepted it waits at the gate" wait_until 10 gate_is 2
check "a second connection is served" rpcload null --port $PORT --proto tcp
check "meanwhile another thread drained the listener (no flag, not busy)" \
	wait_until 10 listener_idle
echo 0 >$P/gate
check "the gate opened, the listener was handed over" wait_until 10 handed_over
diag "listener_idle $(stat listener_idle), tcp_accepted $(stat tcp_accepted)"
check "the idle listener was given back, not read (listener_idle > 0)" \
	test "$(stat listener_idle)" -gt 0
check "the listener still accepts connections" \
	rpcload null --port $PORT --proto tcp
unload_module "$b"
