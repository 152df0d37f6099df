#!/bin/bash
# The churn test can fail: svcsock_bitflag_listenread is the bitflag build
# without the guard that gives back a listener handed over with SK_CONN
# already cleared (docs/locking.md, "A hand-over with nothing to do"); it
# reads the listener as a data socket, the read fails and the listener is
# deleted, so connects are refused.  The race needs a thread to be held
# between svc_sock_enqueue()'s test of the flags and SK_BUSY; both modules
# here are built with that window widened (a 2-3 ms sleep there, for a
# listener given back by a thread), svcsock_bitflag_widewin with the guard.
# The real build must pass with the window hit; the broken one must fail.
. "$(dirname "$0")/lib.sh"
out=$(initramfs/vm-run --kernel stock --smp 2 --mem 2048 --timeout 300 -- "
	CHURN_MS=5000 /svcsock/tests/guest/run-all bitflag_widewin churn
	CHURN_MS=5000 /svcsock/tests/guest/run-all bitflag_listenread churn
	true" 2>&1)
printf '%s\n' "$out" | grep -E '^(not )?ok|conn-churn|listener handed' | diag
good="^ok - bitflag_widewin churn: .*none refused"
bad="^not ok - bitflag_listenread churn: .*none refused"
check "with the guard and the window widened, no connect is refused" \
	grep -q "$good" <<<"$out"
idle=$(sed -n 's/^# listener handed over with nothing to do: \([0-9]*\) times/\1/p' <<<"$out" | head -n 1)
check "the widened window was hit (listener_idle ${idle:-?} > 0)" \
	test "${idle:-0}" -gt 0
check "without the guard the churn test catches the lost listener" \
	grep -q "$bad" <<<"$out"
