// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - sleeps (clock.h).
 */
#include "clock.h"

#include <errno.h>

void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
