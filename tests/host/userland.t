#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# User space builds with -Wall -Wextra -Werror (the Makefiles say so; this
# builds from clean), and its own tests pass: libsvcrpc's unit tests (the
# hand-written RPC encoders against libtirpc's xdr_callmsg/xdr_replymsg,
# record marking, histogram, options, the load generator, one call at a
# time and pipelined), the client's unit tests (among them the xid window
# and the record stream of load --depth), its integration test against
# rpcsvc-ref and the Python model of the module on 127.0.0.1
# (userland-client/tests/itest.sh: among others, that rpcload catches
# corrupted ECHO replies; for load --depth, that calls are in flight
# together, and replies that match no call, timeouts and late replies are
# counted as documented), bench's rr, nfs-slices and compare tests, nfs-tree's unit
# test (the synthetic export's generator against bytes computed apart,
# write + check, the faults check must catch: tests/tools/nfs-tree-test), and
# the man pages in docs/man against the programs' --help.  The parts build
# from clean each: protocol/ (rpcgen's output for svcsock.x), libsvcrpc/,
# conformance/ (the suite `rpcload bad` runs), userland-client/ (rpcload),
# refserver/ (rpcsvc-ref).
. "$(dirname "$0")/lib.sh"
check "protocol (rpcgen's output) builds with -Werror" sh -c \
	"make -s -C protocol clean && make -s -C protocol"
check "libsvcrpc builds with -Werror" sh -c "make -s -C libsvcrpc clean && make -s -C libsvcrpc"
check "conformance builds with -Werror" sh -c \
	"make -s -C conformance clean && make -s -C conformance"
check "userland-client builds with -Werror" sh -c \
	"make -s -C userland-client clean && make -s -C userland-client"
check "refserver builds with -Werror" sh -c \
	"make -s -C refserver clean && make -s -C refserver"
check "bench programs build with -Werror" sh -c "make -s -C bench clean && make -s -C bench"
check "test tools build with -Werror" sh -c "make -s -C tests/tools clean && make -s -C tests/tools"
relay "libsvcrpc: " make -s -C libsvcrpc check
relay "unit: " make -s -C userland-client check
relay "itest: " sh userland-client/tests/itest.sh userland-client/build \
	refserver/build/rpcsvc-ref
relay "bench rr: " bench/test-rr
relay "bench nfs-slices: " bench/test-nfs-slices
relay "nfs-tree: " make -s -C tests/tools check
relay "bench compare: " python3 bench/tests/run --tap

# man_covers PAGE CMD...: every --option that CMD's help names is in PAGE,
# and PAGE renders without a warning (when groff is there)
man_covers() {
	local page=$1 o missing=""
	shift
	for o in $("$@" 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		sed 's/\\-/-/g' "$page" | grep -qE -- "$o([^a-z0-9-]|\$)" ||
			missing="$missing $o"
	done
	[ -z "$missing" ] || { echo "not in $page:$missing"; return 1; }
	! command -v groff >/dev/null || groff -man -Tutf8 -ww -z "$page"
}
rpcload_helps() {
	local c
	for c in "" null echo sleep load slices bad; do
		userland-client/build/rpcload $c --help
	done
}
check "docs/man/rpcload.1 has every option of rpcload's help" \
	man_covers docs/man/rpcload.1 rpcload_helps
check "docs/man/rpcsvc-ref.1 has every option of rpcsvc-ref --help" \
	man_covers docs/man/rpcsvc-ref.1 refserver/build/rpcsvc-ref --help
check "docs/man/vm-run.1 has every option of vm-run --help" \
	man_covers docs/man/vm-run.1 initramfs/vm-run --help

# bash completion: commands, a command's options (from its --help) and
# rpcload bad's case names
complete_rpcload() {
	bash -c 'source userland-client/completion/rpcload.bash
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rpcload
		echo "${COMPREPLY[*]}"' sh userland-client/build/rpcload "$@"
}
check "completion: rpcload lo -> load" test "$(complete_rpcload lo)" = load
check "completion: rpcload load --dur -> --duration" \
	test "$(complete_rpcload load --dur)" = --duration
check "completion: rpcload load --dep -> --depth" \
	test "$(complete_rpcload load --dep)" = --depth
check "completion: rpcload load --proc e -> echo" \
	test "$(complete_rpcload load --proc e)" = echo
check "completion: rpcload sli -> slices" test "$(complete_rpcload sli)" = slices
check "completion: rpcload slices --ro -> --rounds" \
	test "$(complete_rpcload slices --ro)" = --rounds
check "completion: rpcload bad --case frag-huge-f -> frag-huge-final" \
	test "$(complete_rpcload bad --case frag-huge-f)" = frag-huge-final
done_testing
