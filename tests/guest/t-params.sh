# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-params BUILD: the parameters the README promises act as it says:
# port and bind (the server answers there, TCP and UDP, and nowhere
# else; a bind that is not an IPv4 address is refused, and a load whose
# bind fails once it serves frees what it made), and idle_timeout
# (0: an idle connection is never closed; more than a week is refused,
# so that idle_timeout * HZ cannot wrap).  t-hostile-pin shows a non-zero
# idle_timeout closing idle connections.
. "$(dirname "$0")/lib-hostile.sh"
b=$1
P=/sys/module/svcsock_$b/parameters

load_module "$b" port=20050 bind=127.0.0.2 rpcbind=0 ||
	{ not_ok "module loads"; exit 1; }
check "port=20050 bind=127.0.0.2: NULL over TCP at 127.0.0.2:20050" \
	rpcload null --host 127.0.0.2 --port 20050 --proto tcp
check "port=20050 bind=127.0.0.2: NULL over UDP at 127.0.0.2:20050" \
	rpcload null --host 127.0.0.2 --port 20050 --proto udp
check_fails "nothing answers at 127.0.0.1:20050 (TCP)" \
	rpcload null --host 127.0.0.1 --port 20050 --proto tcp --timeout-ms 1000
check_fails "nothing answers at 127.0.0.2:20049 (TCP)" \
	rpcload null --host 127.0.0.2 --port 20049 --proto tcp --timeout-ms 1000
unload_module "$b"
check_fails "bind=127.0.0 (not an IPv4 address) is refused" \
	load_module "$b" bind=127.0.0 rpcbind=0
module_loaded "$b" && unload_module "$b"
# A load that fails once it serves: the second address of bind= is the
# first again, so its bind fails (EADDRINUSE) after the threads and the
# first address' sockets exist.  The load must fail and free them all:
# the port is free for the next load, and a socket or thread left would
# WARN "objects leaked", which the suite's dmesg check fails.
check_fails "bind=127.0.0.2,127.0.0.2 (its second bind fails) is refused" \
	load_module "$b" port=20050 bind=127.0.0.2,127.0.0.2 rpcbind=0
module_loaded "$b" && unload_module "$b"
check "after the failed load, a load binds 127.0.0.2:20050 again" \
	load_module "$b" port=20050 bind=127.0.0.2 rpcbind=0
check "and serves there" \
	rpcload null --host 127.0.0.2 --port 20050 --proto tcp
module_loaded "$b" && unload_module "$b"

load_module "$b" idle_timeout=0 rpcbind=0 || { not_ok "module loads"; exit 1; }
closed0=$(counter idle_closed)
# Two connections that send a record marker and 4 bytes, then nothing,
# for 4 s: with idle_timeout=0 the server must leave them open.
hostile pin --conns 2 --claim 1000 --duration-ms 4000 --json \
	>"$HT/pin.json" 2>"$HT/pin.err"
diag "attacker: $(cat "$HT/pin.json")"
open=$(json_field "$HT/pin.json" open_at_end)
if [ "${open:-0}" = 2 ] && [ "$(counter idle_closed)" = "$closed0" ]; then
	ok "idle_timeout=0: two idle connections left open for 4 s"
else
	not_ok "idle_timeout=0: two idle connections left open for 4 s" \
		"open at the end: ${open:-none}, idle_closed $closed0 -> $(counter idle_closed)"
fi
check_fails "idle_timeout=604801 (more than a week) is refused" \
	sh -c "echo 604801 >$P/idle_timeout"
check "idle_timeout=604800 (a week) is taken" sh -c "echo 604800 >$P/idle_timeout"
check "idle_timeout reads 604800" test "$(cat $P/idle_timeout)" = 604800
check "still serving" rpcload null --port "$PORT" --proto tcp
unload_module "$b"
exit "$T_FAILED"
