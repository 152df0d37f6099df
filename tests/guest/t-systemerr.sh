# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-systemerr BUILD: a SLEEP cut short, when the pool shrinks under it,
# is answered SYSTEM_ERR (RFC 5531: the procedure could not be carried
# out) and counted in reply_system_err; the SLEEP on the thread that
# stays is answered SUCCESS when its time is up.  Two threads, a SLEEP
# of 1 s (the longest) on each, two connections; 0.3 s later threads=1
# stops one of the two busy threads.
. "$(dirname "$0")/lib.sh"
b=$1
out=/tmp/systemerr.$$

load_module "$b" threads=2 || { not_ok "module loads"; exit 1; }
err0=$(stat reply_system_err)
rpcload sleep --sleep-us 1000000 --timeout-ms 5000 >"$out.1" 2>&1 &
p1=$!
rpcload sleep --sleep-us 1000000 --timeout-ms 5000 >"$out.2" 2>&1 &
p2=$!
sleep 0.3	# both calls in their threads' SLEEP (1 s)
check "threads 2 -> 1 while both threads sleep" \
	sh -c "echo 1 >/sys/module/svcsock_$b/parameters/threads"
wait $p1
s1=$?
wait $p2
s2=$?
diag "call 1 (exit $s1): $(cat "$out.1")"
diag "call 2 (exit $s2): $(cat "$out.2")"
check "one SLEEP answered SUCCESS, one failed" test $((s1 + s2)) = 1
check "the failed one was answered SYSTEM_ERR" \
	grep -qi "system error\|SYSTEM_ERR" "$out.1" "$out.2"
check "reply_system_err counted it (${err0:-none} -> $(stat reply_system_err))" \
	test "$(stat reply_system_err)" = $((${err0:-0} + 1))
check "still serving" rpcload null --port "$PORT" --proto tcp
rm -f "$out.1" "$out.2"
unload_module "$b"
exit "$T_FAILED"
