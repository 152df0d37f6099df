/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - CLOCK_MONOTONIC readings and sleeps, for every program that
 * times calls (rpcload, bench/rr-*, tests/tools).
 */
#ifndef SVCRPC_CLOCK_H
#define SVCRPC_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds since an arbitrary fixed point. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The same in seconds. */
static inline double now_s(void)
{
	return (double)now_ns() / 1e9;
}

/* The same in whole milliseconds. */
static inline uint64_t mono_ms(void)
{
	return now_ns() / 1000000u;
}

/* Whole milliseconds since t0, a reading of now_ns(). */
static inline long ms_since(uint64_t t0)
{
	return (long)((now_ns() - t0) / 1000000u);
}

/* Sleep ns nanoseconds, whatever signals arrive meanwhile. */
void sleep_ns(uint64_t ns);

static inline void sleep_ms(unsigned ms)
{
	sleep_ns((uint64_t)ms * 1000000u);
}

#endif
