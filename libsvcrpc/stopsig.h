/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stopsig.h - SIGINT and SIGTERM as a request to stop, taken the same way
 * by every program that stops cleanly on them (the load generator,
 * rpcload slices, rpcsvc-ref, hostile): the caller's handler for both,
 * without SA_RESTART (a blocking poll or sleep returns EINTR), the
 * actions it replaces kept to be put back.
 */
#ifndef SVCRPC_STOPSIG_H
#define SVCRPC_STOPSIG_H

#include <signal.h>

struct stopsig {
	struct sigaction old_int, old_term;
};

/* on_signal for SIGINT and SIGTERM; what they did before into *saved. */
void stopsig_catch(struct stopsig *saved, void (*on_signal)(int));
/* Put back what stopsig_catch() replaced. */
void stopsig_restore(const struct stopsig *saved);

#endif
