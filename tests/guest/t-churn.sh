# SPDX-License-Identifier: GPL-2.0
# t-churn BUILD: connections opened, used once and closed from 8 threads
# for $CHURN_MS ms.  Every one is accepted by the listener, so a listener
# that gets lost (a flag build that reads it as a data socket when it is
# handed over with SK_CONN already cleared, and closes it) shows as
# refused connects.  Afterwards every accepted socket must be closed.
. "$(dirname "$0")/lib.sh"
b=$1
: "${CHURN_MS:=4000}"

load_module "$b" || { not_ok "module loads"; exit 1; }
check "8 threads connect in bursts of 16, call and close for $CHURN_MS ms: none refused" \
	conn-churn --threads 8 --hold 16 --duration-ms "$CHURN_MS"
check "the listener still answers a new connection" \
	rpcload null --port $PORT --proto tcp

# The server closes its side when it sees the client's FIN: give the
# threads a moment to get to the last ones.
i=0
while [ "$(stat tcp_closed)" != "$(stat tcp_accepted)" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
diag "listener handed over with nothing to do: $(stat listener_idle) times"
check_all_closed
unload_module "$b"
