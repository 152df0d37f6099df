# SPDX-License-Identifier: GPL-2.0
# t-rmmod-load BUILD: rmmod succeeds under load, clients mid-record among
# them, and the port is free again afterwards.
. "$(dirname "$0")/lib.sh"
b=$1

load_module "$b" || { not_ok "module loads"; exit 1; }
rpcload load --port $PORT --proto tcp --conns 64 --duration 30 \
	--proc echo --size 65536 --seed 3 --json >/tmp/rmmod.json 2>&1 &
load=$!
rpcload load --port $PORT --proto udp --conns 8 --duration 30 \
	--proc null --json >/dev/null 2>&1 &
load2=$!
# rmmod once calls are flowing (a debug kernel takes a while to get there)
i=0
while [ "$(stat calls_echo)" -lt 64 ] && [ $i -lt 30 ]; do sleep 0.5; i=$((i + 1)); done
sleep 1
check "calls were being served" test "$(stat calls_echo)" -gt 0
check "rmmod under load" unload_module "$b"
check "module gone" test ! -e "/proc/net/svcsock_$b"
kill $load $load2 2>/dev/null; wait $load $load2
check "module loads again on the same port" load_module "$b"
check "and serves" rpcload null --port $PORT --proto tcp
unload_module "$b"
