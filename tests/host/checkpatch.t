#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict, from Debian's linux-source-6.1, has nothing to say
# about any source file of the module (svcsock-mod/*.[ch], build products
# aside), in a git checkout or not.  The script and its data files are
# taken out of the source tarball (SVCSOCK_KERNEL_TARBALL, as for
# scripts/build-debug-kernel) once, into the cache; without them the test
# fails.
. "$(dirname "$0")/lib.sh"
cp_dir=$cache/checkpatch
tarball=${SVCSOCK_KERNEL_TARBALL:-$(ls /usr/src/linux-source-6.1*.tar.xz 2>/dev/null | head -n 1)}
[ -f "$tarball" ] || tarball=""
files=()
for f in svcsock-mod/*.[ch]; do
	case $f in *.mod.c) continue ;; esac
	files+=("$f")
done
plan $((2 + ${#files[@]}))
if [ -n "$tarball" ] && { [ ! -s "$cp_dir/scripts/checkpatch.pl" ] ||
	[ "$tarball" -nt "$cp_dir/scripts/checkpatch.pl" ]; }; then
	mkdir -p "$cp_dir"
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' 2>&1 | diag
	touch -c "$cp_dir/scripts/checkpatch.pl"
fi
check "checkpatch.pl found in ${tarball:-/usr/src/linux-source-6.1*.tar.xz (none)}" \
	test -n "$tarball" -a -s "$cp_dir/scripts/checkpatch.pl"
check "module sources found (${#files[@]})" test ${#files[@]} -ge 8
for f in "${files[@]}"; do
	check "checkpatch --strict $f" perl "$cp_dir/scripts/checkpatch.pl" \
		--strict --no-tree --quiet --show-types -f "$f"
done
done_testing
