#!/bin/bash
# checkpatch.pl --strict, from Debian's linux-source-6.1, has nothing to say
# about any kernel source file.  The script and its data files are taken
# out of the source tarball once, into the cache.
. "$(dirname "$0")/lib.sh"
cp_dir=$cache/checkpatch
tarball=$(ls /usr/src/linux-source-6.1*.tar.xz 2>/dev/null | head -n 1)
if [ ! -f "$cp_dir/scripts/checkpatch.pl" ] || [ "$tarball" -nt "$cp_dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' 2>&1 | diag
	touch "$cp_dir/scripts/checkpatch.pl"
fi
check "checkpatch.pl found in $tarball" test -f "$cp_dir/scripts/checkpatch.pl"
for f in $(git ls-files "svcsock-mod/*.[ch]"); do
	check "checkpatch --strict $f" perl "$cp_dir/scripts/checkpatch.pl" \
		--strict --no-tree --quiet --show-types -f "$f"
done
