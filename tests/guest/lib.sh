# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# lib.sh: what the guest tests share (busybox sh).  Sourced, not run.
#
# TAP: each check prints one "ok - NAME" or "not ok - NAME # why" line;
# the host harness numbers and counts them.  $T_PREFIX (the build and the
# test) is put in front of every name so one boot's output names itself.

T_LIB=${T_LIB:-$(dirname "$0")}	# this directory (tap.awk)
PROG=537169921		# 0x20049001, protocol/svcsock.x
PORT=20049
: "${DURATION:=30}"	# seconds of load in the load tests
T_FAILED=0

ok()     { echo "ok - $T_PREFIX$1"; }
not_ok() { echo "not ok - $T_PREFIX$1${2:+ # $2}"; T_FAILED=1; }
diag()   { echo "# $*"; }

# check NAME CMD...: run CMD, one TAP line by its exit status; its output
# goes to the log as diagnostics.  Returns 0 for ok and 1 for not ok, so
# that a caller can leave out what depends on the check ("if ! check").
check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ok "$_name"
		_rc=0
	else
		not_ok "$_name" "exit $?"
		_rc=1
	fi
	[ -n "$_out" ] && printf '%s\n' "$_out" | sed 's/^/# /'
	return $_rc
}

# check_fails NAME CMD...: the same, for a command that must fail.
check_fails() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		not_ok "$_name" "succeeded"
		_rc=1
	else
		ok "$_name"
		_rc=0
	fi
	[ -n "$_out" ] && printf '%s\n' "$_out" | sed 's/^/# /'
	return $_rc
}

# debug_kernel: the guest runs a debug kernel (KASAN or KCSAN), where
# the module runs ten to forty times slower: the tests' time bounds
# and loads differ there, each where it is set
debug_kernel() {
	case $(uname -r) in
	*kasan* | *kcsan*) return 0 ;;
	esac
	return 1
}

# now: seconds since boot, to 10 ms; since T0: seconds since T0, "1.23"
now() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# wait_until SECS CMD...: poll CMD every 0.1 s until it succeeds (0) or
# SECS have passed (1).  WAITED_S is the time from the start to the poll
# that ended the wait ("1.23").  A bound on a wait, not a measurement: a
# poll's sleep that a slow guest stretches can carry the poll that sees
# CMD succeed past SECS, and the wait still returns 0.  A check that
# claims "within SECS" judges WAITED_S too: wait_within.
wait_until() {
	_wu_t0=$(now)
	_wu_max=$1
	shift
	until "$@"; do
		WAITED_S=$(since "$_wu_t0")
		awk -v t="$WAITED_S" -v m="$_wu_max" 'BEGIN { exit !(t >= m) }' &&
			return 1
		sleep 0.1
	done
	WAITED_S=$(since "$_wu_t0")
	return 0
}

# wait_within SECS CMD...: wait_until, and CMD was seen to succeed no
# later than SECS (0); 1 when it never did, 2 when it did only later
# (WAITED_S says when)
wait_within() {
	wait_until "$@" || return 1
	awk -v t="$WAITED_S" -v m="$1" 'BEGIN { exit !(t <= m) }' || return 2
}

# tap_relay PREFIX: read a TAP stream (rpcload bad, unit tests) and pass
# its points on under our names; its other lines become diagnostics.  One
# more failed point when the stream is not whole (tap.awk): no plan, a plan
# its points do not match, "Bail out!", or, if the producer's status is
# given as a last line, a status other than 0:
#   { rpcload bad ...; echo "#@exit $?"; } 2>&1 | tap_relay "rpcload bad: "
tap_relay() {
	awk -v prefix="$T_PREFIX$1" -f "$T_LIB/tap.awk"
}

start_rpcbind() {
	pidof rpcbind >/dev/null 2>&1 || rpcbind -w || rpcbind
}

# load_module BUILD [PARAM=VALUE...]
# built_in BUILD: the build is compiled into the kernel (the builtin
# flavor): it serves from boot, and can be neither loaded nor unloaded.
# Then load_module registers it with rpcbind (which was not running when
# it started) and sets the parameters it is given that can be written at
# run time (failing on any other); unload_module unregisters it.
built_in() {
	[ -d "/sys/module/svcsock_$1" ] && [ ! -e "/sys/module/svcsock_$1/initstate" ]
}

load_module() {
	_m=svcsock_$1
	shift
	if built_in "${_m#svcsock_}"; then
		echo Y >"/sys/module/$_m/parameters/rpcbind" || return 1
		for _p in "$@"; do
			echo "${_p#*=}" >"/sys/module/$_m/parameters/${_p%%=*}" || return 1
		done
		return 0
	fi
	modprobe "$_m" "$@"
}

unload_module() {
	if built_in "$1"; then
		echo N >"/sys/module/svcsock_$1/parameters/rpcbind"
	else
		rmmod "svcsock_$1"
	fi
}

module_loaded() {
	[ -d "/sys/module/svcsock_$1" ]
}

# svc_proc: the statistics file of the svcsock module loaded (each build
# has its own, /proc/net/svcsock_BUILD; the first when several are)
svc_proc() {
	for _f in /proc/net/svcsock_*; do
		[ -e "$_f" ] && { echo "$_f"; return 0; }
	done
	echo /proc/net/svcsock_none
	return 1
}

# stat NAME: a counter or gauge from the module's statistics (svc_proc)
stat() {
	awk -v n="$1" '$1 == n { print $2 }' "$(svc_proc)"
}

# check_all_closed: every connection the module accepted it also closed,
# and it holds no socket (its counters tcp_accepted, tcp_closed, sockets)
check_all_closed() {
	_acc=$(stat tcp_accepted) _clo=$(stat tcp_closed) _open=$(stat sockets)
	if [ "$_acc" = "$_clo" ] && [ "$_open" = 0 ]; then
		ok "every accepted connection closed ($_acc accepted, $_clo closed, sockets 0)"
	else
		not_ok "every accepted connection closed" \
			"accepted $_acc, closed $_clo, sockets $_open"
	fi
}

# json_field FILE KEY: the number after "KEY": in rpcload's JSON
json_field() {
	sed -n "s/.*\"$2\": *\([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

# load_ok FILE: rpcload load --json output in FILE answered every call
load_ok() {
	[ -s "$1" ] || return 1
	_calls=$(json_field "$1" calls)
	[ "${_calls:-0}" -gt 0 ] || return 1
	for _k in failures timeouts mismatches; do
		[ "$(json_field "$1" "$_k")" = 0 ] || return 1
	done
	[ "$(json_field "$1" ok)" = "$_calls" ]
}

# load_summary FILE: one line for the log
load_summary() {
	echo "calls=$(json_field "$1" calls) ok=$(json_field "$1" ok)" \
	     "failures=$(json_field "$1" failures)" \
	     "timeouts=$(json_field "$1" timeouts)" \
	     "mismatches=$(json_field "$1" mismatches)" \
	     "ops/s=$(json_field "$1" ops_per_s)"
}
