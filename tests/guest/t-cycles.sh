# SPDX-License-Identifier: GPL-2.0
# t-cycles BUILD: load/serve/unload cycles leave kernel memory where it
# was.  The module counts every object it allocates per socket and per
# thread (svc_obj_alloc()) and unloading WARNs "N objects leaked" when
# any is left: exact, so a handful of cycles catches a leak of one, and
# each cycle must end with no such line.  Beside it, what the kernel holds
# for us: sockets in use exactly (sockstat: a leaked socket, however
# small, shows), and unreclaimable slab and vmalloc from /proc/meminfo.
. "$(dirname "$0")/lib.sh"
b=$1
: "${CYCLES:=10}"
# Allowed growth over all cycles, KiB.  With another guest (or any other
# load) on the host cores the slab moved with no leak by up to +284 KiB,
# sockets and vmalloc unchanged: RCU frees that a slow grace period had
# not run yet.  So the bound is 512: a catch-all for kernel memory held
# on our behalf, 51 KiB a cycle or more over the 10 cycles (30 took 29 s
# of each stock job: the exact count needs no long run); our own objects
# are counted exactly (above), and any leaked thread buffer (1 MiB)
# breaks the vmalloc bound.
: "${SLAB_SLACK_KB:=512}"
: "${VMALLOC_SLACK_KB:=512}"

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
sockets_used() { awk '$1 == "sockets:" { print $3 }' /proc/net/sockstat; }
# rpc-pipeline rather than rpcload: a small C program that
# starts in milliseconds, where rpcload's start-up would dominate.
cycle() {
	load_module "$b" &&
		rpc-pipeline --calls 2 --proto tcp >/dev/null &&
		rpc-pipeline --calls 2 --proto udp >/dev/null &&
		unload_module "$b"
}

# settle: drop the page cache, give freed objects time to pass RCU, and
# empty slabs back (kmem_cache_shrink), so that only held memory counts;
# then wait (up to 5 s) until SUnreclaim stops falling.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	_prev=0
	for _i in 1 2 3 4 5; do
		sleep 1
		for _f in /sys/kernel/slab/*/shrink; do echo 1 >"$_f"; done 2>/dev/null
		_now=$(meminfo SUnreclaim)
		[ "$_now" -ge "$_prev" ] && [ "$_prev" -gt 0 ] && break
		_prev=$_now
	done
}

cycle || { not_ok "first cycle"; exit 1; }	# warm caches up
settle
slab0=$(meminfo SUnreclaim) vm0=$(meminfo VmallocUsed) socks0=$(sockets_used)
i=0 failed=0
while [ $i -lt "$CYCLES" ]; do
	cycle || failed=$((failed + 1))
	i=$((i + 1))
done
settle
slab1=$(meminfo SUnreclaim) vm1=$(meminfo VmallocUsed) socks1=$(sockets_used)
diag "SUnreclaim ${slab0} -> ${slab1} kB, VmallocUsed ${vm0} -> ${vm1} kB"
check "$CYCLES cycles of load, serve, unload" test "$failed" = 0
leaks=$(dmesg | grep -c 'objects leaked')
check "no object of the module's left at unload (dmesg: $leaks \"objects leaked\")" \
	test "$leaks" = 0
check "unreclaimable slab grew < ${SLAB_SLACK_KB} kB" \
	test $((slab1 - slab0)) -lt "$SLAB_SLACK_KB"
check "vmalloc grew < ${VMALLOC_SLACK_KB} kB" \
	test $((vm1 - vm0)) -lt "$VMALLOC_SLACK_KB"
check "every socket released: sockets in use $socks0 -> $socks1" \
	test "$socks1" -eq "$socks0"
