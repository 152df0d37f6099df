#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The SPIN models of the hand-over protocols (models/, models/README.md)
# are checked exhaustively, and each property is shown to fail on a
# mutated model.
#
# One point per run.  A check (a model as written, at one size) passes
# when pan reports 0 errors with the search completed; its "#" line gives
# the mode, states stored, transitions, depth, memory and time.  A safety
# run checks the assertions (a-h); a progress run (its point is named
# "progress") is pan's non-progress search (cc -DNP, pan -l) for property
# (i), no livelock: no infinite run that passes none of the models'
# progress labels (models/common.pml says where they are and why).  The
# progress checks run without weak fairness: they find no cycle at all,
# fair or not, the stronger result; each has a livelock mutant at its
# size (less the peers' reset and batch choices, below), searched with
# weak fairness (pan -l -f) so that the cycle it shows is one a fair
# scheduler runs, and whose error must be pan's "non-progress cycle", not
# an assertion.  A bitstate run is partial: its
# point says so, a "# partial:" line gives its bit array and pan's hash
# factor (the array's bits per state stored), and it fails when the hash
# factor is below the floor (SPIN_HASH_FLOOR, default 10), where too many
# states are taken for visited ones for the run to mean much.  A
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
# lost wakeup), a bitstate run under the hash-factor floor, a mutant
# caught for another property than its own, a trail that cannot be
# replayed.
#
# SPIN_JOBS runs at a time (default 2).  SPIN_CC is the C compiler for
# pan: by default tcc if installed, else clang, else gcc.  tcc compiles
# pan.c in 0.03 s against gcc -O0's 0.7 s, and its pan stores the same
# states 10% slower; most runs are small, so the compile is what counts
# (SPIN_JOBS=1: 67 s with tcc, 89 s with clang).  SPIN_ONLY, if set, runs
# only the runs whose point's name ("model kind name", "model kind
# progress, name" for a progress run) contains it (SPIN_ONLY=lwq,
# SPIN_ONLY="lwq mutant", SPIN_ONLY=progress).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
models=$top/models
jobs=${SPIN_JOBS:-2}
floor=${SPIN_HASH_FLOOR:-10}
cc=${SPIN_CC:-$(command -v tcc || command -v clang || command -v gcc || command -v cc || echo cc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The runs: KIND|MODEL|NAME|SPIN DEFINES|MODE|EXPECT
#   KIND    check (0 errors), mutant (an error, of property EXPECT), control
#           (a mutant that must pass)
#   MODE    exhaustive (safety, every state stored); bitstate SIZE
#           (-DBITSTATE, a partial search: SIZE is log2 of the bit array)
#           for sizes too large to store; progress (-DNP, pan -l: the
#           non-progress search, every state stored); progress fair (the
#           same with weak fairness, pan -l -f)
#   EXPECT  the property a mutant must violate (a-i, README.md)
# Sizes: T threads, S accepted sockets (plus the listener), E data events
# per peer.  Size A is the whole model; the larger sizes set the sockets
# up before the run (ACCEPT=0) and drop the culler, to fit the time.
A="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2"
B="-DNTHREAD=2 -DNSOCK=2 -DNEVENT=1 -DACCEPT=0 -DCULL=0"
C="-DNTHREAD=3 -DNSOCK=1 -DNEVENT=2 -DACCEPT=0 -DCULL=0"
# Connections only: the listener handed over with nothing to do
L="-DNTHREAD=2 -DNSOCK=2 -DNEVENT=0 -DCULL=0 -DRESET=0 -DSTALL=0 -DBATCH=0"
# The small world most mutants need: two threads, one socket, no culler
M="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DCULL=0"
# lwq's stopping threads: one or two sockets set up before, one event each
K1="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0"
K2="-DNTHREAD=2 -DNSOCK=2 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0"
# Bitstate: four threads, two sockets, no reset (nor batch, but for the
# smaller lock model), at 2^26 bits: small enough for the hash factor to
# stay over the floor in a few seconds.  T4 S3 E1, the size before, is
# far larger: lock's stores 48.7 million states at 2^27 bits with a hash
# factor still under 3.
E="-DNTHREAD=4 -DNSOCK=2 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0"
EL="-DNTHREAD=4 -DNSOCK=2 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0"
# Progress: calls that end (STALL=0), so that a thread that read a record
# goes on; a stalled call parks its thread for good, and with as many
# records as threads no thread would be left to livelock.  PL, lock's,
# accepts its connection and keeps BATCH: two records under one sk_data
# count are where the 2002 guess leaves a count standing, the start a
# cycle would need; P, the flag builds', accepts, one record per event;
# PQ, lwq's and lwq67's, whose idle protocol is larger, sets the socket up
# before the run; PC is lwq with the culler (and sv_ready one FIFO, which
# halves it: the culler tests the close path, not the queue).
# The livelock mutant of each runs at its check's size without RESET and
# BATCH, where it is caught in a few thousand states: both only add
# choices to a peer, which may still send one record per event and not
# reset, so the fair cycle found there is a fair cycle of the check's
# world too, and shows that the check can fail.
PL="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DCULL=0 -DSTALL=0"
P="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DCULL=0 -DSTALL=0 -DBATCH=0"
PQ="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DACCEPT=0 -DCULL=0 -DSTALL=0 -DBATCH=0"
PC="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DACCEPT=0 -DCULL=1 -DSTALL=0 -DRESET=0 -DBATCH=0 -DLWQ_FINE=0"
LV="-DMUTANT_LIVELOCK"
# lwq's teardown: a connection accepted, the listener and the socket queued
TD="-DNTHREAD=2 -DNSOCK=1 -DNEVENT=1 -DCULL=0 -DRESET=0 -DBATCH=0 -DSTALL=0 -DTEARDOWN=1"
runs=(
	"check|lock|T2 S1 E2, accept+culler|$A|exhaustive|"
	"check|lock|T2 S2 E0, two connections|$L|exhaustive|"
	"check|lock|T2 S2 E1|$B|exhaustive|"
	"check|lock|T3 S1 E2|$C|exhaustive|"
	"check|lock|T4 S2 E1|$EL|bitstate 26|"
	"check|lock|T2 S1 E2, accept, calls end|$PL|progress|"
	"mutant|lock|LIVELOCK: sk_data not given back after -EAGAIN, the empty socket handed round|$PL -DRESET=0 -DBATCH=0 $LV|progress fair|i"
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
	"check|bitflag|T4 S2 E1|$E|bitstate 26|"
	"check|bitflag|T2 S1 E2, accept, calls end (no batch)|$P|progress|"
	"mutant|bitflag|LIVELOCK: SK_DATA set again after -EAGAIN, the empty socket handed round|$P -DRESET=0 $LV|progress fair|i"
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
	"check|bitlock|T4 S2 E1|$E|bitstate 26|"
	"check|bitlock|T2 S1 E2, accept, calls end (no batch)|$P|progress|"
	"mutant|bitlock|LIVELOCK: SK_DATA set again after -EAGAIN, the empty socket handed round|$P -DRESET=0 $LV|progress fair|i"
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
	"check|queued|T2 S1 E2, accept, calls end (no batch)|$P|progress|"
	"mutant|queued|LIVELOCK: SK_DATA set again after -EAGAIN, the empty socket handed round|$P -DRESET=0 $LV|progress fair|i"
	"mutant|queued|CLEAR_AFTER_TEST: SK_DATA cleared after the read when no data is queued, not before it|$M -DMUTANT_CLEAR_AFTER_TEST|exhaustive|a"
	"check|lwq|T2 S1 E2, accept|$A -DCULL=0|exhaustive|"
	"check|lwq|T2 S2 E1, slow reads|$B -DSLOWREAD=1 -DSTALL=0 -DRESET=0 -DBATCH=0|exhaustive|"
	"check|lwq|T4 S1 E1 (no reset, batch), sv_ready one FIFO|-DNTHREAD=4 -DNSOCK=1 -DNEVENT=1 -DACCEPT=0 -DCULL=0 -DRESET=0 -DBATCH=0 -DLWQ_FINE=0|bitstate 26|"
	"check|lwq|T2 S1 E2, culler (no batch)|-DNTHREAD=2 -DNSOCK=1 -DNEVENT=2 -DACCEPT=0 -DCULL=1 -DBATCH=0|exhaustive|"
	"check|lwq|T2 S1 E2, calls end (no batch)|$PQ|progress|"
	"check|lwq|T2 S1 E2, culler, calls end (no reset, batch), sv_ready one FIFO|$PC|progress|"
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
	"mutant|lwq|LIVELOCK: SK_DATA set again after -EAGAIN, the empty socket handed round|$PQ -DRESET=0 $LV|progress fair|i"
	"mutant|lwq|LIVELOCK: the same, with the culler|$PC $LV|progress fair|i"
	"check|lwq67|T2 S1 E2|$M -DACCEPT=0|exhaustive|"
	"mutant|lwq67|NO_RECHECK: schedule() without a second svc_thread_should_sleep()|$M -DMUTANT_NO_RECHECK|exhaustive|fa"
	"check|lwq67|T2 S1 E2, calls end (no batch)|$PQ|progress|"
	"mutant|lwq67|LIVELOCK: XPT_DATA set again after -EAGAIN, the empty transport handed round|$PQ -DRESET=0 $LV|progress fair|i"
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
	*"non-progress cycle"*) echo i ;;
	*"acceptance cycle"*) echo "acceptance cycle" ;;
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
	i) echo "livelock (non-progress cycle)" ;;
	*) echo "$1" ;;
	esac
}

# "spin -t -p" output to "who: what" lines.  A printf's text comes out
# just before the step line of the process that ran it; processes are
# named from the "Starting thread with pid N" lines, in run order
# (threads from 0, peers from 1: their socket).  In the trail of a
# non-progress cycle, spin's "START OF CYCLE" becomes a line of its own,
# "cycle:", after which the steps repeat for ever.
narrate() {
	awk '
	# replaying a non-progress trail, spin looks for the claim (the
	# "starting claim" line) and numbers the processes it starts one
	# higher than their steps
	/^starting claim / { shift = 1; next }
	/^Starting [a-z_]+ with pid [0-9]+/ {
		k = $2; n[k]++
		who[$5 - shift] = (k == "thread") ? "thread " n[k] - 1 : (k == "peer") ? "peer " n[k] : k
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
	/<<<<<START OF CYCLE>>>>>/ { print "cycle: from here the steps repeat for ever"; next }
	/^(spin|pan)[: ]|^#processes|^[ \t]|^ *[0-9]+: proc|^[0-9]+ process/ { next }
	/^$/ { next }
	{ text = $0 }
	END { if (failed != "") print "violated: " failed }'
}

# pointname KIND MODEL NAME MODE: the point's name, which SPIN_ONLY matches
pointname() {
	case $4 in
	progress*) echo "$2 $1 progress, $3" ;;
	bitstate*) echo "$2 $1 $3 (partial: bitstate)" ;;
	*) echo "$2 $1 $3" ;;
	esac
}

# run_one I: run runs[I]; print "ok|not ok", a description, and "#" lines
run_one() {
	local kind model name defs mode expect
	IFS='|' read -r kind model name defs mode expect <<<"${runs[$1]}"
	local d=$tmp/run$1 desc t0 t1 cflags panflags out
	mkdir -p "$d"
	desc=$(pointname "$kind" "$model" "$name" "$mode")
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
	# -DNP: the claim np_; NFAIR=4: room for weak fairness over up to 14 processes
	progress) cflags="-w -O0 -DNP -DNFAIR=4 -DMEMLIM=4000"; panflags="-l -m200000 -w20" ;;
	"progress fair") cflags="-w -O0 -DNP -DNFAIR=4 -DMEMLIM=4000"; panflags="-l -f -m200000 -w20" ;;
	*) echo "not ok|$desc|unknown mode $mode"; return ;;
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
	trans=$(sed -n 's/^ *\([0-9.e+]*\) transitions (= [a-z]*+matched)/\1/p' "$out" | tail -n 1)
	mem=$(sed -n 's/^ *\([0-9.]*\)[ \t]*total actual memory usage/\1/p' "$out" | tail -n 1)
	secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds/\1/p' "$out" | tail -n 1)
	hf=$(sed -n 's/^hash factor: \([0-9.e+]*\).*/\1/p' "$out" | tail -n 1)
	if [ -z "$errors" ] || [ -z "$depth" ] || [ -z "$states" ] || [ -z "$trans" ] ||
		[ -z "$mem" ] || [ -z "$secs" ]; then
		echo "not ok|$desc|pan's output cannot be parsed"
		sed 's/^/# /' "$out" | head -n 20
		return
	fi
	local wall stats modename partial=""
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	case $mode in
	progress) modename="progress (pan -l)" ;;
	"progress fair") modename="progress, weak fairness (pan -l -f)" ;;
	*) modename=$mode ;;
	esac
	stats="$modename: $states states stored, $trans transitions, depth $depth, ${mem} MB, pan ${secs} s (${wall} s with spin -a and $(basename "$cc"))"
	local why=""
	if grep -q "max search depth too small" "$out"; then
		why="the search was cut at the depth limit"
	elif grep -qE "pan: (out of memory|reached -DMEMLIM bound)" "$out"; then
		why="pan ran out of memory"
	fi
	if [[ $mode == bitstate* ]]; then
		# A partial search: how well its bit array covers the states
		partial="# partial: bitstate 2^${mode#bitstate } bits, hash factor ${hf:-?} (floor $floor), $states states stored: a sample, not a proof"
		if [ -z "$hf" ]; then
			why=${why:-"no hash factor in pan's output"}
		elif awk -v h="$hf" -v f="$floor" 'BEGIN { exit !(h < f) }'; then
			why=${why:-"hash factor $hf under the floor $floor: the bit array is too small for the states"}
		fi
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
		[ -z "$partial" ] || echo "$partial"
		if [ "$errors" != 0 ] && [ -f "$d/$model.pml.trail" ]; then
			# shellcheck disable=SC2086
			(cd "$d" && spin $defs -t -p -T "$model.pml" 2>&1) | narrate | tail -n 16 | sed 's/^/#   /'
		fi
		;;
	mutant)
		local line prop story="" n
		line=$(grep -m1 '^pan:1:' "$out")
		prop=$(property "$line")
		if [ -n "$why" ]; then
			echo "not ok|$desc # $why|"
			echo "# $model $name ($defs): $stats"
			return
		fi
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
		local c
		c=$(grep -n -m1 '^cycle: ' <<<"$story" | cut -d: -f1)
		if [ -n "$c" ]; then
			# a livelock: the last steps into the cycle, and the cycle
			[ "$c" -gt 5 ] && echo "#   ... ($((c - 5)) steps before)"
			tail -n +$((c > 4 ? c - 4 : 1)) <<<"$story" | head -n 36 | sed 's/^/#   /'
			[ $((n - c)) -gt 31 ] && echo "#   ... ($((n - c - 31)) steps more in the cycle)"
		else
			[ "$n" -gt 16 ] && echo "#   ... ($((n - 16)) steps before)"
			tail -n 16 <<<"$story" | sed 's/^/#   /'
		fi
		;;
	esac
}

if [ -n "${SPIN_ONLY:-}" ]; then
	only=()
	for r in "${runs[@]}"; do
		IFS='|' read -r kind model name _ mode _ <<<"$r"
		[[ "$(pointname "$kind" "$model" "$name" "$mode")" == *"$SPIN_ONLY"* ]] && only+=("$r")
	done
	runs=("${only[@]}")
fi
n=${#runs[@]}
echo "1..$n"
if ! command -v spin >/dev/null 2>&1 || ! command -v "$cc" >/dev/null 2>&1; then
	for i in $(seq 0 $((n - 1))); do
		IFS='|' read -r kind model name _ mode _ <<<"${runs[$i]}"
		echo "not ok $((i + 1)) - $(pointname "$kind" "$model" "$name" "$mode") # spin or a C compiler ($cc) is not installed: scripts/install-deps"
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
