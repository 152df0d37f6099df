# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# nfs-lib.sh: the guest's NFS client, and kernel nfsd exporting the
# synthetic tree (issue 26), for guest tests and bench/guest (busybox sh).
# Sourced, not run; needs nothing else sourced first.
#
#   nfs_mount ADDR PORT PROTO MNT [OPT...]
#       mount ADDR's export $NFS_EXPORT (default /) on MNT with NFSv3 over
#       PROTO (tcp or udp), NFS and MOUNT both at PORT over PROTO, no NLM:
#         vers=3,proto=P,port=PORT,mountport=PORT,mountproto=P,nolock
#       then $NFS_MOUNT_OPTS and each OPT (name=value or a flag, e.g.
#       nconnect=4, rsize=65536, soft, timeo=50, mountport=20048), each
#       replacing a default of the same name.  ADDR is IPv4 or IPv6
#       (::1; the source becomes [::1]:/ and the netids tcp6/udp6).
#       Through mount.nfs (the image's, from nfs-common), as mount(8)
#       does; the command and mount.nfs's complaint, if any, on stderr.
#   nfs_umount MNT          unmount (and, if that fails, force it)
#   nfs_udp_ready           the kernel's client can use UDP: Debian's 6.1
#                           has CONFIG_NFS_DISABLE_UDP_SUPPORT=y (the
#                           default), which refuses proto=udp ("NFS:
#                           Unsupported transport protocol udp"); MOUNT
#                           over UDP (mountproto=udp) works either way
#   kconfig NAME            this kernel's CONFIG_NAME: y, m or n (from the
#                           /boot/config-KREL the image carries)
#   nfs_client_ready        the kernel's NFSv3 client is there (modprobe
#                           nfsv3 where it is a module); 1 and why if not
#
#   nfs_tree_tmpfs DIR [NFS-TREE-OPTS...]
#       a tmpfs on DIR holding the synthetic tree (nfs-tree write)
#   nfsd_start [THREADS]    kernel nfsd, NFSv3 only, on port 2049 TCP and
#                           UDP (IPv4, and IPv6 when the kernel has it),
#                           THREADS threads (default 8), READs of up to
#                           $NFSD_MAX_BLOCK bytes (default 1048576, the
#                           module's rtmax over TCP; the kernel's own
#                           default scales with memory: 256 KiB in a 2 GiB
#                           guest); rpcbind, and rpc.mountd on
#                           $NFSD_MOUNTPORT (default 20048)
#   nfsd_export DIR         export DIR read-only to everyone (exportfs;
#                           fsid=1: tmpfs has no UUID)
#   nfsd_stop               unexport all, stop rpc.mountd and nfsd's threads
#
# A mount of the guest's nfsd exporting the tree:
#   nfs_tree_tmpfs /export && nfsd_start && nfsd_export /export &&
#   NFS_EXPORT=/export nfs_mount 127.0.0.1 2049 tcp /mnt mountport=20048 &&
#   nfs-tree check /mnt --jobs 8 && nfs_umount /mnt
#
# Each function returns 0 or 1, saying why on stderr.

: "${NFS_EXPORT:=/}"
: "${NFS_MOUNT_OPTS:=}"
: "${NFSD_PORT:=2049}"
: "${NFSD_MOUNTPORT:=20048}"
: "${NFSD_MAX_BLOCK:=1048576}"
: "${NFS_LOG:=/tmp/nfs-lib}"	# where the daemons' logs go

nfs_client_ready() {
	# v3 is a module of its own (nfsv3, needing nfs) where nfs is one
	modprobe nfsv3 2>/dev/null
	if ! grep -qw nfs /proc/filesystems 2>/dev/null; then
		echo "nfs_client_ready: no NFS client in this kernel (CONFIG_NFS_FS)" >&2
		return 1
	fi
	# built in, v3 leaves no trace in /sys/module: ask the config
	if [ "$(kconfig NFS_V3)" != y ] && [ ! -d /sys/module/nfsv3 ]; then
		echo "nfs_client_ready: no NFSv3 in this kernel's client (CONFIG_NFS_V3)" >&2
		return 1
	fi
	command -v mount.nfs >/dev/null || {
		echo "nfs_client_ready: no mount.nfs in the image" >&2; return 1; }
}

kconfig() {
	_v=$(sed -n "s/^CONFIG_$1=//p" "/boot/config-$(uname -r)" 2>/dev/null)
	echo "${_v:-n}"
}

nfs_udp_ready() {
	if [ ! -f "/boot/config-$(uname -r)" ]; then
		echo "nfs_udp_ready: no /boot/config-$(uname -r) in the image" >&2
		return 1
	fi
	if [ "$(kconfig NFS_DISABLE_UDP_SUPPORT)" = y ]; then
		echo "nfs_udp_ready: NFS over UDP is compiled out of this kernel (CONFIG_NFS_DISABLE_UDP_SUPPORT=y)" >&2
		return 1
	fi
}

# _nfs_opts OPTS...: the comma-separated options of all OPTS, in order,
# each but the last of the same name left out
_nfs_opts() {
	printf '%s\n' "$@" | tr , '\n' | awk '
		$0 != "" { k = $0; sub(/=.*/, "", k); n++; name[n] = k; opt[n] = $0; last[k] = n }
		END { for (i = 1; i <= n; i++) if (last[name[i]] == i) s = s (s == "" ? "" : ",") opt[i]
		      print s }'
}

nfs_mount() {
	if [ $# -lt 4 ]; then
		echo "usage: nfs_mount ADDR PORT PROTO MNT [OPT...]" >&2
		return 1
	fi
	_addr=$1 _port=$2 _proto=$3 _mnt=$4
	shift 4
	case $_proto in
	tcp | udp) ;;
	*) echo "nfs_mount: PROTO $_proto: tcp or udp" >&2; return 1 ;;
	esac
	_src=$_addr:$NFS_EXPORT _net=$_proto
	case $_addr in
	*:*) _src="[$_addr]:$NFS_EXPORT" _net=${_proto}6 ;;
	esac
	_opts=$(_nfs_opts "vers=3,proto=$_net,port=$_port,mountport=$_port,mountproto=$_net,nolock" \
		"$NFS_MOUNT_OPTS" "$@")
	mkdir -p "$_mnt"
	echo "nfs_mount: mount.nfs $_src $_mnt -o $_opts" >&2
	mount.nfs "$_src" "$_mnt" -o "$_opts"
}

nfs_umount() {
	umount "$1" 2>/dev/null && return 0
	echo "nfs_umount: umount $1 failed, forcing it" >&2
	umount -f "$1" || umount -l "$1"
}

nfs_tree_tmpfs() {
	_dir=$1
	shift
	mkdir -p "$_dir" &&
		mount -t tmpfs -o mode=0755 tmpfs "$_dir" &&
		nfs-tree write "$_dir" "$@" >&2
}

nfsd_start() {
	_threads=${1:-8}
	mkdir -p "$NFS_LOG" /var/lib/nfs/v4recovery /run/rpcbind
	pidof rpcbind >/dev/null 2>&1 || rpcbind -w </dev/null >"$NFS_LOG/rpcbind.log" 2>&1 || {
		echo "nfsd_start: rpcbind did not start" >&2; return 1; }
	modprobe nfsd 2>/dev/null
	grep -qw nfsd /proc/filesystems || {
		echo "nfsd_start: no nfsd in this kernel" >&2; return 1; }
	mkdir -p /proc/fs/nfsd 2>/dev/null
	grep -q ' /proc/fs/nfsd ' /proc/mounts ||
		mount -t nfsd nfsd /proc/fs/nfsd || return 1
	# NFSv3 only: no v4 recovery directory, grace period or nfsdcld
	echo -4 >/proc/fs/nfsd/versions || {
		echo "nfsd_start: could not turn NFSv4 off" >&2; return 1; }
	# the largest READ, settable only before nfsd's service exists (the
	# first listener makes it): otherwise it stays, and the mounts say so
	echo "$NFSD_MAX_BLOCK" >/proc/fs/nfsd/max_block_size 2>/dev/null ||
		echo "nfsd_start: max_block_size stays $(cat /proc/fs/nfsd/max_block_size) (nfsd was set up before)" >&2
	# a listener per transport, as rpc.nfsd makes them: the kernel adds
	# the IPv6 one beside the IPv4 one when it has IPv6 (without these,
	# threads alone would listen on IPv4 only)
	for _t in tcp udp; do
		grep -q "^$_t $NFSD_PORT\$" /proc/fs/nfsd/portlist ||
			echo "$_t $NFSD_PORT" >/proc/fs/nfsd/portlist || {
				echo "nfsd_start: no $_t listener on $NFSD_PORT" >&2; return 1; }
	done
	echo "$_threads" >/proc/fs/nfsd/threads || return 1
	: >/var/lib/nfs/etab
	: >/var/lib/nfs/rmtab
	if ! pidof rpc.mountd >/dev/null 2>&1; then
		# -F: in the foreground (here, in the background), logging to stderr
		rpc.mountd -F -p "$NFSD_MOUNTPORT" -N 2 -N 4 >"$NFS_LOG/mountd.log" 2>&1 &
		_n=50
		while ! rpcinfo -p 127.0.0.1 2>/dev/null | grep -q "tcp *$NFSD_MOUNTPORT *mountd"; do
			_n=$((_n - 1))
			if [ $_n -le 0 ]; then
				echo "nfsd_start: rpc.mountd not registered: $(cat "$NFS_LOG/mountd.log")" >&2
				return 1
			fi
			sleep 0.1
		done
	fi
}

nfsd_export() {
	[ -e /etc/exports ] || : >/etc/exports	# or exportfs complains
	exportfs -o ro,insecure,no_root_squash,no_subtree_check,fsid=1 "*:$1"
}

nfsd_stop() {
	exportfs -ua 2>/dev/null
	# shellcheck disable=SC2046 # one word a pid
	pidof rpc.mountd >/dev/null 2>&1 && kill $(pidof rpc.mountd)
	[ -w /proc/fs/nfsd/threads ] && echo 0 >/proc/fs/nfsd/threads
	return 0
}
