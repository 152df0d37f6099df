#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# docs.t: the habits of the field, kept.  Every source file the project
# owns opens with its SPDX line (GPL-2.0, LICENSE): "// ..." on the first
# line of a .c file, "/* ... */" of a .h, .x or .pml file, "# ..." on the
# first line of a script, a makefile or Kbuild, or on the second after a
# "#!" line.  Owned: the files git knows (tracked, or new and not
# ignored), or, outside a git checkout, every file but the build products;
# of them the C, headers, shell, python, awk, gnuplot, make, rpcgen and
# SPIN files and the scripts with a "#!" line, not the documents, man
# pages, mutants' patches or data.
#
# The module's interface has kernel-doc: the kernel's scripts/kernel-doc
# (from Debian's linux-source-6.1, taken out of the tarball into the cache
# once, as checkpatch.t takes checkpatch.pl; else the kernel headers'
# copy) with every warning on (-Wall, or -v in 6.1's, which has no -Wall)
# has nothing to say about svcsock-mod/*.[ch]; and every definition of a
# function that a header of the module (svcsock.h, svc_*.h) declares
# (each build's, in its xprt_*.c) or defines (the static inlines) has a kernel-doc comment of
# its own right above it: "/**", " * NAME() - ...".  kernel-doc does not
# notice a missing comment, hence the last check.
#
# Every path of the tree that a document names (README.md, docs/*.md,
# each directory's README.md, in backticks) exists (tests/tools/
# doc-paths), so that a file moved leaves no stale pointer behind.
#
# Each check is also run on a copy with a planted fault, and must find
# exactly that.
. "$(dirname "$0")/lib.sh"
plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- SPDX lines ---

spdx_c='// SPDX-License-Identifier: GPL-2.0'
spdx_h='/* SPDX-License-Identifier: GPL-2.0 */'
spdx_sh='# SPDX-License-Identifier: GPL-2.0'

# owned_files DIR: the files of the tree DIR, one a line, relative to it
owned_files() {
	if [ -e "$1/.git" ]; then
		git -C "$1" ls-files --cached --others --exclude-standard
	else
		(cd "$1" && find . \( -name .git -o -name build -o -path ./results \
			-o -path ./tests/out -o -path './svcsock-mod/*' -type d \) -prune \
			-o -type f -print | sed 's|^\./||')
	fi | LC_ALL=C sort -u
}

# spdx_offenders DIR: "FILE: no SPDX line (want on line N: LINE)" for each
# owned source file of DIR without its SPDX line; "checked N" last
spdx_offenders() {
	local f want first at line n=0
	while IFS= read -r f; do
		[ -f "$1/$f" ] || continue	# deleted, not yet committed
		want=""
		case ${f##*/} in
		*.mod.c) ;;
		*.c) want=$spdx_c ;;
		*.h | *.x | *.pml) want=$spdx_h ;;
		*.sh | *.t | *.py | *.awk | *.bash | *.gp | *.mk | Makefile | Kbuild)
			want=$spdx_sh ;;
		*.*) ;;
		*) IFS= read -r first <"$1/$f"
		   [[ $first == '#!'* ]] && want=$spdx_sh ;;
		esac
		[ -n "$want" ] || continue
		n=$((n + 1))
		at=1
		IFS= read -r first <"$1/$f"
		[[ $want == "$spdx_sh" && $first == '#!'* ]] && at=2
		line=$(sed -n "${at}p" "$1/$f")
		[ "$line" = "$want" ] || echo "$f: no SPDX line (want on line $at: $want)"
	done < <(owned_files "$1")
	echo "checked $n"
}

spdx_offenders "$top" >"$tmp/spdx"
n=$(sed -n 's/^checked //p' "$tmp/spdx")
if [ "$n" -ge 150 ] && ! grep -qv '^checked ' "$tmp/spdx"; then
	ok "every owned source file opens with its SPDX line ($n files)"
else
	not_ok "every owned source file opens with its SPDX line ($n files)" \
		"$(grep -cv '^checked ' "$tmp/spdx") without"
	grep -v '^checked ' "$tmp/spdx" | diag
fi

# The check bites: a scratch tree with one file of each kind, some with
# their line, some planted without (or with it a line too low, or
# another licence), and files that need none; as a git checkout and as
# not.
plant() {
	local d=$tmp/spdx-tree
	rm -rf "$d"
	mkdir -p "$d/src" "$d/docs"
	printf '%s\nint a;\n' "$spdx_c" >"$d/src/good.c"
	printf '%s\n#define B 1\n' "$spdx_h" >"$d/src/good.h"
	printf '#!/bin/sh\n%s\necho\n' "$spdx_sh" >"$d/src/good-script"
	printf '%s\nall:\n' "$spdx_sh" >"$d/src/Makefile"
	printf '%s\n"""doc"""\n' "$spdx_sh" >"$d/src/good.py"
	sed 1d svcsock-mod/svc_wait.c >"$d/src/planted.c"
	printf '/* no licence */\n' >"$d/src/planted.h"
	printf '#!/bin/bash\necho\n' >"$d/src/planted-script"
	printf '#!/bin/sh\n\n%s\n' "$spdx_sh" >"$d/src/planted.sh"
	printf '# SPDX-License-Identifier: MIT\n' >"$d/src/planted.py"
	printf '/* model */\n' >"$d/src/planted.pml"
	printf '# a patch\n' >"$d/src/x.patch"
	printf '# doc\n' >"$d/docs/x.md"
	printf 'data\n' >"$d/src/table"
	mkdir "$d/src/build"
	printf 'int generated;\n' >"$d/src/build/gen.c"
	if [ "$1" = git ]; then
		printf 'build/\n' >"$d/.gitignore"
		git -C "$d" init -q && git -C "$d" add src/good.c src/Makefile
	fi
	spdx_offenders "$d" | sed 's/:.*//' | xargs
}
want="src/planted-script src/planted.c src/planted.h src/planted.pml src/planted.py src/planted.sh checked 11"
got=$(plant git)
check "the SPDX check finds exactly the planted files, in a git checkout ($got)" \
	test "$got" = "$want"
got=$(plant find)
check "and outside one ($got)" test "$got" = "$want"

# --- kernel-doc ---

kd_dir=$cache/kernel-doc
kd=$kd_dir/scripts/kernel-doc
tarball=${SVCSOCK_KERNEL_TARBALL:-$(ls /usr/src/linux-source-6.1*.tar.xz 2>/dev/null | head -n 1)}
[ -f "$tarball" ] || tarball=""
if [ -n "$tarball" ] && { [ ! -s "$kd" ] || [ "$tarball" -nt "$kd" ]; }; then
	mkdir -p "$kd_dir"
	tar -xJf "$tarball" -C "$kd_dir" --strip-components=1 --wildcards \
		'*/scripts/kernel-doc' 2>&1 | diag
	touch -c "$kd"
fi
[ -s "$kd" ] || kd=$kdir/scripts/kernel-doc
check "kernel-doc found ($kd)" test -x "$kd"
# Every warning: -Wall where kernel-doc has it, else -v (6.1), whose
# "info:" lines are not warnings.
if "$kd" -none -Wall /dev/null >/dev/null 2>&1; then wall=-Wall; else wall=-v; fi

# kdoc_warnings DIR: what kernel-doc says of DIR's sources
kdoc_warnings() {
	local files=()
	for f in "$1"/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		files+=("$f")
	done
	"$kd" -none "$wall" "${files[@]}" 2>&1 |
		grep -v -e ': info: Scanning doc for ' -e '^[0-9]* warnings$'
}

out=$(kdoc_warnings svcsock-mod)
if [ -z "$out" ]; then
	ok "kernel-doc -none $wall: nothing to say about svcsock-mod/*.[ch]"
else
	not_ok "kernel-doc -none $wall: nothing to say about svcsock-mod/*.[ch]"
	printf '%s\n' "$out" | head -n 40 | diag
fi

# The interface: each function a header of the module declares or
# defines, a name a line.
interface() {
	sed -n 's/^[a-z][a-z0-9_ ]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' \
		"$1/svcsock.h" "$1"/svc_*.h | sort -u
}

# undocumented DIR: "FILE:LINE: NAME" for each definition in DIR of an
# interface function without its kernel-doc right above; "defined N"
# (definitions) and "names N" last, and "NAME: no definition" for one
# that has none.
undocumented() {
	local names
	names=$(interface "$1" | xargs)
	(cd "$1" && awk -v names="$names" '
		BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		FNR == 1 { start = 0; doc = ""; doc_end = 0; pname = "" }
		# the name a kernel-doc comment documents, while it is the one
		# right above the current line
		/^\/\*\*$/ { start = FNR; next }
		start && FNR == start + 1 {
			doc = ""
			if (match($0, /^ \* [a-z_][a-z0-9_]*\(\) - /))
				doc = substr($0, 4, index($0, "(") - 4)
		}
		/^ \*\/$/ && start { start = 0; doc_end = FNR; next }
		# a candidate definition: a prototype at column 0 naming one of
		# ours; a definition once "{" opens before any ";" closes it
		match($0, /^[a-z][a-z0-9_ ]*[ *][a-z_][a-z0-9_]*\(/) {
			s = substr($0, 1, RLENGTH - 1)
			sub(/.*[ *]/, "", s)
			if (s in want) {
				pname = s; pline = FNR
				pdoc = (doc_end == FNR - 1) ? doc : ""
			}
		}
		pname != "" && /;[ \t]*$/ { pname = "" }
		pname != "" && /^\{/ {
			defined[pname]++; ndef++
			if (pdoc != pname) {
				f = FILENAME
				sub(/^\.\//, "", f)
				printf "%s:%d: %s\n", f, pline, pname
			}
			pname = ""
		}
		END {
			for (k in want) if (!(k in defined)) printf "%s: no definition\n", k
			printf "defined %d\nnames %d\n", ndef, n
		}' ./*.c ./*.h)
}

undocumented svcsock-mod >"$tmp/undoc"
ndef=$(sed -n 's/^defined //p' "$tmp/undoc")
nnames=$(sed -n 's/^names //p' "$tmp/undoc")
if [ "$nnames" -ge 50 ] && ! grep -qv -e '^defined ' -e '^names ' "$tmp/undoc"; then
	ok "every definition of the $nnames functions the headers declare has kernel-doc ($ndef definitions)"
else
	not_ok "every definition of the $nnames functions the headers declare has kernel-doc ($ndef definitions)"
	grep -v -e '^defined ' -e '^names ' "$tmp/undoc" | diag
fi

# Both checks bite: in a copy, one comment loses an argument's line and
# another is gone (the lock build's svc_build_enqueue()).
mkdir "$tmp/mod"
cp svcsock-mod/*.[ch] "$tmp/mod/"
rm -f "$tmp"/mod/*.mod.c
sed -i '0,/^ \* @sk: /{/^ \* @sk: /d}' "$tmp/mod/xprt_bitflag.c"
awk '/^\/\*\*$/ { held = $0; next }
	held != "" { if ($0 ~ /^ \* svc_build_enqueue\(\) - /) skip = 1
		     else print held
		     held = "" }
	skip { if ($0 ~ /^ \*\/$/) skip = 0; next }
	{ print }' svcsock-mod/xprt_lock.c >"$tmp/mod/xprt_lock.c"
out=$(kdoc_warnings "$tmp/mod")
if grep -q "xprt_bitflag.c:[0-9]*: warning: .*'sk' not described" <<<"$out"; then
	ok "kernel-doc finds the argument left undescribed in a copy"
else
	not_ok "kernel-doc finds the argument left undescribed in a copy"
	printf '%s\n' "$out" | head -n 20 | diag
fi
# (what the copy's check finds beyond the tree's, line numbers aside)
findings() { grep -v -e '^defined ' -e '^names ' | sed 's/:[0-9]*:/:/' | LC_ALL=C sort; }
got=$(comm -13 <(findings <"$tmp/undoc") <(undocumented "$tmp/mod" | findings) | xargs)
check "the definition whose kernel-doc was deleted is found in a copy ($got)" \
	test "$got" = "xprt_lock.c: svc_build_enqueue"
# --- paths the documents name ---

docs=(README.md docs/*.md */README.md)
if out=$(tests/tools/doc-paths "${docs[@]}" 2>&1); then
	ok "every path of the tree that ${#docs[@]} documents name exists"
else
	not_ok "every path of the tree that ${#docs[@]} documents name exists"
	printf '%s\n' "$out" | diag
fi
# a copy of the README that names a file the tree no longer has
mkdir -p "$tmp/stale"
sed 's#`protocol/svcsock.x`#`userland-client/svcsock.x`#' README.md >"$tmp/stale/README.md"
got=$(tests/tools/doc-paths "$tmp/stale/README.md" 2>&1)
check "a stale path planted in a copy of README.md is found (${got#"$tmp"/})" \
	test "$got" = "$tmp/stale/README.md: userland-client/svcsock.x"
done_testing
