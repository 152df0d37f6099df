# SPDX-License-Identifier: GPL-2.0
# tap.awk: check one TAP producer's output and pass its points on as ours.
# Used by the guest's tap_relay and run-all (busybox awk) and by the host's
# relay and tests/run (tests/host/lib.sh):
#
#   { PRODUCER; echo "#@exit $?"; } 2>&1 |
#       awk -v prefix=P [-v name=N] [-v plan=optional] -f tap.awk
#
# Its points go on unnumbered, as "ok - P<description>" and "not ok - P...";
# its comments as they are; any other line (a "Bail out!", an indented
# subtest, stray output) as a "# " comment.  Then, if the stream as a whole
# is not right, one more point says why:
#   not ok - N<ran to completion> # WHY[; WHY...]
# (N defaults to P) where WHY is one of: "Bail out!", no plan (1..N) (unless
# plan=optional), more than one plan, a plan its points do not match, no
# point at all, or an exit status other than 0 (the last line "#@exit S",
# if given) while no point failed.  A plan "1..0 # SKIP why" with no point
# becomes one point "ok - P # SKIP why".  A non-zero exit status is passed
# on last, as "# exit status S".
# Exit status 1 when any point printed here failed.
BEGIN { if (name == "") name = prefix; n = 0; failed = 0; plans = 0 }

function out(s) { print s; fflush() }

/^(not )?ok([ \t]|$)/ {
	bad = ($0 ~ /^not /)
	d = $0
	sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]*)?/, "", d)
	n++
	if (bad) failed++
	d = (bad ? "not ok - " : "ok - ") prefix d
	sub(/[ \t]+$/, "", d)
	out(d)
	next
}
/^1\.\.[0-9]+/ {
	plans++
	planned = $0
	sub(/^1\.\./, "", planned)
	skipall = planned
	sub(/[^0-9].*/, "", planned)
	planned += 0
	if (planned == 0 && skipall ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) {
		sub(/^[^#]*#[ \t]*[Ss][Kk][Ii][Pp][^ \t]*[ \t]*/, "", skipall)
		skipwhy = (skipall == "" ? "skipped" : skipall)
	}
	next
}
/^#@exit / { status = $2; next }
/^Bail out!/ { bail = $0; out("# " $0); next }
/^#/ || /^$/ { out($0); next }
{ out("# " $0) }

END {
	why = ""
	if (bail != "") why = why "; " bail
	if (plans == 0 && plan != "optional") why = why "; no plan (1..N): it stopped early or never started"
	if (plans > 1) why = why "; " plans " plans"
	if (plans == 1 && planned != n) why = why "; planned " planned " points, ran " n
	if (n == 0 && skipwhy != "" && why == "") { n++; out("ok - " prefix "# SKIP " skipwhy) }
	if (n == 0) why = why "; no test point"
	if (status != "" && status != 0 && failed == 0) why = why "; exit status " status
	if (why != "") {
		failed++
		out("not ok - " name "ran to completion # " substr(why, 3))
	}
	if (status != "" && status != 0) out("# exit status " status)
	exit failed > 0
}
