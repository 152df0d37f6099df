#!/bin/bash
# The SPIN models of the hand-over protocols (models/, models/README.md)
# are checked exhaustively, and each property is shown to fail on a
# mutated model.
#
# One point per run.  A check (a model as written, at one size) passes
# when pan reports 0 errors with the search completed; its "#" line gives
# the mode, states stored, transitions, depth, memory and time.  A
# mutant (spin -DMUTANT_...) passes when pan finds an error and it is the
# property the mutant breaks; its counter-example is replayed (spin -t)
# and printed as a short interleaving, one "#" line per step: which
# process (thread N, peer N, culler) did what.  A control is a mutant
# that must pass: the change is harmless, and the model shows it.
#
# Every failure to check is a failed point: no spin or no C compiler, a
# missing model, a model that does not compile, pan output that cannot
# be parsed, a search that did not complete, a check that stored almost
# no states or never reached its quiescence check (so never judged a
# lost wakeup), a mutant caught for another property than its own, a
# trail that cannot be replayed.
#
# SPIN_JOBS runs at a time (default 2).  SPIN_CC is the C compiler for
# pan: by default tcc if installed, else clang, else gcc.  tcc compiles
# pan.c in 0.03 s against gcc -O0's 0.7 s, and its pan stores the same
# states 10% slower; most runs are small, so the compile is what counts
# (SPIN_JOBS=1: 67 s with tcc, 89 s with clang).  SPIN_ONLY, if set, runs
# only the runs whose "model kind name" contains it (SPIN_ONLY=lwq,
# SPIN_ONLY="lwq mutant").
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
models=$top/models
jobs=${SPIN_JOBS:-2}
cc=${SPIN_CC:-$(command -v tcc || command -v clang || command -v gcc || command -v cc || echo cc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The runs: KIND|MODEL|NAME|SPIN DEFINES|MODE|EXPECT
#   KIND    check (0 errors), mutant (an error, of property EXPECT), control
#           (a mutant that must pass)
#   MODE    exhaustive, or bitstate (-DBITSTATE, a partial search: SIZE
#           is log2 of the bit array) for sizes too large to exhaust
#   EXPECT  the property a mutant must violate (a-h, README.md)
# Sizes: T threads, S accepted sockets (plus the listener), E data events
# per peer.  Size A is the whole model; the larger sizes set the sockets
# up before the run (ACCEPT=0) and drop the culler, to fit the time.
A="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2"
B="-DNTHREAD=2 -DNSOCK=2 -DNEVENT=1 -DACCEPT=0 -DCULL=0"
C="-DNTHREAD=3 -DNSOCK=1 -DNEVENT=2 -DACCEPT=0 -DCULL=0"
D="-DNTHREAD=4 -DNSOCK=3 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0"
# Connections only: the listener handed over with nothing to do
L="-DNTHREAD=2 -DNSOCK=2 -DNEVENT=0 -DCULL=0 -DRESET=0 -DSTALL=0 -DBATCH=0"
# The small world most mutants need: two threads, one socket, no culler
M="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DCULL=0"
# lwq's stopping threads: one or two sockets set up before, one event each
K1="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0"
K2="-DNTHREAD=2 -DNSOCK=2 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0"
# lwq's teardown: a connection accepted, the listener and the socket queued
TD="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=1 -DCULL=0 -DRESET=0 -DBATCH=0 -DSTALL=0 -DTEARDOWN=1"
runs=(
	"check|lock|T2 S1 E2, accept+culler|$A|exhaustive|"
	"check|lock|T2 S2 E0, two connections|$L|exhaustive|"
	"check|lock|T2 S2 E1|$B|exhaustive|"
	"check|lock|T3 S1 E2|$C|exhaustive|"
	"check|lock|T4 S3 E1|$D|bitstate 22|"
	"mutant|lock|NO_USED_GUESS: no 2002 guess, sk_data used up by a record|$M -DMUTANT_NO_USED_GUESS|exhaustive|a"
	"mutant|lock|CONN_WRAP: sk_conn one bit wide, as a byte wraps at 256|$L -DMUTANT_CONN_WRAP|exhaustive|ag"
	"mutant|lock|EARLY_RECEIVED: sk_busy cleared before the read|$M -DMUTANT_EARLY_RECEIVED|exhaustive|b"
	"mutant|lock|CLOSE_BITFIELD: sk_close in sk_qued's bitfield word|$M -DMUTANT_CLOSE_BITFIELD|exhaustive|c"
	"mutant|lock|DEAD_UNBUSY: a deleted socket's sk_busy given back|$M -DMUTANT_DEAD_UNBUSY|exhaustive|d"
	"mutant|lock|PUBLISH_UNOWNED: a new socket published before it is owned|$M -DMUTANT_PUBLISH_UNOWNED|exhaustive|eb"
	"mutant|lock|QUEUE_ALWAYS: queued although a thread sleeps|$M -DMUTANT_QUEUE_ALWAYS|exhaustive|f"
	"control|lock|RECEIVED_NOREF: no reference across the give-back (sk_lock covers it)|$A -DMUTANT_RECEIVED_NOREF|exhaustive|"
	"check|bitflag|T2 S1 E2, accept+culler|$A|exhaustive|"
	"check|bitflag|T2 S2 E0, two connections|$L|exhaustive|"
	"check|bitflag|T2 S2 E1|$B|exhaustive|"
	"check|bitflag|T3 S1 E2|$C|exhaustive|"
	"check|bitflag|T4 S3 E1|$D|bitstate 22|"
	"mutant|bitflag|NO_RULE3: SK_DATA not set again after a read (bitflag_lostwake)|$M -DMUTANT_NO_RULE3|exhaustive|a"
	"mutant|bitflag|RACY_SET: __set_bit(SK_DATA) in the data callback (bitflag_racy)|$M -DMUTANT_RACY_SET|exhaustive|ac"
	"mutant|bitflag|ENQUEUE_BEFORE_CLEAR: rule 1, enqueue before SK_BUSY is cleared|$M -DMUTANT_ENQUEUE_BEFORE_CLEAR|exhaustive|a"
	"mutant|bitflag|BUSY_UNLOCKED: SK_BUSY tested outside sv_lock|$M -DMUTANT_BUSY_UNLOCKED|exhaustive|b"
	"mutant|bitflag|RACY_CLEAR: __clear_bit(SK_DATA) before the read|$M -DMUTANT_RACY_CLEAR|exhaustive|c"
	"mutant|bitflag|DEAD_UNBUSY: a deleted socket's SK_BUSY given back|$M -DMUTANT_DEAD_UNBUSY|exhaustive|d"
	"mutant|bitflag|PUBLISH_UNOWNED: a new socket published before it is owned|$M -DMUTANT_PUBLISH_UNOWNED|exhaustive|eb"
	"mutant|bitflag|CB_NOLOCK: a callback without sk_callback_lock|$M -DMUTANT_CB_NOLOCK|exhaustive|e"
	"mutant|bitflag|QUEUE_ALWAYS: queued although a thread sleeps|$M -DMUTANT_QUEUE_ALWAYS|exhaustive|f"
	"mutant|bitflag|LISTEN_READ: an idle listener read as data (bitflag_listenread)|$L -DMUTANT_LISTEN_READ|exhaustive|g"
	"check|bitlock|T2 S1 E2, accept+culler|$A|exhaustive|"
	"check|bitlock|T2 S2 E0, two connections|$L|exhaustive|"
	"check|bitlock|T2 S2 E1|$B|exhaustive|"
	"check|bitlock|T3 S1 E2|$C|exhaustive|"
	"check|bitlock|T4 S3 E1|$D|bitstate 22|"
	"mutant|bitlock|NO_RULE3: SK_DATA not set again after a read (rule 3 dropped)|$M -DMUTANT_NO_RULE3|exhaustive|a"
	"mutant|bitlock|TEST_THEN_SET: test_bit() then set_bit() for SK_BUSY|$M -DMUTANT_TEST_THEN_SET|exhaustive|b"
	"mutant|bitlock|EARLY_RECEIVED: SK_BUSY cleared before the read|$M -DMUTANT_EARLY_RECEIVED|exhaustive|b"
	"mutant|bitlock|RACY_CLEAR: __clear_bit(SK_DATA) before the read|$M -DMUTANT_RACY_CLEAR|exhaustive|c"
	"mutant|bitlock|DEAD_UNBUSY: a deleted socket's SK_BUSY given back|$M -DMUTANT_DEAD_UNBUSY|exhaustive|d"
	"mutant|bitlock|RECEIVED_NOREF: no reference across the give-back|$M -DMUTANT_RECEIVED_NOREF|exhaustive|e"
	"mutant|bitlock|CULL_NOREF: the culler closes a socket without a reference|-DNTHREAD=2 -DNSOCK=1 -DNEVENT=1 -DMUTANT_CULL_NOREF|exhaustive|e"
	"mutant|bitlock|QUEUE_ALWAYS: queued although a thread sleeps|$M -DMUTANT_QUEUE_ALWAYS|exhaustive|f"
	"check|queued|T2 S2 E1|$B|exhaustive|"
	"check|queued|T3 S1 E2|$C|exhaustive|"
	"mutant|queued|CLEAR_AFTER_TEST: SK_DATA cleared after the read when no data is queued, not before it|$M -DMUTANT_CLEAR_AFTER_TEST|exhaustive|a"
	"check|lwq|T2 S1 E2, accept|$A -DCULL=0|exhaustive|"
	"check|lwq|T2 S2 E1, slow reads|$B -DSLOWREAD=1 -DSTALL=0 -DRESET=0 -DBATCH=0|exhaustive|"
	"check|lwq|T3 S1 E2|$C|bitstate 22|"
	"check|lwq|T4 S3 E1|$D|bitstate 22|"
	"check|lwq|T3 S1 E1, two threads stopped|-DNTHREAD=3 -DNSOCK=1 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0 -DSTOP=2|exhaustive|"
	"check|lwq|T2 S1 E1, accept, teardown (sv_ready one FIFO)|$TD -DLWQ_FINE=0|exhaustive|"
	"control|lwq|NO_MARKER: no marker in q->ready while q->new moves (the chain covers the window)|$B -DSLOWREAD=1 -DSTALL=0 -DRESET=0 -DBATCH=0 -DMUTANT_NO_MARKER|exhaustive|"
	"mutant|lwq|NO_WAKE_NEXT: no waker chain after a dequeue|$K2 -DMUTANT_NO_WAKE_NEXT|exhaustive|f"
	"mutant|lwq|STOP_NO_WAKE: a thread asked to stop returns before the waker chain|$K1 -DSTOP=1 -DMUTANT_STOP_NO_WAKE|exhaustive|fa"
	"mutant|lwq|HEAD_ONLY: 6.7's removal from sv_idle's head only, with a chosen thread stopped|$K1 -DSTOP=1 -DMUTANT_HEAD_ONLY|exhaustive|h"
	"mutant|lwq|ADD_AFTER_CHECK: the last look for work before llist_add() to sv_idle|$M -DMUTANT_ADD_AFTER_CHECK|exhaustive|fa"
	"mutant|lwq|NO_RECHECK: schedule() without looking for work after llist_add()|$M -DMUTANT_NO_RECHECK|exhaustive|fa"
	"mutant|lwq|SKIP_RUNNING_WRONG: the waker leaves the first idle thread be when it sleeps|$M -DMUTANT_SKIP_RUNNING_WRONG|exhaustive|fa"
	"mutant|lwq|NO_DRAIN: the teardown deletes a queued socket without draining sv_ready|$K2 -DSTALL=0 -DTEARDOWN=1 -DMUTANT_NO_DRAIN|exhaustive|e"
	"mutant|lwq|PUBLISH_UNOWNED: a new socket published before it is owned|$M -DMUTANT_PUBLISH_UNOWNED|exhaustive|eb"
	"mutant|lwq|TEST_THEN_SET: test_bit() then set_bit() for SK_BUSY|$M -DMUTANT_TEST_THEN_SET|exhaustive|b"
	"mutant|lwq|DEAD_UNBUSY: a deleted socket's SK_BUSY given back|$M -DMUTANT_DEAD_UNBUSY|exhaustive|d"
	"mutant|lwq|DEQUEUE_NOREF: svc_sock_wait() without svc_sock_get()|$M -DMUTANT_DEQUEUE_NOREF|exhaustive|e"
	"mutant|lwq|NO_RULE3: SK_DATA not set again although data is queued|$M -DMUTANT_NO_RULE3|exhaustive|a"
	"check|lwq67|T2 S1 E2|$M -DACCEPT=0|exhaustive|"
	"mutant|lwq67|NO_RECHECK: schedule() without a second svc_thread_should_sleep()|$M -DMUTANT_NO_RECHECK|exhaustive|fa"
)

# The property an assertion text stands for (README.md's table)
property() {
	case $1 in
	*lost_wakeup*) echo a ;;
	*owners*) echo b ;;
	*close_set*) echo c ;;
	*deleted*) echo d ;;
	*freed* | *attached* | *"ref["*) echo e ;;
	*queued==0*) echo f ;;	# quiescence's queued==0, the hand-over's nqueued==0
	*onq*) echo b ;;	# lwq: a socket queued twice, or queued while owned
	*"s!=0"*) echo g ;;
	*stop_hang* | *leaked*) echo h ;;
	*"invalid end state"*) echo deadlock ;;
	*) echo "?" ;;
	esac
}
propname() {
	case $1 in
	a) echo "lost wakeup" ;;
	b) echo "two owners" ;;
	c) echo "SK_CLOSE cleared" ;;
	d) echo "deleted socket enqueued" ;;
	e) echo "use after free" ;;
	f) echo "queued work stranded" ;;
	g) echo "listener deleted" ;;
	h) echo "thread not stopped, or socket not freed at teardown" ;;
	*) echo "$1" ;;
	esac
}

# "spin -t -p" output to "who: what" lines.  A printf's text comes out
# just before the step line of the process that ran it; processes are
# named from the "Starting thread with pid N" lines, in run order
# (threads from 0, peers from 1: their socket).
narrate() {
	awk '
	/^Starting [a-z_]+ with pid [0-9]+/ {
		k = $2; n[k]++
		who[$5] = (k == "thread") ? "thread " n[k] - 1 : (k == "peer") ? "peer " n[k] : k
		next
	}
	/^ *[0-9]+:[ \t]+proc +[0-9]+ \(/ {
		if (text != "") {
			p = $3
			print ((p in who) ? who[p] : "check") ": " text
			text = ""
		}
		next
	}
	/^spin: text of failed assertion: / { failed = substr($0, 33); next }
	/^(spin|pan)[: ]|^#processes|^[ \t]|^ *[0-9]+: proc|^[0-9]+ process/ { next }
	/^$/ { next }
	{ text = $0 }
	END { if (failed != "") print "violated: " failed }'
}

# run_one I: run runs[I]; print "ok|not ok", a description, and "#" lines
run_one() {
	local kind model name defs mode expect
	IFS='|' read -r kind model name defs mode expect <<<"${runs[$1]}"
	local d=$tmp/run$1 desc t0 t1 cflags panflags out
	mkdir -p "$d"
	desc="$model $kind $name"
	if [ ! -f "$models/$model.pml" ]; then
		echo "not ok|$desc|models/$model.pml is missing"
		return
	fi
	cp "$models"/*.pml "$d"/
	# -O0: pan compiles in a second, and runs these sizes as fast as at -O2
	cflags="-w -O0 -DSAFETY -DMEMLIM=4000"
	case $mode in
	exhaustive) panflags="-m200000 -w20" ;;	# the hash table grows as needed
	bitstate*) cflags="$cflags -DBITSTATE"; panflags="-m200000 -w${mode#bitstate } -k3" ;;
	esac
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	if ! (cd "$d" && spin -a $defs "$model.pml" >spin.out 2>&1); then
		echo "not ok|$desc|spin -a fails"
		sed 's/^/# /' "$d/spin.out" | head -n 10
		return
	fi
	# shellcheck disable=SC2086
	if ! (cd "$d" && "$cc" $cflags -o pan pan.c >cc.out 2>&1); then
		echo "not ok|$desc|$cc fails"
		sed 's/^/# /' "$d/cc.out" | head -n 10
		return
	fi
	# shellcheck disable=SC2086
	(cd "$d" && ./pan $panflags >pan.out 2>&1)
	t1=$(date +%s.%N)
	out=$d/pan.out
	local errors states trans depth mem secs hf
	errors=$(sed -n 's/.*, errors: \([0-9]*\)$/\1/p' "$out" | tail -n 1)
	depth=$(sed -n 's/.*depth reached \([0-9]*\),.*/\1/p' "$out" | tail -n 1)
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out" | tail -n 1)
	trans=$(sed -n 's/^ *\([0-9.e+]*\) transitions (= stored+matched)/\1/p' "$out" | tail -n 1)
	mem=$(sed -n 's/^ *\([0-9.]*\)[ \t]*total actual memory usage/\1/p' "$out" | tail -n 1)
	secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds/\1/p' "$out" | tail -n 1)
	hf=$(sed -n 's/^hash factor: \([0-9.e+]*\).*/\1/p' "$out" | tail -n 1)
	if [ -z "$errors" ] || [ -z "$depth" ] || [ -z "$states" ] || [ -z "$trans" ] ||
		[ -z "$mem" ] || [ -z "$secs" ]; then
		echo "not ok|$desc|pan's output cannot be parsed"
		sed 's/^/# /' "$out" | head -n 20
		return
	fi
	local wall stats
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	stats="$mode: $states states stored, $trans transitions, depth $depth, ${mem} MB, pan ${secs} s (${wall} s with spin -a and $(basename "$cc"))${hf:+, hash factor $hf}"
	local why=""
	if grep -q "max search depth too small" "$out"; then
		why="the search was cut at the depth limit"
	elif grep -qE "pan: (out of memory|reached -DMEMLIM bound)" "$out"; then
		why="pan ran out of memory"
	fi
	case $kind in
	check | control)
		local st=ok
		if [ -n "$why" ]; then
			st="not ok" desc="$desc # $why"
		elif [ "$errors" != 0 ]; then
			st="not ok" desc="$desc # $errors errors: $(grep -m1 '^pan:1:' "$out")"
		elif awk -v s="$states" 'BEGIN { exit !(s < 1000) }'; then
			st="not ok" desc="$desc # only $states states: the model does nothing"
		elif awk '/^unreached in proctype quiescence/ { on = 1; next }
			on && /^\t\(/ { exit }
			on && /timeout|assert/ { found = 1 }
			END { exit !found }' "$out"; then
			st="not ok" desc="$desc # the quiescence check was never reached"
		fi
		echo "$st|$desc|"
		echo "# $model $name ($defs): $stats"
		if [ "$errors" != 0 ] && [ -f "$d/$model.pml.trail" ]; then
			# shellcheck disable=SC2086
			(cd "$d" && spin $defs -t -p -T "$model.pml" 2>&1) | narrate | tail -n 16 | sed 's/^/#   /'
		fi
		;;
	mutant)
		local line prop story="" n
		line=$(grep -m1 '^pan:1:' "$out")
		prop=$(property "$line")
		if [ "$errors" = 0 ]; then
			echo "not ok|$desc # not caught|"
			echo "# $model $name ($defs): $stats"
			return
		fi
		if [ -f "$d/$model.pml.trail" ]; then
			# shellcheck disable=SC2086
			story=$( (cd "$d" && spin $defs -t -p -T "$model.pml" 2>&1) | narrate)
		fi
		if [ -z "$story" ]; then
			echo "not ok|$desc # caught, but its trail cannot be replayed|"
		elif [[ $expect != *"$prop"* ]]; then
			echo "not ok|$desc # caught as $(propname "$prop"), not $(propname "${expect:0:1}")|"
		else
			echo "ok|$desc # caught: ($prop) $(propname "$prop")|"
		fi
		echo "# $model $name ($defs): $stats"
		echo "# ${line#pan:1: }"
		[ -n "$story" ] || return
		n=$(wc -l <<<"$story")
		[ "$n" -gt 16 ] && echo "#   ... ($((n - 16)) steps before)"
		tail -n 16 <<<"$story" | sed 's/^/#   /'
		;;
	esac
}

if [ -n "${SPIN_ONLY:-}" ]; then
	only=()
	for r in "${runs[@]}"; do
		IFS='|' read -r kind model name _ <<<"$r"
		[[ "$model $kind $name" == *"$SPIN_ONLY"* ]] && only+=("$r")
	done
	runs=("${only[@]}")
fi
n=${#runs[@]}
echo "1..$n"
if ! command -v spin >/dev/null 2>&1 || ! command -v "$cc" >/dev/null 2>&1; then
	for i in $(seq 0 $((n - 1))); do
		IFS='|' read -r kind model name _ <<<"${runs[$i]}"
		echo "not ok $((i + 1)) - $model $kind $name # spin or a C compiler ($cc) is not installed: scripts/install-deps"
	done
	exit 1
fi
echo "# $(spin -V 2>&1 | head -n 1); pan built with $cc; $jobs at a time"

start=$(date +%s)
running=0
for i in $(seq 0 $((n - 1))); do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$i" >"$tmp/result$i" 2>&1 &
	running=$((running + 1))
done
wait

failed=0
for i in $(seq 0 $((n - 1))); do
	r=$tmp/result$i
	head=$(head -n 1 "$r")
	st=${head%%|*}
	rest=${head#*|}
	desc=${rest%%|*}
	why=${rest#*|}
	if [ "$st" = ok ]; then
		echo "ok $((i + 1)) - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $((i + 1)) - ${desc:-${runs[$i]}}${why:+ # $why}"
	fi
	tail -n +2 "$r"
done
echo "# spin.t: $n runs, $failed failed, $(($(date +%s) - start)) s"
[ "$failed" = 0 ]
