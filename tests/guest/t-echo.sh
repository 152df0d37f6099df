# SPDX-License-Identifier: GPL-2.0
# t-echo BUILD: ECHO returns every payload size byte for byte, from 0 to
# max_record's share over TCP and to the largest datagram over UDP.
. "$(dirname "$0")/lib.sh"
b=$1

load_module "$b" || { not_ok "module loads"; exit 1; }
for size in 0 1 2 3 4 5 7 8 100 1000 4095 4096 4097 65535 65536 65537 \
	    262144 1000000 1048575 1048576; do
	check "ECHO $size bytes over tcp" \
		rpcload echo --port $PORT --proto tcp --size $size --seed $size
done
# A datagram holds 65507 bytes; rpcload allows at most 65460 of payload
# over UDP (its call header, credential and the opaque's length first).
for size in 0 1 3 1000 8192 32768 65460; do
	check "ECHO $size bytes over udp" \
		rpcload echo --port $PORT --proto udp --size $size --seed $size
done
unload_module "$b"
