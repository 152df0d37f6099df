#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite's own checks bite: tests/run, given planted tests (--cmd), turns
# red, with a failed point that says why, for a test that stops after two of
# five planned points, one that prints "Bail out!", one that exits non-zero
# with every point passed, one with no plan, one that hangs (stopped at
# TEST_JOB_LIMIT), and a guest that never starts
# (no image: vm-run's exit 2); a good planted test passes, and prove accepts
# both outputs as TAP.  The guest's relays (tap_relay, run-all) are run under
# busybox on this host against the same kinds of producers, and its timed
# wait (wait_within) against a condition met in time, one never met, and
# one seen only after a poll's sleep that a slow guest stretched.  Every guest
# test runs in some job (tests/run --guest-tests), and a planted one that
# none runs is found.  No guest boots.
. "$(dirname "$0")/lib.sh"
plan 41
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# red WHY NAME=COMMAND: tests/run fails the planted test, saying WHY
red() {
	local why=$1 name=${2%%=*}
	tests/run --cmd "$2" >"$tmp/out" 2>&1
	local st=$?
	if [ $st -ne 0 ] && grep -q "^not ok 1 - $name\$" "$tmp/out" &&
		grep -q "^    not ok [0-9]* - .*$why" "$tmp/out" &&
		tail -n 1 "$tmp/out" | grep -qE '^[0-9]+ passed, [1-9][0-9]* failed$'; then
		ok "tests/run fails $name: $why"
	else
		not_ok "tests/run fails $name: $why" "exit $st"
		diag <"$tmp/out"
	fi
}
red "planned 5 points, ran 2" 'crash=printf "1..5\nok 1 - a\nok 2 - b\n"; exit 3'
red "Bail out! gone" 'bail=echo 1..2; echo ok 1; echo "Bail out! gone"; echo ok 2'
red "exit status 4" 'exit=echo 1..1; echo ok 1 - fine; exit 4'
red "no plan" 'noplan=echo ok 1 - fine'
red "no test point" 'silent=echo 1..0'
red "planted failure" 'failure=echo 1..2; echo ok 1; echo not ok 2 - planted failure'
TEST_JOB_LIMIT=3 red "stopped after [0-9]* s, over TEST_JOB_LIMIT=3" \
	'hang=echo 1..1; sleep 60; echo ok 1'
mkdir "$tmp/cache"
red "ran to completion # .*exit status 2" \
	"noimage=SVCSOCK_CACHE=$tmp/cache tests/host/guest.t stock lock 5 conformance"
red "kernel clean .*# not known: vm-run exit 2" \
	"noimage2=SVCSOCK_CACHE=$tmp/cache tests/host/guest.t stock lock 5 conformance"
grep -q 'no guest image' "$tmp/out" && ok "vm-run's reason (no guest image) is in the output" ||
	not_ok "vm-run's reason (no guest image) is in the output"

# A good test passes; two at a time, the slow first one is still printed first.
tests/run --cmd 'slow=sleep 1; echo 1..2; echo ok 1 - one; echo ok - two' \
	--cmd 'fast=echo ok - three; echo "ok - four # SKIP planted"; echo 1..2' >"$tmp/good" 2>&1
st=$?
check "tests/run passes good tests (exit $st)" test $st = 0
check "their points are counted: 4 passed, 0 failed" \
	test "$(tail -n 1 "$tmp/good")" = "4 passed, 0 failed"
check "output in the list's order, subtests whole" sh -c \
	"grep -v '^#' '$tmp/good' | tr '\n' '|' | grep -q '^1..2|    # Subtest: slow|.*    ok 1 - one|    ok 2 - two|    1..2|ok 1 - slow|    # Subtest: fast|.*    ok 2 - four # SKIP planted|    1..2|ok 2 - fast|4 passed, 0 failed|\$'"
check "prove accepts the good output" prove -Q -e cat "$tmp/good"
# A guest that vm-run booted again after a boot hang passes, and is named
# at the end.
tests/run --cmd 'retried=echo "# vm-run: boot hang: no command started within 120s"; echo 1..1; echo ok 1' \
	>"$tmp/retried" 2>&1
check "a boot hang that a retry got past is named at the end" \
	grep -qx '# guests that hung in boot, or whose clock ran fast, and were booted again: retried (1)' "$tmp/retried"
check "prove rejects a red output" sh -c "! prove -Q -e cat '$tmp/out'"
# The scheduling checks do not depend on timing: a planted job (job N)
# writes "start NAME", waits until N jobs have started or 5 s have passed,
# then writes "end NAME".  So jobs that may run together all start before
# any ends however slowly the host starts them (run 21 of stop 21 failed
# when each slept 0.5 s instead), and a job kept from running beside
# another makes that one wait the 5 s out and end first.
job() {
	echo "$1=echo start $1 >>$tmp/order; i=0; while [ \$(grep -c ^start $tmp/order) -lt $2 ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done; echo end $1 >>$tmp/order; echo 1..1; echo ok 1"
}
# A job that runs alone: two at a time, b starts after a ends and c after
# b ends; without TEST_ALONE, a and b overlap (so the check can fail).
order() {
	: >"$tmp/order"
	local j
	for j in a b c; do
		set -- "$@" --cmd "$(job $j 2)"
	done
	TEST_JOBS=2 tests/run "$@" >/dev/null 2>&1
	tr '\n' ' ' <"$tmp/order"
}
check "a job named alone runs with no other" \
	test "$(TEST_ALONE=b order)" = "start a end a start b end b start c end c "
check "without it, two jobs run at a time" \
	test "$(TEST_ALONE=none order)" != "start a end a start b end b start c end c "
# (a and b overlap: both start before either ends; c, alone, after a
# ends -- b, light, may still be running then, so its end is not placed)
light_order=$(TEST_ALONE="a c" TEST_LIGHT=b order)
check "a light job runs beside one named alone ($light_order)" sh -c \
	"echo '$light_order' | grep -qE '^start [ab] start [ab] ' &&
	 echo '$light_order' | grep -qE 'end a .*start c '"
# A background job (TEST_IDLE) starts beside one named alone, as a light
# one does (without the rule it waits for a to end: the check can fail);
# two background ones run one after the other (without the rule, a, b and
# c, three host jobs, all start at once); and a background job runs under
# SCHED_IDLE.
idle_order=$(TEST_ALONE=a TEST_IDLE=b order)
check "a background job runs beside one named alone ($idle_order)" sh -c \
	"echo '$idle_order' | grep -qE '^start [ab] start [ab] '"
two_idle=$(TEST_ALONE=none TEST_IDLE="a b" order)
check "two background jobs run one at a time ($two_idle)" sh -c \
	"echo '$two_idle' | grep -qE 'end a .*start b '"
TEST_IDLE=p tests/run --cmd 'p=echo "# $(chrt -p $BASHPID | head -n 1)"; echo 1..1; echo ok 1' \
	>"$tmp/idle" 2>&1
check "a background job runs under SCHED_IDLE" grep -q "policy: SCHED_IDLE" "$tmp/idle"
# The host slot: three guest jobs g1-g3 and a host job h, TEST_JOBS=2.
# With one host slot, h starts beside g1 and g2, and g3 waits for one of
# them; with none, h waits too (so the first check can fail).  Once no
# host job is left to start, a guest job takes the host slot: without h,
# g1-g3 all start together (the tests/run of 6027554, where g3 waited for
# g1 or g2, fails that).
# slots [h]: the first three lines of the order, sorted, of g1-g3 (and h)
slots() {
	: >"$tmp/order"
	local j args=()
	for j in g1 g2 g3; do
		args+=(--guest-cmd "$(job $j 3)")
	done
	[ -z "${1:-}" ] || args+=(--cmd "$(job h 3)")
	TEST_JOBS=2 tests/run "${args[@]}" >/dev/null 2>&1
	head -n 3 "$tmp/order" | sort | tr '\n' ' '
}
check "a host job runs beside two guest jobs, and a third guest waits" \
	test "$(TEST_HOST_JOBS=1 slots h)" = "start g1 start g2 start h "
first3=$(TEST_HOST_JOBS=0 slots h)
check "with no host slot, the host job waits too ($first3)" \
	test "$first3" = "end g1 start g1 start g2 " -o "$first3" = "end g2 start g1 start g2 "
first3=$(TEST_HOST_JOBS=1 slots)
check "with no host job left, a third guest takes the host slot ($first3)" \
	test "$first3" = "start g1 start g2 start g3 "
check "--needs names the kernels the tests boot" \
	test "$(tests/run --needs kcsan-bitflag stock-lock static)" = "kcsan stock"
check "--needs names none for host tests" test -z "$(tests/run --needs userland checkpatch)"
check "nothing selected is a failure" sh -c "! tests/run no-such-test >/dev/null"

# The guest side, under busybox: tap_relay and run-all.
bb=$(command -v busybox)
mkdir "$tmp/bin" "$tmp/guest"
for a in sh awk grep tee tr date mktemp rm sed cat dirname cut sleep uname; do ln -s "$bb" "$tmp/bin/$a"; done
cp tests/guest/lib.sh tests/guest/tap.awk tests/guest/run-all "$tmp/guest/"
# relayed WHY PRODUCER: tap_relay adds a failed point saying WHY
relayed() {
	local out
	out=$(PATH=$tmp/bin T_LIB=$tmp/guest "$bb" sh -c \
		". $tmp/guest/lib.sh; T_PREFIX='t: '; { $2; echo \"#@exit \$?\"; } | tap_relay 'p: '" 2>&1)
	if grep -q "^not ok - t: p: ran to completion # .*$1" <<<"$out"; then
		ok "tap_relay fails a producer: $1"
	else
		not_ok "tap_relay fails a producer: $1"; diag <<<"$out"
	fi
}
relayed "planned 5 points, ran 2" 'printf "1..5\nok 1\nok 2\n"; false'
relayed "Bail out! case x" 'printf "1..2\nok 1\nBail out! case x\n"'
relayed "exit status 3" 'printf "1..1\nok 1\n"; (exit 3)'
relayed "no plan" 'printf "ok 1\n"'
out=$(PATH=$tmp/bin T_LIB=$tmp/guest "$bb" sh -c \
	". $tmp/guest/lib.sh; printf '1..2\nok 1 - a\nok 2 - b\n' | tap_relay 'p: '" 2>&1)
check "tap_relay passes a good producer's points on" \
	test "$out" = "$(printf 'ok - p: a\nok - p: b')"
# check and check_fails say by their status whether the point passed, so
# that a guest test can leave out what depends on it ("if ! check mount")
out=$(PATH=$tmp/bin T_LIB=$tmp/guest "$bb" sh -c ". $tmp/guest/lib.sh; T_PREFIX=;
	check a false >/dev/null; echo \$?; check b true >/dev/null; echo \$?
	check_fails c true >/dev/null; echo \$?; check_fails d false >/dev/null; echo \$?" 2>&1)
check "guest check and check_fails return 1 for a failed point, 0 for a passed one" \
	test "$(echo $out)" = "1 0 1 0"
# wait_within SECS CMD: 0 when CMD is seen true within SECS, 1 when never,
# 2 when seen true only later: here a poll's sleep (0.1 s) stretched to
# 1.5 s, as on a slow guest, past a 1 s bound (wait_until, the plain
# wait, still returns 0 then)
waited() {
	PATH=$tmp/bin T_LIB=$tmp/guest "$bb" sh -c ". $tmp/guest/lib.sh; $1
		wait_within 1 $2; echo \$? \$WAITED_S" 2>&1
}
ready_at() { echo "n=0; ready() { n=\$((n + 1)); [ \$n -ge $1 ]; }"; }
out=$(waited "$(ready_at 3)" ready)
check "wait_within: a condition met on the third poll is in time ($out)" \
	test "${out%% *}" = 0
out=$(waited "" false)
check "wait_within: a condition never met times out ($out)" \
	test "${out%% *}" = 1
out=$(waited "$(ready_at 2); sleep() { command sleep 1.5; }" ready)
check "wait_within: a condition seen only after a stretched poll is late ($out)" \
	sh -c "test '${out%% *}' = 2 && awk 'BEGIN { exit !(${out#* } > 1) }'"
printf '. "$(dirname "$0")/lib.sh"\nok one\nok two\nexit 3\n' >"$tmp/guest/t-crash.sh"
printf '. "$(dirname "$0")/lib.sh"\ncheck "true works" true\n' >"$tmp/guest/t-good.sh"
out=$(PATH=$tmp/bin "$bb" sh "$tmp/guest/run-all" b1,b2 good crash 2>&1)
st=$?
check "run-all fails a guest test that exits 3 after two points (exit $st)" sh -c \
	"test $st = 1 && grep -q '^not ok - b2 crash: ran to completion # exit status 3' <<'EOF'
$out
EOF"
check "run-all runs each build and ends with its plan" \
	test "$(grep -cE '^(not )?ok' <<<"$out") $(tail -n 1 <<<"$out")" = "8 1..8"

# unrun DIR: the guest tests in DIR/t-*.sh that no job of tests/run runs
unrun() {
	local f t listed
	listed=" $(tests/run --guest-tests | tr '\n' ' ') "
	for f in "$1"/t-*.sh; do
		t=${f##*/t-} t=${t%.sh}
		[[ $listed == *" $t "* ]] || echo "$t"
	done
}
check "every guest test (tests/guest/t-*.sh) runs in some job of tests/run" \
	test -z "$(unrun tests/guest)"
mkdir -p "$tmp/unrun"
cp tests/guest/t-*.sh "$tmp/unrun/"
: >"$tmp/unrun/t-planted.sh"
check "a planted guest test that no job runs is found (t-planted)" \
	test "$(unrun "$tmp/unrun")" = planted
done_testing
