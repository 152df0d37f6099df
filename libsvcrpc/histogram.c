// SPDX-License-Identifier: GPL-2.0
/*
 * histogram.c - fixed-size log-linear latency histogram.
 */
#include "histogram.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

size_t hist_index(uint64_t v)
{
	if (v > HIST_MAX_VALUE)
		v = HIST_MAX_VALUE;
	if (v < HIST_SUB)
		return (size_t)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v); /* >= HIST_SUB_BITS */
	unsigned shift = msb - (HIST_SUB_BITS - 1);         /* >= 1 */
	uint64_t top = v >> shift;                          /* [HALF, SUB) */

	return HIST_SUB + (size_t)(shift - 1) * HIST_HALF + (size_t)(top - HIST_HALF);
}

uint64_t hist_bucket_low(size_t idx)
{
	if (idx < HIST_SUB)
		return idx;
	size_t rel = idx - HIST_SUB;
	unsigned shift = (unsigned)(rel / HIST_HALF) + 1;
	uint64_t top = (uint64_t)(rel % HIST_HALF) + HIST_HALF;

	return top << shift;
}

uint64_t hist_bucket_high(size_t idx)
{
	if (idx < HIST_SUB)
		return idx;
	unsigned shift = (unsigned)((idx - HIST_SUB) / HIST_HALF) + 1;

	return hist_bucket_low(idx) + (UINT64_C(1) << shift) - 1;
}

void hist_record(struct hist *h, uint64_t v)
{
	if (v > HIST_MAX_VALUE)
		v = HIST_MAX_VALUE;
	h->buckets[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (size_t i = 0; i < HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	if (!h->count)
		return 0;
	if (!(p > 0.0))
		return h->min;
	if (p >= 100.0)
		return h->max;

	/* rank = ceil(p/100 * count), computed so that 50% of 1000 is 500. */
	double exact = p / 100.0 * (double)h->count;
	uint64_t rank = (uint64_t)ceil(exact - 1e-9 * exact);

	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;

	uint64_t cum = 0;

	for (size_t i = 0; i < HIST_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (cum >= rank) {
			uint64_t v = hist_bucket_high(i);

			if (v > h->max)
				v = h->max;
			if (v < h->min)
				v = h->min;
			return v;
		}
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}
