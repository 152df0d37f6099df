#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# itest.sh - integration test of rpcload against rpcsvc-ref on 127.0.0.1
# (slices: against two of them, on two ports)
# (and, when python3 is there, `rpcload bad` against tests/mock_svcsock.py,
# a model of the module's documented behaviour).  TAP on stdout.
#
#   sh tests/itest.sh [BUILD_DIR [RPCSVC_REF]]      (make itest)
#
# BUILD_DIR holds rpcload (default build); RPCSVC_REF is the server
# (default refserver/build/rpcsvc-ref of this tree).  Servers listen on
# free ports chosen at start (rpcsvc-ref --port 0) and are stopped at the
# end; nothing but 127.0.0.1 is contacted.
set -u
HERE=$(dirname "$0")
BUILD=${1:-build}
RPCLOAD=$BUILD/rpcload
REF=${2:-$HERE/../../refserver/build/rpcsvc-ref}
TMP=$(mktemp -d)
PIDS=""
N=0
FAILED=0

cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

ok() { N=$((N + 1)); echo "ok $N - $1"; }
nok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $1 # $2"; }
check() { # name, then a command; ok when it exits 0
	name=$1; shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then ok "$name"; else
		nok "$name" "exit $? : $(head -c 300 "$TMP/err" "$TMP/out" | tr '\n' ' ')"; fi
}
json_get() { # file, python expression on d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
# load_check NAME RC EXPR ARGS...: `rpcload load ARGS --json` exits RC and
# the Python expression EXPR holds (p: the document's params, r: its
# result, b: the model's batch statistics when there are some)
cat >"$TMP/check.py" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
p, r = d["params"], d["result"]
b = {}
if os.path.exists(sys.argv[3]):
    b = {k: int(v) for k, v in (l.split() for l in open(sys.argv[3]))}
if not eval(sys.argv[2]):
    print({k: r[k] for k in ("calls", "ok", "failures", "timeouts",
                             "mismatches", "reconnects", "first_error")}, b)
    sys.exit(1)
EOF
# rpcload_check SUBCOMMAND CHECKER NAME WANT EXPR ARGS...: `rpcload
# SUBCOMMAND ARGS --json` exits WANT, and CHECKER (python: its JSON, EXPR,
# the batch file) finds EXPR true of what it printed
rpcload_check() {
	sub=$1 checker=$2 name=$3 want=$4 expr=$5
	shift 5
	"$RPCLOAD" "$sub" "$@" --json --no-progress >"$TMP/$sub.json" 2>"$TMP/err"
	rc=$?
	if python3 "$checker" "$TMP/$sub.json" "$expr" "$TMP/batch" >"$TMP/why" 2>&1 &&
		[ $rc -eq "$want" ]; then
		ok "$name"
	else
		nok "$name" "exit $rc: $(head -c 600 "$TMP/why" "$TMP/err" | tr '\n' ' ')"
	fi
}
load_check() { rpcload_check load "$TMP/check.py" "$@"; }

# start_ref NAME ARGS...: starts rpcsvc-ref on a free port, sets PORT
start_ref() {
	name=$1; shift
	: >"$TMP/$name.log"
	# (libtirpc prints some complaints about bad credentials on stdout)
	"$REF" --port 0 "$@" >"$TMP/$name.out" 2>"$TMP/$name.log" &
	pid=$!
	PIDS="$PIDS $pid"
	i=0
	PORT=""
	while [ $i -lt 50 ]; do
		PORT=$(sed -n 's/.*tcp port \([0-9]*\),.*/\1/p' "$TMP/$name.log")
		[ -n "$PORT" ] && break
		sleep 0.1; i=$((i + 1))
	done
	eval "PID_$name=$pid"
}

echo "1..65"

start_ref ref
P=$PORT

# Single calls.
check "null over tcp" "$RPCLOAD" null -p "$P"
check "null over udp" "$RPCLOAD" null -p "$P" --proto udp
check "echo 1 MiB over tcp" "$RPCLOAD" echo -p "$P" --size 1M
check "echo 65460 bytes over udp" "$RPCLOAD" echo -p "$P" -u --size 65460
check "sleep 20 ms" "$RPCLOAD" sleep -p "$P" --sleep-us 20000
"$RPCLOAD" null -p "$P" --prog 100003 --vers 3 >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "Program unavailable" "$TMP/err"; then ok "null to an unknown program fails (exit 1)"; else nok "null to an unknown program fails (exit 1)" "exit $rc"; fi
"$RPCLOAD" null -p "$P" --vers 7 --json >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(json_get "$TMP/out" 'd["call"]["outcome"]')" = failed ]; then ok "version 7 fails, JSON outcome failed"; else nok "version 7 fails, JSON outcome failed" "exit $rc"; fi

# The load required by the issue: 16 connections, 5 s, JSON, no errors.
"$RPCLOAD" load -p "$P" --conns 16 --duration 5 --json >"$TMP/load.json" 2>"$TMP/err"
rc=$?
ops=$(json_get "$TMP/load.json" 'd["result"]["ops_per_s"]' 2>/dev/null)
errs=$(json_get "$TMP/load.json" 'd["result"]["failures"]+d["result"]["timeouts"]+d["result"]["mismatches"]' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$errs" = 0 ] && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$ops"; then
	ok "load --conns 16 --duration 5 --json: $ops ops/s, 0 errors"
else
	nok "load --conns 16 --duration 5 --json" "exit $rc, ops $ops, errors $errs"
fi
keys=$(json_get "$TMP/load.json" '",".join([d["tool"],str(d["version"])]+list(d["params"])+list(d["result"])+list(d["result"]["latency_us"]))')
want="rpcload,1,host,port,proto,prog,vers,conns,proc,size,sleep_us,duration_s,calls_limit,seed"
case "$keys" in
"$want"*calls,ok,failures,timeouts,mismatches,elapsed_s,ops_per_s,mb_per_s,latency_us*p50,p90,p99,p999,max,mean) ok "load JSON has the agreed shape" ;;
*) nok "load JSON has the agreed shape" "keys: $keys" ;;
esac
check "load echo 4 KiB over tcp, 4 conns, 2000 calls" "$RPCLOAD" load -p "$P" -P 4 --calls 2000 --proc echo --size 4k
check "load echo 60000 bytes over udp, 4 conns, 1 s" "$RPCLOAD" load -p "$P" -u -P 4 -t 1 --proc echo --size 60000
check "load sleep 1 ms, 2 conns, 100 calls" "$RPCLOAD" load -p "$P" -P 2 --calls 100 --proc sleep --sleep-us 1000
check "load null over udp, 8 conns, 1 s, table" "$RPCLOAD" load -p "$P" -u -P 8 -t 1
"$RPCLOAD" load -p "$P" --prog 100003 --vers 3 --calls 10 --json >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(json_get "$TMP/out" 'd["result"]["failures"]')" = 10 ]; then ok "load against a missing program: 10 failures, exit 1"; else nok "load against a missing program" "exit $rc"; fi

# Corrupted ECHO replies must be reported as mismatches.
start_ref corrupt --corrupt-echo 10
PC=$PORT
"$RPCLOAD" load -p "$PC" -P 4 --calls 1000 --proc echo --size 256 --json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
mm=$(json_get "$TMP/c.json" 'd["result"]["mismatches"]' 2>/dev/null)
if [ $rc -eq 1 ] && [ "$mm" = 100 ]; then ok "corrupt-echo 10: 100 mismatches in 1000 calls, exit 1"; else nok "corrupt-echo 10 over tcp" "exit $rc, mismatches $mm"; fi
"$RPCLOAD" load -p "$PC" -u -P 2 --calls 1000 --proc echo --size 256 --json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
mm=$(json_get "$TMP/c.json" 'd["result"]["mismatches"]' 2>/dev/null)
if [ $rc -eq 1 ] && [ "$mm" = 100 ]; then ok "corrupt-echo 10 over udp: 100 mismatches"; else nok "corrupt-echo 10 over udp" "exit $rc, mismatches $mm"; fi
"$RPCLOAD" load -p "$PC" -P 2 --calls 1000 --json >"$TMP/c.json" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ]; then ok "corrupt-echo does not affect null"; else nok "corrupt-echo does not affect null" "exit $rc"; fi

# --depth: N calls outstanding on each connection, replies matched by xid,
# every reply verified as with one call at a time.
ALL_OK='r["calls"] == r["ok"] == 2000 and p["depth"] == 8'
for proto in tcp udp; do
	load_check "load --depth 8 --calls 2000 over $proto, null: all ok" 0 "$ALL_OK" \
		-p "$P" --proto $proto --depth 8 --calls 2000
	load_check "load --depth 8 --calls 2000 over $proto, echo 4 KiB: all ok" 0 "$ALL_OK" \
		-p "$P" --proto $proto --depth 8 --calls 2000 --proc echo --size 4k
done
load_check "load -P 2 --depth 4 over tcp, echo 1 MiB, 40 calls: all ok" 0 'r["ok"] == 40' \
	-p "$P" -P 2 --depth 4 --calls 40 --proc echo --size 1M
load_check "load --depth 8, sleep 1 ms, 100 calls: all ok" 0 'r["ok"] == 100' \
	-p "$P" --depth 8 --calls 100 --proc sleep --sleep-us 1000
load_check "load --depth 1 is one call at a time, as before: no depth in the document" 0 \
	'"depth" not in p and r["ok"] == 100' -p "$P" --depth 1 --calls 100
load_check "load --depth 8 against a missing program: 10 failures, exit 1" 1 \
	'r["failures"] == 10 and "Program unavailable" in r["first_error"]' \
	-p "$P" --prog 100003 --vers 3 --depth 8 --calls 10
load_check "open loop --rate 2000 --depth 8: 1700..2300 calls/s, all ok" 0 \
	'1700 <= r["ops_per_s"] <= 2300 and r["ok"] == r["calls"] and r["warmup_calls"] > 0' \
	-p "$P" -P 2 --depth 8 --rate 2000 --warmup 200ms -t 1
load_check "corrupt-echo 10, --depth 8 over tcp: 100 mismatches in 1000 calls, exit 1" 1 \
	'r["mismatches"] == 100 and r["ok"] == 900' \
	-p "$PC" -P 4 --depth 8 --calls 1000 --proc echo --size 256
load_check "corrupt-echo 10, --depth 8 over udp: 100 mismatches in 1000 calls, exit 1" 1 \
	'r["mismatches"] == 100 and r["ok"] == 900' \
	-p "$PC" -u -P 2 --depth 8 --calls 1000 --proc echo --size 256

# Conventions (issue 16): bundled flags, units, --version after the
# command, a JSON document whatever happens, the open loop.
"$RPCLOAD" load -p "$P" -uJP2 -t500ms >"$TMP/b.json" 2>"$TMP/err"
rc=$?
got=$(json_get "$TMP/b.json" '"%s %s %s" % (d["params"]["proto"], d["params"]["conns"], d["params"]["duration_s"])' 2>/dev/null)
if [ $rc -eq 0 ] && [ "$got" = "udp 2 0.5" ]; then ok "load -uJP2 -t500ms: udp, 2 conns, 0.5 s, JSON"; else nok "load -uJP2 -t500ms" "exit $rc: $got"; fi
if "$RPCLOAD" load --version | grep -q '^rpcload [0-9]' && "$RPCLOAD" bad -V | grep -q '^rpcload '; then ok "--version after the command"; else nok "--version after the command" "no version line"; fi
CP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$RPCLOAD" load -p "$CP" --calls 5 --json >"$TMP/e.json" 2>"$TMP/err"
rc=$?
got=$(json_get "$TMP/e.json" '"%s|%s|%s" % (d["tool"], d["result"], d["error"])' 2>/dev/null)
case "$rc|$got|$(wc -l <"$TMP/err")" in
1\|rpcload\|None\|*"Connection refused"*\|1) ok "load --json with no server: exit 1, one line on stderr, a document with error: ${got#*None|}" ;;
*) nok "load --json with no server" "exit $rc: $got" ;;
esac
"$RPCLOAD" load -J --conns 0 >"$TMP/e.json" 2>"$TMP/err"
rc=$?
got=$(json_get "$TMP/e.json" 'd["error"]' 2>/dev/null)
if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ "rpcload: $got" = "$(cat "$TMP/err")" ]; then ok "load -J with a usage error: exit 2, the same line on stderr and in the document"; else nok "load -J with a usage error" "exit $rc: $got"; fi
"$RPCLOAD" load -p "$P" -P 4 --rate 2000 --warmup 300ms -t 2s --json >"$TMP/r.json" 2>"$TMP/err"
rc=$?
got=$(json_get "$TMP/r.json" '"%d %d %d %.0f %d" % (d["params"]["rate"], d["result"]["warmup_calls"] > 0, d["result"]["service_latency_us"]["p50"] <= d["result"]["latency_us"]["p50"], d["result"]["ops_per_s"], d["result"]["failures"] + d["result"]["timeouts"])' 2>/dev/null)
set -- $got
if [ $rc -eq 0 ] && [ "${1:-}" = 2000 ] && [ "${2:-}" = 1 ] && [ "${3:-}" = 1 ] && [ "${4:-0}" -ge 1700 ] && [ "${4:-0}" -le 2300 ] && [ "${5:-}" = 0 ]; then
	ok "open loop --rate 2000 --warmup 300ms: ${4} calls/s, warm-up counted apart, latency from the schedule >= service"
else
	nok "open loop --rate 2000 --warmup 300ms" "exit $rc: $got"
fi
# rpcsvc-ref listens on 127.0.0.1 unless told otherwise (/proc/net/tcp:
# local address 0100007F:PORT in state 0A, LISTEN)
hexport=$(printf '%04X' "$P")
if grep -q " 0100007F:$hexport 00000000:0000 0A" /proc/net/tcp && ! grep -q " 00000000:$hexport 00000000:0000 0A" /proc/net/tcp; then ok "rpcsvc-ref listens on 127.0.0.1 by default"; else nok "rpcsvc-ref listens on 127.0.0.1 by default" "not found in /proc/net/tcp"; fi

# slices: one driver, the load moved between targets in slices, in the
# order of a Williams design, every target's connections open throughout.
# slices_check NAME RC EXPR ARGS...: `rpcload slices ARGS --json` exits RC
# and EXPR holds (d: the document, s: its slices, follows(d): how often
# each target came right after another within a round, at(d): how often
# each target took each position, gaps(s): the seconds between one
# slice's end and the next one's start, ran_as_planned(d): the slices ran
# in the order the document gives)
cat >"$TMP/slices.py" <<'PYEOF'
import collections, json, sys
d = json.load(open(sys.argv[1]))
s = d.get("slices", [])
def follows(d):
    c = collections.Counter()
    for row in d["order"]:
        c.update(zip(row, row[1:]))
    return c
def at(d):
    return collections.Counter((t, i) for row in d["order"] for i, t in enumerate(row))
def gaps(s):
    return [b["t_start"] - a["t_end"] for a, b in zip(s, s[1:])]
def ran_as_planned(d):
    return [(x["round"], x["position"], x["target"]) for x in s] == [
        (r + 1, i + 1, t) for r, row in enumerate(d["order"]) for i, t in enumerate(row)]
if not eval(sys.argv[2]):
    print({k: d.get(k) for k in ("design", "order", "error")},
          [(x["round"], x["target"], x["calls"], x["errors"], x["elapsed_s"],
            x["t_measure"] - x["t_start"], x["warmup_calls"]) for x in s][:8])
    sys.exit(1)
PYEOF
slices_check() { rpcload_check slices "$TMP/slices.py" "$@"; }
start_ref ref2
P2=$PORT
slices_check "slices, 2 targets, 4 rounds: 8 slices in the order a b, b a, a b, b a (each after the other once a block), all ok, no reconnect" 0 \
	'd["order"] == [["a", "b"], ["b", "a"]] * 2 and len(s) == 8 and ran_as_planned(d) and d["design"]["balanced"] and d["design"]["rounds_done"] == 4 and follows(d) == {("a", "b"): 2, ("b", "a"): 2} and all(x["errors"] == 0 and x["ok"] == x["calls"] and x["reconnects"] == 0 for x in s) and sum(x["ok"] > 0 for x in s) >= 6 and "error" not in d' \
	-T a=127.0.0.1:$P -T b=127.0.0.1:$P2 --slice 300ms --warm 100ms --rounds 4
slices_check "slices discard each slice's warm-up: its first 100 ms counted apart, the next 200 ms counted, slices one after the other" 0 \
	'all(0.099 <= x["t_measure"] - x["t_start"] <= 0.101 and 0.199 <= x["elapsed_s"] <= 1 and abs(x["t_end"] - x["t_measure"] - x["elapsed_s"]) < 1e-6 for x in s) and sum(x["warmup_calls"] > 0 for x in s) >= 6 and all(0 <= g < 1 for g in gaps(s))' \
	-T a=127.0.0.1:$P -T b=127.0.0.1:$P2 --slice 300ms --warm 100ms --rounds 4
slices_check "slices, 3 targets (one over UDP): the pair of Latin squares, 6 rounds, each target right after each other twice and in each position twice" 0 \
	'len(s) == 18 and ran_as_planned(d) and d["design"]["block"] == 6 and set(follows(d).values()) == {2} and len(follows(d)) == 6 and set(at(d).values()) == {2} and len(at(d)) == 9 and all(x["errors"] == 0 for x in s) and sum(x["ok"] > 0 for x in s) >= 15' \
	-T a=127.0.0.1:$P -T b=127.0.0.1:$P2 -T c=127.0.0.1:$P/udp --slice 150ms --warm 50ms
slices_check "slices echo 4 KiB, 2 conns each at --depth 4: every reply verified, all ok" 0 \
	'len(s) == 4 and all(x["errors"] == 0 for x in s) and sum(x["mb_per_s"] > 0 for x in s) >= 3 and d["params"]["depth"] == 4' \
	-T a=127.0.0.1:$P -T b=127.0.0.1:$P2 --proc echo --size 4k -P 2 --depth 4 --slice 200ms --warm 50ms --rounds 2
slices_check "slices --duration 1300ms, 2 targets, 200 ms slices: 3 rounds fit, 2 of them whole blocks" 0 \
	'len(s) == 4 and d["design"]["rounds"] == 2 and d["design"]["balanced"]' \
	-T a=127.0.0.1:$P -T b=127.0.0.1:$P2 --slice 200ms --warm 50ms -t 1300ms
slices_check "slices whose every call outlasts the counted part (SLEEP 500 ms, 200 ms counted): empty slices, not errors; no call answered: exit 1" 1 \
	'd["empty_slices"] == 4 and all(x["calls"] == 0 and x["errors"] == 0 and x["warmup_calls"] == 1 for x in s) and "no call succeeded in any slice" in d["error"]' \
	-T a=127.0.0.1:$P -T b=127.0.0.1:$P2 --proc sleep --sleep-us 500000 --slice 300ms --warm 100ms --rounds 2
slices_check "slices catch corrupted ECHO replies of one target: mismatches there only, exit 1, the error names it" 1 \
	'sum(x["mismatches"] for x in s if x["target"] == "bad") > 0 and sum(x["errors"] for x in s if x["target"] == "good") == 0 and "target bad" in d["error"]' \
	-T good=127.0.0.1:$P -T bad=127.0.0.1:$PC --proc echo --size 256 --slice 200ms --warm 50ms --rounds 2
# Every target's connections stay open the whole cell: while the load is on
# one target, the other's 3 connections are still established
# (/proc/net/tcp: remote address 0100007F:PORT, state 01).
established() { grep -c " 0100007F:[0-9A-F]* 0100007F:$(printf '%04X' "$1") 01 " /proc/net/tcp; }
"$RPCLOAD" slices -T a=127.0.0.1:$P -T b=127.0.0.1:$P2 -P 3 --slice 500ms --warm 100ms --rounds 4 --json --no-progress >"$TMP/k.json" 2>"$TMP/err" &
kpid=$!
seen=""
for t in 1 2 3; do
	sleep 0.7
	seen="$seen $(established "$P")/$(established "$P2")"
done
wait $kpid
rc=$?
recon=$(json_get "$TMP/k.json" 'sum(x["reconnects"] for x in d["slices"])' 2>/dev/null)
case "$rc|$recon|$seen" in
"0|0| 3/3 3/3 3/3") ok "slices keep every target's 3 connections open throughout (established a/b:$seen), no reconnect" ;;
*) nok "slices keep every target's connections open" "exit $rc, reconnects $recon, established a/b:$seen" ;;
esac
# An unreachable target: one line on stderr naming it, exit 1, nothing
# measured; with --json a document with the error.
"$RPCLOAD" slices -T a=127.0.0.1:$P -T gone=127.0.0.1:$CP --json >"$TMP/e.json" 2>"$TMP/err"
rc=$?
got=$(json_get "$TMP/e.json" '"%d|%s" % (len(d["slices"]), d["error"])' 2>/dev/null)
case "$rc|$(wc -l <"$TMP/err")|$(cat "$TMP/err")|$got" in
"1|1|rpcload: slices: target gone: 127.0.0.1:$CP/tcp: connect: Connection refused|0|target gone: "*"Connection refused") ok "slices with an unreachable TCP target: exit 1, one line: $(cat "$TMP/err")" ;;
*) nok "slices with an unreachable TCP target" "exit $rc: $(cat "$TMP/err") / $got" ;;
esac
"$RPCLOAD" slices -T a=127.0.0.1:$P -T gone=127.0.0.1:$CP/udp >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^rpcload: slices: target gone: .*NULL call failed" "$TMP/err" && [ ! -s "$TMP/out" ]; then
	ok "slices with an unreachable UDP target: exit 1, one line: $(cat "$TMP/err")"
else
	nok "slices with an unreachable UDP target" "exit $rc: $(cat "$TMP/err")"
fi

# Usage errors: one line "rpcload: ...", exit 2.
usage() {
	name=$1; shift
	"$RPCLOAD" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q '^rpcload: ' "$TMP/err" && [ ! -s "$TMP/out" ]; then
		ok "$name: $(cat "$TMP/err")"
	else
		nok "$name" "exit $rc: $(cat "$TMP/err")"
	fi
}
usage "unknown command" frob
usage "unknown option" load --frob
usage "bad value" load --conns 0
usage "depth 0" load --depth 0
usage "missing value" echo --size
usage "bad case name" bad --case nope -p "$P"
usage "slices with one target" slices -T a=127.0.0.1:1

# Help.
helps_ok=1
for c in "" null echo sleep load bad slices; do
	if [ -z "$c" ]; then "$RPCLOAD" --help >"$TMP/out" 2>&1 || helps_ok=0
	else "$RPCLOAD" "$c" --help >"$TMP/out" 2>&1 || helps_ok=0; fi
	[ -s "$TMP/out" ] || helps_ok=0
done
if [ $helps_ok = 1 ]; then ok "--help of rpcload and of each command exits 0"; else nok "--help" "a help failed"; fi

# bad mode against rpcsvc-ref: libtirpc differs, so cases fail; it must
# finish in time and leave the server alive.
start=$(date +%s)
timeout 90 "$RPCLOAD" bad -p "$P" >"$TMP/bad.tap" 2>"$TMP/err"
rc=$?
el=$(( $(date +%s) - start ))
if [ $rc -le 1 ] && [ $el -le 40 ] && grep -q '^1\.\.' "$TMP/bad.tap" && "$RPCLOAD" null -p "$P" >/dev/null 2>&1; then
	ok "bad against rpcsvc-ref finishes in ${el}s ($(grep -c '^ok' "$TMP/bad.tap") ok, $(grep -c '^not ok' "$TMP/bad.tap") not ok: libtirpc differs), server alive"
else
	nok "bad against rpcsvc-ref" "exit $rc after ${el}s"
fi

# bad mode against the Python model of the module: every case passes.
if command -v python3 >/dev/null; then
	MP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	: >"$TMP/mock.log"
	python3 "$HERE/mock_svcsock.py" "$MP" 128 >>"$TMP/mock.log" 2>&1 &
	PIDS="$PIDS $!"
	i=0
	while [ $i -lt 50 ] && ! grep -q ready "$TMP/mock.log"; do sleep 0.1; i=$((i + 1)); done
	start=$(date +%s)
	timeout 90 "$RPCLOAD" bad -p "$MP" --seed 7 >"$TMP/badm.tap" 2>"$TMP/err"
	rc=$?
	el=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then ok "bad against mock_svcsock.py: all $(grep -c '^ok' "$TMP/badm.tap") cases pass in ${el}s"
	else nok "bad against mock_svcsock.py" "exit $rc: $(grep '^not ok' "$TMP/badm.tap" | head -3 | tr '\n' ' ')"; fi
	timeout 30 "$RPCLOAD" bad -p "$MP" --case conn-flood,tcp-null --max-conns 16 >"$TMP/badm.tap" 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ]; then ok "a wrong --max-conns makes conn-flood fail"; else nok "a wrong --max-conns makes conn-flood fail" "it passed"; fi

	# --depth against the model: calls really in flight together, replies
	# that match no call, calls that get no reply or a late one.
	start_mock() {
		MP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
		: >"$TMP/mock.log"
		python3 "$HERE/mock_svcsock.py" "$MP" "$@" >>"$TMP/mock.log" 2>&1 &
		PIDS="$PIDS $!"
		i=0
		while [ $i -lt 50 ] && ! grep -q ready "$TMP/mock.log"; do sleep 0.1; i=$((i + 1)); done
	}
	# It takes every call that has arrived before it answers any, and
	# keeps the most one batch held: one call at a time, it holds one.
	start_mock --batch-stats "$TMP/batch"
	load_check "model answering in batches: --depth 1 over tcp never has 2 calls in flight" 0 \
		'r["ok"] == 200 and b["tcp"] == 1' -p "$MP" --calls 200
	for proto in tcp udp; do
		load_check "model answering in batches: --depth 8 over $proto, null: all ok, 2..8 calls in flight together" 0 \
			"r['ok'] == 2000 and 2 <= b['$proto'] <= 8" -p "$MP" --proto $proto --depth 8 --calls 2000
		load_check "model answering in batches: --depth 8 over $proto, echo 1000 bytes: all ok, never more than 8 in flight" 0 \
			"r['ok'] == 2000 and 2 <= b['$proto'] <= 8" -p "$MP" --proto $proto --depth 8 --calls 2000 \
			--proc echo --size 1000
	done
	rm -f "$TMP/batch"
	start_mock --bad-xid 100
	for proto in tcp udp; do
		load_check "model giving every 100th reply another xid: --depth 8 over $proto counts 20 mismatches in 2000, exit 1" 1 \
			'r["mismatches"] == 20 and r["ok"] == 1980 and "matches no outstanding call" in r["first_error"]' \
			-p "$MP" --proto $proto --depth 8 --calls 2000
	done
	start_mock --drop 500
	load_check "model dropping every 500th call: --depth 8 over udp, 4 timeouts in 2000, no reconnect" 1 \
		'r["timeouts"] == 4 and r["ok"] == 1996 and r["reconnects"] == 0' \
		-p "$MP" -u --depth 8 --calls 2000 --timeout-ms 300
	start_mock --drop 200
	load_check "model dropping every 200th call: --depth 8 over tcp, a timeout closes the connection, its 8 outstanding calls time out" 1 \
		'r["reconnects"] >= 1 and r["timeouts"] >= 8 * r["reconnects"] and r["calls"] == r["ok"] + r["timeouts"]' \
		-p "$MP" --depth 8 -t 1 --timeout-ms 200
	start_mock --late 200
	load_check "model answering every 200th call 500 ms late: --depth 8 over udp, timeouts, late replies dropped (no mismatch)" 1 \
		'r["timeouts"] >= 2 and r["mismatches"] == 0 and r["calls"] == r["ok"] + r["timeouts"]' \
		-p "$MP" -u --depth 8 -t 2 --timeout-ms 200
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ok "# SKIP python3 missing"; done
fi

echo "# $((N - FAILED)) passed, $FAILED failed"
[ $FAILED -eq 0 ]
