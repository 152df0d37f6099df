# SPDX-License-Identifier: GPL-2.0
# t-conformance BUILD: the program answers rpcinfo over TCP and UDP, and a
# call to each procedure, through libtirpc.
. "$(dirname "$0")/lib.sh"
b=$1

# Built in (the builtin kernel), "loads" registers it with rpcbind and
# "unloads" unregisters it (lib.sh).
check "module loads" load_module "$b"
check "registered with rpcbind" sh -c "rpcinfo -p | grep -q '$PROG.*tcp.*$PORT'"
check "rpcinfo tcp version 1 ready" rpcinfo -n $PORT -t 127.0.0.1 $PROG 1
check "rpcinfo udp version 1 ready" rpcinfo -n $PORT -u 127.0.0.1 $PROG 1
# refused for the right reason, not for any (e.g. "Program not registered")
check "rpcinfo tcp version 2 refused: Program/version mismatch" sh -c \
	"rpcinfo -n $PORT -t 127.0.0.1 $PROG 2 2>&1 | grep -q 'Program/version mismatch'"
check "PROG_MISMATCH reports 1..1" sh -c \
	"rpcinfo -n $PORT -t 127.0.0.1 $PROG 2 2>&1 | grep -q 'low version = 1, high version = 1'"
# rpcinfo asks rpcbind about an unknown program and never calls the
# module; the module's own PROG_UNAVAIL is t-bad's case prog-unavail.
check "unknown program: rpcbind says it is not registered" sh -c \
	"rpcinfo -n $PORT -t 127.0.0.1 $((PROG + 1)) 1 2>&1 | grep -q 'Program not registered'"
for proto in tcp udp; do
	check "NULL over $proto" rpcload null --port $PORT --proto $proto
	check "ECHO over $proto" rpcload echo --port $PORT --proto $proto --size 100
	check "SLEEP 1000us over $proto" rpcload sleep --port $PORT --proto $proto --sleep-us 1000
done
check "calls counted" test "$(stat calls_null)" -ge 2
if built_in "$b"; then
	check "module unloads (built in: it unregisters, it is never unloaded)" unload_module "$b"
else
	check "module unloads" unload_module "$b"
fi
check "unregistered from rpcbind" sh -c "! rpcinfo -p | grep -q '$PROG'"
