# SPDX-License-Identifier: GPL-2.0
# t-bad BUILD: every malformed-input case of rpcload bad gets the reply
# RFC 5531 prescribes or a closed connection, and a well-behaved client
# beside it is served throughout; the counters move, the kernel stays quiet.
. "$(dirname "$0")/lib.sh"
b=$1

load_module "$b" || { not_ok "module loads"; exit 1; }
# rpcload's exit status goes down the pipe too: a failure it reports
# only by its status still fails the test.  A generous timeout: a debug
# kernel beside another guest answers the slowest cases in seconds.
{ rpcload bad --port $PORT --seed 11 --timeout-ms 10000; echo "#@exit $?"; } 2>&1 |
	tap_relay "rpcload bad: "
check "garbage counted" test "$(stat garbage)" -gt 0
check "oversized records counted" test "$(stat records_too_large)" -gt 0
check "REPLY messages counted" test "$(stat replies_dropped)" -gt 0
check "auth errors counted" test "$(stat reply_auth_error)" -gt 0
check "still serving" rpcload null --port $PORT --proto tcp
unload_module "$b"
