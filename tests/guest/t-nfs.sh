# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-nfs BUILD: the module's NFS version 3 and MOUNT version 3 programs
# (svc_nfs3.c, svc_mount3.c) over its synthetic export (svc_export.c),
# first called by hand, then mounted by the guest kernel's own NFS client.
#
#  - nfs-bad over TCP and UDP, IPv4 and IPv6: good and malformed calls,
#    each reply as RFC 1813 says (bad handle lengths and magic, handles of
#    another load, READ past the end, count 0 and beyond rtmax, READDIR cookies
#    never issued, names over NAME_MAX, ".." at the root, every procedure
#    that would write); the nfs3_err_* counters count them;
#  - the kernel client mounts the export (vers=3, nolock; the kernel
#    makes the MOUNT call itself, to mountport) over TCP (nconnect=4) and
#    UDP, at 127.0.0.1 and ::1: the tree has the export's shape and sizes, `stat` of every entry
#    works, and every byte read matches the export's formula
#    (nfs-tree check, eight readers); unmount;
#  - rmmod while the client reads (a soft mount): the module goes in
#    bounded time and the reader gets an error, not a hang.
. "$(dirname "$0")/lib.sh"
b=$1
dirs=3 files=4 size=200000
mnt=/tmp/nfs.$$
shape="--dirs $dirs --files $files --size $size"
nodes=$((1 + dirs + dirs * files))

# nfs_mount ADDR PROTO [OPTION,...]: mount the export at $mnt
nfs_mount() {
	_src=$1
	case $1 in *:*) _src="[$1]" ;; esac
	mount -t nfs -o "vers=3,nolock,proto=$2,port=$PORT,mountport=$PORT,mountproto=$2,addr=$1${3:+,$3}" \
		"$_src:/" "$mnt"
}

load_module "$b" "export_dirs=$dirs" "export_files=$files" \
	"export_file_size=$size" || { not_ok "module loads"; exit 1; }
modprobe nfsv3 2>/dev/null
mkdir -p "$mnt"

for addr in 127.0.0.1 ::1; do
	for proto in tcp udp; do
		# shellcheck disable=SC2086
		{ nfs-bad --host $addr --proto $proto $shape; echo "#@exit $?"; } 2>&1 |
			tap_relay "nfs-bad $addr $proto: "
	done
done
for c in badhandle stale noent nametoolong bad_cookie rofs; do
	check "nfs3_err_$c counted the malformed calls ($(stat nfs3_err_$c))" \
		test "$(stat nfs3_err_$c)" -gt 0
done
check "mount3_err counted the failed MNTs ($(stat mount3_err))" \
	test "$(stat mount3_err)" -gt 0

for addr in 127.0.0.1 ::1; do
	for proto in tcp udp; do
		opts=
		[ $proto = tcp ] && opts=nconnect=4
		m="$addr $proto${opts:+ $opts}"
		if ! check "mount over $m" nfs_mount $addr $proto $opts; then
			continue
		fi
		check "$m: the tree has $nodes entries" \
			test "$(find "$mnt" | wc -l)" = "$nodes"
		check "$m: stat of every entry" \
			sh -c "find '$mnt' -exec stat -c '%i %s %a' {} + >/dev/null"
		read0=$(stat nfs3_read_bytes)
		# shellcheck disable=SC2086
		check "$m: every byte read matches the export (8 readers)" \
			nfs-tree check "$mnt" $shape --jobs 8
		check "$m: the server read them ($(stat nfs3_read_bytes) bytes, was $read0)" \
			test "$(stat nfs3_read_bytes)" -gt "$read0"
		check "$m: unmount" umount "$mnt"
	done
done

# rmmod under a reader: a soft mount, so that the client gives up
if check "mount over tcp, soft, for rmmod" nfs_mount 127.0.0.1 tcp soft,timeo=10,retrans=1; then
	sh -c "while cat '$mnt'/d*/f* >/dev/null 2>&1; do :; done" &
	reader=$!
	sleep 1
	t0=$(date +%s)
	check "rmmod while the client reads" unload_module "$b"
	t1=$(date +%s)
	check "rmmod took at most 5 s ($((t1 - t0)) s)" test $((t1 - t0)) -le 5
	check "the reader saw an error and stopped" \
		wait_for 60 sh -c "! kill -0 $reader 2>/dev/null"
	kill "$reader" 2>/dev/null
	umount -f "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
	load_module "$b" || not_ok "module loads again"
fi
rmdir "$mnt" 2>/dev/null
unload_module "$b"
exit "$T_FAILED"
