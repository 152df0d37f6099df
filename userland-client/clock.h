/*
 * clock.h - CLOCK_MONOTONIC readings, for rpcload and the tools that time
 * calls beside it (bench/rr-client, tests/tools).
 */
#ifndef RPCLOAD_CLOCK_H
#define RPCLOAD_CLOCK_H

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

/* Whole milliseconds since t0, a reading of now_ns(). */
static inline long ms_since(uint64_t t0)
{
	return (long)((now_ns() - t0) / 1000000u);
}

#endif
