/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load.h - rpcload load: libsvcrpc's load generator (loadgen.h) driving
 * verified calls: libtirpc clients, one call at a time per connection
 * (load.c), or with --depth N > 1 N calls outstanding (pipeline.c).
 */
#ifndef RPCLOAD_LOAD_H
#define RPCLOAD_LOAD_H

#include "cli.h"
#include "loadgen.h"
#include "netio.h"

#include <stddef.h>

/* What every connection of a run shares: the options, the server. */
struct load_target {
	const struct load_opts *o;
	struct net_addr addr;
};

/*
 * The connections of a run: libtirpc clients one call at a time (depth 1),
 * or pipelined ones (pipeline.h); ctx is a struct load_target.
 */
const struct lg_ops *load_ops_for(unsigned depth);

/*
 * Runs the load.  Returns 0 when the run took place (whatever its errors),
 * -1 with err set when it could not start (resolution, first connections).
 */
int load_run(const struct load_opts *o, struct lg_result *res, char *err,
	     size_t n);

#endif
