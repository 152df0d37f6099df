// SPDX-License-Identifier: GPL-2.0
/*
 * stopsig.c - SIGINT and SIGTERM as a request to stop (stopsig.h).
 */
#include "stopsig.h"

#include <string.h>

void stopsig_catch(struct stopsig *saved, void (*on_signal)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &saved->old_int);
	sigaction(SIGTERM, &sa, &saved->old_term);
}

void stopsig_restore(const struct stopsig *saved)
{
	sigaction(SIGINT, &saved->old_int, NULL);
	sigaction(SIGTERM, &saved->old_term, NULL);
}
