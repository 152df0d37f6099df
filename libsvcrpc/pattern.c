// SPDX-License-Identifier: GPL-2.0
/*
 * pattern.c - deterministic pseudo-random numbers and ECHO payload patterns.
 */
#include "pattern.h"

#include <string.h>

uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed ^ 0x5bd1e9955bd1e995ULL;
}

uint64_t rng_next(struct rng *r)
{
	return splitmix64(&r->state);
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	/* Rejection sampling: no modulo bias. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t x;

	do
		x = rng_next(r);
	while (x >= limit);
	return x % bound;
}

static void fill_from(uint64_t *state, uint8_t *p, size_t len)
{
	while (len >= 8) {
		uint64_t x = splitmix64(state);

		/* Little-endian by construction, whatever the host. */
		p[0] = (uint8_t)x;
		p[1] = (uint8_t)(x >> 8);
		p[2] = (uint8_t)(x >> 16);
		p[3] = (uint8_t)(x >> 24);
		p[4] = (uint8_t)(x >> 32);
		p[5] = (uint8_t)(x >> 40);
		p[6] = (uint8_t)(x >> 48);
		p[7] = (uint8_t)(x >> 56);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t x = splitmix64(state);

		for (size_t i = 0; i < len; i++)
			p[i] = (uint8_t)(x >> (8 * i));
	}
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	fill_from(&r->state, buf, len);
}

uint64_t pattern_state(uint64_t seed, uint64_t callno)
{
	uint64_t s = seed;
	uint64_t a = splitmix64(&s);
	uint64_t t = callno ^ 0xd6e8feb86659fd93ULL;
	uint64_t b = splitmix64(&t);

	return a ^ (b * 0x9e3779b97f4a7c15ULL);
}

void pattern_fill(uint8_t *buf, size_t len, uint64_t seed, uint64_t callno)
{
	uint64_t state = pattern_state(seed, callno);

	fill_from(&state, buf, len);
}

size_t pattern_check(const uint8_t *buf, size_t len, uint64_t seed,
		     uint64_t callno)
{
	uint64_t state = pattern_state(seed, callno);
	uint8_t chunk[4096];
	size_t off = 0;

	while (off < len) {
		size_t n = len - off < sizeof(chunk) ? len - off : sizeof(chunk);

		/* Chunks are multiples of 8, so the stream stays aligned. */
		fill_from(&state, chunk, n);
		if (memcmp(chunk, buf + off, n) != 0) {
			for (size_t i = 0; i < n; i++)
				if (chunk[i] != buf[off + i])
					return off + i;
		}
		off += n;
	}
	return len;
}
