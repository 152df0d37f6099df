# SPDX-License-Identifier: GPL-2.0
# t-hostile-udpbind BUILD: an unprivileged local user binds a UDP socket
# to the server's address and port with SO_REUSEADDR and/or SO_REUSEPORT
# (issue 11).  If the server's UDP socket allows it (SO_REUSEADDR on it,
# as the module set it), the second socket shares the port and takes the
# datagrams meant for the server.  Every variant must be refused with
# EADDRINUSE, and a good UDP client beside the attempts is served
# throughout at half its rate or better.
# Knobs: UDPBIND_UID (1000), UDPBIND_TRIES (attempts during the good
# client's run, 5), and those of lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
b=$1
: "${UDPBIND_UID:=1000}"
: "${UDPBIND_TRIES:=5}"

# tries: UDPBIND_TRIES attempts 0.2 s apart, after 0.5 s; stop when no
# server answers (hostile exits 3)
tries() {
	sleep 0.5
	_i=0
	while [ $_i -lt "$UDPBIND_TRIES" ]; do
		hostile udpbind --uid "$UDPBIND_UID" --json
		[ $? = 3 ] && break
		_i=$((_i + 1))
		sleep 0.2
	done
}

kmem0=$(kmem)
load_module "$b" || { not_ok "module loads"; exit 1; }
check "an unprivileged bind to the server's UDP port is refused (uid $UDPBIND_UID)" \
	hostile udpbind --uid "$UDPBIND_UID"

good_baseline --proto udp
# The attempts again, while the good client calls.
tries >"$HT/tries.json" 2>&1 &
good_beside $! "$alone" "a good UDP client is served during the bind attempts" --proto udp
n=$(grep -c '"verdict": "refused: EADDRINUSE"' "$HT/tries.json")
if [ "$n" = "$UDPBIND_TRIES" ]; then
	ok "all $UDPBIND_TRIES attempts during the load refused"
else
	not_ok "all $UDPBIND_TRIES attempts during the load refused" "$n refused"
	sed 's/^/# /' "$HT/tries.json" | head -n 3
fi
check "the server still answers over UDP" rpcload null --port "$PORT" --proto udp
# rmmod while attempts go on
tries >/dev/null 2>&1 &
APID=$!
sleep 0.7
rmmod_under_attack "$b" /dev/null 10 "the attempts end once the module is gone" \
	"after the attempts and rmmod (against before loading)"
exit "$T_FAILED"
