#!/bin/bash
# User space builds with -Wall -Wextra -Werror (the Makefiles say so; this
# builds from clean) and the client's unit tests pass.
. "$(dirname "$0")/lib.sh"
check "userland-client builds with -Werror" sh -c \
	"make -s -C userland-client clean && make -s -C userland-client"
check "bench programs build with -Werror" sh -c "make -s -C bench clean && make -s -C bench"
check "test tools build with -Werror" sh -c "make -s -C tests/tools clean && make -s -C tests/tools"
make -s -C userland-client check 2>&1 | relay "unit: "
make -s -C bench check 2>&1 | relay "bench: "
