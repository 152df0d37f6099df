#!/bin/bash
# mutants.t: the tests can fail.  For each row of tests/mutants/table, the
# catching test runs against the mutant's module, and must fail on it (or
# pass, for a control); one point per mutant, and the table of results.
#
# The catching test is a guest test (tests/guest/t-TEST.sh), run by
# run-all against every mutant in one boot of the stock kernel.  No
# mutant is caught by chance: each test forces its interleaving through
# the mutant's wait points (gate, udpgate) or makes the bug certain
# (stall).  KCSAN would report bitflag_racy only when it happened to
# sample the plain store, so it is not the catching test.
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
	detail[$m $t]="$fail of $((pass + fail)) points failed"
	if [ $st -ne 0 ] && [ $st -ne 1 ]; then
		result[$m $t]="no verdict (vm-run exit $st)"
	elif [ $((pass + fail)) -eq 0 ]; then
		result[$m $t]="no verdict (the test did not run)"
	elif [ "$fail" -gt 0 ]; then
		result[$m $t]=caught
	else
		result[$m $t]=passes
	fi
done <<<"$rows"

echo "# mutant               kernel  test     expect  result"
while read -r m k t e; do
	printf '# %-20s %-7s %-8s %-7s %s (%s)\n' "$m" "$k" "$t" "$e" "${result[$m $t]:-?}" "${detail[$m $t]:-}"
done <<<"$rows"
while read -r m k t e; do
	if [ "${result[$m $t]:-}" = "$e" ]; then
		ok "mutant $m: $t $( [ "$e" = caught ] && echo fails || echo passes) on it (${detail[$m $t]})"
	else
		not_ok "mutant $m: $t should report it $e" "got: ${result[$m $t]:-nothing}"
	fi
done <<<"$rows"
done_testing
