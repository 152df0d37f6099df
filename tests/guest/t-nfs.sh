# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-nfs BUILD: the module's NFS version 3 and MOUNT version 3 programs
# (svc_nfs3.c, svc_mount3.c) over its synthetic export (svc_export.c),
# first called by hand, then mounted by the guest kernel's own NFS client.
#
#  - nfs-bad over TCP and UDP, IPv4 and IPv6 (on the debug kernels IPv4
#    over TCP and IPv6 over UDP): good and malformed calls,
#    each reply as RFC 1813 says (bad handle lengths and magic, handles of
#    another load, READ past the end, count 0 and beyond rtmax, READDIR cookies
#    never issued, names over NAME_MAX, ".." at the root, every procedure
#    that would write); the nfs3_err_* counters count them;
#  - the kernel client mounts the export (vers=3, nolock; the kernel
#    makes the MOUNT call itself, to mountport) over TCP (nconnect=4) and
#    UDP (where the kernel's client has UDP: Debian's stock kernel does
#    not, CONFIG_NFS_DISABLE_UDP_SUPPORT, so those are skipped), at
#    127.0.0.1 and ::1: the tree has the export's shape and sizes, `stat` of every entry
#    works, and every byte read matches the export's formula
#    (nfs-tree check, eight readers, st_ino the fileid); unmount;
#  - rmmod while the client reads (a soft mount): the module goes in
#    bounded time and the reader gets an error, not a hang.
# NFS_PASSES replaces the list of ADDR/PROTO passes; NFS_MOUNTS=0 leaves
# the kernel client out (nfs-bad's calls and the counters only: the NFS
# mutants, which nfs-bad's points catch, tests/host/mutants.t).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfs-lib.sh"
b=$1
dirs=3 files=4 size=200000
mnt=/tmp/nfs.$$
shape="--dirs $dirs --files $files --size $size"
nodes=$((1 + dirs + dirs * files))

load_module "$b" "export_dirs=$dirs" "export_files=$files" \
	"export_file_size=$size" || { not_ok "module loads"; exit 1; }
check "the kernel has an NFSv3 client and the image mount.nfs" nfs_client_ready
udp_why=$(nfs_udp_ready 2>&1)

# Every address with every transport; on the debug kernels, which run
# everything several times slower, IPv4 over TCP and IPv6 over UDP (both
# families, both transports, every procedure's decoding once; bench/
# nfs-matrix reads the whole export over all of them on every kernel).
passes="127.0.0.1/tcp 127.0.0.1/udp ::1/tcp ::1/udp"
if debug_kernel; then
	passes="127.0.0.1/tcp ::1/udp"
fi
passes=${NFS_PASSES:-$passes}
for pass in $passes; do
	addr=${pass%/*} proto=${pass#*/}
	# shellcheck disable=SC2086
	{ nfs-bad --host $addr --proto $proto $shape; echo "#@exit $?"; } 2>&1 |
		tap_relay "nfs-bad $addr $proto: "
done
for c in badhandle stale noent nametoolong bad_cookie rofs; do
	check "nfs3_err_$c counted the malformed calls ($(stat nfs3_err_$c))" \
		test "$(stat nfs3_err_$c)" -gt 0
done
check "mount3_err counted the failed MNTs ($(stat mount3_err))" \
	test "$(stat mount3_err)" -gt 0
if [ "${NFS_MOUNTS:-1}" = 0 ]; then
	unload_module "$b"
	exit "$T_FAILED"
fi

for pass in $passes; do
	addr=${pass%/*} proto=${pass#*/}
	opts=
	[ $proto = tcp ] && opts=nconnect=4
	m="$addr $proto${opts:+ $opts}"
	if [ $proto = udp ] && [ -n "$udp_why" ]; then
		ok "mount over $m # SKIP $udp_why"
		continue
	fi
	if ! check "mount over $m" nfs_mount $addr "$PORT" $proto "$mnt" $opts; then
		continue
	fi
	check "$m: the tree has $nodes entries" \
		test "$(find "$mnt" | wc -l)" = "$nodes"
	check "$m: stat of every entry" \
		sh -c "find '$mnt' -exec stat -c '%i %s %a' {} + >/dev/null"
	read0=$(stat nfs3_read_bytes)
	# shellcheck disable=SC2086
	check "$m: every byte read matches the export (8 readers)" \
		nfs-tree check "$mnt" $shape --jobs 8 --fileids
	check "$m: the server read them ($(stat nfs3_read_bytes) bytes, was $read0)" \
		test "$(stat nfs3_read_bytes)" -gt "$read0"
	check "$m: unmount" umount "$mnt"
done

# rmmod under a reader: a soft mount, so that the client gives up
if check "mount over tcp, soft, for rmmod" \
	nfs_mount 127.0.0.1 "$PORT" tcp "$mnt" soft timeo=10 retrans=1; then
	# O_DIRECT: each read goes to the server, not the page cache; one
	# file, so that the first read the server does not answer ends it;
	# it says so in a file (kill -0 cannot tell a zombie from a reader)
	rm -f "$mnt.ended"
	sh -c "while dd if='$mnt/d0/f0' of=/dev/null bs=65536 iflag=direct 2>/dev/null; do :; done; : >'$mnt.ended'" &
	reader=$!
	sleep 1
	t0=$(date +%s)
	check "rmmod while the client reads" unload_module "$b"
	t1=$(date +%s)
	check "rmmod took at most 5 s ($((t1 - t0)) s)" test $((t1 - t0)) -le 5
	check "the reader saw an error and stopped within 30 s" \
		wait_until 30 test -e "$mnt.ended"
	kill "$reader" 2>/dev/null
	wait "$reader" 2>/dev/null
	rm -f "$mnt.ended"
	umount -f "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
	load_module "$b" || not_ok "module loads again"
fi
rmdir "$mnt" 2>/dev/null
unload_module "$b"
exit "$T_FAILED"
