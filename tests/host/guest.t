#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest.t KERNEL BUILD[,BUILD...] DURATION [TEST...]: boot KERNEL (stock,
# kcsan, kasan or builtin) once and run the guest tests (tests/guest/run-all)
# against module svcsock_BUILD, each build in turn; then one more point for
# the kernel itself: no warning, report, panic, timeout or taint other than
# O and E (vm-run's exit codes 120-124).  A guest that never ran (vm-run's
# exit 2: no image, no kernel, no QEMU) fails both.  The guest tests not
# named are one point "# SKIP $GUEST_SKIP_WHY" (when TESTs are named).
# GUEST_ENV: NAME=VALUE words to set in the guest for run-all (e.g.
# HOSTILE_RATES=0); GUEST_APPEND: kernel command line arguments (e.g.
# svcsock_bitflag.threads=4 for the builtin kernel); GUEST_SMP: the guest's
# CPUs (default 2).
. "$(dirname "$0")/lib.sh"
kernel=$1 builds=$2 duration=$3
shift 3
n=$(tr , '\n' <<<"$builds" | wc -l)
# Two CPUs on every kernel: the host has two cores, and a debug guest with
# four ran its job 20% slower (kasan 216 s against 177, kcsan 133 against
# 108, the two side by side) with nothing more found: the racy mutant
# corrupted a list within 25 s under KCSAN with either.
smp=${GUEST_SMP:-2} timeout=1500
case $kernel in stock | builtin) ;; *) timeout=2400 ;; esac
relay "$kernel " initramfs/vm-run --kernel "$kernel" --smp $smp --mem 2048 \
	--timeout $((timeout * n)) ${GUEST_APPEND:+--append "$GUEST_APPEND"} -- \
	"${GUEST_ENV:+$GUEST_ENV }DURATION=$duration /svcsock/tests/guest/run-all $builds $*"
name="$kernel $builds: kernel clean (no WARNING/BUG/Oops/report, taint only O/E)"
case $relay_status in
0|1) ok "$name" ;;
120) not_ok "$name" "vm-run exit 120: timeout" ;;
121) not_ok "$name" "vm-run exit 121: kernel panic" ;;
122) not_ok "$name" "vm-run exit 122: kernel report or taint" ;;
123) not_ok "$name" "vm-run exit 123: the guest ended without a status" ;;
124) not_ok "$name" "vm-run exit 124: the guest's clock ran fast on every boot" ;;
*) not_ok "$name" "not known: vm-run exit $relay_status (2: no image, kernel or QEMU)" ;;
esac
if [ $# -gt 0 ]; then
	skipped=""
	for f in tests/guest/t-*.sh; do
		t=${f#tests/guest/t-} t=${t%.sh}
		[[ " $* " == *" $t "* ]] || skipped="$skipped $t"
	done
	[ -z "$skipped" ] ||
		ok "$kernel $builds:$skipped # SKIP ${GUEST_SKIP_WHY:-not in the list of tests/run}"
fi
done_testing
