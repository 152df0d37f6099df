# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# lib-hostile.sh: what the t-hostile-*.sh tests (issue 11, hostile and
# slow peers) share, on top of lib.sh.  Sourced, not run; busybox sh.
#
# Every wait is bounded: a server that hangs under an attack makes a test
# fail, never hang.  Knobs (environment, for slow or fast kernels):
#   HOSTILE_GOOD_S      seconds of good-client load per measurement (2)
#   HOSTILE_RMMOD_S     rmmod under attack must return within this (5;
#                       20 on the debug kernels, where an rmmod that
#                       closes a reset storm's sockets one by one took
#                       2.6-3.9 s in fifteen clean-clone runs and 12.3 s
#                       in a sixteenth, its host overcommitted)
#   HOSTILE_MEM_TOL_KB  slab+vmalloc that may stay used after an attack (4096)
#   HOSTILE_RATES       judge the good client's rate (1; 0 on the debug
#                       kernels, which run beside other jobs and ten times
#                       slower: there every call must still be answered)
. "$(dirname "$0")/lib.sh"

: "${HOSTILE_GOOD_S:=2}"
: "${HOSTILE_MEM_TOL_KB:=4096}"
if debug_kernel; then
	: "${HOSTILE_RMMOD_S:=20}" "${HOSTILE_RATES:=0}"
else
	: "${HOSTILE_RMMOD_S:=5}" "${HOSTILE_RATES:=1}"
fi
HT=/tmp/hostile.$$
mkdir -p "$HT"

# alive PID: the process runs (a zombie does not count)
alive() {
	[ -r "/proc/$1/status" ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

dead() { ! alive "$1"; }

# meminfo KEY: the kB figure of /proc/meminfo's KEY
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# mem_settle: drop the page cache, let freed sockets go through RCU, and
# give empty slabs back (kmem_cache_shrink), so that what is counted is
# what is held
mem_settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	for _f in /sys/kernel/slab/*/shrink; do echo 1 >"$_f"; done 2>/dev/null
}

# kmem: kB of kernel memory held in slab and vmalloc (SUnreclaim +
# VmallocUsed): where the module's kmalloc/kvmalloc buffers, its
# svc_socks and the sockets themselves are counted.  MemTotal -
# MemAvailable is logged beside it but not judged: under TCG it moves by
# 25 MB between two quiet moments of the same boot.
kmem() {
	mem_settle
	echo $(($(meminfo SUnreclaim) + $(meminfo VmallocUsed)))
}

mem_diag() {
	diag "$1: kmem $(($(meminfo SUnreclaim) + $(meminfo VmallocUsed))) kB" \
		"(SUnreclaim $(meminfo SUnreclaim), VmallocUsed $(meminfo VmallocUsed))," \
		"used $(($(meminfo MemTotal) - $(meminfo MemAvailable))) kB"
}

# check_mem_returns BEFORE_KB WHAT [TOL_KB]: kmem is back within TOL_KB
# (default HOSTILE_MEM_TOL_KB) of BEFORE_KB
check_mem_returns() {
	_tol=${3:-$HOSTILE_MEM_TOL_KB}
	_after=$(kmem)
	_d=$((_after - $1))
	mem_diag "$2"
	if [ "$_d" -le "$_tol" ]; then
		ok "memory returns $2 (slab+vmalloc $1 kB before, $_after kB after: $_d kB, tolerance $_tol kB)"
	else
		not_ok "memory returns $2" "slab+vmalloc $1 kB before, $_after kB after: $_d kB more, tolerance $_tol kB"
	fi
}

# hostile_load BUILD [PARAM=VALUE...]: the slab+vmalloc figure before
# the module (kmem0) and once it is loaded (kmem1), what loading took
# said; a module that does not load fails the test here
hostile_load() {
	kmem0=$(kmem)
	load_module "$@" || { not_ok "module loads"; exit 1; }
	kmem1=$(kmem)
	mem_diag "loaded"
}

# warm_up [RPCLOAD OPTIONS...]: a second of calls first, so that the
# rate alone is not that of a cold guest (TCG translates code on first
# use); once per boot for each protocol and module (the marker file says
# it was done), and only when rates are judged
warm_up() {
	[ "$HOSTILE_RATES" = 1 ] || return 0
	_wm=/tmp/hostile-warm.$(lsmod | awk '$1 ~ /^svcsock_/ { print $1 }').$(echo "$*" | tr -c 'a-z0-9\n' _)
	[ -e "$_wm" ] && return 0
	rpcload load --port "$PORT" --conns 1 --duration 1 --timeout-ms 2000 \
		--no-progress "$@" >/dev/null 2>&1
	: >"$_wm"
}

# good_load FILE [RPCLOAD OPTIONS...]: one good client, HOSTILE_GOOD_S
# seconds of NULL calls on one connection; its JSON in FILE, a summary in
# the log, its ops/s in GOOD_RATE.
good_load() {
	_gl=$1
	shift
	rpcload load --port "$PORT" --conns 1 --duration "$HOSTILE_GOOD_S" \
		--timeout-ms 2000 --no-progress --json "$@" >"$_gl" 2>&1
	GOOD_RATE=$(json_field "$_gl" ops_per_s)
	: "${GOOD_RATE:=0}"
	diag "good client: $(load_summary "$_gl")"
}

# good_alone FILE [RPCLOAD OPTIONS...]: good_load for a rate alone, the
# reference of check_good; nothing (GOOD_RATE 0) when rates are not judged
good_alone() {
	if [ "$HOSTILE_RATES" = 1 ]; then
		good_load "$@"
	else
		GOOD_RATE=0
	fi
}

# good_baseline [RPCLOAD OPTIONS...]: warmed up (warm_up), the good
# client's rate alone, before any attack, in $alone (its JSON in
# $HT/alone.json)
good_baseline() {
	warm_up "$@"
	good_alone "$HT/alone.json" "$@"
	alone=$GOOD_RATE
}

# good_load_under FILE [RPCLOAD-ARGS...]: the good client under attack, the
# better of two windows of HOSTILE_GOOD_S (one when rates are not judged):
# a busy host can starve a single window of this guest's vCPUs.  A window
# with a failed call is kept, so that no failure is hidden; a stalled
# server makes both windows slow.
good_load_under() {
	_glu=$1
	good_load "$@"
	[ "$HOSTILE_RATES" = 1 ] || return 0
	load_ok "$_glu" || return 0
	_glu_rate=$GOOD_RATE
	cp "$_glu" "$_glu.first"
	good_load "$@"
	load_ok "$_glu" || return 0
	if awk -v a="$_glu_rate" -v b="$GOOD_RATE" 'BEGIN { exit !(a > b) }'; then
		cp "$_glu.first" "$_glu"
		GOOD_RATE=$_glu_rate
	fi
}

# check_good NAME FILE UNDER ALONE [ALONE2]: the good client under attack
# (its JSON in FILE, its rate UNDER) answered every call and made at least
# half its rate alone.  Under TCG on a busy host the rate alone can vary
# by 2x from one run to the next: with ALONE2, a second measurement after
# the attack, the lower of the two is the reference.
check_good() {
	_ref=$(awk -v a="$4" -v b="${5:-$4}" 'BEGIN { print (b < a ? b : a) }')
	_rates="alone $4${5:+ and $5} ops/s, under attack $3 ops/s"
	if [ "$HOSTILE_RATES" != 1 ]; then
		if load_ok "$2"; then
			ok "$1: every call answered ($3 ops/s; the rate is judged on the stock kernel)"
		else
			not_ok "$1: every call answered" "$(load_summary "$2")"
		fi
	elif ! load_ok "$2"; then
		not_ok "$1" "$_rates; not every call answered: $(load_summary "$2")"
	elif awk -v a="$_ref" -v u="$3" 'BEGIN { exit !(a > 0 && u >= a / 2) }'; then
		ok "$1 ($_rates)"
	else
		not_ok "$1" "$_rates: less than half"
	fi
}

# good_beside PID ALONE NAME [RPCLOAD OPTIONS...]: the good client's load
# while the attacker PID runs (good_load_under), then PID waited for
# (killed if it outlives 20 s) and the good client alone again; check_good
# NAME judges the rate under attack against ALONE and the second rate
good_beside() {
	_gb_pid=$1 _gb_alone=$2 _gb_name=$3
	shift 3
	good_load_under "$HT/under.json" "$@"
	wait_until 20 dead "$_gb_pid" || kill "$_gb_pid" 2>/dev/null
	wait "$_gb_pid"
	_gb_under=$GOOD_RATE
	good_alone "$HT/alone2.json" "$@"
	check_good "$_gb_name" "$HT/under.json" "$_gb_under" "$_gb_alone" "$GOOD_RATE"
}

# rmmod_under_attack BUILD OUT WAIT_S ENDS MEM [TOL_KB]: the attacker
# $APID under way, the module unloaded within the bound (timed_rmmod),
# the attacker seen to end within WAIT_S s (check_attacker_exits, its
# JSON in OUT, point ENDS), the module gone in any case, and memory back
# to where it was before loading (check_mem_returns against kmem0, point
# "memory returns MEM")
rmmod_under_attack() {
	timed_rmmod "$1"
	check_attacker_exits "$APID" "$2" "$3" "$4"
	if module_loaded "$1"; then unload_module "$1"; fi
	check_mem_returns "$kmem0" "$5" ${6:+"$6"}
}

# counter NAME: the counter, or "" when the module's statistics have none
counter() { stat "$1" 2>/dev/null; }
# counter_or_none NAME: the same, "none" when missing, for the log
counter_or_none() { _c=$(counter "$1"); echo "${_c:-none}"; }

# snapshot_counters NAME...: remember each counter as it is now (empty
# when the module has none), for counter_before and the checks below
snapshot_counters() {
	for _n; do
		eval "_snap_$_n=\$(counter \"\$_n\")"
	done
}
# counter_before NAME: counter NAME at the last snapshot_counters
counter_before() { eval "echo \"\${_snap_$1:-}\""; }
# counter_change NAME: "NAME BEFORE -> NOW", "none" for a missing one
counter_change() {
	_b=$(counter_before "$1")
	echo "$1 ${_b:-none} -> $(counter_or_none "$1")"
}

# check_any_counter_moved WHAT NAME...: one point, "WHAT: NAME or NAME
# counted": every counter exists and one at least is above its snapshot
# (where either of two defences may be the one that acted).  A missing
# counter fails.
check_any_counter_moved() {
	_what=$1
	shift
	_names=$(echo "$*" | sed 's/ / or /g')
	_miss= _sum=0 _log=
	for _n; do
		_v=$(counter "$_n")
		if [ -z "$_v" ]; then
			_miss="$_miss $_n"
			continue
		fi
		_d=$((_v - $(counter_before "$_n" | sed 's/^$/0/')))
		_sum=$((_sum + _d))
		_log="$_log${_log:+, }$(counter_change "$_n")"
	done
	if [ -n "$_miss" ]; then
		not_ok "$_what: $_names counted" "no counter$_miss in $(svc_proc)"
	elif [ "$_sum" -gt 0 ]; then
		ok "$_what: $_names counted ($_log)"
	else
		not_ok "$_what: $_names counted" "none moved: $_log"
	fi
}
# check_counter_moved NAME WHAT: the same for one counter
check_counter_moved() { check_any_counter_moved "$2" "$1"; }

# attack OUT ERR HOSTILE-ARGS...: start hostile in the background with
# --json, stdout to OUT, stderr to ERR; sets APID
attack() {
	_ao=$1 _ae=$2
	shift 2
	hostile "$@" --json >"$_ao" 2>"$_ae" &
	APID=$!
}

# stop_attack PID OUT: SIGTERM, up to 10 s to report and exit, then
# SIGKILL.  Returns 1 when it had to be killed.
stop_attack() {
	_st=0
	if alive "$1"; then
		kill -TERM "$1" 2>/dev/null
		if ! wait_until 10 dead "$1" && alive "$1"; then
			kill -KILL "$1" 2>/dev/null
			_st=1
		fi
	fi
	wait "$1" 2>/dev/null
	[ -s "$2" ] && diag "attacker: $(cat "$2")"
	return $_st
}

# timed_rmmod BUILD: rmmod svcsock_BUILD in the background; one TAP line:
# it returned, successfully, within HOSTILE_RMMOD_S (as measured: a poll
# that sees it gone late fails, wait_within).  When it did not return,
# the attacker (APID) is stopped and rmmod waited for 30 s more, so the
# log says how long it took.  Sets RMMOD_S.
timed_rmmod() {
	RMMOD_STOPPED_ATTACKER=
	_t0=$(now)
	rmmod "svcsock_$1" &
	_rp=$!
	_what="rmmod under attack returns within $HOSTILE_RMMOD_S s"
	wait_within "$HOSTILE_RMMOD_S" dead "$_rp"
	_st=$?
	if [ $_st != 1 ]; then
		wait "$_rp"
		_rc=$?
		RMMOD_S=$(since "$_t0")
		if [ "$_rc" != 0 ]; then
			not_ok "$_what" "rmmod failed (exit $_rc) after ${RMMOD_S} s"
		elif [ $_st = 2 ] || awk -v t="$RMMOD_S" -v m="$HOSTILE_RMMOD_S" \
			'BEGIN { exit !(t > m) }'; then
			not_ok "$_what" "took ${RMMOD_S} s"
		else
			ok "$_what (${RMMOD_S} s)"
		fi
		return 0
	fi
	diag "rmmod still running after $HOSTILE_RMMOD_S s; stopping the attacker"
	kill -TERM "$APID" 2>/dev/null
	RMMOD_STOPPED_ATTACKER=1
	if wait_until 30 dead "$_rp"; then
		wait "$_rp"
		RMMOD_S=$(since "$_t0")
		not_ok "$_what" "took ${RMMOD_S} s, returned only after the attacker was stopped"
	else
		RMMOD_S=">$(since "$_t0")"
		not_ok "$_what" "still running ${RMMOD_S} s later, the attacker stopped"
	fi
}

# check_attacker_exits PID OUT SECS WHAT: the attack tool ends by itself
# within SECS (its connections closed, or its count done; as measured,
# wait_within); killed if not
check_attacker_exits() {
	wait_within "$3" dead "$1"
	case $? in
	0)
		wait "$1" 2>/dev/null
		ok "$4"
		[ -n "$RMMOD_STOPPED_ATTACKER" ] &&
			diag "(it was sent SIGTERM when rmmod took too long)"
		[ -s "$2" ] && diag "attacker: $(cat "$2")"
		;;
	2)
		wait "$1" 2>/dev/null
		not_ok "$4" "ended only ${WAITED_S} s later, over $3 s"
		[ -s "$2" ] && diag "attacker: $(cat "$2")"
		;;
	*)
		stop_attack "$1" "$2"
		not_ok "$4" "still running after $3 s"
		;;
	esac
}

# hostile_attack_test BUILD HOSTILE-ARGS...: the skeleton of the tests of
# attackers that hold the server's threads or sockets over TCP until they
# are stopped (t-hostile-slowread, -zerofrag, -slowlive).  The module is
# loaded with ATTACK_THREADS threads (hostile_load) and the good client's
# rate alone measured (good_baseline); the attacker (hostile
# HOSTILE-ARGS) is given ATTACK_SETTLE_S seconds to take hold, the good
# client measured under it (good_load_under), the attacker stopped
# (stop_attack); then the server still answers, its sockets go within
# ATTACK_SOCKETS_S, the good client's rate under attack is judged against
# its rate alone before and after (check_good ATTACK_GOOD) and memory
# comes back.  Again with --reconnect, and rmmod under the attack
# (rmmod_under_attack): the attacker ends within 5 s (point ATTACK_ENDS)
# and memory comes back to where it was before loading.
# ATTACK_WHO names the attackers in the log ("the flooder"), ATTACK_WHAT
# the attack in the points ("still serving after the flood").
# ATTACK_COUNTERS names the counters read just after loading
# (snapshot_counters), for the test's checks.  The test's own points come
# from the functions it defines (no-ops here): attack_live (under attack,
# after the good client's measurement) and attack_judge OUT (once the
# first attacker stopped, OUT its JSON).
attack_live() { :; }
attack_judge() { :; }

hostile_attack_test() {
	_hb=$1
	shift
	hostile_load "$_hb" threads="$ATTACK_THREADS"
	snapshot_counters $ATTACK_COUNTERS
	good_baseline
	attack "$HT/a1.json" "$HT/a1.err" "$@"
	sleep "$ATTACK_SETTLE_S"
	good_load_under "$HT/under.json"
	under=$GOOD_RATE
	attack_live
	stop_attack "$APID" "$HT/a1.json" || diag "$ATTACK_WHO had to be killed"
	attack_judge "$HT/a1.json"
	check "still serving after $ATTACK_WHAT" rpcload null --port "$PORT" --proto tcp
	wait_sockets 0 "$ATTACK_SOCKETS_S" || diag "sockets still open: $(counter sockets)"
	good_alone "$HT/alone2.json"
	check_good "$ATTACK_GOOD" "$HT/under.json" "$under" "$alone" "$GOOD_RATE"
	check_mem_returns "$kmem1" "after $ATTACK_WHAT"

	attack "$HT/a2.json" "$HT/a2.err" "$@" --reconnect
	sleep "$ATTACK_SETTLE_S"
	rmmod_under_attack "$_hb" "$HT/a2.json" 5 "$ATTACK_ENDS" \
		"after rmmod under $ATTACK_WHAT (against before loading)"
}

# wait_sockets N SECS: the module's sockets down to N within SECS
sockets_at_most() { [ "$(counter sockets)" -le "$1" ]; }
wait_sockets() { wait_until "$2" sockets_at_most "$1"; }

hostile_cleanup() { rm -rf "$HT"; }
trap hostile_cleanup EXIT
