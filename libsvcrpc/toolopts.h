/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toolopts.h - the command line of the test tools that talk to one
 * server (tests/tools: conn-churn, rpc-pipeline, nfs-bad): the server,
 * --host NAME (default 127.0.0.1), --port N (1..65535, default 20049)
 * and, for the tools that take it, --proto tcp|udp; and the one loop over
 * a tool's options.  Every usage error, a bad value or a name that does
 * not resolve, is "PROG: message" on stderr and exit 2.
 */
#ifndef SVCRPC_TOOLOPTS_H
#define SVCRPC_TOOLOPTS_H

#include "netio.h"
#include "opts.h"

#include <sys/socket.h>

/* The server's option ids: above any tool's own. */
enum { TOOL_OPT_HOST = 1000, TOOL_OPT_PORT, TOOL_OPT_PROTO };

/* The rows of --host and --port, and of --proto, for a struct optdef table. */
#define TOOL_TARGET_OPTS                              \
	{ "host", 0, true, TOOL_OPT_HOST },           \
	{ "port", 0, true, TOOL_OPT_PORT }
#define TOOL_PROTO_OPT { "proto", 0, true, TOOL_OPT_PROTO }

struct tool_target {
	const char *host;
	unsigned port;
	int socktype; /* SOCK_STREAM (--proto tcp) or SOCK_DGRAM (udp) */
	struct net_addr addr; /* resolved by tool_parse */
};

#define TOOL_TARGET_DEFAULT \
	{ .host = "127.0.0.1", .port = 20049, .socktype = SOCK_STREAM }

/*
 * One of a tool's own options, d with its value val (NULL for a flag);
 * ctx is the tool's.  A bad value: opt_u64_or_exit(prog, ...) and the like.
 */
typedef void (*tool_opt_fn)(void *ctx, const char *prog,
			    const struct optdef *d, const char *val);

/*
 * Reads argv (argv[0] the program) against defs, a table with the rows
 * above: the server's options into t, every other through own; no
 * argument may be left.  Then resolves t into t->addr.
 */
void tool_parse(const char *prog, int argc, char **argv,
		const struct optdef *defs, tool_opt_fn own, void *ctx,
		struct tool_target *t);

#endif
