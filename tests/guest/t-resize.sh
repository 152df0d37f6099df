# SPDX-License-Identifier: GPL-2.0
# t-resize BUILD: the threads parameter goes 1 -> 16 -> 1 under load with no
# call lost.
. "$(dirname "$0")/lib.sh"
b=$1
out=/tmp/resize.$$.json
param=/sys/module/svcsock_$b/parameters/threads

load_module "$b" threads=1 || { not_ok "module loads"; exit 1; }
rpcload load --port $PORT --proto tcp --conns 64 --duration 9 \
	--proc sleep --sleep-us 200 --seed 9 --json >"$out" 2>/tmp/resize.err &
load=$!
sleep 2
check "threads 1 -> 16 under load" sh -c "echo 16 > $param"
sleep 3
check "16 threads running" test "$(stat threads)" = 16
check "threads 16 -> 1 under load" sh -c "echo 1 > $param"
sleep 2
check "threads 1 -> 8 -> 2 under load" sh -c "echo 8 > $param && echo 2 > $param"
check "threads 0 refused" sh -c "! echo 0 > $param"
check "threads 65 refused" sh -c "! echo 65 > $param"
wait $load
diag "$(load_summary "$out")"
if load_ok "$out"; then ok "no call lost while resizing"
else not_ok "no call lost while resizing"; cat /tmp/resize.err; fi
check "threads reads back 2" test "$(cat $param)" = 2
rm -f "$out"
unload_module "$b"
