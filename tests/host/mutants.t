#!/bin/bash
# mutants.t: the tests can fail.  For each row of tests/mutants/table, the
# catching test runs against the mutant's module, and must fail on it (or
# pass, for a control); one point per mutant, and the table of results.
#
# A guest test (tests/guest/t-TEST.sh) is run by run-all in one boot per
# kernel.  The test "kcsan" is KCSAN itself: under UDP load on the kcsan
# kernel, vm-run must exit 122 with a data race reported in svcsock code.
# KCSAN samples one access in kcsan.skip_watch (4000 by default): the
# guest watches one in 50 once the module is loaded (more often slows the
# guest so much that fewer calls race), and runs rounds of load until the
# report comes (at most 6 x 10 s).  This
# one mutant is caught by sampling, not by a forced interleaving: KCSAN
# must see the racing accesses happen.  vm-run counts only reports with a
# frame in the project's modules, so the core kernel's own races cannot
# pass this test.
. "$(dirname "$0")/lib.sh"
rows=$(grep -v '^#' tests/mutants/table | awk 'NF == 4')
plan "$(printf '%s\n' "$rows" | grep -c .)"

declare -A result detail
# guest tests on the stock kernel: one boot, every mutant in turn
cmd=""
while read -r m k t e; do
	[ "$k" = stock ] && cmd+="/svcsock/tests/guest/run-all $m $t; "
done <<<"$rows"
out=$(initramfs/vm-run --kernel stock --smp 2 --mem 2048 --timeout 600 -- "$cmd true" 2>&1)
st=$?
printf '%s\n' "$out" | grep -E '^(not )?ok|^# ' | diag
while read -r m k t e; do
	[ "$k" = stock ] || continue
	pass=$(grep -c "^ok - $m $t: " <<<"$out")
	fail=$(grep -c "^not ok - $m $t: " <<<"$out")
	detail[$m]="$fail of $((pass + fail)) points failed"
	if [ $st -ne 0 ] && [ $st -ne 1 ]; then
		result[$m]="no verdict (vm-run exit $st)"
	elif [ $((pass + fail)) -eq 0 ]; then
		result[$m]="no verdict (the test did not run)"
	elif [ "$fail" -gt 0 ]; then
		result[$m]=caught
	else
		result[$m]=passes
	fi
done <<<"$rows"

# KCSAN against each kcsan mutant: a boot each
while read -r m k t e; do
	[ "$t" = kcsan ] || continue
	out=$(initramfs/vm-run --kernel kcsan --smp 2 --mem 2048 --timeout 900 -- "
		rpcbind -w; modprobe svcsock_$m || exit 1
		echo 50 > /sys/module/kcsan/parameters/skip_watch
		echo 100 > /sys/module/kcsan/parameters/udelay_interrupt
		for round in 1 2 3 4 5 6; do
			rpcload load --proto udp --conns 16 --duration 10 --json >/dev/null
			dmesg | grep -q 'BUG: KCSAN: data-race in svc_' && break
		done
		echo \"# KCSAN load rounds: \$round\"
		rmmod svcsock_$m" 2>&1)
	st=$?
	printf '%s\n' "$out" | grep -E 'BUG: KCSAN|not counted|load rounds' | head -n 20 | diag
	if [ $st -eq 122 ] && grep -q 'kernel badness: BUG: KCSAN: data-race in svc_' <<<"$out"; then
		result[$m]=caught detail[$m]="vm-run exit 122, a data race in svc_*"
	elif [ $st -eq 0 ]; then
		result[$m]=passes detail[$m]="vm-run exit 0, no report"
	else
		result[$m]="no verdict (vm-run exit $st)"
		detail[$m]=$(grep -m1 -E 'BUG:|vm-run' <<<"$out")
	fi
done <<<"$rows"

echo "# mutant               kernel  test   expect  result"
while read -r m k t e; do
	printf '# %-20s %-7s %-6s %-7s %s (%s)\n' "$m" "$k" "$t" "$e" "${result[$m]:-?}" "${detail[$m]:-}"
done <<<"$rows"
while read -r m k t e; do
	if [ "${result[$m]:-}" = "$e" ]; then
		ok "mutant $m: $t $( [ "$e" = caught ] && echo fails || echo passes) on it (${detail[$m]})"
	else
		not_ok "mutant $m: $t should report it $e" "got: ${result[$m]:-nothing}"
	fi
done <<<"$rows"
done_testing
