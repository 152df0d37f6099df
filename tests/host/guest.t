#!/bin/bash
# guest.t KERNEL BUILD DURATION [TEST...]: boot KERNEL (stock, kcsan or
# kasan) and run the guest tests against module svcsock_BUILD; then one
# more point for the kernel itself: no warning, report, panic, timeout or
# taint other than O and E (vm-run's exit codes 120-123).
. "$(dirname "$0")/lib.sh"
kernel=$1 build=$2 duration=$3
shift 3
smp=2 timeout=1500
[ "$kernel" = stock ] || { smp=4; timeout=2400; }
initramfs/vm-run --kernel "$kernel" --smp $smp --mem 2048 --timeout $timeout -- \
	"DURATION=$duration /svcsock/tests/guest/run-all $build $*" 2>&1 |
	relay "$kernel "
st=${PIPESTATUS[0]}
case $st in
120|121|122|123) not_ok "$kernel $build: kernel clean" "vm-run exit $st" ;;
*) ok "$kernel $build: kernel clean (no WARNING/BUG/Oops/report, taint only O/E)" ;;
esac
