# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# t-nfs-cache BUILD: the export's cache of file contents
# (svc_export_contents()) and READ's bytes sent by reference to its pages
# (svc_tcp_send_page()), through the guest kernel's NFS client over TCP:
#
#  - eight readers of one 16 MiB file at once make one fill: the fills
#    race (nfs3_cache_fills_lost counts the losers, whose copies are
#    freed, not kept), and the file read back is right;
#  - export_cache_mb bounds it: of eight 1 MiB files, a 3 MiB cache takes
#    three and the other five are generated into each reply
#    (nfs3_read_generated), and every byte still matches the formula;
#  - the cached bytes went out by reference (bytes_out_by_ref);
#  - export_cache_mb=0 fills nothing and sends nothing by reference;
#  - rmmod frees the cache (the module's leak check would WARN, and the
#    harness fails on it).
# The cache is shared code: one build's job runs this (tests/jobs.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/nfs-lib.sh"
b=$1
dirs=2 files=4 size=1048576
mnt=/tmp/nfs-cache.$$
shape="--dirs $dirs --files $files --size $size"
params="export_dirs=$dirs export_files=$files export_file_size=$size"

check "the kernel has an NFSv3 client and the image mount.nfs" nfs_client_ready

# cached NAME...: the counters, for a diagnostic
cached() {
	echo "fills $(stat nfs3_cache_fills) (lost $(stat nfs3_cache_fills_lost)), generated $(stat nfs3_read_generated), by_ref $(stat bytes_out_by_ref) of $(stat bytes_out) bytes"
}

# mounted LABEL PARAM...: load the module with these parameters and mount
# its export over TCP (nconnect=4) on $mnt; one TAP line, false when
# either fails.
mounted() {
	_label=$1
	shift
	if ! load_module "$b" rpcbind=0 "$@"; then
		not_ok "$_label: the module loads"
		return 1
	fi
	if ! _out=$(nfs_mount 127.0.0.1 "$PORT" tcp "$mnt" nconnect=4 2>&1); then
		not_ok "$_label: the module loads and its export mounts"
		printf '%s\n' "$_out" | sed 's/^/# /'
		unload_module "$b"
		return 1
	fi
	ok "$_label: the module loads and its export mounts"
}

# unmounted LABEL: unmount, and unload the module, which frees the cache
# (its leak check would WARN at unload otherwise: the harness fails on it)
unmounted() {
	check "$1: unmount" nfs_umount "$mnt"
	check "$1: rmmod" unload_module "$b"
}

# One file of 16 MiB, which takes long enough to generate (tens of ms
# under TCG) that eight readers of it started at once all find it
# uncached: the fills race, and one is kept.
big=16777216
if mounted "one 16 MiB file" export_dirs=1 export_files=1 \
	"export_file_size=$big"; then
	# O_DIRECT, so that each reader's READ reaches the server at once
	i=0
	while [ $i -lt 8 ]; do
		dd if="$mnt/d0/f0" of=/dev/null bs=1048576 count=1 skip=$i \
			iflag=direct 2>/dev/null &
		i=$((i + 1))
	done
	wait
	check "eight readers of one file at once: one fill ($(cached))" \
		test "$(stat nfs3_cache_fills)" = 1
	check "the readers raced: a fill was lost ($(cached))" \
		test "$(stat nfs3_cache_fills_lost)" -gt 0
	check "every byte of the file read matches the export" \
		nfs-tree check "$mnt" --dirs 1 --files 1 --size $big --jobs 4
	unmounted "one 16 MiB file"
fi

# Each file of this shape takes 256 pages (the largest is 1 MiB, the
# others end inside their 256th page), so a 3 MiB cache holds three.
# shellcheck disable=SC2086
if mounted "export_cache_mb=3" $params export_cache_mb=3; then
	# shellcheck disable=SC2086
	check "every byte read matches the export (8 readers)" \
		nfs-tree check "$mnt" $shape --jobs 8 --fileids
	check "export_cache_mb=3: three of eight 1 MiB files cached ($(cached))" \
		test "$(stat nfs3_cache_fills)" = 3
	check "the other files' READs were generated in place ($(cached))" \
		test "$(stat nfs3_read_generated)" -gt 0
	check "the cached bytes went out by reference ($(cached))" \
		test "$(stat bytes_out_by_ref)" -ge $((3 * size / 2))
	unmounted "export_cache_mb=3"
fi

# shellcheck disable=SC2086
if mounted "export_cache_mb=0" $params export_cache_mb=0; then
	# shellcheck disable=SC2086
	check "export_cache_mb=0: every byte read matches the export" \
		nfs-tree check "$mnt" $shape --jobs 4
	check "export_cache_mb=0: nothing cached, nothing by reference ($(cached))" \
		test "$(stat nfs3_cache_fills)" = 0 -a "$(stat bytes_out_by_ref)" = 0 \
		-a "$(stat nfs3_read_generated)" -gt 0
	unmounted "export_cache_mb=0"
fi
rmdir "$mnt" 2>/dev/null
exit "$T_FAILED"
