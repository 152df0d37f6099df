// SPDX-License-Identifier: GPL-2.0
/*
 * toolopts.c - the command line of the test tools (toolopts.h).
 */
#include "toolopts.h"

#include <stdio.h>
#include <stdlib.h>

/* The words of --proto: index 0 a stream, 1 datagrams. */
static const char *const protos[] = { "tcp", "udp", NULL };

/* Takes d into t when it is one of the server's options: 1; else 0. */
static int target_opt(const char *prog, struct tool_target *t,
		      const struct optdef *d, const char *val)
{
	char err[300];
	int udp;

	if (d->id == TOOL_OPT_HOST) {
		t->host = val;
	} else if (d->id == TOOL_OPT_PORT) {
		t->port = (unsigned)opt_u64_or_exit(prog, d, val, 1, 65535, 0);
	} else if (d->id == TOOL_OPT_PROTO) {
		if (opt_word(err, sizeof(err), NULL, d, val, protos, &udp) < 0)
			exit(opts_usage_error(prog, err));
		t->socktype = udp ? SOCK_DGRAM : SOCK_STREAM;
	} else {
		return 0;
	}
	return 1;
}

void tool_parse(const char *prog, int argc, char **argv,
		const struct optdef *defs, tool_opt_fn own, void *ctx,
		struct tool_target *t)
{
	const struct optdef *d;
	const char *val;
	struct opts o;
	char err[300], see[64];
	int id;

	snprintf(see, sizeof(see), "%s --help", prog);
	opts_start(&o, argc, argv, defs, NULL, see);
	while ((id = opts_next(&o, &d, &val, err, sizeof(err))) > 0)
		if (!target_opt(prog, t, d, val))
			own(ctx, prog, d, val);
	if (id < 0 || opts_no_args(&o, err, sizeof(err)) < 0 ||
	    net_resolve(t->host, t->port, t->socktype, &t->addr, err,
			sizeof(err)) < 0)
		exit(opts_usage_error(prog, err));
}
