# SPDX-License-Identifier: GPL-2.0
# t-concurrency BUILD: 64 TCP clients for $DURATION s, and 16 UDP ones for 3 s,
# every reply verified.
. "$(dirname "$0")/lib.sh"
b=$1
out=/tmp/concurrency.$$.json

load_module "$b" || { not_ok "module loads"; exit 1; }
rpcload load --port $PORT --proto tcp --conns 64 --duration "$DURATION" \
	--proc echo --size 1024 --seed 7 --json >"$out" 2>/tmp/concurrency.err
diag "tcp: $(load_summary "$out")"
if load_ok "$out"; then ok "64 tcp clients, every call answered and verified"
else not_ok "64 tcp clients, every call answered and verified"; cat /tmp/concurrency.err; fi

rpcload load --port $PORT --proto udp --conns 16 --duration 3 \
	--proc echo --size 512 --seed 8 --json >"$out" 2>/tmp/concurrency.err
diag "udp: $(load_summary "$out")"
if load_ok "$out"; then ok "16 udp clients, every call answered and verified"
else not_ok "16 udp clients, every call answered and verified"; cat /tmp/concurrency.err; fi
grep -v ' 0$' "$(svc_proc)" | sed 's/^/# /'
rm -f "$out"
unload_module "$b"
