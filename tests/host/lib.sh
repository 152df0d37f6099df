# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lib.sh: what the host-side tests share.  Sourced by tests/host/*.t.
#
# A test prints TAP: "plan N" first when it knows how many points it has,
# "done_testing" last in any case (the plan then, if none was given, and
# exit status 1 when a point failed).  tests/run checks the points against
# the plan, so a test that stops half-way fails.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top" || exit 2
eval "$("$top/scripts/kernel-info" stock)"	# krel kimage kdir cache

# mod_list LIST [DIR]: one of svcsock-mod's lists (builds, strategies,
# own, twins, list-modules: svcsock-mod/list.mk), asked of DIR's Kbuild
# (default svcsock-mod).  MAKEFLAGS emptied: under make check, the
# parent's -n or jobserver would reach this make.
mod_list() { MAKEFLAGS='' make -s --no-print-directory -C "${2:-$top/svcsock-mod}" "$1"; }

t_points=0 t_failed=0 t_planned=""
ok()     { t_points=$((t_points + 1)); echo "ok - $1"; }
not_ok() { t_points=$((t_points + 1)); t_failed=$((t_failed + 1)); echo "not ok - $1${2:+ # $2}"; }
diag()   { sed 's/^/# /'; }
plan()   { t_planned=$1; echo "1..$1"; }
done_testing() {
	[ -n "$t_planned" ] || echo "1..$t_points"
	exit $((t_failed > 0))
}

# check NAME CMD...: one point by CMD's exit status, its output as diagnostics
check() {
	local name=$1 out st
	shift
	out=$("$@" 2>&1)
	st=$?
	if [ $st -eq 0 ]; then ok "$name"; else not_ok "$name" "exit $st"; fi
	[ -n "$out" ] && printf '%s\n' "$out" | tail -n 40 | diag
	return 0
}

# relay PREFIX CMD...: run CMD and pass its TAP points on as ours, PREFIX
# before their names, its other lines as diagnostics; one failed point more
# when its stream is not whole: no plan, a plan its points do not match,
# "Bail out!", no point, or an exit status other than 0 with no failed point
# (tests/guest/tap.awk).  CMD's exit status is left in $relay_status.
relay() {
	local prefix=$1 l
	shift
	relay_status=0
	while IFS= read -r l; do
		case $l in
		"ok "* | ok) t_points=$((t_points + 1)) ;;
		"not ok"*) t_points=$((t_points + 1)) t_failed=$((t_failed + 1)) ;;
		"# exit status "*) relay_status=${l#"# exit status "} ;;
		esac
		printf '%s\n' "$l"
	done < <({ "$@"; echo "#@exit $?"; } 2>&1 </dev/null |
		awk -v prefix="$prefix" -f "$top/tests/guest/tap.awk")
}
