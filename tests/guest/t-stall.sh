# SPDX-License-Identifier: GPL-2.0
# t-stall BUILD: calls that arrive together are all answered.  After a read
# that found a record the socket may hold more: a build that does not say
# so (SK_DATA not set again) answers the first call and stalls the rest.
. "$(dirname "$0")/lib.sh"
b=$1

load_module "$b" || { not_ok "module loads"; exit 1; }
check "8 pipelined calls over tcp answered" \
	rpc-pipeline --calls 8 --proto tcp --timeout-ms 5000
check "100 pipelined calls over tcp answered" \
	rpc-pipeline --calls 100 --proto tcp --timeout-ms 5000
check "8 datagrams at once answered" \
	rpc-pipeline --calls 8 --proto udp --timeout-ms 5000
unload_module "$b"
