#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mutants.t: the tests can fail.  For each row of tests/mutants/table, the
# catching test runs against the mutant's module and the row's point must
# fail on it (or every point pass, for a control); one point per row, and
# the table of results.
#
# A mutant counts as caught only when it loaded (its test printed a
# point other than "module loads"/"module has the wait point...") and
# the named point failed: a mutant that fails to build or load, or that
# fails some other point, is not caught.  The catching test is a guest
# test (tests/guest/t-TEST.sh), run by run-all against every mutant in
# one boot of the stock kernel; a mutant whose row names a console line
# boots apart, and that line must be on its console (the kernel's WARN:
# vm-run's exit 122 is expected there).  No mutant is caught by chance:
# each test forces its interleaving through the mutant's wait points
# (gate, udpgate) or makes the bug certain (stall, cycles).  KCSAN would
# report bitflag_racy only when it happened to sample the plain store, so
# it is not the catching test.
. "$(dirname "$0")/lib.sh"
# mutants.t [TEST...]: only the rows whose catching test is one of these
# (tests/run runs the forced interleavings alone, the rest beside others).
rows=$(grep -v '^#' tests/mutants/table | awk -F'|' -v only=" $* " '
	NF == 6 { t = $3; gsub(/[[:space:]]/, "", t)
		  if (only == "  " || index(only, " " t " ")) print }')
plan "$(printf '%s\n' "$rows" | grep -c .)"

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

declare -A result detail
# judge OUT STATUS M T EXPECT CONSOLE POINT: the verdict of one row from a
# boot's output and vm-run's exit status
judge() {
	local out=$1 st=$2 m=$3 t=$4 e=$5 con=$6 pt=$7 pass fail loaded
	local want_st="0 1"
	[ "$con" != - ] && want_st="0 1 122"
	pass=$(grep -c "^ok - $m $t: " <<<"$out")
	fail=$(grep -c "^not ok - $m $t: " <<<"$out")
	loaded=$(grep -E "^(not )?ok - $m $t: " <<<"$out" |
		grep -vcE "^(not )?ok - $m $t: module (loads|has the wait point)")
	detail[$m $t]="$fail of $((pass + fail)) points failed"
	if [[ " $want_st " != *" $st "* ]]; then
		result[$m $t]="no verdict (vm-run exit $st)"
	elif [ $((pass + fail)) -eq 0 ]; then
		result[$m $t]="no verdict (the test did not run)"
	elif [ "$loaded" -eq 0 ]; then
		result[$m $t]="not loaded ($(grep -E "^not ok - $m $t: " <<<"$out" | head -n 1))"
	elif [ "$e" = passes ]; then
		if [ "$fail" -gt 0 ]; then result[$m $t]=caught; else result[$m $t]=passes; fi
	elif grep -qF -- "not ok - $m $t: $pt" <<<"$out"; then
		if [ "$con" != - ] && ! grep -vE '^(not )?ok' <<<"$out" | grep -qF -- "$con"; then
			result[$m $t]="caught, but the console never said \"$con\""
		else
			result[$m $t]=caught
			[ "$con" != - ] && detail[$m $t]+="; console: $(grep -F -- "$con" <<<"$out" |
				grep -vE '^(not )?ok' | head -n 1 | sed 's/^.*\] //')"
		fi
	elif [ "$fail" -gt 0 ]; then
		result[$m $t]="caught by another point, not \"$pt\""
	else
		result[$m $t]=passes
	fi
}

# boot CMD: run CMD in one stock guest; its output in $out, status in $st
boot() {
	out=$(initramfs/vm-run --kernel stock --smp 2 --mem 2048 --timeout 900 -- "$1 true" 2>&1)
	st=$?
	printf '%s\n' "$out" | grep -E '^(not )?ok|^# |objects leaked' | diag
}

# the environment a catching test runs in here: the NFS mutants are all
# caught by nfs-bad's calls over 127.0.0.1 (TCP and UDP), so their test
# leaves out the kernel client's mounts (job stock-* runs those)
declare -A test_env=([nfs]="NFS_MOUNTS=0 NFS_PASSES='127.0.0.1/tcp 127.0.0.1/udp'")

shared=""
while IFS='|' read -r m k t e con pt; do
	m=$(trim "$m") k=$(trim "$k") t=$(trim "$t") con=$(trim "$con")
	[ "$k" = stock ] && [ "$con" = - ] &&
		shared+="${test_env[$t]:+${test_env[$t]} }/svcsock/tests/guest/run-all $m $t; "
done <<<"$rows"
shared_out="" shared_st=0
if [ -n "$shared" ]; then
	boot "$shared"
	shared_out=$out shared_st=$st
fi
while IFS='|' read -r m k t e con pt; do
	m=$(trim "$m") k=$(trim "$k") t=$(trim "$t") e=$(trim "$e")
	con=$(trim "$con") pt=$(trim "$pt")
	[ "$k" = stock ] || { result[$m $t]="no verdict (kernel $k: only stock is run)"; continue; }
	if [ "$con" = - ]; then
		judge "$shared_out" "$shared_st" "$m" "$t" "$e" "$con" "$pt"
	else
		boot "/svcsock/tests/guest/run-all $m $t; dmesg | grep -F '$con';"
		judge "$out" "$st" "$m" "$t" "$e" "$con" "$pt"
	fi
done <<<"$rows"

echo "# mutant               test     expect  result"
while IFS='|' read -r m k t e con pt; do
	m=$(trim "$m") t=$(trim "$t") e=$(trim "$e")
	printf '# %-20s %-8s %-7s %s (%s)\n' "$m" "$t" "$e" "${result[$m $t]:-?}" "${detail[$m $t]:-}"
done <<<"$rows"
while IFS='|' read -r m k t e con pt; do
	m=$(trim "$m") t=$(trim "$t") e=$(trim "$e") pt=$(trim "$pt")
	if [ "${result[$m $t]:-}" = "$e" ]; then
		if [ "$e" = caught ]; then
			ok "mutant $m: $t fails on it at \"$pt\" (${detail[$m $t]})"
		else
			ok "mutant $m (control): $t passes on it (${detail[$m $t]})"
		fi
	else
		not_ok "mutant $m: $t should report it $e${pt:+ at \"$pt\"}" "got: ${result[$m $t]:-nothing}"
	fi
done <<<"$rows"
done_testing
