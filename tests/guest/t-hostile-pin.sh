# SPDX-License-Identifier: GPL-2.0
# t-hostile-pin BUILD: 1000 connections that each send a record marker
# claiming 1 MiB, 4 bytes of the record, and then nothing (issue 11).
# A server that allocates the claimed length up front holds 1 GiB for
# them; the target is at most PIN_MAX_KB (32 MiB) for all 1000, sockets
# included (counted as slab+vmalloc, see kmem in lib-hostile.sh; the
# change of MemTotal-MemAvailable is logged beside it).  With
# idle_timeout=2 every one must be closed within a few seconds and
# counted in idle_closed, and memory must come back.  A good client is
# served while they are held, and rmmod returns within 5 s with
# PIN_RMMOD_CONNS of them pinned.
# Knobs: PIN_CONNS (1000), PIN_CLAIM (1048576), PIN_MAX_KB (32768),
# PIN_MS (attack bound, 60000), PIN_IDLE_WAIT_S (10), PIN_RMMOD_CONNS
# (200), PIN_MEM_TOL_KB (HOSTILE_MEM_TOL_KB), and those of lib-hostile.sh.
. "$(dirname "$0")/lib-hostile.sh"
b=$1
: "${PIN_CONNS:=1000}"
: "${PIN_CLAIM:=1048576}"
: "${PIN_MAX_KB:=32768}"
: "${PIN_MS:=60000}"
: "${PIN_IDLE_WAIT_S:=10}"
: "${PIN_RMMOD_CONNS:=200}"
: "${PIN_MEM_TOL_KB:=$HOSTILE_MEM_TOL_KB}"
idle=/sys/module/svcsock_$b/parameters/idle_timeout

holding() { grep -q holding "$1"; }
sockets_at_least() { [ "$(counter sockets)" -ge "$1" ]; }
used() { echo $(($(meminfo MemTotal) - $(meminfo MemAvailable))); }

kmem0=$(kmem)
load_module "$b" max_conns=2000 || { not_ok "module loads"; exit 1; }
idle0=$(counter idle_closed)
diag "idle_timeout: $(cat "$idle" 2>/dev/null || echo 'no such parameter')"
good_baseline
kmem1=$(kmem)
used1=$(used)
mem_diag "loaded"

attack "$HT/pin.json" "$HT/pin.err" pin --conns "$PIN_CONNS" \
	--claim "$PIN_CLAIM" --duration-ms "$PIN_MS"
wait_until 60 holding "$HT/pin.err" ||
	not_ok "$PIN_CONNS pinning connections open" "not within 60 s"
diag "$(cat "$HT/pin.err")"
# every one accepted, and a moment for the server to read their markers
wait_until 20 sockets_at_least "$PIN_CONNS" ||
	diag "only $(counter sockets) sockets after 20 s"
sleep 2
diag "sockets $(counter sockets), tcp_accepted $(counter tcp_accepted)"
kmem2=$(kmem)
used2=$(used)
mem_diag "held"
d=$((kmem2 - kmem1))
du=$((used2 - used1))
if [ "$d" -le "$PIN_MAX_KB" ]; then
	ok "$PIN_CONNS connections claiming $PIN_CLAIM bytes hold at most $PIN_MAX_KB kB (slab+vmalloc +$d kB; MemTotal-MemAvailable +$du kB)"
else
	not_ok "$PIN_CONNS connections claiming $PIN_CLAIM bytes hold at most $PIN_MAX_KB kB" \
		"slab+vmalloc +$d kB ($((d / PIN_CONNS)) kB each); MemTotal-MemAvailable +$du kB"
fi

good_load_under "$HT/under.json"
under=$GOOD_RATE

t0=$(now)
if { echo 2 >"$idle"; } 2>/dev/null; then
	ok "idle_timeout set to 2 at run time"
else
	not_ok "idle_timeout set to 2 at run time" "cannot write $idle"
fi
# The attacker stops by itself once the server has closed all of them.
wait_within "$PIN_IDLE_WAIT_S" dead "$APID"
st=$?
if [ $st != 1 ]; then
	wait "$APID"
	took=$(since "$t0")
	diag "attacker: $(cat "$HT/pin.json")"
	closed=$(json_field "$HT/pin.json" closed)
	conns=$(json_field "$HT/pin.json" connected)
	if [ $st = 2 ]; then
		not_ok "every pinned connection closed within $PIN_IDLE_WAIT_S s of idle_timeout=2" \
			"the attacker ended only ${WAITED_S} s later ($closed of $conns closed)"
	elif [ "$closed" = "$conns" ]; then
		ok "every pinned connection closed within $PIN_IDLE_WAIT_S s of idle_timeout=2 ($closed in $took s)"
	else
		not_ok "every pinned connection closed within $PIN_IDLE_WAIT_S s of idle_timeout=2" "$closed of $conns"
	fi
else
	left=$(counter sockets)
	stop_attack "$APID" "$HT/pin.json"
	not_ok "every pinned connection closed within $PIN_IDLE_WAIT_S s of idle_timeout=2" \
		"$(json_field "$HT/pin.json" closed) of $(json_field "$HT/pin.json" connected) closed; the server still had $left sockets"
fi
i=$(counter idle_closed)
if [ -z "$i" ]; then
	not_ok "idle_closed counts all $PIN_CONNS" "no counter idle_closed in $(svc_proc)"
elif [ $((i - ${idle0:-0})) -ge "$PIN_CONNS" ]; then
	ok "idle_closed counts all $PIN_CONNS (+$((i - ${idle0:-0})))"
else
	not_ok "idle_closed counts all $PIN_CONNS" "+$((i - ${idle0:-0}))"
fi
wait_sockets 0 5 || diag "sockets still open: $(counter sockets)"
check_mem_returns "$kmem1" "once the pinned connections are closed" \
	"$PIN_MEM_TOL_KB"
good_alone "$HT/alone2.json"
check_good "a good client is served beside $PIN_CONNS pinned connections" \
	"$HT/under.json" "$under" "$alone" "$GOOD_RATE"

# Pin some again, and rmmod while they are held.
{ echo 360 >"$idle"; } 2>/dev/null
attack "$HT/pin2.json" "$HT/pin2.err" pin --conns "$PIN_RMMOD_CONNS" \
	--claim "$PIN_CLAIM" --duration-ms "$PIN_MS"
wait_until 30 holding "$HT/pin2.err"
wait_until 10 sockets_at_least "$PIN_RMMOD_CONNS"
diag "$(cat "$HT/pin2.err")"
rmmod_under_attack "$b" "$HT/pin2.json" 10 "the pinning client ends once the module is gone" \
	"after rmmod with connections pinned (against before loading)" "$PIN_MEM_TOL_KB"
exit "$T_FAILED"
