/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bad.h - the conformance suite: malformed input over raw sockets against
 * a server of protocol/svcsock.x, TAP output.  What the suite offers the
 * program that runs it (rpcload, as `rpcload bad`, whose command line
 * fills struct bad_opts: userland-client/cli.c); its parts share
 * bad_int.h.
 */
#ifndef CONFORMANCE_BAD_H
#define CONFORMANCE_BAD_H

#include <stdbool.h>
#include <stdint.h>

#define BAD_MAX_CASES 128

struct bad_opts {
	char host[256];
	unsigned port;
	unsigned timeout_ms;
	unsigned max_conns;
	uint32_t max_record;
	uint64_t seed;
	bool list;
	bool verbose;
	unsigned ncases;
	const char *cases[BAD_MAX_CASES]; /* point into argv */
};

/* Returns the exit status: 0 all cases passed, 1 a case failed (or the
 * server could not be reached), 2 an unknown --case name. */
int bad_run(const struct bad_opts *o);

#endif
