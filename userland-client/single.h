/* SPDX-License-Identifier: GPL-2.0 */
/*
 * single.h - rpcload null|echo|sleep: one call, one line (or JSON).
 */
#ifndef RPCLOAD_SINGLE_H
#define RPCLOAD_SINGLE_H

#include "cli.h"

/* Returns the exit status: 0 ok, 1 the call failed or mismatched. */
int single_run(const struct single_opts *o);

#endif
