/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pattern.h - deterministic pseudo-random numbers and ECHO payload patterns
 * (rpcload's calls and the conformance suite's messages).
 *
 * The ECHO payload of call number N in a run with seed S is a pure
 * function of (S, N), so a reply can be verified byte for byte without
 * keeping what was sent, and a stale or misrouted reply (another call's
 * payload) does not verify.
 */
#ifndef SVCRPC_PATTERN_H
#define SVCRPC_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64: advances *state and returns the next 64-bit value. */
uint64_t splitmix64(uint64_t *state);

/* A small seeded generator for bad mode and tests. */
struct rng {
	uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound); bound must be > 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);
void rng_fill(struct rng *r, void *buf, size_t len);

/* The per-call starting state derived from the run seed and call number. */
uint64_t pattern_state(uint64_t seed, uint64_t callno);

/* Fill buf[0..len) with the payload of call callno in the run with seed. */
void pattern_fill(uint8_t *buf, size_t len, uint64_t seed, uint64_t callno);

/*
 * Check buf[0..len) against the payload of call callno.  Returns len when
 * every byte matches, otherwise the offset of the first differing byte.
 */
size_t pattern_check(const uint8_t *buf, size_t len, uint64_t seed,
		     uint64_t callno);

#endif
