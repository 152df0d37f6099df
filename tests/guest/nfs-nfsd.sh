#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nfs-nfsd.sh: the guest's NFS client against the guest's kernel nfsd
# exporting the synthetic tree from a tmpfs (nfs-lib.sh), read back and
# checked byte for byte by nfs-tree check: over TCP and UDP, IPv4 and (when
# the kernel has it) IPv6, and TCP with nconnect=4.  Not a test of the
# module yet: what proves the guest side (mount.nfs, the client modules,
# nfs-lib.sh, nfs-tree) before the module serves NFS.  TAP, with each
# case's time and the client's READ count (/proc/self/mountstats) as
# diagnostics.
#
#   initramfs/vm-run --timeout 900 -- /svcsock/tests/guest/nfs-nfsd.sh
#
# Environment: TREE (nfs-tree's shape options, default
# "--dirs 4 --files 16 --size 1M": 64 MiB), JOBS (readers, default 8),
# CASES (default "tcp udp tcp-mountudp tcp-nconnect4 tcp6 udp6";
# tcp-mountudp: NFS over TCP, MOUNT over UDP).  Where the kernel's client
# has no UDP (Debian's: CONFIG_NFS_DISABLE_UDP_SUPPORT=y), the UDP cases
# must fail to mount, and are then skipped.
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/nfs-lib.sh"
: "${TREE:=--dirs 4 --files 16 --size 1M}"
: "${JOBS:=8}"
: "${CASES:=tcp udp tcp-mountudp tcp-nconnect4 tcp6 udp6}"
exp=/export mnt=/mnt/nfs
NFS_EXPORT=$exp

if ! nfs_client_ready; then
	echo "1..0 # SKIP no NFSv3 client in this kernel"
	exit 0
fi
t0=$(now)
# shellcheck disable=SC2086 # TREE: several options
check "nfs-tree write on a tmpfs ($TREE)" nfs_tree_tmpfs $exp $TREE
diag "write: $(since "$t0") s"
t0=$(now)
# shellcheck disable=SC2086
check "nfs-tree check on the tmpfs itself" nfs-tree check $exp $TREE --jobs "$JOBS"
diag "local check: $(since "$t0") s"
check "nfsd started (v3, 2049 tcp+udp, 8 threads), rpc.mountd on $NFSD_MOUNTPORT" nfsd_start 8
check "exportfs $exp" nfsd_export $exp
diag "nfsd: versions $(cat /proc/fs/nfsd/versions); portlist: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
diag "listening: $(netstat -ltnu 2>/dev/null | awk '$4 ~ /:(2049|20048)$/ {printf "%s %s; ", $1, $4}')"

for c in $CASES; do
	case $c in
	tcp) addr=127.0.0.1 proto=tcp opts="" ;;
	udp) addr=127.0.0.1 proto=udp opts="" ;;
	tcp-mountudp) addr=127.0.0.1 proto=tcp opts=mountproto=udp ;;
	tcp-nconnect4) addr=127.0.0.1 proto=tcp opts=nconnect=4 ;;
	tcp6) addr=::1 proto=tcp opts="" ;;
	udp6) addr=::1 proto=udp opts="" ;;
	*) not_ok "case $c" "unknown"; continue ;;
	esac
	if [ "$addr" = ::1 ] && [ ! -e /proc/net/if_inet6 ]; then
		ok "$c # SKIP no IPv6 in this kernel"
		continue
	fi
	if [ "$proto" = udp ] && ! nfs_udp_ready 2>"/tmp/udp.why"; then
		if nfs_mount "$addr" 2049 udp $mnt mountport="$NFSD_MOUNTPORT" >/dev/null 2>&1; then
			not_ok "$c: mount" "mounted, though $(cat /tmp/udp.why)"
			nfs_umount $mnt
		else
			ok "$c: mount refused # SKIP $(cat /tmp/udp.why)"
		fi
		continue
	fi
	t0=$(now)
	if ! nfs_mount "$addr" 2049 "$proto" $mnt mountport="$NFSD_MOUNTPORT" ${opts:+"$opts"} \
		2>"/tmp/mount.$c"; then
		not_ok "$c: mount" "$(tail -n 1 "/tmp/mount.$c")"
		sed 's/^/# /' "/tmp/mount.$c"
		continue
	fi
	ok "$c: mount"
	sed 's/^/# /' "/tmp/mount.$c"
	diag "$c: $(grep " $mnt " /proc/mounts)"
	tm=$(since "$t0")
	t1=$(now)
	# shellcheck disable=SC2086
	check "$c: nfs-tree check --jobs $JOBS (every byte)" nfs-tree check $mnt $TREE --jobs "$JOBS"
	tc=$(since "$t1")
	# the client's own count of what went over the wire
	diag "$c: $(awk -v m="$mnt" '$1 == "device" { on = ($5 == m) }
		on && ($1 == "xprt:" || $1 == "READ:" || $1 == "READDIRPLUS:" || $1 == "LOOKUP:") {
			sub(/^[ \t]+/, ""); printf "%s | ", $0 }' /proc/self/mountstats)"
	t1=$(now)
	check "$c: umount" nfs_umount $mnt
	diag "$c: mount $tm s, check $tc s, umount $(since "$t1") s"
done
check "nfsd stopped" nfsd_stop
[ "$T_FAILED" = 0 ]
