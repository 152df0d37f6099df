/*
 * load.h - rpcload load: libsvcrpc's load generator (loadgen.h) driving
 * libtirpc clients, one per connection, with verified calls.
 */
#ifndef RPCLOAD_LOAD_H
#define RPCLOAD_LOAD_H

#include "cli.h"
#include "loadgen.h"

#include <stddef.h>

/*
 * Runs the load.  Returns 0 when the run took place (whatever its errors),
 * -1 with err set when it could not start (resolution, first connections).
 */
int load_run(const struct load_opts *o, struct lg_result *res, char *err,
	     size_t n);

#endif
