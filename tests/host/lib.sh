# shellcheck shell=bash
# lib.sh: what the host-side tests share.  Sourced by tests/host/*.t.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top" || exit 2
eval "$("$top/scripts/kernel-info" stock)"	# krel kimage kdir cache

ok()     { echo "ok - $1"; }
not_ok() { echo "not ok - $1${2:+ # $2}"; }
diag()   { sed 's/^/# /'; }

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

# relay PREFIX: pass a TAP stream's verdicts on, prefixed; the rest as is
relay() {
	local l st=0
	while IFS= read -r l; do
		case "$l" in
		"ok "*) echo "ok - $1${l#ok }" ;;
		"not ok "*) echo "not ok - $1${l#not ok }"; st=1 ;;
		*) echo "$l" ;;
		esac
	done
	return $st
}
