/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bad.h - rpcload bad: malformed input over raw sockets, TAP output.
 */
#ifndef RPCLOAD_BAD_H
#define RPCLOAD_BAD_H

#include "cli.h"

/* Returns the exit status: 0 all cases passed, 1 a case failed (or the
 * server could not be reached), 2 an unknown --case name. */
int bad_run(const struct bad_opts *o);

#endif
