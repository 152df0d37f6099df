#!/bin/bash
# KCSAN can fail the suite: svcsock_bitflag_racy sets SK_DATA with the
# non-atomic __set_bit() in the data_ready callback, racing with the
# atomic bitops of the receiving threads, the bug of the article's first
# section.  Under load on the kcsan kernel, vm-run must see the report and
# exit 122.
. "$(dirname "$0")/lib.sh"
out=$(initramfs/vm-run --kernel kcsan --smp 4 --mem 2048 --timeout 900 -- \
	"rpcbind -w; modprobe svcsock_bitflag_racy &&
	 rpcload load --conns 32 --duration 20 --proc null --json >/dev/null;
	 rmmod svcsock_bitflag_racy" 2>&1)
st=$?
printf '%s\n' "$out" | grep -E -A12 'BUG: KCSAN' | head -n 40 | diag
check "vm-run reports kernel badness (exit $st, want 122)" test $st -eq 122
check "the report is KCSAN's, on sk_svc_flags" sh -c \
	"printf '%s\n' \"\$1\" | grep -q 'BUG: KCSAN: data-race in svc_'" _ "$out"
