#!/bin/bash
# User space builds with -Wall -Wextra -Werror (the Makefiles say so; this
# builds from clean), and its own tests pass: the client's unit tests, its
# integration test against rpcsvc-ref and the Python model of the module
# on 127.0.0.1 (userland-client/tests/itest.sh; the one check that rpcload
# catches a corrupted ECHO), and bench's rr and compare tests.
. "$(dirname "$0")/lib.sh"
check "userland-client builds with -Werror" sh -c \
	"make -s -C userland-client clean && make -s -C userland-client"
check "bench programs build with -Werror" sh -c "make -s -C bench clean && make -s -C bench"
check "test tools build with -Werror" sh -c "make -s -C tests/tools clean && make -s -C tests/tools"
relay "unit: " make -s -C userland-client check
relay "itest: " sh userland-client/tests/itest.sh userland-client/build
relay "bench rr: " bench/test-rr
relay "bench compare: " python3 bench/tests/test_compare.py --tap
done_testing
