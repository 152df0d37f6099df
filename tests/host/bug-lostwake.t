#!/bin/bash
# The stall test can fail: against svcsock_bitflag_lostwake, the bitflag
# build with SK_DATA not set again after a read that found a record (a lost
# wakeup), it must report pipelined calls left unanswered.
. "$(dirname "$0")/lib.sh"
out=$(initramfs/vm-run --kernel stock --smp 2 --timeout 300 -- \
	"/svcsock/tests/guest/run-all bitflag_lostwake stall" 2>&1)
printf '%s\n' "$out" | diag
if printf '%s\n' "$out" | grep -q '^not ok - bitflag_lostwake stall: .*pipelined calls over tcp answered'; then
	ok "the stall test catches the lost wakeup of bitflag_lostwake"
else
	not_ok "the stall test catches the lost wakeup of bitflag_lostwake"
fi
