# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/jobs.sh: the suite's policy, what runs; sourced by tests/run, the
# scheduler, which decides how (two at a time, limits, TAP, the summary).
#
# It holds the jobs (tests: NAME|NEEDS|COMMAND, in the order they start
# and are printed), which guest tests (tests/guest/t-NAME.sh) each kernel
# runs against which build (guest KERNEL BUILD...), which jobs run alone
# (alone_jobs), which are light enough to run beside anything
# (light_jobs), which run in the background on idle CPU time (idle_jobs),
# which kernels' builds share a boot (shared_boot,
# boot_builds), and the guest tests some job runs (guest_tests, for
# tests/run --guest-tests).
#
# Sourced at the top of the tree (tests/run changes to it).  The builds
# are asked of svcsock-mod/Kbuild (make -C svcsock-mod builds), the one
# list of them.  GUEST_DURATION sets the load tests' length; TEST_ALONE
# and TEST_LIGHT replace the lists of alone and light jobs (for
# tests/host/harness.t).
# shellcheck disable=SC2034 # (tests/run reads the variables)

d=${GUEST_DURATION:-6}
dd=$(( d / 3 > 5 ? d / 3 : 5 ))

# The builds: one module each, in the lineage's order (lock, bitflag,
# bitlock, queued, lwq), as svcsock-mod/Kbuild makes them; asked of it,
# so that a build added there gets its jobs (docs/adding-a-build.md).
# MAKEFLAGS emptied: under make check, the parent's -n or jobserver would
# reach this make.
builds=$(MAKEFLAGS='' make -s --no-print-directory -C svcsock-mod builds)
[ -n "$builds" ] || { echo "tests/run: no builds from make -C svcsock-mod builds" >&2; exit 2; }

# The guest tests (tests/guest/t-NAME.sh) each kernel runs against every
# build; the rest are shown as skipped, saying why.
hostile_tests="hostile-zerofrag hostile-slowread hostile-slowlive hostile-trickle hostile-pin hostile-rststorm hostile-udpbind hostile-udpbig"
# The stock kernel's tests.  One build, $rated, runs all eight hostile
# tests in a job of its own, "hostile-$rated", which runs alone: they
# judge a good client's rate beside an attacker, and with two guests on
# two host cores those rates swung by up to 10x.  Every other build runs,
# in its "stock-BUILD" job beside another job, the hostile tests whose
# defence goes through the build's own code (the received path,
# readiness, lifetime, write space: zerofrag, slowread, slowlive, trickle,
# rststorm) with HOSTILE_RATES=0: every good call must be answered, the
# rate is not judged.  pin, udpbind and udpbig
# are defended in shared code (svc_rbuf_reserve(),
# the UDP class's read); the build's part of theirs, the -EINPROGRESS
# hand-back of svc_udp_recvfrom(), is what torture does on every read.
# Cycles first in a job: its slab check wants a guest that no earlier
# test left thousands of TIME_WAIT sockets to free while it measures.
rated=bitflag
stock_tests="conformance echo stall concurrency resize bad rmmod-load churn torture trace nfs"
subset_tests="hostile-zerofrag hostile-slowread hostile-slowlive hostile-rststorm"
subset_skip="hostile-pin, hostile-udpbind and hostile-udpbig defend in shared code and run against $rated (job hostile-$rated), whose hostile tests alone judge rates; torture covers this build's -EINPROGRESS hand-back; params, systemerr, sidebyside and nfs-cache (shared code) run in job stock-$rated"
# The parameters are the shared server's (svc_server.c), and the export's
# cache is shared code (svc_export.c): one build's job runs their tests.
rated_tests="params systemerr sidebyside nfs-cache"
# The debug kernels run, against every build, the tests that race on the
# hand-over and the thread pool (KCSAN: load, threads resized under load)
# or free sockets and requests under load (KASAN: bad input, unload under
# load, connect/close churn, resets right after connect), a test on one of
# them, not both; and the torture test (a few seconds) on both: its
# hand-overs race, and its CONN events make and free sockets.
kcsan_tests="concurrency resize torture"
kasan_tests="bad rmmod-load churn hostile-rststorm torture nfs"
debug_skip="the stock kernel runs every test; KCSAN the ones that race ($kcsan_tests), KASAN the ones that free sockets and requests ($kasan_tests); gate and udpgate need a mutant (tests/host/mutants.t); builtin needs the builtin kernel (job builtin-bitflag)"
# The builtin kernel (svcsock's series applied, one build compiled in,
# make patches): that it serves from boot as the command line configured
# it, and the conformance and load tests.
builtin_build=bitflag
builtin_tests="builtin conformance echo stall concurrency"
builtin_skip="the builtin kernel runs the tests that need no module load, unload or fresh counters ($builtin_tests); the stock kernel runs every test"
mutant_skip="gate and udpgate need a mutant with its wait points (tests/host/mutants.t runs them); builtin needs the builtin kernel (job builtin-bitflag)"

# guest KERNEL BUILD...: the guest tests on KERNEL against each BUILD, in one
# boot (the lists split into words on purpose)
# shellcheck disable=SC2086
guest() {
	local k=$1 builds
	shift
	builds=$(IFS=,; echo "$*")
	case $k in
	stock)
		if [ "$builds" = $rated ]; then
			GUEST_SKIP_WHY="the hostile tests run in job hostile-$builds; $mutant_skip" \
				tests/host/guest.t stock "$builds" "$d" cycles $stock_tests $rated_tests
		else
			GUEST_ENV=HOSTILE_RATES=0 GUEST_SKIP_WHY="$subset_skip; $mutant_skip" \
				tests/host/guest.t stock "$builds" "$d" cycles $stock_tests $subset_tests
		fi ;;
	hostile)
		GUEST_SKIP_WHY="the other tests run in job stock-$builds; $mutant_skip" \
			tests/host/guest.t stock "$builds" "$d" $hostile_tests ;;
	builtin)
		GUEST_APPEND="svcsock_$builds.threads=4" GUEST_SKIP_WHY=$builtin_skip \
			tests/host/guest.t builtin "$builds" "$d" $builtin_tests ;;
	kcsan) GUEST_SKIP_WHY=$debug_skip tests/host/guest.t kcsan "$builds" "$dd" $kcsan_tests ;;
	kasan) GUEST_SKIP_WHY=$debug_skip tests/host/guest.t kasan "$builds" "$dd" $kasan_tests ;;
	esac
}
# These jobs run alone (no other job while they run); the rest two at a
# time (TEST_JOBS).  mutants-forced too: its forced interleavings (gate,
# udpgate) hold a vCPU spinning in softirq while the other one runs the
# thread, the test and the clients, which a neighbouring guest slowed
# past their bounds; the other mutants (job mutants) make their bug
# certain and run beside another job.
# (TEST_ALONE: other names, for tests/host/harness.t.)
alone_jobs=" ${TEST_ALONE:-hostile-$rated mutants-forced} "
light_jobs=" ${TEST_LIGHT:-harness checkpatch docs} "
# Background jobs: host jobs with no timing check (compiling, SPIN), one
# at a time under SCHED_IDLE, beside anything, the alone jobs included;
# they take the CPU time the guests leave (in a warm run, about one host
# core for most of the two and a half minutes the alone jobs run).
# (TEST_IDLE: other names, for tests/host/harness.t.)
idle_jobs=" ${TEST_IDLE:-static-warnings patches spin} "

# Tests "guest KERNEL BUILD" of these kernels share a boot: up to
# boot_builds selected ones, in the order listed, run as one test
# "KERNEL-BUILD+BUILD...".  The stock builds get a boot each, so that two
# of them can run at a time.
shared_boot="kcsan kasan"
boot_builds=3

# The tests, in the order they start and are printed: NAME|NEEDS|COMMAND.
# NEEDS: the guest kernels COMMAND boots (stock kcsan kasan builtin, separated by
# spaces), whose images make check builds first (tests/run --needs); - for
# none.  Long ones early: two run at a time.
tests=(
	# the jobs that run alone first, so that none waits for a gap, with
	# the light ones, which start beside them; mutants-forced: the tests
	# can fail, deliberately broken builds are caught
	"hostile-$rated|stock|guest hostile $rated"
	"harness|-|tests/host/harness.t"
	"checkpatch|-|tests/host/checkpatch.t"
	"docs|-|tests/host/docs.t"
	"mutants-forced|stock|tests/host/mutants.t gate udpgate"
)
# the builds, boot_builds at a time under the debug kernels, KASAN's
# first: the longest jobs first, so that none is left to run last (in
# five warm runs kasan-lock+bitflag+bitlock took 293-351 s,
# kasan-queued+lwq 216-259 beside it, the KCSAN ones 94-154, each stock
# one 82-143); then each build on the stock kernel
for k in kasan kcsan; do
	for b in $builds; do tests+=("$k-$b|$k|guest $k $b"); done
done
tests+=(
	# the mutants whose bug is certain (stall, cycles, torture,
	# hostile-trickle, nfs, nfs-cache): about three minutes, so not last
	# (one run ended with it alone for its last 95 s)
	"mutants|stock|tests/host/mutants.t stall cycles torture hostile-trickle nfs nfs-cache"
	# vm-run's own checks
	"vm-run|stock|tests/host/vm-run.t"
)
for b in $builds; do tests+=("stock-$b|stock|guest stock $b"); done
tests+=(
	# svcsock compiled into the kernel
	"builtin-$builtin_build|builtin|guest builtin $builtin_build"
	# the host-only tests; static-warnings, patches and spin in the
	# background (idle_jobs), from the start
	"static-warnings|-|tests/host/modules-static.t"
	"patches|-|tests/host/patches.t"
	# a build added in Kbuild alone is picked up by every consumer
	"builds-list|-|tests/host/builds-list.t"
	"install|-|tests/host/install.t"
	# the SPIN models of every build's hand-over (one pan at a time: this
	# runs beside other jobs)
	"spin|-|SPIN_JOBS=1 tests/host/spin.t"
	"userland|-|tests/host/userland.t"
)

# guest_tests: the guest tests (tests/guest/t-NAME.sh) some job runs, one
# NAME a line: the guest jobs' lists and the mutants' (tests/mutants/table)
# shellcheck disable=SC2086
guest_tests() {
	{ printf '%s\n' cycles $stock_tests $rated_tests $hostile_tests \
		$subset_tests $kcsan_tests $kasan_tests $builtin_tests
	  grep -v '^#' tests/mutants/table | awk -F'|' 'NF == 6 {
		gsub(/[[:space:]]/, "", $3); print $3 }'; } | sort -u
}
